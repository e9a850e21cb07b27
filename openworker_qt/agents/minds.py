"""What a session's persona means for its engine: the system prompt, the tools
offered and the per-turn reminders (the runtime plugs these into its sessions).

:meth:`SessionMinds.prepare` runs before each turn, in a worker thread: it loads
the personas, the workspace's ``AGENTS.md`` and the skills, and (once per
session) the memory text. :meth:`system_prompt`, :meth:`tools` and
:meth:`reminder` then only read what it cached, so the loop never waits on the
disk. A session whose sources were never prepared gets a prompt without them
(the next turn's preparation fills them in).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from openworker_qt.agents.families import filter_tools
from openworker_qt.agents.personas import Persona, PersonaRegistry
from openworker_qt.agents.prompt import (
    ProjectNotes,
    assemble_system_prompt,
    current_environment,
    read_project_notes,
    render_reminders,
)
from openworker_qt.agents.skills import Skill, discover
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.storage.conversations import SessionInfo

__all__ = ["SessionMinds"]

log = logging.getLogger(__name__)

Message = Mapping[str, Any]


class RootsAndMode(Protocol):
    """What the prompt reads of a session's permission engine."""

    @property
    def mode(self) -> Any: ...

    def writable_roots(self) -> list[Path]: ...

    def read_roots(self) -> list[Path]: ...


@dataclass(frozen=True, slots=True)
class _Sources:
    notes: ProjectNotes | None
    skills: tuple[Skill, ...]


@dataclass(slots=True)
class _Baseline:
    """What the session's current prompt says (reminders tell what changed since)."""

    mode: str
    roots: frozenset[str]


