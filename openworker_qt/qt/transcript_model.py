"""TranscriptModel: a flat list model of one session's display rows.

It shows stored history (reduced in a worker, see ``transcript_reducer``) and
the live event stream of the :class:`~openworker_qt.qt.bridge.EngineBridge`,
both through the one :class:`~openworker_qt.qt.transcript_reducer.TranscriptReducer`:
the model holds the rows and announces each change the reducer makes
(``dataChanged`` for a growing assistant row, ``rowsInserted`` for new rows), so
the view relayouts at most once per frame while text streams.

A row's state changes only through this model's methods: :meth:`apply` and the
streaming ones for engine events, :meth:`mark_awaiting` / :meth:`mark_resolved`
for inbox items (the window calls them for the items of the shown session),
:meth:`toggle_expanded` for the view.

Long sessions are exposed newest-first: :meth:`reset` takes the newest page of
rows (painted at once); then either :meth:`set_older` hands over all the older
rows at once, or :meth:`page_older` reads them from SQLite a page at a time in
a worker, one page ahead of what the view shows (so opening a 100,000-message
session neither builds 100,000 rows nor holds them); :meth:`fetch_older`
prepends them a chunk at a time as the user scrolls up. A view only ever lays
out the rows it was given, so a session of any length paints as fast as a
short one. :meth:`load_all_older` reads every older page (to jump to the start).

Switching to another session drops the rows; on glibc the C heap is trimmed
afterwards (in a worker) so reopening big sessions does not grow the process.

Roles:
    Qt.DisplayRole / Qt.AccessibleTextRole: a plain-text rendering of the row.
    ITEM_ROLE: the :class:`TranscriptItem` itself (for the delegate).
    KIND_ROLE: ``"user" | "assistant" | "tool" | "notice"``.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import ctypes.util
import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_items import TranscriptItem, describe, status_label
from openworker_qt.qt.transcript_reducer import (
    MessagePages,
    TranscriptReducer,
    items_from_history,
)

log = logging.getLogger(__name__)

ITEM_ROLE = int(Qt.ItemDataRole.UserRole) + 1
KIND_ROLE = int(Qt.ItemDataRole.UserRole) + 2
STATUS_ROLE = int(Qt.ItemDataRole.UserRole) + 3
FETCH_CHUNK = 120  # older rows prepended per fetch (about three screens)
OLDER_PAGE = 600  # messages read from SQLite per older page (in a worker)
#: Rows of a session big enough that switching away from it trims the C heap.
TRIM_AFTER_ROWS = 500

#: Reads a page of older rows: (store, session id, before message id) -> (rows, next id).
Pager = Callable[[str, int], tuple[list[TranscriptItem], int | None]]


def older_page(store: MessagePages, session_id: str, before: int,
               limit: int = OLDER_PAGE) -> tuple[list[TranscriptItem], int | None]:
    """Rows of the page of messages just older than ``before`` and the id where the
    messages older still end (``None``: it reached the start). Worker thread."""
    messages, first = store.newest_messages(session_id, limit, before=before)  # type: ignore[call-arg]
    return items_from_history(messages), first


_libc: Any = None


def trim_heap() -> bool:
    """Give the C heap's free pages back to the system (glibc ``malloc_trim``);
    False where the platform has no such call. May take a few ms: call it from a
    worker thread."""
    global _libc
    if not sys.platform.startswith("linux"):
        return False
    try:
        if _libc is None:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = getattr(_libc, "malloc_trim", None)
        if trim is None:
            return False
        trim(0)
        return True
    except OSError:
        return False


def trim_heap_later() -> threading.Thread:
    thread = threading.Thread(target=trim_heap, name="heap-trim", daemon=True)
    thread.start()
    return thread

AnyIndex = QModelIndex | QPersistentModelIndex


class TranscriptModel(QAbstractListModel):
    """Rows of the session shown in the window (see module docstring).

    Signals:
        older_changed(): older rows became available (or finished loading).
    """

    older_changed = Signal()
    #: (session id, generation, rows, next before id, error) from the page worker.
    _page_read = Signal(str, int, object, object, str)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.session_id = ""
        self._items: list[TranscriptItem] = []
        # Rows not exposed yet, oldest first; ``_older_loading`` while a worker builds them.
        self._older: list[TranscriptItem] = []
        self._older_loading = False
        # call id -> absolute position; row = position - _base (older rows are negative),
        # so prepending never renumbers the index.
        self._tools: dict[str, int] = {}
        self._base = 0
        # The rules that build and change rows; this model only holds and announces them.
        self._reducer = TranscriptReducer(self)
        # Paging older rows from SQLite: the id where unread older messages end.
        self._pager: Pager | None = None
        self._before: int | None = None
        self._paging = False  # a page is being read
        self._want_all = False
        self._generation = 0  # bumped by reset: a page for an older view is dropped
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._page_read.connect(self._on_page_read)

    # ------------------------------------------------------------- Qt interface

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return describe(item)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            if item.kind == "tool":
                return f"Tool card, {status_label(item.status)}"
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

    # ------------------------------------------------------------------ access

    @property
    def items(self) -> list[TranscriptItem]:
        return self._items

    def item(self, row: int) -> TranscriptItem:
        return self._items[row]

    def tool_row(self, call_id: str) -> int | None:
        """The row of a tool call; an older row not exposed yet is fetched first."""
        pos = self._tools.get(call_id)
        if pos is None:
            return None
        if pos < self._base:
            self.fetch_older(self._base - pos)
        return pos - self._base

    def reset(self, session_id: str, items: list[TranscriptItem], *,
              older_loading: bool = False) -> None:
        """Show ``items``; with ``older_loading``, :meth:`set_older` or
        :meth:`page_older` follows."""
        held = len(self._items) + len(self._older)
        self.beginResetModel()
        self._generation += 1
        self._pager = None
        self._before = None
        self._paging = False
        self._want_all = False
        self.session_id = session_id
        self._items = list(items)
        self._older = []
        self._older_loading = older_loading
        self._base = 0
        self._tools = {it.call_id: i for i, it in enumerate(self._items) if it.kind == "tool"}
        self.endResetModel()
        if held >= TRIM_AFTER_ROWS:
            # The rows of a big session were just freed: hand the heap back once the
            # view dropped what it cached for them too.
            QTimer.singleShot(200, trim_heap_later)

    # ------------------------------------------------------------- older rows

    def has_older(self) -> bool:
        """True while rows older than the first exposed one exist or are loading."""
        return bool(self._older) or self._older_loading or self._before is not None

    def page_older(self, session_id: str, before: int, pager: Pager | MessagePages) -> None:
        """Read the rows older than message ``before`` a page at a time, in a worker,
        keeping one page ahead of the view. ``pager`` is a store (its
        ``newest_messages``) or a function (session id, before) -> (rows, next)."""
        if session_id != self.session_id or not self._older_loading:
            return
        if callable(pager):
            self._pager = pager
        else:
            store = pager
            self._pager = lambda sid, bid: older_page(store, sid, bid)
        self._older_loading = False
        self._before = before
        self._read_ahead()

    def load_all_older(self) -> None:
        """Read every older page (the view jumps to the start)."""
        self._want_all = True
        self._read_ahead()

    def buffered_older(self) -> int:
        """Older rows read and not exposed yet."""
        return len(self._older)

    def loading_older(self) -> bool:
        """A page of older rows is being read."""
        return self._paging

    def _read_ahead(self) -> None:
        if self._paging or self._before is None or self._pager is None:
            return
        if len(self._older) >= 2 * FETCH_CHUNK and not self._want_all:
            return
        self._paging = True
        pager, sid, before, generation = self._pager, self.session_id, self._before, self._generation
        signal = self._page_read

        def work() -> None:
            try:
                rows, following = pager(sid, before)
            except Exception as exc:
                log.exception("reading older messages of %s failed", sid)
                rows, following, error = [], None, str(exc) or type(exc).__name__
            else:
                error = ""
            try:
                signal.emit(sid, generation, rows, following, error)
            except RuntimeError:  # the model is gone
                pass

        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="transcript-pages")
        self._worker.submit(work)

    def _on_page_read(self, session_id: str, generation: int, rows: object,
                      following: object, error: str) -> None:
        if generation != self._generation or session_id != self.session_id:
            return  # for a session no longer shown
        self._paging = False
        items = list(rows) if isinstance(rows, list) else []
        self._before = following if isinstance(following, int) else None
        if error:
            self._before = None
            items.insert(0, TranscriptItem(
                "notice", notice_kind="error",
                text=f"Older messages could not be read ({error})."))
        self._add_older(items)
        self.older_changed.emit()
        self._read_ahead()

    def _add_older(self, items: list[TranscriptItem]) -> None:
        """Rows older than every row held (not exposed yet)."""
        if not items:
            return
        self._older[0:0] = items
        first = self._base - len(self._older)
        older = {it.call_id: first + i for i, it in enumerate(items) if it.kind == "tool"}
        self._tools = {**older, **self._tools}  # a call id names its newest row

    def wait_pages(self, timeout: float = 10.0) -> None:
        """Wait for the page being read (tests and benches; not on the loop)."""
        if self._worker is not None:
            self._worker.submit(lambda: None).result(timeout)

    def set_older(self, session_id: str, items: list[TranscriptItem]) -> None:
        """Rows older than the exposed ones (built in a worker); none are shown yet."""
        if session_id != self.session_id or not self._older_loading:
            return
        self._older_loading = False
        self._older = list(items)
        first = self._base - len(self._older)
        older = {it.call_id: first + i for i, it in enumerate(self._older) if it.kind == "tool"}
        self._tools = {**older, **self._tools}  # a call id names its newest row
        self.older_changed.emit()

    def fetch_older(self, count: int = FETCH_CHUNK) -> int:
        """Prepend up to ``count`` older rows; returns how many were added."""
        count = min(count, len(self._older))
        if count <= 0:
            return 0
        chunk = self._older[-count:]
        self.beginInsertRows(QModelIndex(), 0, count - 1)
        del self._older[-count:]
        self._items[0:0] = chunk
        self._base -= count
        self.endInsertRows()
        self._read_ahead()
        if not self._older and not self._paging:
            self.older_changed.emit()
        return count

    # ------------------------------------------------------- the reducer's rows

    def last_row(self) -> TranscriptItem | None:
        return self._items[-1] if self._items else None

    def find_tool(self, call_id: str) -> TranscriptItem | None:
        """The newest row of a call, exposed or not (older rows stay where they are)."""
        pos = self._tools.get(call_id)
        if pos is None:
            return None
        if pos >= self._base:
            return self._items[pos - self._base]
        return self._older[pos - self._base + len(self._older)]

    def append(self, item: TranscriptItem) -> int:
        row = len(self._items)
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.append(item)
        if item.kind == "tool":
            self._tools[item.call_id] = self._base + row
        self.endInsertRows()
        return row

    def add_queued(self, text: str) -> TranscriptItem:
        """A steering message shown at once, before the engine takes it in."""
        item = TranscriptItem("user", text=text, source="queued", ts=time.time())
        self.append(item)
        return item

    def settle_queued(self, text: str) -> bool:
        """The engine took in a steering message: its queued row becomes the message."""
        for row, item in enumerate(self._items):
            if item.kind == "user" and item.source == "queued" and item.text == text:
                item.source = "steering"
                self.changed(row)
                return True
        return False

    def row_changed(self, item: TranscriptItem) -> None:
        row = self._row_of(item)
        if row is None:
            item.touch()  # an older row not exposed yet: nothing shows it
        else:
            self.changed(row)

    def drop_last(self) -> None:
        row = len(self._items) - 1
        self.beginRemoveRows(QModelIndex(), row, row)
        item = self._items.pop()
        if item.kind == "tool" and self._tools.get(item.call_id) == self._base + row:
            del self._tools[item.call_id]
        self.endRemoveRows()

    def _row_of(self, item: TranscriptItem) -> int | None:
        if self._items and self._items[-1] is item:
            return len(self._items) - 1
        if item.kind == "tool":
            pos = self._tools.get(item.call_id)
            if pos is not None and pos < self._base:
                return None  # not exposed yet
            if pos is not None and self._items[pos - self._base] is item:
                return pos - self._base
        for row in range(len(self._items) - 1, -1, -1):
            if self._items[row] is item:
                return row
        return None

    def changed(self, row: int) -> None:
        """Row ``row`` renders differently (its state, or a card placed on it)."""
        self._items[row].touch()
        idx = self.index(row, 0)
        self.dataChanged.emit(idx, idx)

    def toggle_expanded(self, row: int) -> None:
        item = self._items[row]
        if item.kind in ("tool", "assistant", "user"):
            item.expanded = not item.expanded
            self.changed(row)

    # ---------------------------------------------------------------- live input

    def apply(self, event: ev.Event) -> None:
        """Update rows for one event of this model's session (see TranscriptReducer)."""
        self._reducer.apply_event(event)

    def append_text(self, text: str) -> None:
        """Streamed assistant text (coalesced deltas from the bridge)."""
        self._reducer.append_text(text)

    def append_reasoning(self, text: str) -> None:
        self._reducer.append_reasoning(text)

    # ------------------------------------------------------------ inbox overlay

    def mark_awaiting(self, call_id: str, item_id: int, *, reason: str = "",
                      target: str = "") -> int | None:
        """The call waits for inbox item ``item_id``; returns its row (exposed first
        if it was an older one), or ``None`` if the call cannot wait (no such row,
        or it already started or finished)."""
        if self._reducer.mark_awaiting(call_id, item_id, reason=reason, target=target) is None:
            return None
        return self.tool_row(call_id)

    def mark_resolved(self, call_id: str, item_id: int) -> int | None:
        """Inbox item ``item_id`` was answered: returns the row that stopped waiting."""
        if self._reducer.mark_resolved(call_id, item_id) is None:
            return None
        return self.tool_row(call_id)
