"""``run`` and ``resume``: driving turns from the terminal."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from openworker_qt.agents.personas import PersonaError
from openworker_qt.cli.terminal import TerminalApprover, TerminalRenderer, terminal_questioner
from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.inbox import InboxItem
from openworker_qt.core.provider_api import ProviderError
from openworker_qt.core.sessions import SessionBusy, SessionManager
from openworker_qt.storage.config import WORKSPACE_MODE_KEY, mode_with_floor, new_session_mode
from openworker_qt.storage.leases import SessionLeases
from openworker_qt.storage.paths import workspace_config_file

if TYPE_CHECKING:
    from openworker_qt.runtime import Runtime

EXIT = {"completed": 0, "error": 1, "max_iterations": 3, "suspended": 4, "busy": 5,
        "interrupted": 130, "broken_pipe": 141}


@contextmanager
def cli_runtime(workspace: Path | None = None) -> Iterator[Runtime]:
    """The runtime for one command: the shared log set up, config warnings shown,
    database closed after."""
    from openworker_qt.runtime import open_runtime, setup_logging

    rt = open_runtime(workspace)
    setup_logging(rt.paths)
    for warning in rt.config.warnings:
        sys.stderr.write(f"warning: {warning}\n")
    try:
        yield rt
    finally:
        rt.close()


@asynccontextmanager
async def turn_runtime(workspace: Path | None = None) -> AsyncIterator[Runtime]:
    """:func:`cli_runtime` for a command that runs turns: before its loop ends, the
    runtime is stopped — every session's shell and background task closed (awaited),
    the provider connections too. Left to the garbage collector, a shell's transport
    would be closed after the loop ("Exception ignored … Event loop is closed")."""
    with cli_runtime(workspace) as rt:
        try:
            yield rt
        finally:
            await rt.stop(grace=0.5)


async def run(args: argparse.Namespace) -> int:
    async with turn_runtime() as rt:
        store = rt.conversations
        model = args.model or rt.config.get("general.default_model") or ""
        found = store.find_session(args.session) if args.session else None
        if args.session and found is None:
            sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
            return 2
        # The session's own folder (a new one: --workspace or here) and its settings.
        workspace = (Path(found.workspace) if found is not None and found.workspace
                     else (args.workspace or Path.cwd()).resolve())
        config = rt.config_for(workspace)
        for warning in config.warnings[len(rt.config.warnings):]:
            sys.stderr.write(f"warning: {warning}\n")
        if config.error is not None:
            sys.stderr.write(f"openworker-qt: {config.error}\n")
            return 2
        floor = config.get(f"permissions.{WORKSPACE_MODE_KEY}")
        persona = getattr(args, "persona", None)
        if persona:  # refused before a session is made or changed
            try:
                await asyncio.to_thread(rt.personas.require, persona)
            except PersonaError as exc:
                sys.stderr.write(f"openworker-qt: {exc}\n")
                return 2
        if found is not None:
            info = found
            holder = SessionLeases(store.db).holder(info.id)
            if holder is not None:  # refused before anything about the session changes
                sys.stderr.write(f"openworker-qt: {SessionBusy(info.id, holder)}\n")
                return EXIT["busy"]
        else:
            if not model:
                sys.stderr.write(
                    "openworker-qt: no model chosen. Pass --model (e.g. --model "
                    "anthropic:claude-sonnet-4-6) or set general.default_model.\n"
                )
                return 2
            info = store.create_session(
                model=model, workspace=str(workspace),
                mode=new_session_mode(args.mode or str(config.get("permissions.mode")), floor),
                **({"persona": persona} if persona else {}),
            )
        try:  # fail early and clearly on an unusable model string
            await rt.router.resolve_async(args.model or info.model or model)
        except ProviderError as exc:
            sys.stderr.write(f"openworker-qt: {exc.message}\n")
            return 2
        if args.mode and info.mode != args.mode and found is not None:
            store.update_session(info.id, mode=args.mode)
            info.mode = args.mode
        held = mode_with_floor(info.mode, floor)
        if held != info.mode:
            sys.stderr.write(
                f"note: the settings of {workspace} keep its sessions in {held} mode "
                f"({workspace_config_file(workspace)})\n")
        if persona and found is not None and info.persona != persona:
            store.update_session(info.id, persona=persona)  # from this turn on
            info.persona = persona
        if args.unattended and not info.unattended:
            store.update_session(info.id, unattended=True)
            info.unattended = True
        manager = build_manager(rt, args, model, follow_runs=found is not None)
        if args.model and info.model and info.model != args.model:
            manager.switch_model(info.id, args.model)
        from openworker_qt.cli import mcp as mcp_cli  # MCP servers' tools (none set up: nothing)

        servers = await mcp_cli.connect(rt, workspace, wait=getattr(args, "mcp_wait", None))
        engine = manager.engine(info.id)
        loop = asyncio.get_running_loop()
        presses = 0

        def on_sigint() -> None:
            nonlocal presses
            presses += 1
            if presses > 1:
                from openworker_qt.mcp.process import end_all_now

                end_all_now()  # (os._exit runs no clean-up: the servers' groups first)
                os._exit(130)
            engine.request_interrupt()

        if hasattr(signal, "SIGINT") and sys.platform != "win32":
            loop.add_signal_handler(signal.SIGINT, on_sigint)
        renderer = TerminalRenderer(sys.stdout, color=sys.stdout.isatty() and not args.json)
        status: str = "error"
        try:
            async for event in manager.run(info.id, args.text):
                if args.json:
                    sys.stdout.write(json.dumps(event_dict(event), ensure_ascii=False) + "\n")
                    sys.stdout.flush()
                else:
                    renderer.render(event)
                if isinstance(event, ev.TurnEnded):
                    status = event.status
        except SessionBusy as busy:
            sys.stderr.write(f"openworker-qt: {busy}\n")
            return EXIT["busy"]
        finally:
            await mcp_cli.disconnect(servers)
        if not args.json:
            sys.stderr.write(f"[session {info.id} · {status}]\n")
            if status == "suspended":
                print_pending(rt.inbox.pending(info.id), sys.stderr)
        return EXIT.get(status, 1)


def build_manager(rt: Runtime, args: argparse.Namespace, model: str, *,
                  follow_runs: bool = True) -> SessionManager:
    """The terminal's policy on the runtime's session manager: sessions ask on the
    terminal, or through the inbox when they are unattended. ``follow_runs``: an
    existing session is driven (it may be a scheduled run's); a new one never is."""
    wait = bool(getattr(args, "wait", False))
    terminal = TerminalApprover(
        assume_yes=bool(getattr(args, "yes", False)), interactive=sys.stdin.isatty()
    )
    inbox_approver = InboxApprover(rt.inbox, wait=wait)
    inbox_questioner = InboxQuestioner(rt.inbox, wait=wait)

    def approver_for(info: Any) -> Any:
        return inbox_approver if info.unattended else terminal

    def questioner_for(info: Any) -> Any:
        if info.unattended:
            return inbox_questioner
        return terminal_questioner if sys.stdin.isatty() else None

    manager = rt.session_manager(
        approver_for=approver_for,
        questioner_for=questioner_for,
        default_model=model,
        max_iterations=getattr(args, "max_iterations", None),
    )
    if follow_runs:
        from openworker_qt.automation.service import AutomationService

        # A scheduled run's session driven from here (resume, retry, run --session): its
        # run's status follows, as under the app or `serve`.
        AutomationService(rt).follow(manager)
    return manager


def event_dict(event: ev.Event) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(event)


def print_pending(items: list[InboxItem], out: TextIO) -> None:
    for item in items:
        out.write(
            f"  inbox #{item.id} [{item.kind}] {item.tool}: {item.args_preview or item.title}\n"
        )
    if items:
        out.write(
            "Answer with `openworker-qt approve ID` / `deny ID` / `answer ID TEXT`, "
            "then `openworker-qt resume`.\n"
        )


async def resume(args: argparse.Namespace) -> int:
    async with turn_runtime() as rt:
        manager = build_manager(rt, args, "")
        if args.session:
            info = rt.conversations.find_session(args.session)
            if info is None:
                sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
                return 2
            targets = [info] if info.status in ("running", "suspended") else []
        else:
            targets = manager.resumable()
        if not targets:
            print("Nothing to resume.")
            return 0
        renderer = TerminalRenderer(sys.stdout, color=sys.stdout.isatty())
        worst = 0
        from openworker_qt.cli import mcp as mcp_cli  # a parked call may be an MCP server's tool

        servers = await mcp_cli.connect(rt, None, wait=getattr(args, "mcp_wait", None))
        try:
            worst = await _resume_each(rt, manager, targets, renderer)
        finally:
            await mcp_cli.disconnect(servers)
        return worst


async def _resume_each(rt: Runtime, manager: SessionManager, targets: list[Any],
                       renderer: TerminalRenderer) -> int:
    """The parked turns of ``targets`` resumed one by one; the worst exit status."""
    worst = 0
    for info in targets:
        status = "completed"
        sys.stderr.write(f"[resuming session {info.id}]\n")
        from openworker_qt.core.messages import pending_tool_calls

        try:
            if not pending_tool_calls(rt.conversations.load(info.id)):
                manager.close_cut_off_turn(info.id)
                sys.stderr.write(
                    "  (cut off mid-answer; nothing to resume — run it again with "
                    f"`openworker-qt retry {info.id}`)\n")
                continue
            async for event in manager.resume(info.id):
                renderer.render(event)
                if isinstance(event, ev.TurnEnded):
                    status = event.status
        except SessionBusy as busy:
            sys.stderr.write(f"openworker-qt: {busy}\n")
            worst = max(worst, EXIT["busy"])
            continue
        sys.stderr.write(f"[session {info.id} · {status}]\n")
        if status == "suspended":
            print_pending(rt.inbox.pending(info.id), sys.stderr)
        worst = max(worst, EXIT.get(status, 1))
    return worst


async def retry(args: argparse.Namespace) -> int:
    """Run the last turn of a session again after it failed (or was cut off)."""
    async with turn_runtime() as rt:
        store = rt.conversations
        if args.session:
            info = store.find_session(args.session)
            if info is None:
                sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
                return 2
        else:
            latest = store.list_sessions(limit=1)
            if not latest:
                print("No sessions yet.")
                return 0
            info = latest[0]
        holder = SessionLeases(store.db).holder(info.id)
        if holder is not None:
            sys.stderr.write(f"openworker-qt: {SessionBusy(info.id, holder)}\n")
            return EXIT["busy"]
        manager = build_manager(rt, args, "")
        renderer = TerminalRenderer(sys.stdout, color=sys.stdout.isatty())
        status: str | None = None
        try:
            async for event in manager.retry(info.id):
                renderer.render(event)
                if isinstance(event, ev.TurnEnded):
                    status = event.status
        except SessionBusy as busy:
            sys.stderr.write(f"openworker-qt: {busy}\n")
            return EXIT["busy"]
        if status is None:
            print(f"Nothing to retry: the last turn of session {info.id} did not fail.")
            return 0
        sys.stderr.write(f"[session {info.id} · {status}]\n")
        if status == "suspended":
            print_pending(rt.inbox.pending(info.id), sys.stderr)
        return EXIT.get(status, 1)
