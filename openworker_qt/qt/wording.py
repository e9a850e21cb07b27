"""The words users see for the core's codes: tool-call statuses, the rule that
let a call run, risk classes, the provider-retry line and the notices the
engine stores in English.

The core speaks in codes (``risk:read``, ``user:once``, ``write_local``) and in
English sentences for logs and the CLI; the desktop turns them into plain,
translated words here (every string is a literal ``QCoreApplication.translate``
call so ``pyside6-lupdate`` extracts it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication

from openworker_qt.core.standing_rules import ARROW


def status_text(status: str) -> str:
    """A tool call's state, as the card shows it."""
    words = {
        "pending": QCoreApplication.translate("Wording", "not run yet"),
        "awaiting": QCoreApplication.translate("Wording", "waiting for your approval"),
        "asking": QCoreApplication.translate("Wording", "waiting for your answer"),
        "running": QCoreApplication.translate("Wording", "running"),
        "ok": QCoreApplication.translate("Wording", "done"),
        "error": QCoreApplication.translate("Wording", "failed"),
        "denied": QCoreApplication.translate("Wording", "denied"),
        "interrupted": QCoreApplication.translate("Wording", "interrupted"),
    }
    return words.get(status, status)


#: The memory tools: the agent's own notes about the user and the work. They are READ
#: tools for the permission engine (they touch no file, command or service), so their
#: cards say what they do to memory rather than "it only reads".
MEMORY_TOOLS = frozenset({"remember", "memory_read", "memory_update", "memory_forget"})


def rule_text(rule: str, tool: str = "") -> str:
    """Why a call was allowed to run, from the decision's ``rule`` (and the ``tool``
    it was about, for the words only: a memory tool's notes are "your own notes").

    The values the permission engine and the tool step produce: ``risk:read``,
    ``mode:auto``, ``auto_allow:<tool>``, ``allowlist:<entry>``,
    ``session:always_command``, ``session:always_prefix:<prefix>``,
    ``session:always_folder:<folder>``, a standing rule's label ``<tool> → <target>``,
    and ``user:<answer>`` (once, always, always_command, always_prefix, always_folder).
    """
    rule = rule.strip()
    kind, _, rest = rule.partition(":")
    if rule == "risk:read":
        if tool in MEMORY_TOOLS:
            return QCoreApplication.translate("Wording", "Allowed: your own notes")
        return QCoreApplication.translate("Wording", "Allowed: it only reads")
    if rule == "mode:auto":
        return QCoreApplication.translate("Wording", "Allowed: this session runs in auto mode")
    if rule == "session:always_command":
        return QCoreApplication.translate(
            "Wording", "Allowed: you approved this exact command for this session"
        )
    if kind == "session" and rest.startswith(("always_prefix:", "always_folder:")):
        which, _, bound = rest.partition(":")
        if which == "always_prefix":
            return QCoreApplication.translate(
                "Wording", "Allowed: you allowed “{prefix}” commands for this session"
            ).format(prefix=bound)
        return QCoreApplication.translate(
            "Wording", "Allowed: you allowed changes in {folder} for this session"
        ).format(folder=Path(bound).name or bound)
    if kind == "auto_allow" and rest:
        return QCoreApplication.translate(
            "Wording", "Allowed: {tool} is on your list of tools that run without asking"
        ).format(tool=rest)
    if kind == "allowlist" and rest:
        return QCoreApplication.translate(
            "Wording", "Allowed: a safe command on your list ({entry})"
        ).format(entry=rest.strip())
    if kind == "user":
        if rest == "once":
            return QCoreApplication.translate("Wording", "You approved it once")
        if rest == "always":
            return QCoreApplication.translate(
                "Wording", "You approved it, and allowed it from now on"
            )
        if rest == "always_command":
            return QCoreApplication.translate(
                "Wording", "You approved this command for this session"
            )
        if rest == "always_prefix":
            return QCoreApplication.translate(
                "Wording", "You approved it, and allowed commands like it for this session"
            )
        if rest == "always_folder":
            return QCoreApplication.translate(
                "Wording", "You approved it, and allowed changes in its folder for this session"
            )
        return QCoreApplication.translate("Wording", "You approved it")
    if ARROW in rule:
        target = rule.split(ARROW, 1)[1].strip()
        return QCoreApplication.translate("Wording", "Allowed by your rule for {target}").format(
            target=target
        )
    if not rule:
        return ""
    return QCoreApplication.translate("Wording", "Allowed by your settings")


