"""The headless command line, on the same core as the desktop app.

``openworker-qt run "…"`` renders a turn's event stream to the terminal
(streamed text, reasoning, tool cards, a y/n/a approval prompt when a person is
attending), and exits with a status that reflects how the turn ended:

====  ==========================================
0     completed
1     the turn failed (provider or tool error)
2     bad usage or configuration
3     stopped at the iteration limit
4     suspended (waiting in the inbox)
130   interrupted (Ctrl-C)
====  ==========================================
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from openworker_qt import __version__
from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest, QuestionRequest
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.inbox import InboxItem, args_preview
from openworker_qt.core.sessions import SessionManager
from openworker_qt.providers.base import ProviderError
from openworker_qt.providers.scripted import ScriptError
from openworker_qt.storage import secrets
from openworker_qt.storage.config import ConfigError
from openworker_qt.storage.db import StorageError

EXIT = {"completed": 0, "error": 1, "max_iterations": 3, "suspended": 4, "interrupted": 130}


preview_args = args_preview


class TerminalRenderer:
    """Writes events to a terminal stream."""

    def __init__(self, out: TextIO, *, color: bool) -> None:
        self.out = out
        self.color = color
        self._in_text = False
        self._in_reasoning = False

    def _c(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.color else text

    def _break(self) -> None:
        if self._in_text or self._in_reasoning:
            self.out.write("\n")
        self._in_text = self._in_reasoning = False

    def render(self, event: ev.Event) -> None:
        w = self.out.write
        if isinstance(event, ev.ReasoningDelta):
            if not self._in_reasoning:
                self._break()
                w(self._c("2", "thinking: "))
                self._in_reasoning = True
            w(self._c("2", event.text))
        elif isinstance(event, ev.AssistantDelta):
            if self._in_reasoning:
                self._break()
            self._in_text = True
            w(event.text)
        elif isinstance(event, ev.ToolProposed):
            self._break()
            w(self._c("36", f"⚙ {event.name}") + f"  {preview_args(event.arguments)}\n")
        elif isinstance(event, ev.ToolFinished):
            mark = {"ok": "✓", "error": "✗", "denied": "⊘", "interrupted": "■"}[event.status]
            first = (event.result.strip().splitlines() or [""])[0][:120]
            rule = f" [{event.rule}]" if event.rule else ""
            w(self._c("2", f"  {mark} {event.name}: {event.status}{rule} — {first}") + "\n")
        elif isinstance(event, ev.NoticeAdded):
            self._break()
            w(self._c("33", f"· {event.text}") + "\n")
        elif isinstance(event, ev.ErrorOccurred):
            self._break()
            w(self._c("31", f"Error: {event.message}") + "\n")
        elif isinstance(event, ev.Interrupted):
            self._break()
            w(self._c("33", "Stopped.") + "\n")
        elif isinstance(event, ev.TurnEnded):
            self._break()
            if event.status == "max_iterations":
                w(self._c("33", event.detail) + "\n")
        self.out.flush()


class TerminalApprover:
    """Asks y/n/a on the terminal (in a worker thread: input() blocks)."""

    def __init__(self, *, assume_yes: bool, interactive: bool) -> None:
        self.assume_yes = assume_yes
        self.interactive = interactive

    async def __call__(self, request: ApprovalRequest) -> ApprovalOutcome:
        if self.assume_yes:
            return ApprovalOutcome.ONCE
        if not self.interactive:
            sys.stderr.write(
                f"{request.tool} needs approval and nobody is at the terminal; denied "
                "(use --yes to approve, or --unattended to park it in the inbox).\n"
            )
            return ApprovalOutcome.DENY
        always = "/a=always" if request.can_always else ""
        prompt = (
            f"\n{request.tool} ({request.risk.value}) wants to run: "
            f"{preview_args(dict(request.arguments))}\n"
            f"  reason: {request.reason}\n  Allow? [y/N{always}] "
        )
        answer = await asyncio.to_thread(_ask, prompt)
        answer = answer.strip().lower()
        if answer in ("y", "yes"):
            return ApprovalOutcome.ONCE
        if answer in ("a", "always") and request.can_always:
            return ApprovalOutcome.ALWAYS
        return ApprovalOutcome.DENY


async def terminal_questioner(request: QuestionRequest) -> str:
    opts = f" [{', '.join(request.options)}]" if request.options else ""
    return (await asyncio.to_thread(_ask, f"\n? {request.prompt}{opts}\n> ")).strip()


def _ask(prompt: str) -> str:
    sys.stderr.write(prompt)
    sys.stderr.flush()
    line = sys.stdin.readline()
    return line if line else ""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="openworker-qt",
        description="OpenWorker Qt — a desktop AI coworker. Without a command, opens the app.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="run one turn in a new or existing session")
    run.add_argument("text", help="what you want done")
    run.add_argument("--model", "-m", help="model, e.g. anthropic:claude-sonnet-4-5 or scripted:FILE")
    run.add_argument("--session", "-s", help="continue this session (id or prefix)")
    run.add_argument("--workspace", "-w", type=Path, help="working folder (default: current)")
    run.add_argument("--yes", "-y", action="store_true", help="approve every request (careful)")
    run.add_argument("--max-iterations", type=int, help="iteration limit for this turn")
    run.add_argument("--json", action="store_true", help="print events as JSON lines")
    run.add_argument(
        "--mode", choices=["discuss", "plan", "interactive", "auto", "custom"],
        help="permission mode for this session (default: permissions.mode from config)",
    )
    run.add_argument(
        "--unattended", action="store_true",
        help="nobody is watching: park approvals and questions in the inbox",
    )
    run.add_argument(
        "--wait", action="store_true",
        help="with --unattended: wait for inbox answers (from the app or `openworker-qt "
        "approve`) instead of exiting with status 4",
    )

    inbox = sub.add_parser("inbox", help="list pending inbox items across sessions")
    inbox.add_argument("--session", "-s", help="only this session")
    inbox.add_argument("--all", action="store_true", help="include resolved items")
    inbox.add_argument("--json", action="store_true", help="print items as JSON lines")
    for name, help_text in (("approve", "approve an inbox item once"),
                            ("deny", "deny an inbox item")):
        cmd = sub.add_parser(name, help=help_text)
        cmd.add_argument("item", type=int, help="inbox item id")
        if name == "approve":
            cmd.add_argument("--always", action="store_true",
                             help="always allow this tool for this exact target")
    answer = sub.add_parser("answer", help="answer a question in the inbox")
    answer.add_argument("item", type=int, help="inbox item id")
    answer.add_argument("text", help="your answer")
    keys = sub.add_parser("keys", help="manage API keys in the OS keyring")
    keys_sub = keys.add_subparsers(dest="keys_command", metavar="ACTION", required=True)
    key_set = keys_sub.add_parser("set", help="store a provider's key (read from stdin or a prompt)")
    key_set.add_argument("provider", help="provider name, e.g. openai, anthropic, gemini, deepseek")
    keys_sub.add_parser("list", help="list the stored keys' names (never their values)")
    key_del = keys_sub.add_parser("delete", help="remove a provider's key")
    key_del.add_argument("provider")

    resume = sub.add_parser("resume", help="continue turns parked on the inbox or cut off by a crash")
    resume.add_argument("session", nargs="?", help="only this session (id or prefix)")
    resume.add_argument("--wait", action="store_true", help="wait for pending inbox answers")
    resume.add_argument("--yes", "-y", action="store_true", help=argparse.SUPPRESS)

    sub.add_parser("sessions", help="list sessions")
    sub.add_parser("models", help="list configured providers and their curated models")
    show = sub.add_parser("show", help="print a session's transcript")
    show.add_argument("session", help="session id or prefix")
    show.add_argument("--json", action="store_true", help="print stored messages as JSON lines")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
    if not args.command:
        parser.print_help()
        return 0
    try:
        if args.command == "run":
            return asyncio.run(_run(args))
        if args.command == "sessions":
            return _sessions()
        if args.command == "models":
            return _models()
        if args.command == "inbox":
            return _inbox(args)
        if args.command in ("approve", "deny", "answer"):
            return _resolve(args)
        if args.command == "keys":
            return _keys(args)
        if args.command == "resume":
            return asyncio.run(_resume(args))
        if args.command == "show":
            return _show(args)
    except (ConfigError, StorageError, ScriptError) as exc:
        sys.stderr.write(f"openworker-qt: {exc}\n")
        return 2
    parser.print_help()
    return 2


def _models() -> int:
    from openworker_qt.providers.models import format_models, list_models
    from openworker_qt.storage.config import load_config
    from openworker_qt.storage.secrets import get_secret

    print(format_models(list_models(load_config(None), get_secret)))
    return 0


def _open(workspace: Path | None = None):  # type: ignore[no-untyped-def]
    from openworker_qt.runtime import open_runtime

    rt = open_runtime(workspace)
    for warning in rt.config.warnings:
        sys.stderr.write(f"warning: {warning}\n")
    return rt


async def _run(args: argparse.Namespace) -> int:

    workspace = (args.workspace or Path.cwd()).resolve()
    rt = _open(workspace)
    try:
        store = rt.conversations
        model = args.model or rt.config.get("general.default_model") or ""
        if args.session:
            info = store.find_session(args.session)
            if info is None:
                sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
                return 2
        else:
            if not model:
                sys.stderr.write(
                    "openworker-qt: no model chosen. Pass --model (e.g. --model "
                    "anthropic:claude-sonnet-4-5) or set general.default_model.\n"
                )
                return 2
            info = store.create_session(
                model=model, workspace=str(workspace),
                mode=args.mode or str(rt.config.get("permissions.mode", "interactive")),
            )
        try:  # fail early and clearly on an unusable model string
            rt.router.resolve(args.model or info.model or model)
        except ProviderError as exc:
            sys.stderr.write(f"openworker-qt: {exc.message}\n")
            return 2
        if args.mode and info.mode != args.mode:
            store.update_session(info.id, mode=args.mode)
            info.mode = args.mode
        if args.unattended and not info.unattended:
            store.update_session(info.id, unattended=True)
            info.unattended = True
        manager = _manager(rt, args, model)
        if args.model and info.model and info.model != args.model:
            manager.switch_model(info.id, args.model)
        engine = manager.engine(info.id)
        loop = asyncio.get_running_loop()
        presses = 0

        def on_sigint() -> None:
            nonlocal presses
            presses += 1
            if presses > 1:
                os._exit(130)
            engine.request_interrupt()

        if hasattr(signal, "SIGINT") and sys.platform != "win32":
            loop.add_signal_handler(signal.SIGINT, on_sigint)
        renderer = TerminalRenderer(sys.stdout, color=sys.stdout.isatty() and not args.json)
        status: str = "error"
        async for event in manager.run(info.id, args.text):
            if args.json:
                sys.stdout.write(json.dumps(_event_dict(event), ensure_ascii=False) + "\n")
                sys.stdout.flush()
            else:
                renderer.render(event)
            if isinstance(event, ev.TurnEnded):
                status = event.status
        if not args.json:
            sys.stderr.write(f"[session {info.id} · {status}]\n")
            if status == "suspended":
                _print_pending(rt.inbox.pending(info.id), sys.stderr)
        return EXIT.get(status, 1)
    finally:
        rt.close()


def _manager(rt: Any, args: argparse.Namespace, model: str) -> SessionManager:
    """A session manager whose sessions ask on the terminal, or through the inbox
    when they are unattended."""
    from openworker_qt.runtime import default_tools

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

    max_iter = getattr(args, "max_iterations", None)
    return SessionManager(
        rt.conversations,
        rt.router,
        tools_for=default_tools,
        decider_for=rt.decider_for,
        approver_for=approver_for,
        questioner_for=questioner_for,
        default_model=model,
        max_iterations=max_iter or int(rt.config.get("general.max_iterations", 25)),
        audit=rt.audit,
        redact=secrets.redact,
    )


def _event_dict(event: ev.Event) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(event)


def _print_pending(items: list[InboxItem], out: TextIO) -> None:
    for item in items:
        out.write(
            f"  inbox #{item.id} [{item.kind}] {item.tool}: {item.args_preview or item.title}\n"
        )
    if items:
        out.write(
            "Answer with `openworker-qt approve ID` / `deny ID` / `answer ID TEXT`, "
            "then `openworker-qt resume`.\n"
        )


def _inbox(args: argparse.Namespace) -> int:
    rt = _open()
    try:
        session = None
        if args.session:
            found = rt.conversations.find_session(args.session)
            if found is None:
                sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
                return 2
            session = found.id
        items = (
            rt.inbox.items(session_id=session) if args.all else rt.inbox.pending(session)
        )
        if args.json:
            from dataclasses import asdict

            for item in items:
                print(json.dumps(asdict(item), ensure_ascii=False))
            return 0
        if not items:
            print("Inbox is empty.")
            return 0
        for item in items:
            state = item.status if item.pending else f"{item.resolution} by {item.resolved_by}"
            print(f"#{item.id:<5} {item.kind:<9} {item.session_id}  {item.tool:<14} "
                  f"{item.args_preview or item.title}  [{state}]")
            if item.reason:
                print(f"       reason: {item.reason}")
        return 0
    finally:
        rt.close()


def _resolve(args: argparse.Namespace) -> int:
    rt = _open()
    try:
        item = rt.inbox.get(args.item)
        if item is None:
            sys.stderr.write(f"openworker-qt: no inbox item #{args.item}\n")
            return 2
        if args.command == "answer":
            if item.kind == "approval":
                sys.stderr.write(f"openworker-qt: #{item.id} is an approval; use approve/deny\n")
                return 2
            resolution = args.text
        elif args.command == "approve":
            if getattr(args, "always", False) and not item.can_always:
                sys.stderr.write(
                    f"openworker-qt: #{item.id} cannot be allowed always (only actions on an "
                    "exact external target can)\n"
                )
                return 2
            resolution = "always" if getattr(args, "always", False) else "once"
            if item.kind != "approval":
                resolution = "approve"
        else:
            resolution = "deny"
        if not rt.inbox.resolve(item.id, resolution, by="cli"):
            current = rt.inbox.get(item.id)
            assert current is not None
            sys.stderr.write(
                f"openworker-qt: #{item.id} was already resolved ({current.resolution} by "
                f"{current.resolved_by})\n"
            )
            return 1
        print(f"#{item.id} {resolution}.")
        return 0
    finally:
        rt.close()


async def _resume(args: argparse.Namespace) -> int:
    rt = _open()
    try:
        manager = _manager(rt, args, "")
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
        for info in targets:
            status = "completed"
            sys.stderr.write(f"[resuming session {info.id}]\n")
            from openworker_qt.core.messages import pending_tool_calls

            if not pending_tool_calls(rt.conversations.load(info.id)):
                manager.close_cut_off_turn(info.id)
                sys.stderr.write("  (cut off mid-answer; nothing to resume — use retry)\n")
                continue
            async for event in manager.resume(info.id):
                renderer.render(event)
                if isinstance(event, ev.TurnEnded):
                    status = event.status
            sys.stderr.write(f"[session {info.id} · {status}]\n")
            if status == "suspended":
                _print_pending(rt.inbox.pending(info.id), sys.stderr)
            worst = max(worst, EXIT.get(status, 1))
        return worst
    finally:
        rt.close()


def _key_name(rt: Any, provider: str) -> str | None:
    from openworker_qt.providers.factories import internal_config, key_name

    return key_name(internal_config(rt.config), provider.lower())


def _keys(args: argparse.Namespace) -> int:
    rt = _open()
    try:
        try:
            secrets.require()
        except secrets.SecretsUnavailable as exc:
            sys.stderr.write(f"openworker-qt: {exc}\n")
            return 2
        if args.keys_command == "list":
            names = secrets.list_names()
            print("\n".join(names) if names else "No keys stored.")
            return 0
        name = _key_name(rt, args.provider)
        if name is None:
            sys.stderr.write(f"openworker-qt: {args.provider} needs no key (or is unknown)\n")
            return 2
        if args.keys_command == "delete":
            removed = secrets.delete_secret(name)
            print(f"{name} removed." if removed else f"{name} was not stored.")
            return 0
        if sys.stdin.isatty():
            import getpass

            value = getpass.getpass(f"{name}: ")
        else:
            value = sys.stdin.readline()
        try:
            secrets.set_secret(name, value)
        except ValueError as exc:
            sys.stderr.write(f"openworker-qt: {exc}\n")
            return 2
        rt.router.invalidate(args.provider.lower())
        print(f"{name} stored in the keyring.")
        return 0
    finally:
        rt.close()


def _sessions() -> int:
    rt = _open()
    try:
        rows = rt.conversations.list_sessions()
        if not rows:
            print("No sessions yet. Start one with: openworker-qt run \"…\"")
            return 0
        for s in rows:
            flag = " [unattended]" if s.unattended else ""
            print(f"{s.id}  {s.status:<10} {s.message_count:>4} msgs  {s.model:<28} {s.title}{flag}")
        return 0
    finally:
        rt.close()


def _show(args: argparse.Namespace) -> int:
    rt = _open()
    try:
        info = rt.conversations.find_session(args.session)
        if info is None:
            sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
            return 2
        if not args.json:
            print(f"# {info.title or '(untitled)'}  ·  {info.id}  ·  {info.model}")
        for msg in rt.conversations.load(info.id):
            if args.json:
                print(json.dumps(msg, ensure_ascii=False))
                continue
            print(_render_message(msg))
        return 0
    finally:
        rt.close()


def _render_message(msg: dict[str, Any]) -> str:
    role = msg.get("role")
    if role == "user":
        content = msg.get("content")
        text = content if isinstance(content, str) else "[attachments]"
        return f"\nYou: {text}"
    if role == "assistant":
        lines = []
        if msg.get("reasoning"):
            lines.append(f"  (thinking) {msg['reasoning']}")
        if msg.get("content"):
            lines.append(f"Assistant: {msg['content']}")
        for call in msg.get("tool_calls") or []:
            fn = call.get("function", {})
            lines.append(f"  ⚙ {fn.get('name')} {fn.get('arguments')}")
        return "\n".join(lines)
    if role == "tool":
        first = (str(msg.get("content", "")).splitlines() or [""])[0][:120]
        return f"  → {msg.get('name')} [{msg.get('status', 'ok')}]: {first}"
    if role == "notice":
        return f"  · {msg.get('text')}"
    return f"  {role}: {msg.get('content')}"
