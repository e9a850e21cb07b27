"""TranscriptModel: a flat list model of one session's display rows.

It shows stored history (reduced in a worker, see ``transcript_reducer``) and
the live event stream of the :class:`~openworker_qt.qt.bridge.EngineBridge`,
both through the one :class:`~openworker_qt.qt.transcript_reducer.TranscriptReducer`.
The rows, and which of them are exposed, live in a Qt-free
:class:`~openworker_qt.qt.transcript_window.TranscriptWindow` (a bounded window
of pages over a long session, an LRU of pages read, the tail cut: see that
module); this model is its Qt face. It announces each change the window makes
(``dataChanged`` for a growing assistant row, ``rowsInserted`` for new rows, a
reset when the window moves), so the view relayouts at most once per frame
while text streams, and it runs the window's reads in a worker thread, their
results coming back on the loop through a queued signal.

A row's state changes only through this model's methods: :meth:`apply` and the
streaming ones for engine events, :meth:`mark_awaiting` / :meth:`mark_resolved`
for inbox items (the window calls them for the items of the shown session),
:meth:`toggle_expanded` for the view.

Switching to another session drops the rows; on glibc the C heap is trimmed
afterwards (in a worker, :mod:`~openworker_qt.qt.heap_trim`) so reopening big
sessions does not grow the process.

Roles:
    Qt.DisplayRole / Qt.AccessibleTextRole: a plain-text rendering of the row.
    ITEM_ROLE: the :class:`TranscriptItem` itself (for the delegate).
    KIND_ROLE: ``"user" | "assistant" | "tool" | "notice"``.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)

from openworker_qt.core import events as ev
from openworker_qt.qt.heap_trim import trim_heap_later
from openworker_qt.qt.transcript_items import TranscriptItem, describe
from openworker_qt.qt.transcript_pages import SessionPages
from openworker_qt.qt.transcript_paging import WindowListener
from openworker_qt.qt.transcript_window import TranscriptWindow
from openworker_qt.qt.wording import status_text

ITEM_ROLE = int(Qt.ItemDataRole.UserRole) + 1
KIND_ROLE = int(Qt.ItemDataRole.UserRole) + 2
STATUS_ROLE = int(Qt.ItemDataRole.UserRole) + 3
#: Rows of a session big enough that switching away from it trims the C heap.
TRIM_AFTER_ROWS = 500

T = TypeVar("T")
AnyIndex = QModelIndex | QPersistentModelIndex


class _Announcer(WindowListener):
    """The window's changes, told to the model's views."""

    def __init__(self, model: TranscriptModel) -> None:
        self.model = model

    def begin_reset(self, moving: bool) -> None:
        self.model.moving = moving
        self.model.beginResetModel()

    def end_reset(self) -> None:
        self.model.endResetModel()
        self.model.moving = False

    def begin_insert(self, row: int) -> None:
        self.model.beginInsertRows(QModelIndex(), row, row)

    def end_insert(self) -> None:
        self.model.endInsertRows()

    def begin_remove(self, row: int) -> None:
        self.model.beginRemoveRows(QModelIndex(), row, row)

    def end_remove(self) -> None:
        self.model.endRemoveRows()

    def data_changed(self, row: int) -> None:
        idx = self.model.index(row, 0)
        self.model.dataChanged.emit(idx, idx)

    def moved(self) -> None:
        self.model.window_moved.emit()

    def extent_changed(self) -> None:
        self.model.extent_changed.emit()

    def located(self, call_id: str) -> None:
        self.model.located.emit(call_id)

    def full(self) -> None:
        self.model.window_full.emit()


class TranscriptModel(QAbstractListModel):
    """Rows of the session shown in the window (see module docstring).

    Signals:
        window_moved(): the rows were swapped for another part of the same session
            (a reset; ``moving`` is true during it).
        extent_changed(): the session's length in units changed (rows arrived).
        located(str): the older page of a waiting call was read; mark it again.
        window_full(): live rows made the window longer than
            :data:`~openworker_qt.qt.transcript_paging.WINDOW_PAGES` pages and the
            tail; the view answers with :meth:`fit_window`.
    """

    window_moved = Signal()
    extent_changed = Signal()
    located = Signal(str)
    window_full = Signal()
    #: (what to call on the loop, its argument) from the page worker.
    _done = Signal(object, object)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.moving = False  # true while a window move resets the model
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._done.connect(self._on_done)
        self.paging = TranscriptWindow(_Announcer(self), self._run)

    # ------------------------------------------------------------- Qt interface

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        return self.paging.count()

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.rowCount():
            return None
        item = self.paging.item(index.row())
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return describe(item, status_text)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            if item.kind == "tool":
                return f"Tool card, {status_text(item.status)}"
            return {"user": "Your message", "assistant": "Assistant message"}.get(
                item.kind, "Notice"
            )
        if role == ITEM_ROLE:
            return item
        if role == KIND_ROLE:
            return item.kind
        if role == STATUS_ROLE:
            return item.status
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # ---------------------------------------------------------- the page worker

    def _run(self, work: Callable[[], T], done: Callable[[T], None]) -> None:
        """The window's runner: ``work`` in the worker thread, ``done`` on the loop."""
        signal = self._done

        def job() -> None:
            result = work()
            try:
                signal.emit(done, result)
            except RuntimeError:  # the model is gone
                pass

        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="transcript-pages")
        self._worker.submit(job)

    def _on_done(self, done: object, result: object) -> None:
        if callable(done):
            done(result)

    def wait_pages(self, timeout: float = 10.0) -> None:
        """Wait for the page being read (tests and benches; not on the loop)."""
        if self._worker is not None:
            self._worker.submit(lambda: None).result(timeout)

    # ------------------------------------------------------------------ session

    @property
    def session_id(self) -> str:
        return self.paging.session_id

    @property
    def store(self) -> Any:
        """The store a short session's live rows are paged from once it grows (the
        window sets it); a paged session's pages bring their own."""
        return self.paging.store

    @store.setter
    def store(self, store: Any) -> None:
        self.paging.store = store

    def reset(self, session_id: str, items: list[TranscriptItem], *,
              pages: SessionPages | None = None) -> None:
        """Show ``items``: a whole session, or with ``pages`` the newest page (the
        tail) of a longer one, whose older pages are read as the view asks."""
        held = self.paging.reset(session_id, items, pages=pages)
        if held >= TRIM_AFTER_ROWS:
            # The rows of a big session were just freed: hand the heap back once the
            # view dropped what it cached for them too.
            QTimer.singleShot(200, trim_heap_later)

    # What tests wait on.
    @property
    def _pages(self) -> SessionPages | None:
        return self.paging.pages

    @property
    def _cutting(self) -> bool:
        return self.paging.cutting

    @property
    def _locating(self) -> set[str]:
        return self.paging.locating

    # ------------------------------------------- the window's rows and extent

    @property
    def items(self) -> list[TranscriptItem]:
        """The exposed rows (a new list)."""
        return self.paging.items

    def newest_rows(self) -> list[TranscriptItem]:
        return self.paging.newest_rows()

    def item(self, row: int) -> TranscriptItem:
        return self.paging.item(row)

    def tool_row(self, call_id: str) -> int | None:
        return self.paging.tool_row(call_id)

    def find_tool(self, call_id: str) -> TranscriptItem | None:
        return self.paging.find_tool(call_id)

    def paged(self) -> bool:
        return self.paging.paged()

    def window(self) -> tuple[int, int, bool]:
        return self.paging.window()

    def at_end(self) -> bool:
        return self.paging.at_end()

    def has_older(self) -> bool:
        return self.paging.has_older()

    def cached_pages(self) -> int:
        return self.paging.cached_pages()

    def reading(self) -> bool:
        return self.paging.reading()

    def total_units(self) -> float:
        return self.paging.total_units()

    def units_of_row(self, row: int, fraction: float = 0.0) -> float:
        return self.paging.units_of_row(row, fraction)

    def row_of_units(self, units: float) -> tuple[int, float] | None:
        return self.paging.row_of_units(units)

    def covers(self, units: float, margin_pages: int = 0) -> bool:
        return self.paging.covers(units, margin_pages)

    def page_of_units(self, units: float) -> int:
        return self.paging.page_of_units(units)

    def request_units(self, units: float) -> None:
        self.paging.request_units(units)

    def request_shift(self, older: bool) -> bool:
        return self.paging.request_shift(older)

    def fit_window(self, reading_row: int | None = None) -> None:
        self.paging.fit_window(reading_row)

    # ------------------------------------------------------- changing rows

    def apply(self, event: ev.Event) -> None:
        """Update rows for one event of this model's session (see TranscriptReducer)."""
        self.paging.apply(event)

    def append_text(self, text: str) -> None:
        """Streamed assistant text (coalesced deltas from the bridge)."""
        self.paging.append_text(text)

    def append_reasoning(self, text: str) -> None:
        self.paging.append_reasoning(text)

    def append(self, item: TranscriptItem) -> int:
        return self.paging.append(item)

    def add_queued(self, text: str) -> TranscriptItem:
        return self.paging.add_queued(text)

    def drop_queued(self) -> None:
        self.paging.drop_queued()

    def settle_queued(self, text: str) -> bool:
        return self.paging.settle_queued(text)

    def changed(self, row: int) -> None:
        """Row ``row`` renders differently (its state, or a card placed on it)."""
        self.paging.changed(row)

    def toggle_expanded(self, row: int) -> None:
        self.paging.toggle_expanded(row)

    def reveal_call(self, call_id: str) -> int | None:
        return self.paging.reveal_call(call_id)

    def mark_awaiting(self, call_id: str, item_id: int, *, reason: str = "",
                      target: str = "") -> int | None:
        return self.paging.mark_awaiting(call_id, item_id, reason=reason, target=target)

    def mark_resolved(self, call_id: str, item_id: int) -> int | None:
        return self.paging.mark_resolved(call_id, item_id)
