"""``openworker-qt team board [TEAM]`` and ``team list``: teams and their boards in the
terminal (issue 29).

The ``team`` group is open to other modules: :func:`add_parser` returns the group's
subparsers object, and a module that adds a command to it (``team run``, ``send``,
``stop``) registers it from ``cli/__init__.py`` after this one, giving its parser a
handler with ``set_defaults(team_handler=function)``. :func:`main` calls
``args.team_handler(args)`` for every team command (a coroutine it returns is run with
``asyncio.run``), so a new command needs no change here.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import inspect
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from openworker_qt.cli.turns import cli_runtime

# The team model and store load with a team command (not with every command: the
# parser is built for each; tests/test_startup_modules.py).
if TYPE_CHECKING:
    from openworker_qt.teams.model import Item, Team
    from openworker_qt.teams.store import TeamStore

__all__ = ["add_parser", "board_lines", "find_team", "main", "open_store"]

#: The board's columns in order (``ItemState`` values): the states as the board shows them.
STATE_ORDER = ("open", "in_progress", "review", "blocked", "done", "canceled")
STATE_WORDS = {
    "open": "Open", "in_progress": "In progress", "review": "Review",
    "blocked": "Blocked", "done": "Done", "canceled": "Canceled",
}
TITLE_WIDTH = 34
WHO_WIDTH = 12
COMMENT_WIDTH = 48


def add_parser(sub: Any) -> Any:
    """Add the ``team`` group to the command line's subparsers ``sub``; return the
    group's own subparsers, to which other modules add their commands (see the
    module docstring)."""
    p = sub.add_parser("team", help="teams: a lead and workers on a shared board of work items")
    team_sub = p.add_subparsers(dest="team_command", metavar="ACTION", required=True)
    board = team_sub.add_parser("board", help="a team's board: items by state, who has each, "
                                "cost, last comment (no TEAM: every active team's)")
    board.add_argument("team", nargs="?", help="team id or prefix")
    board.add_argument("--json", action="store_true", help="print the team and its items as JSON")
    board.set_defaults(team_handler=board_command)
    listing = team_sub.add_parser("list", help="list teams: state, progress, spend")
    listing.add_argument("--active", action="store_true", help="only teams still working")
    listing.set_defaults(team_handler=list_command)
    return team_sub


def main(args: argparse.Namespace) -> int:
    """Run the team command ``args`` names (its parser's ``team_handler``)."""
    from openworker_qt.teams.model import BoardError

    handler: Callable[[argparse.Namespace], Any] = args.team_handler
    try:
        result = handler(args)
        if inspect.iscoroutine(result):
            result = asyncio.run(result)
    except BoardError as exc:
        sys.stderr.write(f"openworker-qt: {exc}\n")
        return 2
    return int(result)


def open_store(rt: Any) -> TeamStore:
    """The team store on a command's runtime (its database, audit log and redaction)."""
    from openworker_qt.teams.store import TeamStore

    return TeamStore(rt.db, audit=rt.audit, redact=rt.redact)


def find_team(store: TeamStore, ref: str) -> Team:
    """The team whose id is ``ref`` or starts with it; :class:`BoardError` otherwise."""
    from openworker_qt.teams.model import BoardError

    exact = store.team(ref)
    if exact is not None:
        return exact
    found = [t for t in store.teams() if t.id.startswith(ref)] if ref else []
    if len(found) == 1:
        return found[0]
    if not found:
        raise BoardError(f"no team {ref!r} (see `openworker-qt team list`)")
    raise BoardError(f"{ref!r} names {len(found)} teams: give more of the id")


# ------------------------------------------------------------------ commands


def board_command(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        store = open_store(rt)
        teams = [find_team(store, args.team)] if args.team else store.teams(active_only=True)
        if args.json:
            print(json.dumps([board_json(store, t) for t in teams], ensure_ascii=False,
                             indent=2))
            return 0
        if not teams:
            print("No team is working now. Past teams: `openworker-qt team list`.")
            return 0
        show = board_lines if args.team else _board_or_problem
        print("\n\n".join("\n".join(show(store, t)) for t in teams))
    return 0


def _board_or_problem(store: TeamStore, team: Team) -> list[str]:
    """The team's board, or what keeps it from being read (the others still show)."""
    from openworker_qt.teams.model import BoardError

    try:
        return board_lines(store, team)
    except BoardError as exc:
        return [str(exc)]


def list_command(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        store = open_store(rt)
        teams = store.teams(active_only=args.active)
        from openworker_qt.teams.model import BoardError

        if not teams:
            print("No teams yet." if not args.active else "No team is working now.")
            return 0
        for team in teams:
            try:
                items = store.items(team.id)
            except BoardError:
                items = []
            done = sum(i.state == "done" for i in items)
            print(f"{team.id}  {team.state.value:<13} {done}/{len(items)} done  "
                  f"{_spend(team)}  {_when(team.created_at)}  {_clip(team.outcome, 60)}")
    return 0


# ------------------------------------------------------------------ the board


def _clip(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def _when(at: float) -> str:
    return dt.datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M") if at else "—"


def _spend(team: Team) -> str:
    text = f"${team.spent_usd:.2f}"
    if team.budget_usd is not None:
        text += f" of ${team.budget_usd:.2f}"
    return text


def _cost(item: Item) -> str:
    text = f"${item.cost_usd:.2f}"
    return text + (f"/${item.budget_usd:.2f}" if item.budget_usd is not None else "")


def _item_line(item: Item) -> str:
    number = "#" + item.id.rsplit("-", 1)[-1]
    who = item.assignee or "unassigned"
    comment = f"{item.last_comment_by}: {item.last_comment}" if item.last_comment else "—"
    stuck = "  [no sign of life]" if item.stuck else ""
    return (f"  {number:>4}  {_clip(item.title, TITLE_WIDTH):<{TITLE_WIDTH}}  "
            f"{_clip(who, WHO_WIDTH):<{WHO_WIDTH}}  {_cost(item):>13}  "
            f"{_clip(comment, COMMENT_WIDTH)}{stuck}")


def board_lines(store: TeamStore, team: Team) -> list[str]:
    """The board of ``team`` as terminal lines: the team, its spend, then its items by
    state (open, in progress, review, blocked, done, canceled)."""
    lines = [f"Team {team.id} — {team.state.value.replace('_', ' ')}: {_clip(team.outcome, 80)}"]
    spend = f"Spent {_spend(team)}"
    if team.tokens or team.budget_tokens is not None:
        spend += f", {team.tokens:,}" + (f" of {team.budget_tokens:,}"
                                        if team.budget_tokens is not None else "") + " tokens"
    lines.append(f"{spend}; up to {team.max_parallel} workers at once")
    over = store.over_budget(team.id)
    if over:
        lines.append(f"Over budget: {over}")
    if team.workers:
        lines.append("Workers: " + ", ".join(f"{w.name} ({w.persona}, {w.mode})"
                                             for w in team.workers))
    items = store.items(team.id)
    if not items:
        lines.append("No work items yet" + (": the lead is planning." if team.state.value in
                                            ("planning", "awaiting_plan") else "."))
    for state in STATE_ORDER:
        group = [i for i in items if i.state == state]
        if group:
            lines.append(f"{STATE_WORDS[state]} ({len(group)})")
            lines.extend(_item_line(i) for i in group)
    if team.summary:
        lines.append(f"Summary: {team.summary}")
    return lines


def board_json(store: TeamStore, team: Team) -> dict[str, Any]:
    def item(i: Item) -> dict[str, Any]:
        return {"id": i.id, "title": i.title, "criteria": i.criteria, "state": i.state.value,
                "assignee": i.assignee, "cost_usd": i.cost_usd, "tokens": i.tokens,
                "budget_usd": i.budget_usd, "last_comment": i.last_comment,
                "last_comment_by": i.last_comment_by, "result_files": list(i.result_files),
                "after": list(i.after), "stuck": i.stuck, "session_id": i.session_id}

    return {"id": team.id, "outcome": team.outcome, "state": team.state.value,
            "lead_session_id": team.lead_session_id, "spent_usd": team.spent_usd,
            "tokens": team.tokens, "budget_usd": team.budget_usd,
            "budget_tokens": team.budget_tokens, "max_parallel": team.max_parallel,
            "workers": [{"name": w.name, "persona": w.persona, "mode": w.mode,
                         "model": w.model} for w in team.workers],
            "over_budget": store.over_budget(team.id),
            "items": [item(i) for i in store.items(team.id)]}