class SessionMinds:
    def __init__(
        self,
        personas: PersonaRegistry,
        *,
        user_skills: Path | None,
        decider_for: Callable[[SessionInfo], RootsAndMode],
        memory_for: Callable[[SessionInfo], str | None] | None = None,
        notice_for: Callable[[SessionInfo], str] | None = None,
        now: Callable[[], Any] | None = None,
    ) -> None:
        """``decider_for``: the session's permission engine (its mode and folders,
        read live); ``memory_for(info)``: the memory text of a session
        (blocking; read once per session, in :meth:`prepare`); ``notice_for(info)``:
        a notice for the per-call reminder only, e.g. "saving memories is off"
        (blocking; read again at every turn's preparation)."""
        self.personas = personas
        self.user_skills = user_skills
        self.decider_for = decider_for
        self.memory_for = memory_for
        self.notice_for = notice_for
        self._notices: dict[str, str] = {}
        self.now = now
        self._sources: dict[str, _Sources] = {}
        self._memory: dict[str, str | None] = {}
        self._baseline: dict[str, _Baseline] = {}
        self._deciders: dict[tuple[str, str], RootsAndMode] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ preparation

    def warm(self, info: SessionInfo) -> None:
        """Read what the session's prompt needs (blocking: a worker thread)."""
        self.personas.load()
        key = info.workspace or ""
        workspace = Path(info.workspace) if info.workspace else None
        sources = _Sources(read_project_notes(workspace),
                           tuple(discover(workspace, self.user_skills)))
        memory: str | None = None
        fetch = self.memory_for is not None and info.id not in self._memory
        if fetch and self.memory_for is not None:
            try:
                memory = self.memory_for(info)
            except Exception:
                log.exception("reading the memory of session %s failed", info.id)
        notice = ""
        if self.notice_for is not None:
            try:
                notice = self.notice_for(info) or ""
            except Exception:
                log.exception("reading the notices of session %s failed", info.id)
        with self._lock:
            self._sources[key] = sources
            self._notices[info.id] = notice
            if fetch:
                self._memory[info.id] = memory

    async def prepare(self, info: SessionInfo) -> None:
        await asyncio.to_thread(self.warm, info)

    def forget(self, session_id: str) -> None:
        """The session's memory snapshot is read again on its next preparation."""
        with self._lock:
            self._memory.pop(session_id, None)
            for key in [k for k in self._deciders if k[0] == session_id]:
                del self._deciders[key]

    # ------------------------------------------------------------ what the engine gets

    def _decider(self, info: SessionInfo) -> RootsAndMode:
        """The session's permission engine (it reads the mode and folders live, so one
        per session serves every turn)."""
        key = (info.id, info.workspace or "")
        decider = self._deciders.get(key)
        if decider is None:
            decider = self._deciders[key] = self.decider_for(info)
        return decider

    def persona(self, info: SessionInfo) -> Persona:
        return self.personas.get(info.persona)

    def uses_services(self, info: SessionInfo) -> bool:
        """Whether the session's persona is offered tools from outside the app (MCP
        servers, connectors): the ``connectors`` family."""
        return "connectors" in self.persona(info).tools

    def tools(self, info: SessionInfo, registry: ToolRegistry) -> ToolRegistry:
        """The tools of ``registry`` the session's persona offers (an installed persona
        that names its connectors gets only theirs: its own allowlist)."""
        persona = self.persona(info)
        services = persona.connectors if persona.connectors and not persona.builtin else None
        return filter_tools(registry, persona.tools, services)

    def system_prompt(self, info: SessionInfo) -> str:
        persona = self.persona(info)
        decider = self._decider(info)
        mode = _mode_name(decider)
        writes = tuple(str(p) for p in decider.writable_roots())
        reads = tuple(str(p) for p in decider.read_roots())
        with self._lock:
            sources = self._sources.get(info.workspace or "", _Sources(None, ()))
            memory = self._memory.get(info.id)
            self._baseline[info.id] = _Baseline(mode, frozenset(reads))
        env = current_environment(
            workspace=info.workspace or None, read_roots=reads, write_roots=writes, mode=mode,
            now=self.now() if self.now is not None else None,
        )
        return assemble_system_prompt(persona, env, notes=sources.notes, memory=memory,
                                      skills=sources.skills)

    def reminder(self, info: SessionInfo) -> Callable[[Sequence[Message]], str]:
        """The engine's per-call reminder for the session: what changed since its
        prompt was made (mode, granted folders) and the open to-do list."""
        sid = info.id
        scanned = 0
        todos: list[tuple[str, str]] = []
        decider = self._decider(info)

        def remind(history: Sequence[Message]) -> str:
            nonlocal scanned, todos
            if len(history) < scanned:  # the history was reloaded
                scanned, todos = 0, []
            for msg in history[scanned:]:
                found = _todos_of(msg)
                if found is not None:
                    todos = found
            scanned = len(history)
            base = self._baseline.get(sid)
            mode: str | None = None
            granted: list[tuple[str, bool]] = []
            if base is not None:
                now_mode = _mode_name(decider)
                mode = now_mode if now_mode != base.mode else None
                writes = {str(p) for p in decider.writable_roots()}
                granted = [(r, r in writes) for r in (str(p) for p in decider.read_roots())
                           if r not in base.roots]
            notice = self._notices.get(sid, "")
            return render_reminders(mode=mode, granted=granted, todos=todos,
                                    notices=(notice,) if notice else ())

        return remind


def _mode_name(decider: Any) -> str:
    """The decider's mode as its name (read once: for a session, each reading looks up
    the session's row and its folder's config; the reminder runs before every call)."""
    mode = decider.mode
    return str(getattr(mode, "value", mode))


def _todos_of(msg: Message) -> list[tuple[str, str]] | None:
    """The to-do list a stored ``todo_write`` result carries (None for other messages)."""
    if msg.get("role") != "tool" or msg.get("name") != "todo_write":
        return None
    if msg.get("status", "ok") != "ok":
        return None
    display = msg.get("_display")
    items = display.get("todos") if isinstance(display, Mapping) else None
    if not isinstance(items, list):
        return None
    out = []
    for item in items:
        if isinstance(item, Mapping):
            out.append((str(item.get("status", "pending")), str(item.get("text", ""))))
    return out
