"""The coworker runtime: events, canonical history, the turn engine. No Qt here."""
