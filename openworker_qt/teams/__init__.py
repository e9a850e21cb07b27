"""Teams: a lead coworker and workers on a shared board (issue 29). See ``model``."""
