"""A real engine world for the Qt adapter tests: SQLite store, inbox, session manager.

Everything is real: the turn engine (through the :class:`SessionManager` the app
uses), the scripted provider, the permission engine, the inbox approver and
questioner, the tools. ``World.log`` records engine events and inbox changes in
the order they happened, as the window's listeners see them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.inbox import Inbox, InboxItem
from openworker_qt.core.messages import Capabilities
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.provider_api import ProviderResolver
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import Tool, ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.storage.conversations import ConversationStore, SessionInfo
from openworker_qt.storage.db import Database
from openworker_qt.tools.files import file_tools
from openworker_qt.tools.interaction import interaction_tools
from tests.core.helpers import StaticResolver

SECRET = "sk-test-0123456789abcdef"
SKIP = {"uid", "ts", "rev", "started", "finished"}  # identity and timing, not what a row shows


def fields_of(rows: list[TranscriptItem]) -> list[dict[str, Any]]:
    """Rows as comparable values, field by field."""
    names = [f.name for f in fields(TranscriptItem) if f.name not in SKIP]
    return [{n: getattr(r, n) for n in names} for r in rows]


def redact(text: str) -> str:
    return text.replace(SECRET, "[redacted]")


class World:
    """One process's worth of core services on a database in ``tmp``."""

    def __init__(
        self,
        tmp: Path,
        turns: list[dict[str, Any]],
        *,
        wait: bool = True,
        tools: list[Tool] | None = None,
        caps: Capabilities | None = None,
        max_iterations: int = 25,
        resolver: ProviderResolver | None = None,
    ) -> None:
        self.tmp = tmp
        self.workspace = tmp / "ws"
        self.workspace.mkdir(exist_ok=True)
        self.db = Database(tmp / "state.sqlite3")
        self.store = ConversationStore(self.db)
        self.inbox = Inbox(self.db)
        self.provider = ScriptedProvider(turns, caps=caps)
        self.answers: dict[str, str] = {}
        self.log: list[tuple[str, Any]] = []
        extra = list(tools or [])
        approver = InboxApprover(self.inbox, wait=wait, poll=0.02)
        questioner = InboxQuestioner(self.inbox, wait=wait, poll=0.02)
        self.manager = SessionManager(
            self.store,
            resolver or StaticResolver(self.provider),
            tools_for=lambda info: ToolRegistry([*file_tools(), *interaction_tools(), *extra]),
            decider_for=self._decider,
            approver_for=lambda info: approver,
            questioner_for=lambda info: questioner,
            default_model="scripted",
            max_iterations=max_iterations,
            redact=redact,
        )
        self.manager.listeners.append(lambda event: self.log.append(("event", event)))
        self.inbox.listeners.append(lambda item: self.log.append(("inbox", item)))
        self.inbox.listeners.append(self._answer)

    def _decider(self, info: SessionInfo) -> PermissionEngine:
        sid = info.id

        def mode() -> str:
            current = self.store.get_session(sid)
            return current.mode if current else info.mode

        return PermissionEngine(workspace=info.workspace, mode=mode)

    def _answer(self, item: InboxItem) -> None:
        """Answer an ask the script knows, soon after it appears (as a user would)."""
        answer = self.answers.get(item.tool_call_id or "")
        if item.pending and answer is not None:
            asyncio.get_running_loop().call_soon(
                lambda: self.inbox.resolve(item.id, answer, by="test"))

    def session(self, **fields: Any) -> str:
        fields.setdefault("workspace", str(self.workspace))
        return str(self.manager.create_session(**fields).id)

    def events(self) -> list[ev.Event]:
        return [x for kind, x in self.log if kind == "event"]

    def types(self) -> set[str]:
        return {e.type for e in self.events()}

    def close(self) -> None:
        self.db.close()


async def until(predicate: Callable[[], object], timeout: float = 10.0,  # noqa: ASYNC109
                what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)
