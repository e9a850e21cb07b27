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
5     busy: another OpenWorker window or process is working on the session
130   interrupted (Ctrl-C)
141   the output was closed early (e.g. piped into ``head``)
====  ==========================================
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from openworker_qt import __version__
from openworker_qt.cli import (
    admin,
    automations,
    connectors,
    personas,
    serve,
    team_run,
    teams,
    turns,
)
from openworker_qt.cli import mcp as mcp_cli
from openworker_qt.cli.turns import EXIT
from openworker_qt.providers.scripted import ScriptError
from openworker_qt.storage.config import RANGES, ConfigError
from openworker_qt.storage.db import StorageError

__all__ = ["EXIT", "main"]


def _iterations(text: str) -> int:
    low, high = RANGES["general.max_iterations"]
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="openworker-qt",
        description="OpenWorker Qt — a desktop AI coworker. Without a command, opens the app.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="run one turn in a new or existing session")
    run.add_argument("text", help="what you want done")
    run.add_argument("--model", "-m", help="model, e.g. anthropic:claude-sonnet-4-6 or scripted:FILE")
    run.add_argument("--session", "-s", help="continue this session (id or prefix)")
    run.add_argument("--workspace", "-w", type=Path, help="working folder (default: current)")
    run.add_argument("--persona", "-p",
                     help="who works on the session: an enabled persona (default: cowork; "
                          "see `openworker-qt personas list`)")
    run.add_argument("--yes", "-y", action="store_true", help="approve every request (careful)")
    run.add_argument("--max-iterations", type=_iterations, metavar="N",
                     help="iteration limit for this turn (1 to 1000)")
    run.add_argument("--json", action="store_true", help="print events as JSON lines")
    run.add_argument("--mcp-wait", type=float, metavar="SECONDS", default=None,
                     help="how long the turn waits for MCP servers to start (default 5); "
                          "later ones join when they are ready")
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
    for name, help_text in (("approve", "approve an approval, plan or folder request"),
                            ("deny", "deny an approval, plan or folder request")):
        cmd = sub.add_parser(name, help=help_text)
        cmd.add_argument("item", type=int, help="inbox item id")
        if name == "approve":
            cmd.add_argument("--always", action="store_true",
                             help="always allow this tool for this exact target (an MCP "
                                  "tool: this tool of this server)")
    answer = sub.add_parser(
        "answer", help="answer a question in the inbox (on a plan: feedback, not approval)"
    )
    answer.add_argument("item", type=int, help="inbox item id")
    answer.add_argument("text", nargs="?", default="",
                        help="your answer (on a question with choices: a number, or your own words)")
    answer.add_argument("--choice", action="append", default=[], metavar="[Q:]N",
                        help="pick option N of a question with choices (repeat, or 1,3, "
                             "where several may be picked); of grouped questions, name the "
                             "question first: --choice 2:1,3")
    answer.add_argument("--say", action="append", default=[], metavar="Q:TEXT",
                        help="of grouped questions, answer question Q in your own words "
                             "(--say 3:'vegetarian lunch'); with neither --choice nor --say "
                             "on a terminal, each question is asked in turn")
    keys = sub.add_parser("keys", help="manage API keys in the OS keyring")
    keys_sub = keys.add_subparsers(dest="keys_command", metavar="ACTION", required=True)
    key_set = keys_sub.add_parser("set", help="store a provider's key (read from stdin or a prompt)")
    key_set.add_argument("provider", help="provider name, e.g. openai, anthropic, gemini, deepseek")
    keys_sub.add_parser("list", help="list the stored keys' names (never their values)")
    key_del = keys_sub.add_parser("delete", help="remove a provider's key")
    key_del.add_argument("provider")
    connectors.add_parser(sub)

    resume = sub.add_parser("resume", help="continue turns parked on the inbox or cut off by a crash")
    resume.add_argument("session", nargs="?", help="only this session (id or prefix)")
    resume.add_argument("--wait", action="store_true", help="wait for pending inbox answers")
    resume.add_argument("--yes", "-y", action="store_true", help=argparse.SUPPRESS)

    retry = sub.add_parser("retry", help="run a session's last turn again after it failed")
    retry.add_argument("session", nargs="?", help="this session (id or prefix; default: the latest)")
    retry.add_argument("--yes", "-y", action="store_true", help="approve every request (careful)")

    tools = sub.add_parser(
        "tools", help="list the tools a new session would be offered, with their risk and origin"
    )
    tools.add_argument("--persona", help="persona of the session (default: cowork; "
                       "see `openworker-qt personas list`)")
    tools.add_argument(
        "--mode", choices=["discuss", "plan", "interactive", "auto", "custom"],
        help="permission mode (default: permissions.mode from config)",
    )
    tools.add_argument("--json", action="store_true", help="print one JSON object per tool")
    tools.add_argument("--no-mcp", action="store_true",
                       help="leave out the MCP servers' tools (they are connected to list them)")

    sub.add_parser("sessions", help="list sessions")
    sub.add_parser("models", help="list configured providers and their curated models")
    automations.add_parser(sub)
    serve.add_parser(sub)
    mcp_cli.add_parser(sub)
    show = sub.add_parser("show", help="print a session's transcript")
    show.add_argument("session", help="session id or prefix")
    show.add_argument("--json", action="store_true", help="print stored messages as JSON lines")
    personas.add_parser(sub)
    team_run.add_commands(teams.add_parser(sub))
    return p


def commands() -> frozenset[str]:
    """The names of the command line's commands (``run``, ``sessions``, …)."""
    for action in _parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return frozenset(action.choices)
    return frozenset()


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`openworker-qt sessions | head -1`): stop quietly, as
        # Unix tools do, and keep Python from complaining when it flushes at exit.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT["broken_pipe"]


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
    if not args.command:
        parser.print_help()
        return 0
    try:
        if args.command == "run":
            return asyncio.run(turns.run(args))
        if args.command == "sessions":
            return admin.sessions()
        if args.command == "models":
            return admin.models()
        if args.command == "tools":
            return admin.tools(args)
        if args.command == "inbox":
            return admin.inbox(args)
        if args.command in ("approve", "deny", "answer"):
            return admin.resolve(args)
        if args.command == "keys":
            return admin.keys(args)
        if args.command == "connectors":
            return connectors.run(args)
        if args.command == "resume":
            return asyncio.run(turns.resume(args))
        if args.command == "retry":
            return asyncio.run(turns.retry(args))
        if args.command == "show":
            return admin.show(args)
        if args.command == "personas":
            return personas.personas(args)
        if args.command == "automations":
            return automations.main(args)
        if args.command == "serve":
            return asyncio.run(serve.serve(args))
        if args.command == "mcp":
            return mcp_cli.run(args)
        if args.command == "team":
            return teams.main(args)
    except (ConfigError, StorageError, ScriptError) as exc:
        sys.stderr.write(f"openworker-qt: {exc}\n")
        return 2
    parser.print_help()
    return 2


