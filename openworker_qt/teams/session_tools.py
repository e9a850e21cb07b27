"""The tools of a team's sessions, made where every session's are
(:meth:`openworker_qt.runtime.Runtime.session_tools`), so every surface offers the same.

* The lead: its persona's tools, plus the lead's board tools and ``team_plan``.
* A worker: the tools a session of its persona gets, MINUS those that grant
  permissions (asking for a folder, a plan that switches the mode), PLUS the
  worker's own board tools. Nothing of the lead's is inherited: a worker is its
  own session, with its own (empty) grants and its own mode.
"""

from __future__ import annotations

from openworker_qt.core.inbox import Inbox
from openworker_qt.core.tool_api import Tool, ToolRegistry
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.teams.asks import team_label
from openworker_qt.teams.model import LEAD, Actor
from openworker_qt.teams.plan_answer import plan_tool
from openworker_qt.teams.store import TeamStore

__all__ = ["GRANTING_TOOLS", "team_meta", "team_tools"]

#: Tools through which a session widens its own permissions: never a worker's.
GRANTING_TOOLS = frozenset({"request_directory", "propose_plan"})


def team_meta(info: SessionInfo) -> tuple[str, str, str, str]:
    """(team id, role, worker name, item id) of a team session; empty strings otherwise."""
    meta = info.meta if isinstance(info.meta, dict) else {}
    return (str(meta.get("team_id") or ""), str(meta.get("team_role") or ""),
            str(meta.get("worker") or ""), str(meta.get("item_id") or ""))


def _board_tools(store: TeamStore, team_id: str, actor: Actor) -> list[Tool]:
    from openworker_qt.teams.board_tools import board_tools

    return list(board_tools(store, team_id, actor))


def team_tools(store: TeamStore, inbox: Inbox, info: SessionInfo, registry: ToolRegistry) -> ToolRegistry:
    """``registry`` (the session's tools as its persona has them) made a team
    session's, in place (servers that connect later still add theirs to it)."""
    team_id, role, worker, _item = team_meta(info)
    if not team_id:
        return registry
    if role == "lead":
        added = [*_board_tools(store, team_id, LEAD),
                 plan_tool(store, inbox, team_id, team_label(info))]
    else:
        for name in GRANTING_TOOLS:
            registry.remove(name)
        added = _board_tools(store, team_id, Actor("worker", worker)) if worker else []
    for tool in added:
        registry.add(tool)
    return registry
