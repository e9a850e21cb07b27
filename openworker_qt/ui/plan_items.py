"""What the window asks of a team's plan before any plan card is built (issue 29).

Which inbox items are a team's plan, which personas start a team, and which a
worker may run as. Tiny on purpose: the window, the inbox presenter and the app
use these at start-up, and the card itself (:mod:`~openworker_qt.ui.plan_card`,
with the team model under it) is imported when a plan is first shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from openworker_qt.ui.composer import PERSONA_ITEMS

PLAN_TOOL = "team_plan"


def is_plan_item(tool: str, arguments: Mapping[str, Any]) -> bool:
    """Whether an inbox item is a team's plan (shown as a plan card)."""
    return tool == PLAN_TOOL and isinstance(arguments.get("plan"), dict)


#: The built-in team personas (persona files with a ``team:`` section): they start a
#: team from the composer; a worker never runs as one.
TEAM_PERSONAS = frozenset({"team", "software-team", "devops-team"})

#: The personas a worker may run as: (name, title); the app offers the registry's.
_personas: list[tuple[str, str]] = [(name, title) for name, title, _ in PERSONA_ITEMS]


def offer_personas(items: Sequence[tuple[str, str, str]],
                   is_team: Callable[[str], bool] = TEAM_PERSONAS.__contains__) -> None:
    """The enabled personas (name, title, description), as the composer's picker has
    them, less the team personas."""
    _personas[:] = [(name, title) for name, title, _ in items if not is_team(name)]


def persona_choices() -> list[tuple[str, str]]:
    return list(_personas)
