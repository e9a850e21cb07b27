"""Skills: folders holding a ``SKILL.md`` (the format other agents use too).

``SKILL.md`` has YAML front matter with ``name`` and ``description`` (and an
optional ``allowed-tools``) and a Markdown body; the folder may also hold
resources and scripts. Only the catalogue (name: description) goes into the
system prompt; :func:`load_skill_tool` gives the model the body on demand, with
the list of the skill's files. A script of a skill runs through the shell tool,
so it is gated like any other command; ``allowed-tools`` is shown to the model
as the skill's advice and grants nothing.

Where skills are found, first match of a name wins:

1. the workspace's ``.openworker/skills/``,
2. the workspace's ``.claude/skills/`` (skill folders made for other agents work as is),
3. the user's skills folder (``skills/`` in the app's data folder).

Discovery reads the disk: call :func:`discover` from a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openworker_qt.agents.frontmatter import FrontMatterError, split
from openworker_qt.core import fence
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult

__all__ = ["Skill", "SkillError", "catalogue", "discover", "load_skill_tool", "skill_folders"]

log = logging.getLogger(__name__)

WORKSPACE_SKILL_DIRS = (".openworker/skills", ".claude/skills")
MAX_SKILL_BYTES = 256 * 1024
MAX_DESCRIPTION = 400
MAX_SKILLS = 200
MAX_RESOURCES = 100
#: The catalogue in the system prompt stays bounded: at most this many skills and
#: characters; the rest are named by ``load_skill("*")``.
CATALOGUE_MAX_SKILLS = 50
CATALOGUE_MAX_CHARS = 6_000
EVERY_SKILL = "*"


class SkillError(ValueError):
    """A SKILL.md that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    description: str
    folder: Path
    allowed_tools: tuple[str, ...] = ()
    origin: str = "user"  # "workspace" or "user"

    @property
    def file(self) -> Path:
        return self.folder / "SKILL.md"


def skill_folders(workspace: Path | None, user_dir: Path | None) -> list[tuple[Path, str]]:
    """The folders searched for skills, in order of precedence."""
    out: list[tuple[Path, str]] = []
    if workspace is not None:
        out += [(Path(workspace) / d, "workspace") for d in WORKSPACE_SKILL_DIRS]
    if user_dir is not None:
        out.append((Path(user_dir), "user"))
    return out


def _allowed(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if isinstance(value, list):
        return tuple(str(v).strip() for v in value if str(v).strip())
    return ()


def read_skill(folder: Path, origin: str = "user") -> tuple[Skill, str]:
    """The skill in ``folder`` and its body; :class:`SkillError` if it is not usable."""
    path = folder / "SKILL.md"
    try:
        if path.stat().st_size > MAX_SKILL_BYTES:
            raise SkillError(f"{path} is larger than {MAX_SKILL_BYTES // 1024} KB")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SkillError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise SkillError(f"{path} is not UTF-8 text") from exc
    try:
        meta, body = split(text, source=str(path))
    except FrontMatterError as exc:
        raise SkillError(str(exc)) from exc
    name = str(meta.get("name") or folder.name).strip()
    description = " ".join(str(meta.get("description") or "").split())
    if not name or any(c in name for c in "\n/\\"):
        raise SkillError(f"{path}: 'name' must be a short name")
    if not description:
        raise SkillError(f"{path}: 'description' is missing (it tells the agent when to use it)")
    if len(description) > MAX_DESCRIPTION:
        description = description[: MAX_DESCRIPTION - 1].rstrip() + "…"
    skill = Skill(name=name, description=description, folder=folder,
                  allowed_tools=_allowed(meta.get("allowed-tools", meta.get("allowed_tools"))),
                  origin=origin)
    return skill, body


#: Parsed SKILL.md files by path, with the (mtime, size) they were parsed at: each
#: turn's discovery only stats the files of skills that did not change.
_parsed: dict[Path, tuple[tuple[int, int], Skill | SkillError]] = {}
_parsed_lock = threading.Lock()


def _cached_skill(folder: Path, origin: str) -> Skill:
    path = folder / "SKILL.md"
    st = path.stat()
    signature = (st.st_mtime_ns, st.st_size)
    with _parsed_lock:
        hit = _parsed.get(path)
    if hit is not None and hit[0] == signature:
        found = hit[1]
    else:
        try:
            found, _ = read_skill(folder, origin)
        except SkillError as exc:
            found = exc
            log.warning("skipping a skill: %s", exc)
        with _parsed_lock:
            _parsed[path] = (signature, found)
    if isinstance(found, SkillError):
        raise found
    return found if found.origin == origin else Skill(
        found.name, found.description, found.folder, found.allowed_tools, origin)


def discover(workspace: Path | None, user_dir: Path | None) -> list[Skill]:
    """Every usable skill, sorted by name (blocking: a worker thread).

    A workspace's skill must be inside the workspace once links are followed: a
    folder from elsewhere (a cloned repository) cannot make the agent read, say,
    a key file by linking its SKILL.md there."""
    found: dict[str, Skill] = {}
    inside = Path(workspace).resolve() if workspace is not None else None
    private = fence.default_sensitive()
    for root, origin in skill_folders(workspace, user_dir):
        try:
            entries = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            continue
        # The user's skills folder lives in the app's data folder, which is kept
        # private from the model's file tools: a skill there is the user's own and
        # loads, unless its SKILL.md leads out of the folder into a private place.
        own = root.resolve() if origin == "user" else None
        kept = private if own is None else tuple(
            p for p in private if not fence.is_within(own, Path(p)))
        for folder in entries:
            real = (folder / "SKILL.md").resolve()
            if origin == "workspace" and inside is not None and not real.is_relative_to(inside):
                log.warning("skipping the skill %s: it leads outside the workspace", folder)
                continue
            guard = kept if own is not None and real.is_relative_to(own) else private
            if fence.within_any([real], guard) is not None:
                log.warning("skipping the skill %s: it is in a folder kept private", folder)
                continue
            try:
                skill = _cached_skill(folder, origin)
            except (OSError, SkillError):
                continue  # no SKILL.md, or one that cannot be used (logged once)
            found.setdefault(skill.name, skill)
            if len(found) >= MAX_SKILLS:
                break
    return sorted(found.values(), key=lambda s: s.name.lower())


def catalogue(skills: Sequence[Skill], *, max_skills: int | None = CATALOGUE_MAX_SKILLS,
              max_chars: int | None = CATALOGUE_MAX_CHARS) -> str:
    """One line per skill: ``- name: description``; beyond ``max_skills`` lines or
    ``max_chars`` characters, one last line says how many more there are and how to
    list them (``None``: no bound)."""
    lines: list[str] = []
    used = 0
    for skill in skills:
        line = f"- {skill.name}: {skill.description}"
        if (max_skills is not None and len(lines) >= max_skills) or (
                max_chars is not None and lines and used + len(line) + 1 > max_chars):
            break
        lines.append(line)
        used += len(line) + 1
    more = len(skills) - len(lines)
    if more:
        lines.append(f"- … {more} more skill{'s' if more != 1 else ''} — use load_skill with "
                     f"the name \"{EVERY_SKILL}\" to list them all")
    return "\n".join(lines)


def _resources(folder: Path) -> list[str]:
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for f in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, f), folder)
            if rel != "SKILL.md" and not f.startswith("."):
                out.append(rel.replace(os.sep, "/"))
            if len(out) > MAX_RESOURCES:
                return out
    return out


