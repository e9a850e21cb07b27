"""Inspection and administration commands: sessions, show, inbox, approve/deny/answer,
keys, models, tools."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from openworker_qt.cli.terminal import render_message
from openworker_qt.cli.turns import cli_runtime
from openworker_qt.storage import secrets


def models() -> int:
    from openworker_qt.providers.models import format_models

    with cli_runtime() as rt:
        print(format_models(rt.list_models(ask_servers=True)))
    return 0


def _verdict(decision: Any) -> str:
    if decision.allowed:
        return "allow"
    return "ask" if decision.needs_user else "refuse"


#: How long ``openworker-qt tools`` waits for the MCP servers to connect.
MCP_WAIT = 30.0


def mcp_listing(rt: Any, workspace: Path,
                within: float | None = None) -> tuple[list[Any], list[dict[str, Any]]]:
    """The configured MCP servers' tools (servers connected, bounded by ``within``,
    then stopped) and a row for each server that is not ready, with its status.
    Blocking: it runs its own event loop (the CLI has no other)."""
    import asyncio

    from openworker_qt.mcp.doctor import login_path
    from openworker_qt.mcp.manager import McpManager
    from openworker_qt.mcp.status import State
    from openworker_qt.mcp.tools import server_prefix

    within = MCP_WAIT if within is None else within
    manager = McpManager.load(rt.paths.config, workspace, get_secret=secrets.get_secret,
                              set_secret=secrets.set_secret, path=login_path,
                              connect_timeout=within)
    for problem in manager.problems:
        sys.stderr.write(f"note: {problem}\n")
    if not manager.servers:
        return [], []

    missing: list[dict[str, Any]] = []

    def status_rows() -> None:  # before the servers are stopped
        for name, server in manager.servers.items():
            status = server.status
            if status.state is State.READY:
                continue
            text = (f"did not connect within {within:g} s" if status.state is State.STARTING
                    else status.describe().splitlines()[0])
            missing.append({"name": server_prefix(name) + "*", "origin": f"mcp:{name}",
                            "server_status": text})

    async def connect() -> list[Any]:
        await manager.start_all()
        try:
            await manager.wait_ready(within)
        except TimeoutError:
            pass
        try:
            status_rows()
            return list(manager.tools())
        finally:
            await manager.stop_all()

    tools = asyncio.run(connect())
    return tools, missing


def listing_session(rt: Any, *, mode: str, persona: str, workspace: Path) -> tuple[Any, Any]:
    """A new session of this mode and persona (never stored) and its permission engine."""
    from openworker_qt.storage.conversations import SessionInfo

    info = SessionInfo(
        id="(new session)", title="", model="", persona=persona, mode=mode,
        workspace=str(workspace), unattended=False, status="idle", created_at=0.0,
        updated_at=0.0,
    )
    return info, rt.decider_for(info)


def tool_listing(rt: Any, *, mode: str, persona: str, workspace: Path,
                 extra: list[Any] | None = None) -> list[dict[str, Any]]:
    """What a new session with this mode and persona would be offered: each tool with
    its risk class (the user's overrides applied), its origin, and what the session's
    real permission engine does with a call to it.

    The engine is asked about a call without a target; for a tool whose calls name a
    target (a path, a command, a recipient) or a patch it is also asked about a
    target inside the workspace and one outside every folder the session may read
    or write (:data:`OUTSIDE`; a path really outside them, even when the workspace
    or a writable folder holds the temporary folder). When those answers differ the
    verdict is "depends on target" and ``by_target`` gives each answer.
    """
    from openworker_qt.core.approvals import ToolCallInfo
    from openworker_qt.core.decide import PATCH_TOOLS
    from openworker_qt.core.risk import RiskClass

    info, decider = listing_session(rt, mode=mode, persona=persona, workspace=workspace)
    probes: list[tuple[str, str | None]] = [("inside the workspace", str(workspace / "example.txt"))]
    outside = outside_probe(decider)
    if outside is not None:
        probes.append((OUTSIDE, outside))
    out: list[dict[str, Any]] = []
    # Exactly what a session of this persona is offered: the runtime's session tools
    # (the explorer, memory and connected services included), narrowed to its families.
    listed = list(rt.session_tools(info))
    if extra and rt.minds.uses_services(info):  # MCP tools, as in a session
        listed += extra
    for tool in listed:

        patch_arg = PATCH_TOOLS.get(tool.name)

        def ask(target: str | None, tool: Any = tool, patch_arg: str | None = patch_arg) -> Any:
            args = {tool.target_arg: target} if tool.target_arg and target else {}
            if patch_arg and target:
                args[patch_arg] = f"--- /dev/null\n+++ {target}\n@@ -0,0 +1 @@\n+example\n"
            call = ToolCallInfo(
                session_id=info.id, call_id="(listing)", name=tool.name, arguments=args,
                risk=tool.risk_class(), target=tool.target(args) if tool.target_arg else None,
                needs_approval=tool.needs_approval, always_ask=tool.always_ask,
                persists=tool.persists, tool_key=tool.tool_key,
            )
            return decider.evaluate(call), decider.risk_of(call)

        decision, risk = ask(None)
        row: dict[str, Any] = {
            "name": tool.name, "risk": risk.value, "origin": tool.origin,
            "mode": decider.mode.value,  # what the engine really applies
            "persona": persona, "decision": _verdict(decision), "reason": decision.reason,
        }
        if tool.target_arg or patch_arg:
            cases = list(probes)
            if risk is RiskClass.EXEC:
                allowlist = decider.shell_allowlist()
                # each entry as written (some still ask: make, env, cd, interpreters…)
                cases += [(f"allowlisted '{entry}'", entry) for entry in allowlist[:20]]
            by_target = {"no target": row["decision"]}
            by_target.update({label: _verdict(ask(target)[0]) for label, target in cases})
            if len(set(by_target.values())) > 1:
                row["decision"] = "depends on target"
                row["by_target"] = by_target
        if tool.interaction:
            row["interaction"] = tool.interaction
        out.append(row)
    return out


#: The label of the probe outside every folder of the session.
OUTSIDE = "outside its folders"


def outside_probe(decider: Any) -> str | None:
    """A file outside every folder the session may read or write (``None``: there is
    none, e.g. the workspace is ``/``)."""
    names = ("openworker-elsewhere", "example.txt")
    for base in (Path(tempfile.gettempdir()).resolve(), Path.home(), Path(Path.cwd().anchor)):
        candidate = str(base.joinpath(*names))
        if decider.read_root_for(candidate) is None and decider.root_for(candidate) is None:
            return candidate
    return None


def folders_line(decider: Any) -> str:
    """The session's folders, for the table's legend."""
    writable = [str(p) for p in decider.writable_roots()]
    read_only = [str(p) for p in decider.read_roots() if str(p) not in writable]
    text = f"Its folders: writable {', '.join(writable) or 'none'}"
    if read_only:
        text += f"; read-only {', '.join(read_only)}"
    return text


def tools(args: argparse.Namespace) -> int:
    from openworker_qt.agents.personas import DEFAULT_PERSONA, PersonaError

    persona = args.persona or DEFAULT_PERSONA
    workspace = Path.cwd().resolve()
    with cli_runtime(workspace) as rt:
        try:
            rt.personas.require(persona)
        except PersonaError as exc:
            sys.stderr.write(f"openworker-qt: {exc}\n")
            return 2
        mode = args.mode or str(rt.config.get("permissions.mode", "interactive"))
        extra, missing = mcp_listing(rt, workspace) if not getattr(args, "no_mcp", False) else ([], [])
        rows = tool_listing(rt, mode=mode, persona=persona, workspace=workspace, extra=extra)
        legend = folders_line(listing_session(rt, mode=mode, persona=persona,
                                              workspace=workspace)[1])
    mode = rows[0]["mode"] if rows else mode
    if args.json:
        for row in [*rows, *missing]:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    print(f"Tools a new session would be offered · mode: {mode} · persona: {persona}")
    print(f"Workspace: {workspace}")
    print(f"{legend} (\"{OUTSIDE}\": anywhere else)\n")
    if not rows:
        print(f"The {persona} persona is offered no tools: it only talks.")
        return 0
    width = max(len(r["name"]) for r in rows) if rows else 4
    print(f"{'TOOL':<{width}}  {'RISK':<11}  {'ORIGIN':<14}  IN {mode.upper()} MODE")
    for r in rows:
        verdict = r["decision"]
        if "by_target" in r:
            verdict += " (" + "; ".join(f"{k}: {v}" for k, v in r["by_target"].items()) + ")"
        if r.get("interaction"):
            verdict += " (then asks you)"
        print(f"{r['name']:<{width}}  {r['risk']:<11}  {r['origin']:<14}  {verdict}")
    for r in missing:
        print(f"{r['name']:<{width}}  {'':<11}  {r['origin']:<14}  "
              f"no tools: the server is {r['server_status']}")
    return 0


def inbox(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
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
            _print_choices(item)
        return 0


def _print_choices(item: Any) -> None:
    """A pending question's options, numbered as ``answer --choice N`` takes them."""
    from openworker_qt.domain import choices

    group = choices.group_from(item.arguments) if item.kind == "question" else None
    if group is not None and item.pending:
        for line in choices.numbered_group(group):
            print(f"       {line}")
        print(f"       Answer every question: `openworker-qt answer {item.id} --choice 1:2 "
              f"--say {len(group.questions)}:'your words'` (or just `answer {item.id}` "
              "to be asked each in turn)")
        return
    spec = choices.spec_from(item.arguments) if item.kind == "question" else None
    if spec is None or not item.pending:
        return
    for line in choices.numbered(spec):
        print(f"       {line}")
    print(f"       {choices.how_to_answer(spec)} `openworker-qt answer {item.id} --choice N`")


class UsageError(ValueError):
    """An answer given the wrong way on the command line (exit 2, the message says how)."""


def _answer_text(args: argparse.Namespace, item: Any = None) -> str:
    """The answer the command line gives: ``--choice`` numbers first, then the text;
    of grouped questions, ``N: …`` lines from ``--choice Q:N`` and ``--say Q:TEXT``
    (or, on a terminal and given nothing, each question asked in turn)."""
    from openworker_qt.domain import choices

    chosen = [str(c).strip() for c in getattr(args, "choice", None) or []]
    said = [str(c).strip() for c in getattr(args, "say", None) or []]
    text = str(getattr(args, "text", "") or "").strip()
    group = (choices.group_from(item.arguments)
             if item is not None and item.kind == "question" else None)
    if group is None and not said:
        return "\n".join(p for p in (",".join(chosen), text) if p)
    if group is None:
        raise UsageError(f"#{item.id if item else '?'} asks one question: --say is for grouped "
                         "questions (give the answer as text)")
    lines = []
    for flag, value in [*(("--choice", c) for c in chosen), *(("--say", s) for s in said)]:
        number, colon, rest = value.partition(":")
        if not colon or not number.strip().isdigit():
            raise UsageError(f"#{item.id} asks {len(group.questions)} questions: name the "
                             f"question first, e.g. {flag} 1:{rest or value}")
        lines.append(f"{number.strip()}: {rest.strip()}")
    if not lines and not text and sys.stdin.isatty():
        from openworker_qt.cli.terminal import ask_group, read_line

        return ask_group(group, read_line)
    return "\n".join([*lines, *([text] if text else [])])


def resolve(args: argparse.Namespace) -> int:
    """``approve`` / ``deny`` / ``answer``: the inbox checks that the verb fits the item
    (a question is answered, an approval approved or denied)."""
    from openworker_qt.core.inbox import Action, InboxError, closed_by_app

    with cli_runtime() as rt:
        item = rt.inbox.get(args.item)
        if item is None:
            sys.stderr.write(f"openworker-qt: no inbox item #{args.item}\n")
            return 2
        if (closed := closed_by_app(item)) is not None:  # before the verb is checked
            sys.stderr.write(f"openworker-qt: {closed}\n")
            return 1
        action: Action
        if args.command == "answer":
            action = "answer"
        elif args.command == "approve":
            action = "always" if getattr(args, "always", False) else "approve"
        else:
            action = "deny"
        try:
            won = rt.inbox.respond(item.id, action, _answer_text(args, item), by="cli")
        except (InboxError, UsageError) as exc:
            sys.stderr.write(f"openworker-qt: {exc}\n")
            return 2
        current = rt.inbox.get(item.id)
        assert current is not None
        if not won:
            why = closed_by_app(current) or (
                f"#{item.id} was already resolved ({current.resolution} by {current.resolved_by})"
            )
            sys.stderr.write(f"openworker-qt: {why}\n")
            return 1
        if current.resolution == "always_command":
            from openworker_qt.core.inbox import task_command

            print(f"#{item.id} approved. From now on this automation runs `{task_command(item)}` "
                  "without asking (`openworker-qt automations show` lists it, `forget` removes it).")
            return 0
        print(f"#{item.id} {current.resolution}.")
        return 0


def keys(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        try:
            secrets.require()
        except secrets.SecretsUnavailable as exc:
            sys.stderr.write(f"openworker-qt: {exc}\n")
            return 2
        if args.keys_command == "list":
            names = secrets.list_names()
            print("\n".join(names) if names else "No keys stored.")
            return 0
        name = rt.key_name(args.provider)
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
        rt.key_changed(args.provider)
        print(f"{name} stored in the keyring.")
        return 0


def persona_label(personas: dict[str, Any], name: str) -> str:
    """Which persona a session uses, in words: its title, and what it runs as when
    that persona is no longer enabled (unknown, disabled or removed)."""
    from openworker_qt.agents.personas import DEFAULT_PERSONA

    name = name or DEFAULT_PERSONA
    persona = personas.get(name)
    if persona is not None and persona.enabled:
        return str(persona.title or name)
    fallback = personas.get(DEFAULT_PERSONA)
    title = fallback.title if fallback is not None else DEFAULT_PERSONA
    why = "not enabled" if persona is not None else "not installed"
    return f"{name} ({why}: runs as {title})"


def sessions() -> int:
    with cli_runtime() as rt:
        rows = rt.conversations.list_sessions()
        if not rows:
            print("No sessions yet. Start one with: openworker-qt run \"…\"")
            return 0
        personas = rt.personas.load()
        for s in rows:
            flag = " [unattended]" if s.unattended else ""
            persona = s.persona or "cowork"
            if persona not in personas or not personas[persona].enabled:
                persona += " (off)"  # not enabled: runs as the default (`show` says so)
            print(f"{s.id}  {s.status:<10} {s.message_count:>4} msgs  {persona:<10} "
                  f"{s.model:<28} {s.title}{flag}")
        return 0


def show(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        info = rt.conversations.find_session(args.session)
        if info is None:
            sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
            return 2
        # Streamed: one page of rows at a time, each line written as it is read, so
        # a 100,000-message session prints in constant memory.
        out = sys.stdout
        if not args.json:
            out.write(f"# {info.title or '(untitled)'}  ·  {info.id}  ·  {info.model}  ·  "
                      f"persona: {persona_label(rt.personas.load(), info.persona)}\n")
        from openworker_qt.providers.pricing import PriceTable, UsageTally

        tally = UsageTally(PriceTable.from_config(rt.config.get("prices"))[0])
        for msg in rt.conversations.iter_messages(info.id):
            if args.json:
                out.write(json.dumps(msg, ensure_ascii=False) + "\n")
                continue
            turn = tally.add(msg)
            if turn:
                out.write(f"  · {turn}\n")
            out.write(render_message(msg) + "\n")
        if not args.json:
            for line in tally.finish():
                out.write(f"  · {line}\n")
        out.flush()
        return 0


