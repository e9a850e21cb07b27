"""``openworker-qt team run | resume | send | stop``: a team from the terminal.

``team run "outcome"`` starts a team and runs it in the foreground until it ends,
printing each board change; the approvals of its sessions (the plan first) are
printed with how to answer them, and answered at the terminal when it is one, or
from anywhere else (``openworker-qt approve N``, the window, Slack): the first
answer wins. Ctrl-C leaves the team as it is (``team resume`` or ``serve`` goes on
with it). ``team send`` and ``team stop`` put the user's word on the board, which
the process running the team acts on (at once when it is this one).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openworker_qt.cli.teams import find_team  # (light: the team model loads with a command)
from openworker_qt.cli.turns import turn_runtime

if TYPE_CHECKING:
    from openworker_qt.core.inbox import Action, Inbox, InboxItem
    from openworker_qt.teams.model import BoardEvent
    from openworker_qt.teams.runner import TeamRunner

__all__ = ["add_commands"]


def add_commands(cmds: Any) -> None:
    """Add ``run``, ``resume``, ``send`` and ``stop`` to the ``team`` subparsers
    (``cli/teams.py``'s :func:`~openworker_qt.cli.teams.main` runs their handlers)."""
    run = cmds.add_parser("run", help="start a team on an outcome and run it here until it ends")
    run.add_argument("outcome", help="what the team should achieve")
    run.add_argument("--folder", "-w", type=Path, help="the team's folder (default: here)")
    run.add_argument("--model", "-m", help="the lead's model (default: general.default_model)")
    run.add_argument("--persona", default="team", help="the lead's persona (default: team)")
    run.add_argument("--budget", type=float, metavar="USD", help="the team's budget in dollars")
    run.set_defaults(team_handler=_run)
    resume = cmds.add_parser("resume", help="go on with the teams a stopped process left active")
    resume.add_argument("team", nargs="?", help="only this team")
    resume.set_defaults(team_handler=_resume)
    send = cmds.add_parser("send", help="a message to a team's lead, or '@worker text' to a worker")
    send.add_argument("team")
    send.add_argument("text")
    send.set_defaults(team_handler=_send)
    stop = cmds.add_parser("stop", help="stop a team: its turns stop, its board stays")
    stop.add_argument("team")
    stop.set_defaults(team_handler=_stop)


def _print_event(event: BoardEvent) -> None:
    data = event.data
    if event.kind == "spend":
        return
    detail = ""
    if event.kind == "item_transitioned":
        detail = f"{data.get('from', '?')} → {data.get('to', '?')}"
    elif event.kind == "team_state":
        detail = f"→ {data.get('to', '?')}"
    elif event.kind in ("item_created",):
        detail = str(data.get("title", ""))
    elif event.kind == "summary":
        detail = "\n" + str(data.get("text", ""))
    item = f" {event.item_id}" if event.item_id else ""
    sys.stdout.write(f"[team {event.team_id}{item}] {event.actor} · {event.kind} {detail}\n")
    sys.stdout.flush()


class _Asks:
    """The inbox items of the team's sessions: printed, and asked at the terminal."""

    def __init__(self, inbox: Inbox, sessions: Any) -> None:
        self.inbox = inbox
        self.sessions = sessions
        self.queue: asyncio.Queue[InboxItem] = asyncio.Queue()
        self.seen: set[int] = set()
        self.interactive = sys.stdin.isatty()

    def on_item(self, item: InboxItem) -> None:
        if not item.pending or item.id in self.seen or item.session_id not in self.sessions():
            return
        self.seen.add(item.id)
        verb = "answer" if item.kind == "question" else "approve"
        sys.stdout.write(f"\n#{item.id} {item.title}\n  {item.body()}\n"
                         f"  (answer here, or: openworker-qt {verb} {item.id} …)\n")
        sys.stdout.flush()
        if self.interactive:
            self.queue.put_nowait(item)

    async def prompt(self) -> None:
        while True:
            item = await self.queue.get()
            text = (await asyncio.to_thread(input, f"#{item.id} [y/n/text]: ")).strip()
            action: Action = "approve" if text.lower() in ("y", "yes", "") else (
                "deny" if text.lower() in ("n", "no") else "answer")
            try:
                if not self.inbox.respond(item.id, action, text if action == "answer" else "",
                                          by="cli"):
                    sys.stdout.write(f"#{item.id} was already answered\n")
            except (ValueError, KeyError) as exc:
                sys.stdout.write(f"#{item.id}: {exc}\n")


async def _drive(runner: TeamRunner, team_ids: list[str]) -> int:
    from openworker_qt.teams.model import TeamState

    runner.listeners.append(_print_event)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)

    def sessions() -> set[str]:
        out: set[str] = set()
        for tid in team_ids:
            team = runner.store.team(tid)
            if team is not None:
                out.add(team.lead_session_id)
                out.update(i.session_id for i in runner.store.items(tid) if i.session_id)
        return out

    asks = _Asks(runner.inbox, sessions)
    runner.inbox.listeners.append(asks.on_item)
    for item in runner.inbox.pending():
        asks.on_item(item)
    prompting = asyncio.create_task(asks.prompt()) if asks.interactive else None
    async def all_ended() -> None:
        for tid in team_ids:
            await runner.wait(tid)

    ending = asyncio.ensure_future(all_ended())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait([ending, stopping], return_when=asyncio.FIRST_COMPLETED)
    for task in (ending, stopping, prompting):
        if task is not None:
            task.cancel()
    await runner.close()
    if stop.is_set():
        sys.stderr.write("team: left as it is; `openworker-qt team resume` goes on with it\n")
        return 130
    ends = [runner.store.team(tid) for tid in team_ids]
    return 0 if all(t is not None and t.state is TeamState.DONE for t in ends) else 1


async def _run(args: argparse.Namespace) -> int:
    folder = (args.folder or Path.cwd()).resolve()
    async with turn_runtime(folder) as rt:
        runner = rt.team_runner()
        team = runner.start(args.outcome, persona=args.persona, workspace=str(folder),
                            model=args.model or "", budget_usd=args.budget)
        sys.stdout.write(f"team {team.id}: planning “{team.outcome}”\n")
        return await _drive(runner, [team.id])


async def _resume(args: argparse.Namespace) -> int:
    async with turn_runtime() as rt:
        runner = rt.team_runner()
        resumed = runner.resume()
        if args.team:
            wanted = find_team(rt.teams, args.team).id
            resumed = [t for t in resumed if t == wanted]
        if not resumed:
            sys.stdout.write("no active team to resume\n")
            return 0
        sys.stdout.write(f"resumed team(s): {', '.join(resumed)}\n")
        return await _drive(runner, resumed)


async def _send(args: argparse.Namespace) -> int:
    async with turn_runtime() as rt:
        runner = rt.team_runner()
        team = find_team(rt.teams, args.team)
        to = runner.send(team.id, args.text)
        sys.stdout.write(f"sent to {to} of team {team.id} (the process running the team "
                         "delivers it)\n")
        await runner.close()
    return 0


async def _stop(args: argparse.Namespace) -> int:
    async with turn_runtime() as rt:
        runner = rt.team_runner()
        team = find_team(rt.teams, args.team)
        runner.stop(team.id)
        sys.stdout.write(f"team {team.id} stopped\n")
        await runner.close()
    return 0