def risk_text(risk: str) -> str:
    """What a call of this risk class does, in a few words."""
    words = {
        "read": QCoreApplication.translate("Wording", "Reads"),
        "write_local": QCoreApplication.translate("Wording", "Changes files on this computer"),
        "exec": QCoreApplication.translate("Wording", "Runs a program"),
        "external": QCoreApplication.translate("Wording", "Sends data off this computer"),
    }
    return words.get(risk, words["external"])  # unknown: treated as external, as the core does


def kind_text(kind: str) -> str:
    """An inbox item's kind."""
    words = {
        "approval": QCoreApplication.translate("Wording", "Approval"),
        "question": QCoreApplication.translate("Wording", "Question"),
        "plan": QCoreApplication.translate("Wording", "Plan to review"),
        "directory": QCoreApplication.translate("Wording", "Folder request"),
    }
    return words.get(kind, kind)


def retry_text(
    provider: str, attempt: int, max_attempts: int, kind: str, reason: str, delay: float
) -> str:
    """``Waiting for Anthropic · retrying 2/4 in 3 s (overloaded)``, translated."""
    reasons = {
        "overloaded": QCoreApplication.translate("Wording", "busy"),
        "rate_limit": QCoreApplication.translate("Wording", "too many requests"),
        "server": QCoreApplication.translate("Wording", "server error"),
        "network": QCoreApplication.translate("Wording", "connection problem"),
        "timeout": QCoreApplication.translate("Wording", "no answer in time"),
    }
    why = reasons.get(kind, reason)
    if delay >= 1:
        return QCoreApplication.translate(
            "Wording", "Waiting for {provider} · retrying {attempt}/{total} in {secs} s ({why})"
        ).format(
            provider=provider, attempt=attempt, total=max_attempts, secs=f"{delay:.0f}", why=why
        )
    return QCoreApplication.translate(
        "Wording", "Waiting for {provider} · retrying {attempt}/{total} ({why})"
    ).format(provider=provider, attempt=attempt, total=max_attempts, why=why)


def retry_fields(event: Any) -> dict[str, Any]:
    """What :func:`retry_text` needs, from a ``ProviderRetrying`` event."""
    return {
        "provider": event.provider,
        "attempt": event.attempt,
        "max_attempts": event.max_attempts,
        "kind": event.kind,
        "reason": event.reason,
        "delay": event.delay,
    }


def notice_text(notice_kind: str, text: str, display: dict[str, Any] | None = None) -> str:
    """A notice row's words: the retry line and the engine's pause built here."""
    if notice_kind == "waiting" and display and "provider" in display:
        return retry_text(
            str(display["provider"]),
            int(display["attempt"]),
            int(display["max_attempts"]),
            str(display["kind"]),
            str(display["reason"]),
            float(display["delay"]),
        )
    if notice_kind == "suspended":
        return QCoreApplication.translate(
            "Wording", "The task paused here to wait for your answer."
        )
    return text


def _short_path(path: Any) -> str:
    text = str(path or "").rstrip("/\\")
    if not text or text == ".":
        return QCoreApplication.translate("Wording", "this folder")
    return text.replace("\\", "/").rsplit("/", 1)[-1] or text


