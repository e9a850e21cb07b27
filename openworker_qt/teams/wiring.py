"""How a runtime builds its team runner, and what other plug-ins ask of teams
(``automation/service.py`` through the runtime: does a persona lead a team, run one).

The runtime (``openworker_qt/runtime.py``) sits above this package and calls these with
itself; nothing here imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openworker_qt.providers.pricing import PriceTable
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.teams.asks import TeamApprover, TeamQuestioner, team_label
from openworker_qt.teams.runner import TeamRunner

__all__ = ["build_runner", "leads_team", "run_team"]


def build_runner(rt: Any) -> TeamRunner:
    """The runtime's team runner: a session manager of its own, whose team sessions ask
    through the inbox, labelled with the team and the worker; prices from the settings."""

    def asks(kind: type[TeamApprover] | type[TeamQuestioner]) -> Callable[[SessionInfo], Any]:
        return lambda info: kind(rt.inbox, lambda: team_label(info))

    manager = rt.session_manager(approver_for=asks(TeamApprover),
                                 questioner_for=asks(TeamQuestioner))

    def prices() -> PriceTable:
        return PriceTable.from_config(rt.config.get("prices"))[0]

    cfg = rt.config
    return TeamRunner(
        rt.teams, manager, rt.inbox, prices=prices,
        stuck_after=60.0 * float(cfg.get("teams.stuck_minutes", 10) or 10),
        check_in_every=60.0 * float(cfg.get("teams.check_in_minutes", 0) or 0))


def leads_team(personas: Any, persona: str) -> bool:
    """Whether ``persona`` leads a team (its ``team:`` section says ``role: lead``)."""
    try:
        section = personas.get(persona).team
    except Exception:
        return False
    return section is not None and section.role == "lead"


async def run_team(runner: TeamRunner, outcome: str, *, persona: str, workspace: str,
                   model: str, started: Callable[[str, str], None] | None = None) -> str:
    """Start a team on ``outcome`` and wait for its end; its state then.
    ``started(team id, lead session id)`` is called once it exists."""
    team = runner.start(outcome, persona=persona, workspace=workspace, model=model)
    if started is not None:
        started(team.id, team.lead_session_id)
    return (await runner.wait(team.id)).state.value