def render_skill(skill: Skill, body: str) -> str:
    """What ``load_skill`` returns: the body, then where its files are."""
    parts = [f"# Skill: {skill.name}", f"Folder: {skill.folder}", "", body.strip()]
    if skill.allowed_tools:
        parts += ["", "Tools this skill expects: " + ", ".join(skill.allowed_tools)]
    files = _resources(skill.folder)
    if files:
        shown = files[:MAX_RESOURCES]
        parts += ["", "Files of this skill (paths relative to its folder; read them with "
                  "read_file, run its scripts with run_shell):"]
        parts += [f"- {f}" for f in shown]
        if len(files) > MAX_RESOURCES:
            parts.append("- … and more (list the folder to see them all)")
    return "\n".join(parts) + "\n"


def load_skill(name: str, workspace: Path | None, user_dir: Path | None) -> str:
    """The rendered skill ``name`` (``"*"``: the whole catalogue); :class:`SkillError`
    naming the known ones if unknown."""
    skills = discover(workspace, user_dir)
    if name == EVERY_SKILL and not any(s.name == name for s in skills):
        if not skills:
            return "No skills are installed."
        return (f"Every skill ({len(skills)}); load one by its name:\n"
                + catalogue(skills, max_skills=None, max_chars=None))
    for skill in skills:
        if skill.name == name:
            _, body = read_skill(skill.folder, skill.origin)
            return render_skill(skill, body)
    known = ", ".join(s.name for s in skills) or "none are installed"
    raise SkillError(f"no skill named {name!r} (known skills: {known})")


def load_skill_tool(user_dir: Callable[[], Path | None]) -> Tool:
    """The ``load_skill`` tool (READ): the skill's instructions and files, by name.
    ``user_dir()``: the user's skills folder (the session's workspace gives the rest)."""

    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        name = str(args.get("name") or "").strip()
        if not name:
            return ToolResult("give the name of a skill from the catalogue", is_error=True)
        try:
            text = await asyncio.to_thread(load_skill, name, ctx.workspace, user_dir())
        except SkillError as exc:
            return ToolResult(str(exc), is_error=True)
        return ToolResult(text)

    return Tool(
        name="load_skill",
        description=(
            "Load a skill from the skills catalogue in your instructions: returns its full "
            "instructions and the list of its files. Load a skill before doing a task it "
            "covers, then follow it. The name \"*\" lists every skill when the catalogue "
            "says there are more."
        ),
        parameters={
            "type": "object",
            "properties": {"name": {"type": "string",
                                    "description": "The skill's name (\"*\": list them all)."}},
            "required": ["name"],
        },
        handler=handler,
        risk=RiskClass.READ,
        target_arg="name",
        concurrency_safe=True,
    )