def _clip(text: Any, limit: int = 60) -> str:
    one = " ".join(str(text or "").split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def _shell_outcome(result: str) -> int | None:
    import json

    try:
        data = json.loads(result)
    except ValueError:
        return None
    code = data.get("exit_code") if isinstance(data, dict) else None
    return code if isinstance(code, int) else None


def _line_delta(old: Any, new: Any) -> str:
    a = len(str(old or "").splitlines())
    b = len(str(new or "").splitlines())
    return f"+{b} −{a}" if a else f"+{b}"


_CJK_GAP = re.compile(r"(?<=[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]) (?=[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef])")


def tidy(text: str) -> str:
    """No space between two Chinese (or Japanese) characters: a translated phrase
    around a translated word ("列出了 {folder}" with "此文件夹") reads "列出了此文件夹"."""
    return _CJK_GAP.sub("", text)


def tool_title(
    name: str, arguments: dict[str, Any], status: str, result: str = "",
    seconds: float | None = None,
) -> str:
    """See :func:`_tool_title` (the words, tidied for the UI's language)."""
    return tidy(_tool_title(name, arguments, status, result, seconds))


def _tool_title(
    name: str, arguments: dict[str, Any], status: str, result: str = "",
    seconds: float | None = None,
) -> str:
    """A tool call in a few human words: "Read notes-q1.md", "Wrote brief.md (+12
    lines)", "Ran “pytest -q” · exit 0 · 3.2 s". Before it ran (waiting for the
    user, pending) it reads as what it *will* do: "Write brief.md"."""
    done = status in ("ok", "error")
    running = status == "running"
    args = arguments or {}
    path = _short_path(args.get("path"))
    if status == "error" and (failed := _failed_title(name, args, path)):
        return failed
    if name == "read_file":
        if running:
            return QCoreApplication.translate("Wording", "Reading {file}…").format(file=path)
        return QCoreApplication.translate("Wording", "Read {file}").format(file=path)
    if name == "write_file":
        lines = len(str(args.get("content") or "").splitlines())
        if done:
            return QCoreApplication.translate("Wording", "Wrote {file} (+{n} lines)").format(file=path, n=lines)
        return QCoreApplication.translate("Wording", "Write {file} ({n} lines)").format(file=path, n=lines)
    if name == "replace_in_file":
        delta = _line_delta(args.get("old_string"), args.get("new_string"))
        if done:
            return QCoreApplication.translate("Wording", "Edited {file} ({delta})").format(file=path, delta=delta)
        return QCoreApplication.translate("Wording", "Edit {file} ({delta})").format(file=path, delta=delta)
    if name == "apply_patch":
        return QCoreApplication.translate("Wording", "Applied a patch") if done else QCoreApplication.translate("Wording", "Apply a patch")
    if name == "create_deliverable":
        if done:
            return QCoreApplication.translate("Wording", "Created {file}").format(file=path)
        return QCoreApplication.translate("Wording", "Create {file}").format(file=path)
    if name == "list_files":
        return QCoreApplication.translate("Wording", "Listed {folder}").format(folder=path)
    if name in ("grep", "glob"):
        return QCoreApplication.translate("Wording", "Searched files for “{pattern}”").format(pattern=_clip(args.get("pattern"), 40))
    if name == "web_search":
        return QCoreApplication.translate("Wording", "Searched the web for “{query}”").format(query=_clip(args.get("query"), 50))
    if name == "web_fetch":
        url = str(args.get("url") or "")
        host = url.split("://", 1)[-1].split("/", 1)[0]
        return QCoreApplication.translate("Wording", "Opened {site}").format(site=host or _clip(url))
    if name == "run_shell":
        command = _clip(args.get("command"), 50)
        if running:
            return QCoreApplication.translate("Wording", "Running “{command}”…").format(command=command)
        if not done:
            return QCoreApplication.translate("Wording", "Run “{command}”").format(command=command)
        parts = [QCoreApplication.translate("Wording", "Ran “{command}”").format(command=command)]
        code = _shell_outcome(result)
        if code is not None:
            parts.append(QCoreApplication.translate("Wording", "exit {code}").format(code=code))
        if seconds is not None and seconds >= 0.1:
            parts.append(QCoreApplication.translate("Wording", "{secs} s").format(secs=f"{seconds:.1f}"))
        return " · ".join(parts)
    if name.startswith("shell_task"):
        return QCoreApplication.translate("Wording", "Checked a background command")
    if name.startswith("git_"):
        return QCoreApplication.translate("Wording", "git {what}").format(what=name[4:])
    if name == "ask_user":
        return QCoreApplication.translate("Wording", "Asked you: {question}").format(question=_clip(args.get("question"), 60))
    if name == "propose_plan":
        return QCoreApplication.translate("Wording", "Proposed a plan")
    if name == "team_plan" or name.startswith("board_"):
        return _team_title(name, args)
    if name == "request_directory":
        return QCoreApplication.translate("Wording", "Asked for access to {folder}").format(folder=path)
    if name == "todo_write" or name.startswith("todo"):
        return QCoreApplication.translate("Wording", "Updated the to-do list")
    if name == "remember" or name.startswith("memory"):
        return _memory_title(name, done)
    if name in ("explore", "explorer", "spawn_explorer"):
        return QCoreApplication.translate("Wording", "Explored: {task}").format(task=_clip(args.get("task"), 60))
    return humanise_tool(name)


def _team_title(name: str, args: Mapping[str, Any]) -> str:
    """A team's call: the lead's plan, a move on the board (issue 29)."""
    item = _clip(args.get("item") or args.get("item_id") or args.get("title"), 50)
    words = {
        "team_plan": "Proposed the team's plan",
        "board_list": "Looked at the team board",
        "board_create": "Added “{item}” to the board",
        "board_assign": "Assigned {item}",
        "board_transition": "Moved {item} on the board",
        "board_comment": "Commented on {item}",
        "board_result": "Handed in the result of {item}",
        "board_link": "Linked {item}",
        "board_claim": "Took {item}",
    }.get(name)
    if words is None:
        return humanise_tool(name)
    return QCoreApplication.translate("Wording", words).format(item=item or "…")


def _memory_title(name: str, done: bool) -> str:
    """A memory tool's call: "Saved to memory", "Forget a memory"…"""
    if name == "remember":
        if done:
            return QCoreApplication.translate("Wording", "Saved to memory")
        return QCoreApplication.translate("Wording", "Save to memory")
    if name == "memory_update":
        if done:
            return QCoreApplication.translate("Wording", "Updated a memory")
        return QCoreApplication.translate("Wording", "Update a memory")
    if name == "memory_forget":
        if done:
            return QCoreApplication.translate("Wording", "Forgot a memory")
        return QCoreApplication.translate("Wording", "Forget a memory")
    return QCoreApplication.translate("Wording", "Looked at what it remembers")


def _failed_title(name: str, args: dict[str, Any], path: str) -> str:
    """A call that failed is not titled as if it had done its work ("Opened example.com")."""
    if name == "web_fetch":
        url = str(args.get("url") or "")
        host = url.split("://", 1)[-1].split("/", 1)[0]
        return QCoreApplication.translate("Wording", "Couldn't open {site}").format(
            site=host or _clip(url))
    if name == "read_file":
        return QCoreApplication.translate("Wording", "Couldn't read {file}").format(file=path)
    if name == "write_file":
        return QCoreApplication.translate("Wording", "Couldn't write {file}").format(file=path)
    if name == "replace_in_file":
        return QCoreApplication.translate("Wording", "Couldn't edit {file}").format(file=path)
    if name == "apply_patch":
        return QCoreApplication.translate("Wording", "Couldn't apply the patch")
    if name == "create_deliverable":
        return QCoreApplication.translate("Wording", "Couldn't create {file}").format(file=path)
    if name == "list_files":
        return QCoreApplication.translate("Wording", "Couldn't list {folder}").format(folder=path)
    if name == "web_search":
        return QCoreApplication.translate("Wording", "Couldn't search the web for “{query}”").format(
            query=_clip(args.get("query"), 50))
    return ""


def humanise_tool(name: str) -> str:
    """``mcp__github__create_issue`` → "GitHub: create issue", ``send_message`` → "Send message"."""
    parts = name.split("__")
    if len(parts) == 4 and parts[0] == "mcp" and re.fullmatch(r"[0-9a-f]{10}", parts[3]):
        parts = parts[:3]  # a name made unique with a digest (see mcp.tools.tool_name)
    if len(parts) >= 3 and parts[0] == "mcp":
        server, verb = parts[1], " ".join(parts[2:])
        server = {"github": "GitHub", "gitlab": "GitLab"}.get(server.lower(), server.replace("_", " ").title())
        return f"{server}: {verb.replace('_', ' ')}"
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def approval_question(tool: str, arguments: dict[str, Any], target: str | None = None, *,
                      new_file: bool = False) -> str:
    """See :func:`_approval_question` (the words, tidied for the UI's language)."""
    return tidy(_approval_question(tool, arguments, target, new_file=new_file))


def _approval_question(tool: str, arguments: dict[str, Any], target: str | None = None, *,
                       new_file: bool = False) -> str:
    """What an approval asks, as a question: "Write brief.md in ACME/?",
    "Run “pytest -q”?", "Send a message to #sales?"; ``new_file``: the call creates
    the file ("Create report.md?")."""
    args = arguments or {}
    raw = str(args.get("path") or "").replace("\\", "/").rstrip("/")
    file = _short_path(raw)
    folder = raw.rsplit("/", 1)[0] if "/" in raw else ""
    folder = folder.rsplit("/", 1)[-1] if folder else ""
    if tool in ("write_file", "create_deliverable"):
        if new_file or tool == "create_deliverable":
            if folder:
                return QCoreApplication.translate("Wording", "Create {file} in {folder}/?").format(
                    file=file, folder=folder)
            return QCoreApplication.translate("Wording", "Create {file}?").format(file=file)
        if folder:
            return QCoreApplication.translate("Wording", "Write {file} in {folder}/?").format(file=file, folder=folder)
        return QCoreApplication.translate("Wording", "Write {file}?").format(file=file)
    if tool == "replace_in_file":
        return QCoreApplication.translate("Wording", "Change {file}?").format(file=file)
    if tool == "apply_patch":
        return QCoreApplication.translate("Wording", "Apply these changes to your files?")
    if tool == "run_shell":
        return QCoreApplication.translate("Wording", "Run “{command}”?").format(command=_clip(args.get("command"), 70))
    if tool == "git_commit":
        return QCoreApplication.translate("Wording", "Commit these changes?")
    if tool.startswith("git_"):
        return QCoreApplication.translate("Wording", "Run git {what}?").format(what=tool[4:])
    if tool == "create_automation":
        return QCoreApplication.translate("Wording", "Schedule “{name}” to run on its own?").format(
            name=_clip(args.get("name"), 60))
    if tool == "update_automation":
        return QCoreApplication.translate("Wording", "Change a scheduled task?")
    if tool == "delete_automation":
        return QCoreApplication.translate("Wording", "Delete a scheduled task?")
    if tool == "web_fetch":
        source = str(args.get("redirected_from") or "")
        if source:  # the card says where the redirect goes (and from where)
            return QCoreApplication.translate(
                "Wording", "Follow the redirect from {source} to {url}?").format(
                source=_clip(source, 50), url=_clip(args.get("url"), 70))
        return QCoreApplication.translate("Wording", "Open {url}?").format(url=_clip(args.get("url"), 70))
    if tool == "install_tool":
        return QCoreApplication.translate("Wording", "Install {package}?").format(
            package=_clip(args.get("package"), 60))
    if tool == "web_search":
        return QCoreApplication.translate("Wording", "Search the web for “{query}”?").format(query=_clip(args.get("query"), 60))
    if target and any(w in tool for w in ("send", "post", "reply", "message")):
        return QCoreApplication.translate("Wording", "Send a message to {target}?").format(target=_clip(target, 60))
    if target:
        return QCoreApplication.translate("Wording", "{action} on {target}?").format(action=humanise_tool(tool), target=_clip(target, 60))
    return QCoreApplication.translate("Wording", "{action}?").format(action=humanise_tool(tool))


def risk_sentence(risk: str, *, new_file: bool = False) -> str:
    """The risk of a call, explained in one sentence (it starts with :func:`risk_text`);
    ``new_file``: the call creates a file (nothing that is there now is replaced)."""
    if risk == "write_local" and new_file:
        return QCoreApplication.translate("Wording", "{risk}: a new file is created.").format(
            risk=risk_text(risk))
    why = {
        "read": QCoreApplication.translate("Wording", "nothing changes."),
        "write_local": QCoreApplication.translate(
            "Wording", "what the file holds now is replaced."),
        "exec": QCoreApplication.translate(
            "Wording", "a program can do anything you can."),
        "external": QCoreApplication.translate(
            "Wording", "once sent, it cannot be taken back."),
    }
    return QCoreApplication.translate("Wording", "{risk}: {why}").format(
        risk=risk_text(risk), why=why.get(risk, why["external"]))


def risk_line(tool: str, arguments: Mapping[str, Any], risk: str, *,
              new_file: bool = False) -> str:
    """The risk line of an approval card: :func:`risk_sentence`, or for a tool
    install what it installs, where, and that Settings can remove it."""
    if tool == "install_tool" and arguments.get("package"):
        return QCoreApplication.translate(
            "Wording", "Installs {package} in OpenWorker's own tools folder: not system-wide, "
            "no administrator rights. You can remove it any time in Settings › Installed "
            "tools.").format(package=_clip(arguments.get("package"), 60))
    return risk_sentence(risk, new_file=new_file)


def provider_title(provider: str) -> str:
    """A provider's name for people ("Anthropic", "GLM (Z.ai)", "Custom server"), as
    the providers' own registries give it; '' if ``provider`` is none of them."""
    if provider == "custom":
        return QCoreApplication.translate("Wording", "Custom server")
    from openworker_qt.providers.compat import VENDORS
    from openworker_qt.providers.factories import LABELS
    from openworker_qt.providers.local_servers import PRESETS

    vendor = VENDORS.get(provider)
    return (LABELS.get(provider) or (vendor.label if vendor else "")
            or next((p.label for p in PRESETS if p.kind == provider), ""))


def provider_label(model: str) -> str:
    """Who a model string's calls go to, as users know it ("Anthropic"); "the model"
    when the string does not say (a custom server's, a bare name)."""
    prefix, sep, _ = model.partition(":")
    title = provider_title(prefix.lower()) if sep and prefix.lower() != "custom" else ""
    if title:
        return title
    if not sep and model.startswith(("gpt-", "o1", "o3", "o4")):
        return "OpenAI"
    return QCoreApplication.translate("Wording", "the model")


def waiting_for_model_text(model: str) -> str:
    """The status while the turn waits for the model's answer."""
    return QCoreApplication.translate("Wording", "Waiting for {provider}").format(
        provider=provider_label(model))


def answer_opened_text(model: str) -> str:
    """The status once the provider opened its answer, before its first words."""
    return QCoreApplication.translate(
        "Wording", "{provider} started answering · waiting for the first words").format(
        provider=provider_label(model))


def answering_text(model: str) -> str:
    """The status while the answer streams in."""
    return QCoreApplication.translate("Wording", "{provider} is answering").format(
        provider=provider_label(model))


def activity_text(name: str, arguments: dict[str, Any] | None) -> str:
    """See :func:`_activity_text` (the words, tidied for the UI's language)."""
    return tidy(_activity_text(name, arguments))


def _activity_text(name: str, arguments: dict[str, Any] | None) -> str:
    """What a running tool is doing, for the status bar: "Running pytest…"."""
    args = arguments or {}
    if name == "run_shell":
        program = str(args.get("command") or "").strip().split(" ", 1)[0].rsplit("/", 1)[-1]
        if program:
            return QCoreApplication.translate("Wording", "Running {program}…").format(program=program)
        return QCoreApplication.translate("Wording", "Running a command…")
    path = _short_path(args.get("path"))
    words = {
        "read_file": QCoreApplication.translate("Wording", "Reading {file}…").format(file=path),
        "write_file": QCoreApplication.translate("Wording", "Writing {file}…").format(file=path),
        "create_deliverable": QCoreApplication.translate("Wording", "Creating {file}…").format(file=path),
        "replace_in_file": QCoreApplication.translate("Wording", "Editing {file}…").format(file=path),
        "apply_patch": QCoreApplication.translate("Wording", "Editing files…"),
        "list_files": QCoreApplication.translate("Wording", "Looking through {folder}…").format(folder=path),
        "grep": QCoreApplication.translate("Wording", "Searching files…"),
        "glob": QCoreApplication.translate("Wording", "Searching files…"),
        "web_search": QCoreApplication.translate("Wording", "Searching the web…"),
        "web_fetch": QCoreApplication.translate("Wording", "Reading a web page…"),
        "remember": QCoreApplication.translate("Wording", "Saving to memory…"),
        "memory_update": QCoreApplication.translate("Wording", "Updating a memory…"),
        "memory_forget": QCoreApplication.translate("Wording", "Forgetting a memory…"),
        "memory_read": QCoreApplication.translate("Wording", "Reading its notes…"),
    }
    if name in words:
        return words[name]
    return QCoreApplication.translate("Wording", "Using {tool}…").format(tool=humanise_tool(name))


def reason_text(tool: str, reason: str) -> str:
    """Why a call asks, from the permission engine's English reason, in words
    users read ("write_file writes /a/b.md" → "It writes /a/b.md"); a reason this
    does not know is shown as it is."""
    reason = (reason or "").strip()
    if tool and reason.startswith(tool + " "):
        rest = reason[len(tool) + 1:]
        if rest.startswith("writes "):
            return QCoreApplication.translate("Wording", "It writes {paths}").format(paths=rest[7:])
        if rest.startswith("runs a program"):
            return QCoreApplication.translate("Wording", "It runs a program")
        if rest.startswith("acts outside this computer"):
            where = rest[len("acts outside this computer"):].strip(" :")
            if where:
                return QCoreApplication.translate(
                    "Wording", "It acts outside this computer: {where}").format(where=where)
            return QCoreApplication.translate("Wording", "It acts outside this computer")
        if rest.startswith("is "):
            return ""  # "write_file is write local": the risk line says it better
        if rest.startswith("`"):
            return QCoreApplication.translate(
                "Wording", "This command is not on your list of commands that run without asking")
    return reason


#: The permission modes, in the order pickers offer them.
MODES = ("discuss", "plan", "interactive", "auto", "custom")


def mode_name(mode: str) -> str:
    """A permission mode's name, the same in the composer, Settings and the CLI's words."""
    words = {
        "discuss": QCoreApplication.translate("Wording", "Just talk"),
        "plan": QCoreApplication.translate("Wording", "Plan first"),
        "interactive": QCoreApplication.translate("Wording", "Ask before changes"),
        "auto": QCoreApplication.translate("Wording", "Work on its own"),
        "custom": QCoreApplication.translate("Wording", "My rules"),
    }
    return words.get(mode, mode)


def mode_description(mode: str) -> str:
    """What a permission mode lets the agent do, in one line."""
    words = {
        "discuss": QCoreApplication.translate(
            "Wording", "Talks only: no tool that changes anything"),
        "plan": QCoreApplication.translate(
            "Wording", "Reads, then proposes a plan; changes wait until you approve it"),
        "interactive": QCoreApplication.translate(
            "Wording", "Asks you before every change"),
        "auto": QCoreApplication.translate(
            "Wording", "Changes files in its writable folders without asking; asks for the rest"),
        "custom": QCoreApplication.translate(
            "Wording", "Follows your standing rules; asks for the rest"),
    }
    return words.get(mode, "")


#: How much of a call's arguments :func:`arguments_text` shows.
MAX_FIELDS = 20_000


def arguments_text(arguments: Mapping[str, Any]) -> str:
    """A call's arguments as readable fields, one per line ("Command: ls -la"): text
    with its real line breaks (never ``\\n`` escapes), lists and tables indented."""
    lines: list[str] = []
    for key, value in dict(arguments).items():
        label = str(key).replace("_", " ").strip()
        label = label[:1].upper() + label[1:]
        if isinstance(value, str):
            text = value
        elif isinstance(value, bool) or value is None:
            text = {True: QCoreApplication.translate("Wording", "yes"),
                    False: QCoreApplication.translate("Wording", "no"), None: "—"}[value]
        elif isinstance(value, int | float):
            text = str(value)
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False)
        if "\n" in text:
            lines.append(f"{label}:")
            lines.extend("    " + line for line in text.splitlines())
        else:
            lines.append(f"{label}: {text}")
    text = "\n".join(lines)
    return text[:MAX_FIELDS] + ("\n…" if len(text) > MAX_FIELDS else "")
