"""The system prompt, assembled in one place.

:func:`assemble_system_prompt` puts together, in this order:

1. the persona's own instructions;
2. how to work: narrate progress before each batch of tool calls, deliver files
   (only what the persona's tools make relevant);
3. the environment: operating system, today's date and time zone, the workspace,
   the folders the session may read and change, the permission mode and what it
   allows;
4. the workspace's ``AGENTS.md`` (``CLAUDE.md`` when there is none), size-capped;
5. memory (text rendered by the memory package; a section only when non-empty);
6. the skills catalogue (names and descriptions; ``load_skill`` gives the rest).

The text depends only on its inputs, and the environment names the *date*, not
the time: the same session gets the same prompt on every turn, so providers can
cache it. What changes during a session (the mode, newly granted folders, the
to-do list) is told by :func:`render_reminders`, which the engine adds to the
outbound copy of a request only; it is never stored.

Pure functions, except :func:`read_project_notes` (reads the disk: a worker thread).
"""

from __future__ import annotations

import datetime as dt
import functools
import platform
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from openworker_qt.agents.personas import Persona
from openworker_qt.agents.skills import Skill, catalogue
from openworker_qt.core import fence

__all__ = [
    "MAX_NOTES_CHARS",
    "MODE_WORDS",
    "NOTES_FILES",
    "Environment",
    "ProjectNotes",
    "assemble_system_prompt",
    "current_environment",
    "read_project_notes",
    "render_reminders",
]

NOTES_FILES = ("AGENTS.md", "CLAUDE.md")
MAX_NOTES_CHARS = 20_000

#: What each permission mode lets the agent do, told to the model.
MODE_WORDS: dict[str, str] = {
    "discuss": "discuss: you may read and talk, nothing else. Writing files, running commands, "
               "saving memories and reaching outside services are refused.",
    "plan": "plan: read-only. Investigate, then present your plan with propose_plan; nothing "
            "is changed (no file, no memory) until the user approves it.",
    "interactive": "interactive: reading inside the allowed folders runs freely; writing files, "
                   "running commands and reaching outside services ask the user first (unless "
                   "a rule of the user already allows them).",
    "auto": "auto: writing inside the writable folders and reaching outside services run "
            "without asking; commands not on the user's allowlist still ask, and so does "
            "creating, changing or deleting a scheduled task; anything outside the folders "
            "is refused.",
    "custom": "custom: like interactive, except the tools the user chose run without asking "
              "(commands always follow the allowlist).",
}


@dataclass(frozen=True, slots=True)
class Environment:
    """Where the session works (the inputs of the prompt's environment section)."""

    os_name: str
    today: dt.date
    timezone: str
    workspace: str | None
    read_roots: tuple[str, ...] = ()
    write_roots: tuple[str, ...] = ()
    mode: str = "interactive"


@dataclass(frozen=True, slots=True)
class ProjectNotes:
    """The workspace's instructions for agents (AGENTS.md, or CLAUDE.md)."""

    name: str
    text: str
    truncated: bool = False


@functools.cache
def _os_name() -> str:
    system = platform.system() or "Unknown"
    return {"Darwin": "macOS"}.get(system, system)


def _timezone(now: dt.datetime) -> str:
    name = now.tzname() or "local time"
    offset = now.utcoffset() or dt.timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, mins = divmod(abs(minutes), 60)
    return f"{name}, UTC{sign}{hours:02d}:{mins:02d}"


def current_environment(
    *, workspace: str | None, read_roots: Sequence[str] = (), write_roots: Sequence[str] = (),
    mode: str = "interactive", now: dt.datetime | None = None, os_name: str | None = None,
) -> Environment:
    """The environment now (the local date and time zone; ``now`` for tests)."""
    moment = now if now is not None and now.tzinfo is not None else (
        (now or dt.datetime.now()).astimezone())
    return Environment(
        os_name=os_name or _os_name(), today=moment.date(), timezone=_timezone(moment),
        workspace=workspace, read_roots=tuple(dict.fromkeys(read_roots)),
        write_roots=tuple(dict.fromkeys(write_roots)), mode=mode,
    )


def read_project_notes(workspace: Path | None, *, limit: int = MAX_NOTES_CHARS) -> ProjectNotes | None:
    """The workspace's ``AGENTS.md`` (else ``CLAUDE.md``), cut at ``limit`` characters.
    ``None`` if it has neither (or cannot be read, or it links out of the
    workspace). Blocking: a worker thread."""
    if workspace is None:
        return None
    for name in NOTES_FILES:
        path = Path(workspace) / name
        try:
            if not path.is_file():
                continue
            real = path.resolve()
            if not real.is_relative_to(Path(workspace).resolve()) or fence.within_any(
                    [real], fence.default_sensitive()) is not None:
                continue  # a link out of the workspace, or a secret: never sent to the model
            with path.open("r", encoding="utf-8", errors="replace") as f:
                text = f.read(limit + 1)
        except OSError:
            continue
        text = text.replace("\r\n", "\n").strip()
        if not text:
            continue
        truncated = len(text) > limit
        return ProjectNotes(name=name, text=text[:limit].rstrip(), truncated=truncated)
    return None


