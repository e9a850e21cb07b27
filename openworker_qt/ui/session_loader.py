"""Opening a stored session while its live events keep arriving: the newest page
of rows is read in a worker and painted, read again if events arrived meanwhile
(so no row falls between the snapshot and the reset); then its to-do list and
deliverables, unless live updates already replaced them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Protocol

from openworker_qt.domain.messages import Message
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_pages import PagedStore, session_head
from openworker_qt.tools.todo import TodoItem, ToolResultSource, stored_todos
from openworker_qt.ui.artifacts_panel import ArtifactsPanel, stored_deliverables
from openworker_qt.ui.todo_panel import TodoPanel


class StoredSessions(PagedStore, ToolResultSource, Protocol):
    """What opening a session reads of the conversation store (the runtime's is one):
    its newest page and message count, the paging reads, its tools' last results."""

    def newest_messages(
        self, session_id: str, limit: int = ..., *, before: int | None = None
    ) -> tuple[list[Message], int | None]: ...

    def count(self, session_id: str) -> int: ...


#: Reads of the newest page at most, while events keep arriving during each.
READS = 5


class SessionLoader:
    """See module docstring. ``current()``: the session the window shows (a load
    for another one stops); ``painted(session, items)``: its rows are on screen."""

    def __init__(self, store: StoredSessions, transcript: TranscriptModel,
                 todo: TodoPanel, artifacts: ArtifactsPanel, *,
                 current: Callable[[], str | None],
                 painted: Callable[[str, Sequence[TranscriptItem]], None]) -> None:
        self.store = store
        self.transcript = transcript
        self.todo = todo
        self.artifacts = artifacts
        self._current = current
        self._painted = painted
        self._task: asyncio.Task[None] | None = None
        # what arrived per session (events, text): a load that saw some arrive while it
        # read the store reads again
        self._arrived: dict[str, int] = {}
        self._todo_updates = 0  # live list changes, so a slower load never shows an older one
        self._deliverable_updates = 0  # (the same, for the deliverables panel)

    def arrived(self, session_id: str) -> None:
        """Something of ``session_id`` arrived live (an event, streamed text)."""
        self._arrived[session_id] = self._arrived.get(session_id, 0) + 1

    def load(self, session_id: str) -> None:
        """Read and paint ``session_id`` (a load still running stops); its panels are
        emptied until its own lists are read."""
        self.show_todos([])
        self.show_deliverables([])
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = asyncio.ensure_future(self._load(session_id))

    def loaded(self) -> bool:
        """True once the current session's rows are on screen (tests, benchmarks)."""
        return self._task is None or self._task.done()

    async def _load(self, session_id: str) -> None:
        # Newest page first so a 10,000-message session paints at once (bench/transcript.py);
        # the older rows are built in a worker afterwards and shown as the user scrolls up.
        updates = self._todo_updates
        made = self._deliverable_updates
        for _attempt in range(READS):
            arrived = self._arrived.get(session_id, 0)
            items, pages = await asyncio.to_thread(session_head, self.store, session_id)
            if self._current() != session_id:
                return
            if self._arrived.get(session_id, 0) == arrived:
                break  # nothing came in while reading: the snapshot is current
        # Painted before the to-do list and the deliverables are read: their queries
        # scan the session's tool results (~0.3 s at 100,000 messages, bench/transcript.py).
        self.transcript.reset(session_id, items, pages=pages)
        self._painted(session_id, items)
        todos, deliverables = await asyncio.gather(
            asyncio.to_thread(stored_todos, self.store, session_id),
            asyncio.to_thread(stored_deliverables, self.store, session_id))
        if self._current() != session_id:
            return
        if updates == self._todo_updates:
            self.todo.set_items(todos)
        if made == self._deliverable_updates:
            self.artifacts.set_paths(deliverables)

    def show_todos(self, todos: list[TodoItem]) -> None:
        """The to-do list changed live (or the session changed)."""
        self._todo_updates += 1
        self.todo.set_items(todos)

    def show_deliverables(self, paths: list[str]) -> None:
        """The deliverables shown now (a new session: none)."""
        self._deliverable_updates += 1
        self.artifacts.set_paths(paths)

    def add_deliverable(self, path: str) -> None:
        """A deliverable was made live."""
        self._deliverable_updates += 1
        self.artifacts.add_path(path)
