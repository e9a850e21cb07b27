"""Opening a stored session while its live events keep arriving: the newest page
of rows is read in a worker and painted, read again if events arrived meanwhile
(so no row falls between the snapshot and the reset); then its to-do list and
deliverables, read into the one reducer that live events feed too
(:class:`~openworker_qt.qt.session_panels.SessionPanels`): the panels show its state."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Protocol

from openworker_qt.domain.messages import Message
from openworker_qt.qt.session_panels import PanelsState, SessionPanels, stored_results
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_pages import PagedStore, session_head
from openworker_qt.tools.todo import ToolResultSource
from openworker_qt.ui.artifacts_panel import ArtifactsPanel
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
    for another one stops); ``painted(session, items)``: its rows are on screen.
    ``panels``: the to-do list and deliverables of the session on screen (live tool
    results go to its :meth:`~SessionPanels.apply`)."""

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
        self.panels = SessionPanels()
        self._shown: PanelsState | None = None  # what the two panels show (None: redraw)
        self.panels.listeners.append(self._show_panels)

    def arrived(self, session_id: str) -> None:
        """Something of ``session_id`` arrived live (an event, streamed text)."""
        self._arrived[session_id] = self._arrived.get(session_id, 0) + 1

    def load(self, session_id: str) -> None:
        """Read and paint ``session_id`` (a load still running stops); its panels are
        emptied until its own lists are read."""
        self._shown = None
        self.panels.show(session_id)
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = asyncio.ensure_future(self._load(session_id))

    def loaded(self) -> bool:
        """True once the current session's rows are on screen (tests, benchmarks)."""
        return self._task is None or self._task.done()

    async def _load(self, session_id: str) -> None:
        # Newest page first so a 10,000-message session paints at once (bench/transcript.py);
        # the older rows are built in a worker afterwards and shown as the user scrolls up.
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
        stored = await asyncio.to_thread(stored_results, self.store, session_id)
        if self._current() == session_id:
            self.panels.loaded(session_id, stored)  # (with what arrived live meanwhile)

    def clear(self) -> None:
        """A new session: nothing in its panels."""
        self._shown = None
        self.panels.show(None)

    def _show_panels(self, state: PanelsState, made: str | None) -> None:
        """The panels are views of :attr:`panels`: each redrawn when its part changed;
        a deliverable made live is added (and selected) rather than the list redrawn."""
        shown, self._shown = self._shown, state
        if shown is None or state.todos != shown.todos:
            self.todo.set_items(list(state.todos))
        if made is not None and shown is not None:
            self.artifacts.add_path(made)
        elif shown is None or state.deliverables != shown.deliverables:
            self.artifacts.set_paths(list(state.deliverables))