_NARRATION = (
    "# How you work\n"
    "- Before each batch of tool calls, write one short sentence saying what you are about to "
    "do and why. The user sees it as live progress.\n"
    "- Independent steps (reading several files, several searches) go in one batch.\n"
    "- When you are done, say in a few lines what you did and what you found. Never claim a "
    "step you did not run or a result you did not see.\n"
    "- A tool call the user refused, or that was not allowed in this mode, did not run: do not "
    "retry it another way; say what you needed and continue with what you can do."
)

_DELIVERY = (
    "# Delivering files\n"
    "- When you make something for the user (a report, a table, a document, slides), save it "
    "as a finished file with create_deliverable: it goes into the outputs/ folder of the "
    "workspace and the user sees it listed beside the chat.\n"
    "- In your final message, name every file you made with its path, in one line each.\n"
    "- Prefer one good file over a long answer pasted into the chat."
)

_FILES_ONLY = (
    "# Files\n"
    "- When you change or create files, name each one with its path in your final message."
)

_NO_TOOLS = (
    "# How you work\n"
    "You have no tools in this conversation: answer from what you know and what the user "
    "shares, and say when you are not sure."
)


def _environment(env: Environment, *, with_folders: bool) -> str:
    lines = [
        "# Environment",
        f"- Operating system: {env.os_name}",
        f"- Today: {env.today.strftime('%A')}, {env.today.isoformat()} ({env.timezone})",
    ]
    if not with_folders:
        return "\n".join(lines)
    lines.append(f"- Workspace: {env.workspace}" if env.workspace
                 else "- Workspace: none (this session has no folder)")
    reads = [r for r in env.read_roots if r not in env.write_roots]
    if env.write_roots and env.mode in ("discuss", "plan"):
        lines.append("- Folders you may read (and change once the user leaves this mode): "
                     + ", ".join(env.write_roots))
    elif env.write_roots:
        lines.append("- Folders you may change (and read): " + ", ".join(env.write_roots))
    if reads:
        lines.append("- Folders you may only read: " + ", ".join(reads))
    lines.append("- Anything else needs the user's permission: ask for a folder with "
                 "request_directory when you need one.")
    words = MODE_WORDS.get(env.mode, f"{env.mode}.")
    lines.append(f"- Permission mode: {words}")
    return "\n".join(lines)


def _notes(notes: ProjectNotes) -> str:
    head = (f"# Project instructions ({notes.name})\n"
            f"The workspace's {notes.name}, written for agents working in it. Follow it unless "
            "the user says otherwise.\n\n")
    tail = (f"\n\n[{notes.name} is longer than this; read the rest with read_file if you need it.]"
            if notes.truncated else "")
    return head + notes.text + tail


def _skills(skills: Sequence[Skill]) -> str:
    return ("# Skills\n"
            "Skills are instructions for particular tasks. When a task matches a skill, call "
            "load_skill with its name first, then follow what it says. A skill's scripts run "
            "with run_shell like any command.\n\n" + catalogue(skills))


def assemble_system_prompt(
    persona: Persona,
    env: Environment,
    *,
    notes: ProjectNotes | None = None,
    memory: str | None = None,
    skills: Sequence[Skill] = (),
    families: Collection[str] | None = None,
) -> str:
    """The session's system prompt (see module docstring). ``families``: the tool
    families offered (default: the persona's)."""
    offered = set(persona.tools if families is None else families)
    tools = bool(offered)
    sections = [persona.body.strip()]
    if tools:
        sections.append(_NARRATION)
        if "deliverables" in offered:
            sections.append(_DELIVERY)
        elif "files" in offered:
            sections.append(_FILES_ONLY)
    else:
        sections.append(_NO_TOOLS)
    sections.append(_environment(env, with_folders=tools))
    if notes is not None and tools:
        sections.append(_notes(notes))
    if memory and memory.strip():
        text = memory.strip()
        sections.append(text if text.startswith("#") else "# Memory\n" + text)
    if skills and "skills" in offered:
        sections.append(_skills(skills))
    return "\n\n".join(sections) + "\n"


def render_reminders(
    *,
    mode: str | None = None,
    granted: Sequence[tuple[str, bool]] = (),
    todos: Sequence[tuple[str, str]] = (),
    notices: Sequence[str] = (),
) -> str:
    """The per-turn reminder ('' when there is nothing to say): ``mode`` the mode the
    session switched to since its prompt was made, ``granted`` folders given since
    (path, writable), ``todos`` the to-do list as (status, text), ``notices`` other
    lines for this turn only (e.g. that saving memories is off)."""
    lines: list[str] = [n.strip() for n in notices if n.strip()]
    if mode:
        lines.append("The permission mode is now " + MODE_WORDS.get(mode, mode + "."))
    if granted:
        lines.append("The user gave you access to: " + ", ".join(
            f"{path} ({'read and change' if writable else 'read only'})"
            for path, writable in granted))
    if todos and any(status != "done" for status, _ in todos):
        marks = {"pending": "[ ]", "in_progress": "[>]", "done": "[x]"}
        lines.append("Your to-do list (keep it current with todo_write):")
        lines += [f"{marks.get(status, '[ ]')} {text}" for status, text in todos]
    if not lines:
        return ""
    return "<system-reminder>\n" + "\n".join(lines) + "\n</system-reminder>"
