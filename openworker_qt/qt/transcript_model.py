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

Long sessions: a *window* over the whole session
------------------------------------------------
A list view lays out every row it is given (a Python size hint per row on every
relayout), so no view may hold the rows of a 1,000,000-message session, nor
even of a 100,000-message one without stalling. The model therefore exposes a
bounded *window* of the session: at most :data:`WINDOW_PAGES` consecutive pages
of stored messages (:mod:`~openworker_qt.qt.transcript_pages`), plus the *tail*
(the newest page, read before the first paint, and every row that arrived live
since) when the window reaches the end. The view's scrollbar stands for the
whole session in *units* of stored messages (:meth:`total_units`,
:meth:`units_of_row`, :meth:`row_of_units`), so its thumb is right from the
first paint; moving the window (:meth:`request_units` for a jump anywhere,
:meth:`request_shift` when the user scrolls near an edge of the window) reads
the missing pages in a worker and swaps the rows in one reset
(:attr:`window_moved` follows; the view keeps the row the user was reading
still). Pages read are kept in a small LRU cache (:data:`CACHE_PAGES`, the
window's neighbours read ahead), so memory is bounded whatever the user scrolls
through, and switching away frees a few hundred rows, never a session's worth.
A move costs the loop the same at 10,000 or 1,000,000 messages: a reset and a
relayout of at most a few hundred rows, 5-10 ms of CPU (bench/transcript.py).

Live rows always go to the tail (the reducer's rows), shown or not: a message
that arrives while the user reads the middle of the session is there when they
come back to the end. A session kept open for weeks does not grow the tail
without bound: when a turn ends and the tail holds
:data:`~openworker_qt.qt.transcript_pages.CUT_MESSAGES` stored messages, its
oldest settled page becomes a regular page (looked up in a worker; the live rows
themselves move into it, so nothing on screen changes), and while the user
follows the end the window then drops its oldest page like any other
(:attr:`window_full`; rows still streaming or waiting for the user are never in
a page cut off, so they are never dropped). A call waiting for the user whose row is in an older page
not held is looked up in SQLite (:attr:`located`), and the waiting state is laid
over its row whenever its page is read again.

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
from collections import OrderedDict
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
from openworker_qt.qt.transcript_pages import PAGE_MESSAGES, LiveCut, SessionPages
from openworker_qt.qt.transcript_reducer import TranscriptReducer, items_from_history

log = logging.getLogger(__name__)

ITEM_ROLE = int(Qt.ItemDataRole.UserRole) + 1
KIND_ROLE = int(Qt.ItemDataRole.UserRole) + 2
STATUS_ROLE = int(Qt.ItemDataRole.UserRole) + 3
#: Older pages exposed to the view at once (besides the tail).
WINDOW_PAGES = 3
#: Pages read and kept: the window and its read-ahead neighbours.
CACHE_PAGES = WINDOW_PAGES + 4
#: Tail rows from which a turn's end looks for a page to cut off the tail.
CUT_CHECK_ROWS = PAGE_MESSAGES
#: Rows of a session big enough that switching away from it trims the C heap.
TRIM_AFTER_ROWS = 500


def session_head(store: Any, session_id: str,
                 limit: int | None = None) -> tuple[list[TranscriptItem], SessionPages | None]:
    """Rows of the newest page and, for a longer session, its page geometry (worker
    thread; one indexed query besides the page: the session's message count)."""
    if limit is None:
        messages, before = store.newest_messages(session_id)
    else:
        messages, before = store.newest_messages(session_id, limit)
    items = items_from_history(messages)
    if before is None:
        return items, None
    older = int(store.count(session_id)) - len(messages)
    return items, SessionPages(store, session_id, older=older, tail_id=before,
                               tail_messages=len(messages))


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


def _settled(row: TranscriptItem) -> bool:
    """A row that can leave the tail: nothing streams into it or waits on it."""
    if row.kind == "assistant":
        return not row.streaming
    if row.kind == "tool":
        return row.status not in ("pending", "awaiting", "running")
    if row.kind == "notice":
        return row.notice_kind != "waiting"
    return row.source != "queued"


class TranscriptModel(QAbstractListModel):
    """Rows of the session shown in the window (see module docstring).

    Signals:
        window_moved(): the rows were swapped for another part of the same session
            (a reset; ``moving`` is true during it).
        extent_changed(): the session's length in units changed (rows arrived).
        located(str): the older page of a waiting call was read; mark it again.
        window_full(): live rows made the window longer than :data:`WINDOW_PAGES`
            pages and the tail; the view answers with :meth:`fit_window`.
    """

    window_moved = Signal()
    extent_changed = Signal()
    located = Signal(str)
    window_full = Signal()
    #: (session id, generation, page, rows, error) from the page worker.
    _page_read = Signal(str, int, int, object, str)
    _call_found = Signal(str, int, str, object)
    _cut_found = Signal(str, int, object)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.session_id = ""
        # The newest rows and every live one (the reducer's rows), oldest first.
        self._tail: list[TranscriptItem] = []
        self._tools: dict[str, TranscriptItem] = {}  # call id -> its newest tail row
        # The exposed older pages (first..last) and their rows, flattened.
        self._rows: list[TranscriptItem] = []
        self._offsets: list[int] = []  # first row of each exposed page
        self._first = 0
        self._last = -1  # last exposed older page (first - 1: none)
        self._at_end = True  # the tail is exposed after them
        self.moving = False  # true while a window move resets the model
        # The rules that build and change rows; this model only holds and announces them.
        self._reducer = TranscriptReducer(self)
        self._pages: SessionPages | None = None
        #: The store a short session's live rows are paged from once it grows (the
        #: window sets it); a paged session's pages bring their own.
        self.store: Any = None
        self._layout: SessionPages | None = None  # the page layout, paged yet or not
        self._cutting = False  # a worker looks for a page to cut off the tail
        self._cache: OrderedDict[int, list[TranscriptItem]] = OrderedDict()
        self._want: tuple[int, int] | None = None  # (first, last) page the view asked for
        self._reading: int | None = None  # the page a worker reads
        self._tail_rows0 = 1  # tail rows when the session opened (units per tail row)
        # Waiting calls (call id -> inbox item, reason, target), laid over rows read later.
        self._overlay: dict[str, tuple[int, str, str]] = {}
        self._locating: set[str] = set()
        self._generation = 0  # bumped by reset: a page for an older view is dropped
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._page_read.connect(self._on_page_read)
        self._call_found.connect(self._on_call_found)
        self._cut_found.connect(self._on_cut_found)

    # ------------------------------------------------------------- Qt interface

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        return len(self._rows) + (len(self._tail) if self._at_end else 0)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.rowCount():
            return None
        item = self.item(index.row())
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
        """The exposed rows (a new list)."""
        return self._rows + self._tail if self._at_end else list(self._rows)

    def newest_rows(self) -> list[TranscriptItem]:
        """The session's newest rows (the tail), exposed or not; every row of a
        session that is not paged."""
        return self._tail

    def item(self, row: int) -> TranscriptItem:
        older = len(self._rows)
        if row < older:
            return self._rows[row]
        if not self._at_end:
            raise IndexError(row)
        return self._tail[row - older]

    def tool_row(self, call_id: str) -> int | None:
        """The exposed row of a call (its newest), or ``None``."""
        item = self.find_tool(call_id)
        return None if item is None else self._row_of(item)

    def reset(self, session_id: str, items: list[TranscriptItem], *,
              pages: SessionPages | None = None) -> None:
        """Show ``items``: a whole session, or with ``pages`` the newest page (the
        tail) of a longer one, whose older pages are read as the view asks."""
        held = len(self._rows) + len(self._tail) + sum(len(r) for r in self._cache.values())
        self.beginResetModel()
        self._generation += 1
        self.session_id = session_id
        self._tail = list(items)
        self._tools = {it.call_id: it for it in self._tail if it.kind == "tool"}
        self._rows, self._offsets = [], []
        self._pages = pages if pages is not None and pages.count else None
        if pages is None and self.store is not None and session_id:
            pages = SessionPages(self.store, session_id, older=0, tail_id=0,
                                 tail_messages=max(1, len(self._tail)))
        self._layout = pages
        self._cutting = False
        self._first = self._pages.count if self._pages is not None else 0
        self._last = self._first - 1
        self._at_end = True
        self._cache.clear()
        self._want = None
        self._reading = None
        self._overlay.clear()
        self._locating.clear()
        self._tail_rows0 = max(1, len(self._tail))
        self.endResetModel()
        self.extent_changed.emit()
        if self._pages is not None:
            self._prefetch()  # the page above the newest one, for the first scroll up
        if held >= TRIM_AFTER_ROWS:
            # The rows of a big session were just freed: hand the heap back once the
            # view dropped what it cached for them too.
            QTimer.singleShot(200, trim_heap_later)

    # ------------------------------------------------------- the session's extent

    def paged(self) -> bool:
        """True for a session longer than its newest page (older pages exist)."""
        return self._pages is not None

    def window(self) -> tuple[int, int, bool]:
        """(first, last) older page exposed (last = first - 1: none) and whether
        the tail is exposed."""
        return self._first, self._last, self._at_end

    def at_end(self) -> bool:
        return self._at_end

    def has_older(self) -> bool:
        """True while rows older than the first exposed one exist."""
        return self._pages is not None and self._first > 0

    def cached_pages(self) -> int:
        return len(self._cache)

    def _tail_units(self) -> float:
        per_row = (self._pages.tail_messages if self._pages else self._tail_rows0) / self._tail_rows0
        return max(1.0, len(self._tail) * per_row)

    def total_units(self) -> float:
        """The session's length in stored messages (rows that arrived since it
        opened count as the messages their neighbours were)."""
        older = self._pages.older if self._pages is not None else 0
        return older + self._tail_units()

    def _page_units(self, page: int) -> tuple[float, float]:
        assert self._pages is not None
        if page >= self._pages.count:
            return float(self._pages.older), self._tail_units()
        lo, hi = self._pages.span(page)
        return float(lo), float(hi - lo)

    def _exposed_pages(self) -> list[tuple[int, int, int]]:
        """(page, first row, rows) of every exposed page, the tail as page ``count``."""
        out = [(p, self._offsets[i], len(self._cache_rows(p)))
               for i, p in enumerate(range(self._first, self._last + 1))]
        if self._at_end:
            tail_page = self._pages.count if self._pages is not None else 0
            out.append((tail_page, len(self._rows), len(self._tail)))
        return out

    def _cache_rows(self, page: int) -> list[TranscriptItem]:
        i = page - self._first
        end = self._offsets[i + 1] if i + 1 < len(self._offsets) else len(self._rows)
        return self._rows[self._offsets[i]:end]

    def units_of_row(self, row: int, fraction: float = 0.0) -> float:
        """Where exposed row ``row`` (and ``fraction`` of it) is in the session."""
        if self._pages is None:
            return float(row) + fraction
        for page, first, count in self._exposed_pages():
            if first <= row < first + count or (count == 0 and row == first):
                lo, span = self._page_units(page)
                return lo + span * (row - first + fraction) / max(1, count)
        return self.total_units()

    def row_of_units(self, units: float) -> tuple[int, float] | None:
        """The exposed row at ``units`` and the fraction into it, ``None`` when
        that part of the session is not exposed."""
        if self._pages is None:
            rows = self.rowCount()
            if not rows:
                return None
            row = min(rows - 1, max(0, int(units)))
            return row, min(1.0, max(0.0, units - row))
        for page, first, count in self._exposed_pages():
            lo, span = self._page_units(page)
            if lo <= units < lo + span or (page == self._pages.count and units >= lo):
                if count == 0:
                    return None
                at = min(count - 0.001, max(0.0, (units - lo) / span * count))
                return first + int(at), at - int(at)
        return None

    def covers(self, units: float, margin_pages: int = 0) -> bool:
        """``units`` is exposed, with ``margin_pages`` exposed pages around it where
        the session has them."""
        if self._pages is None:
            return True
        page = self.page_of_units(units)
        lo = max(0, page - margin_pages)
        hi = min(self._pages.count, page + margin_pages)
        last = self._pages.count if self._at_end else self._last
        return self._first <= lo and hi <= last

    def page_of_units(self, units: float) -> int:
        assert self._pages is not None
        return self._pages.page_of(units)

    # ------------------------------------------------------------ moving the window

    def request_units(self, units: float) -> None:
        """Expose the part of the session at ``units`` (with a page around it)."""
        if self._pages is None:
            return
        page = self.page_of_units(units)
        first = max(0, page - 1)
        last = min(self._pages.count, first + WINDOW_PAGES - 1)
        first = max(0, last - WINDOW_PAGES + 1)
        self._request(first, last)

    def request_shift(self, older: bool) -> bool:
        """Expose the page before (``older``) or after the window, dropping one at
        the other end; False when there is none."""
        if self._pages is None:
            return False
        last = self._pages.count if self._at_end else self._last
        first = self._first
        if older:
            if first == 0:
                return False
            first -= 1
            last = min(last, first + WINDOW_PAGES - 1 + (last == self._pages.count))
        else:
            if self._at_end:
                return False
            last += 1
            first = max(first, last - WINDOW_PAGES + 1)
        if self._want == (first, last):
            return True
        self._request(first, last)
        return True

    def _request(self, first: int, last: int) -> None:
        self._want = (first, last)
        if self._reading is None:
            self._advance()

    def _missing(self, first: int, last: int) -> list[int]:
        assert self._pages is not None
        return [p for p in range(first, min(last, self._pages.count - 1) + 1)
                if p not in self._cache]

    def _advance(self) -> None:
        """Show what was asked for if its pages are read; else read the next one."""
        if self._want is None or self._pages is None:
            self._prefetch()
            return
        first, last = self._want
        missing = self._missing(first, last)
        if missing:
            # Nearest the middle of what was asked first (a jump shows its target).
            middle = (first + last) / 2
            self._read(min(missing, key=lambda p: abs(p - middle)))
            return
        self._want = None
        self._show(first, last)
        self._prefetch()

    def _prefetch(self) -> None:
        """Read the neighbours of the window ahead of the user scrolling there."""
        if self._reading is not None or self._pages is None:
            return
        for page in (self._first - 1, (self._pages.count if self._at_end else self._last) + 1):
            if 0 <= page < self._pages.count and page not in self._cache:
                self._read(page)
                return

    def _read(self, page: int) -> None:
        assert self._pages is not None
        self._reading = page
        pages, sid, generation, signal = self._pages, self.session_id, self._generation, self._page_read

        def work() -> None:
            try:
                rows = pages.read(page)
            except Exception as exc:
                log.exception("reading page %s of %s failed", page, sid)
                rows, error = [], str(exc) or type(exc).__name__
            else:
                error = ""
            try:
                signal.emit(sid, generation, page, rows, error)
            except RuntimeError:  # the model is gone
                pass

        self._submit(work)

    def _submit(self, work: Any) -> None:
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="transcript-pages")
        self._worker.submit(work)

    def _on_page_read(self, session_id: str, generation: int, page: int, rows: object,
                      error: str) -> None:
        if generation != self._generation or session_id != self.session_id:
            return  # for a session no longer shown
        self._reading = None
        items = list(rows) if isinstance(rows, list) else []
        if error:
            items.insert(0, TranscriptItem(
                "notice", notice_kind="error",
                text=f"These messages could not be read ({error})."))
        for item in items:
            if item.kind == "tool" and item.call_id in self._overlay:
                self._lay_over(item)
        self._cache[page] = items
        self._trim_cache()
        self._advance()

    def _lay_over(self, item: TranscriptItem) -> None:
        item_id, reason, target = self._overlay[item.call_id]
        if item.status in ("pending", "awaiting"):
            item.status, item.waiting_on, item.reason, item.target = "awaiting", item_id, reason, target

    def _trim_cache(self) -> None:
        keep = set(range(self._first, self._last + 1))
        if self._want is not None:
            keep |= set(range(self._want[0], self._want[1] + 1))
        for page in list(self._cache):
            if len(self._cache) <= CACHE_PAGES:
                break
            if page not in keep:
                del self._cache[page]

    def _show(self, first: int, last: int, *, tail: list[TranscriptItem] | None = None) -> None:
        """Expose pages ``first..last`` (``count``: the tail), all read (``tail``: the
        tail's rows from now on, swapped in the same reset)."""
        assert self._pages is not None
        at_end = last >= self._pages.count
        older_last = min(last, self._pages.count - 1)
        if (first, older_last, at_end) == (self._first, self._last, self._at_end) and tail is None:
            return
        rows: list[TranscriptItem] = []
        offsets: list[int] = []
        for page in range(first, older_last + 1):
            offsets.append(len(rows))
            rows.extend(self._cache[page])
            self._cache.move_to_end(page)
        self.moving = True
        self.beginResetModel()
        self._rows, self._offsets = rows, offsets
        self._first, self._last, self._at_end = first, older_last, at_end
        if tail is not None:
            self._tail = tail
        self.endResetModel()
        self.moving = False
        self._trim_cache()
        self.window_moved.emit()

    def _show_cached_around(self, page: int) -> None:
        """Expose ``page`` (read) and the read pages next to it, at once."""
        assert self._pages is not None
        first = last = page
        while last - first + 1 < WINDOW_PAGES:
            if first - 1 >= 0 and first - 1 in self._cache:
                first -= 1
            elif last + 1 < self._pages.count and last + 1 in self._cache:
                last += 1
            elif last + 1 == self._pages.count:
                last += 1  # the tail is always held
            else:
                break
        self._show(first, last)
        self._prefetch()

    def wait_pages(self, timeout: float = 10.0) -> None:
        """Wait for the page being read (tests and benches; not on the loop)."""
        if self._worker is not None:
            self._worker.submit(lambda: None).result(timeout)

    def reading(self) -> bool:
        """A page is being read or a window move waits for one."""
        return self._reading is not None or self._want is not None

    # ------------------------------------------------------- the reducer's rows

    def _queued_rows(self) -> int:
        """Queued steering rows at the end of the tail: they stay under the live
        rows (where the message will go in), so the reducer works above them."""
        n = 0
        for item in reversed(self._tail):
            if item.kind != "user" or item.source != "queued":
                break
            n += 1
        return n

    def last_row(self) -> TranscriptItem | None:
        end = len(self._tail) - self._queued_rows()
        return self._tail[end - 1] if end > 0 else None

    def find_tool(self, call_id: str) -> TranscriptItem | None:
        """The newest row of a call held (the tail, then the pages read)."""
        found = self._tools.get(call_id)
        if found is not None:
            return found
        for rows in reversed(self._cache.values()):
            for item in reversed(rows):
                if item.kind == "tool" and item.call_id == call_id:
                    return item
        return None

    def append(self, item: TranscriptItem) -> int:
        """A row at the end of the session; returns its row (-1 while the window
        is elsewhere: it shows when the user comes back to the end)."""
        if item.kind == "tool":
            self._tools[item.call_id] = item
        # Above the queued steering rows (they stay last), unless it is one.
        at = len(self._tail) - (0 if item.source == "queued" else self._queued_rows())
        if not self._at_end:
            self._tail.insert(at, item)
            self.extent_changed.emit()
            return -1
        row = len(self._rows) + at
        self.beginInsertRows(QModelIndex(), row, row)
        self._tail.insert(at, item)
        self.endInsertRows()
        if self._pages is not None:
            self.extent_changed.emit()
        return row

    def add_queued(self, text: str) -> TranscriptItem:
        """A steering message shown at once, before the engine takes it in."""
        item = TranscriptItem("user", text=text, source="queued", ts=time.time())
        self.append(item)
        return item

    def drop_queued(self) -> None:
        """Queued steering rows go (their message was offered back, not sent)."""
        for i in range(len(self._tail) - 1, -1, -1):
            item = self._tail[i]
            if item.kind != "user" or item.source != "queued":
                continue
            if not self._at_end:
                del self._tail[i]
                continue
            row = len(self._rows) + i
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._tail[i]
            self.endRemoveRows()

    def settle_queued(self, text: str) -> bool:
        """The engine took in a steering message: its queued row becomes the message."""
        for item in self._tail:
            if item.kind == "user" and item.source == "queued" and item.text == text:
                item.source = "steering"
                self.row_changed(item)
                return True
        return False

    def row_changed(self, item: TranscriptItem) -> None:
        row = self._row_of(item)
        if row is None:
            item.touch()  # a row not exposed: nothing shows it
        else:
            self.changed(row)

    def drop_last(self) -> None:
        """Drop the last row the reducer made (queued steering rows stay)."""
        at = len(self._tail) - self._queued_rows() - 1
        item = self._tail[at]
        if item.kind == "tool" and self._tools.get(item.call_id) is item:
            del self._tools[item.call_id]
        if not self._at_end:
            del self._tail[at]
            return
        row = len(self._rows) + at
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._tail[at]
        self.endRemoveRows()

    def _row_of(self, item: TranscriptItem) -> int | None:
        if self._at_end:
            older = len(self._rows)
            if self._tail and self._tail[-1] is item:
                return older + len(self._tail) - 1
            for i in range(len(self._tail) - 1, -1, -1):
                if self._tail[i] is item:
                    return older + i
        for i in range(len(self._rows) - 1, -1, -1):
            if self._rows[i] is item:
                return i
        return None

    def changed(self, row: int) -> None:
        """Row ``row`` renders differently (its state, or a card placed on it)."""
        self.item(row).touch()
        idx = self.index(row, 0)
        self.dataChanged.emit(idx, idx)

    def toggle_expanded(self, row: int) -> None:
        item = self.item(row)
        if item.kind in ("tool", "assistant", "user"):
            item.expanded = not item.expanded
            self.changed(row)

    # ---------------------------------------------------------------- live input

    def apply(self, event: ev.Event) -> None:
        """Update rows for one event of this model's session (see TranscriptReducer)."""
        self._reducer.apply_event(event)
        if isinstance(event, ev.TurnEnded):
            self._look_for_cut()

    # ------------------------------------------------- live rows become pages

    def _look_for_cut(self) -> None:
        """A turn ended: if the tail is long, look (in a worker) for a page to cut off."""
        layout = self._layout
        if layout is None or self._cutting or len(self._tail) < CUT_CHECK_ROWS:
            return
        self._cutting = True
        sid, generation, signal = self.session_id, self._generation, self._cut_found

        def work() -> None:
            try:
                found = layout.find_cut()
            except Exception:
                log.exception("looking for a page of %s to cut failed", sid)
                found = None
            try:
                signal.emit(sid, generation, found)
            except RuntimeError:
                pass

        self._submit(work)

    def _on_cut_found(self, session_id: str, generation: int, found: object) -> None:
        if generation != self._generation or session_id != self.session_id:
            return
        self._cutting = False
        layout = self._layout
        if not isinstance(found, LiveCut) or layout is None or layout.tail_id != found.tail_id:
            return
        # The cut's user message in the tail: the one after as many stored user
        # messages as the page holds (a queued message is not stored yet).
        users = sum(1 for row in found.rows if row.kind == "user")
        seen, k = 0, None
        for i, row in enumerate(self._tail):
            if row.kind == "user" and row.source != "queued":
                if seen == users:
                    k = i
                    break
                seen += 1
        if k is None or self._tail[k].text != found.cut_text:
            return  # the live rows do not line up with the store here: at a later turn
        prefix = self._tail[:k]
        if not all(_settled(row) for row in prefix):
            return  # something before the cut still streams or waits: at a later turn
        same = len(prefix) == len(found.rows) and all(
            (a.kind, a.text, a.call_id, a.status) == (b.kind, b.text, b.call_id, b.status)
            for a, b in zip(prefix, found.rows, strict=True))
        rows = prefix if same else found.rows  # the store is the truth
        page = layout.add_cut(found)
        if page < 0:
            return
        for row in prefix:
            if row.kind == "tool" and self._tools.get(row.call_id) is row:
                del self._tools[row.call_id]
        self._cache[page] = rows
        self._pages = layout
        if self._want is not None and self._want[1] >= page:
            self._want = (self._want[0], layout.count)  # a move to the end still goes there
        self._tail_rows0 = max(1, len(self._tail) - k)
        if not self._at_end:
            self._tail = self._tail[k:]
        elif same and self._last == page - 1:
            # The rows move from the tail into the page: the same rows, in the same order.
            self._offsets.append(len(self._rows))
            self._rows.extend(prefix)
            self._tail = self._tail[k:]
            self._first, self._last = min(self._first, page), page
        else:  # the stored rows replace what showed live, in one reset
            self._show(min(self._first, page), layout.count, tail=self._tail[k:])
        self._trim_cache()
        self.extent_changed.emit()  # (a short session takes up the session scrollbar)
        if self._at_end and self._last - self._first + 1 > WINDOW_PAGES:
            self.window_full.emit()

    def fit_window(self, reading_row: int | None = None) -> None:
        """Drop the window's oldest pages beyond :data:`WINDOW_PAGES` (after live rows
        became a page). ``reading_row``: the row at the top of the screen while the
        user is not following the end; pages wholly above it go, and if that is not
        enough the window leaves the end instead, keeping the rows being read."""
        if self._pages is None or not self._at_end:
            return
        over = self._last - self._first + 1 - WINDOW_PAGES
        if over <= 0:
            return
        drop = over
        if reading_row is not None:
            drop = 0
            while drop < over:
                i = drop + 1
                end = self._offsets[i] if i < len(self._offsets) else len(self._rows)
                if end > reading_row:
                    break
                drop += 1
        first = self._first + drop
        last = self._pages.count if drop == over else first + WINDOW_PAGES - 1
        self._show(first, last)
        self._prefetch()

    def append_text(self, text: str) -> None:
        """Streamed assistant text (coalesced deltas from the bridge)."""
        self._reducer.append_text(text)

    def append_reasoning(self, text: str) -> None:
        self._reducer.append_reasoning(text)

    # ------------------------------------------------------------ inbox overlay

    def reveal_call(self, call_id: str) -> int | None:
        """Expose the row of a call held (moving the window to its page at once)
        and return it."""
        row = self.tool_row(call_id)
        if row is not None or self._pages is None:
            return row
        if call_id in self._tools:
            self._show_cached_around(self._pages.count)
        else:
            page = next((p for p, rows in self._cache.items()
                         if any(it.kind == "tool" and it.call_id == call_id for it in rows)), None)
            if page is None:
                return None
            self._show_cached_around(page)
        return self.tool_row(call_id)

    def mark_awaiting(self, call_id: str, item_id: int, *, reason: str = "",
                      target: str = "") -> int | None:
        """The call waits for inbox item ``item_id``; returns its row (exposed first
        if it was elsewhere), or ``None`` if the call cannot wait (no such row, or
        it already started or finished). A call in an older page not read yet is
        looked up in a worker: :attr:`located` tells when to mark it again."""
        if self.find_tool(call_id) is None and self._pages is not None:
            self._overlay[call_id] = (item_id, reason, target)
            self._locate(call_id)
            return None
        if self._reducer.mark_awaiting(call_id, item_id, reason=reason, target=target) is None:
            return None
        if call_id not in self._tools:
            self._overlay[call_id] = (item_id, reason, target)  # its page may be read again
        return self.reveal_call(call_id)

    def _locate(self, call_id: str) -> None:
        if call_id in self._locating or self._pages is None:
            return
        self._locating.add(call_id)
        pages, sid, generation, signal = self._pages, self.session_id, self._generation, self._call_found

        def work() -> None:
            try:
                page = pages.page_of_call(call_id)
                rows = pages.read(page) if page is not None else None
            except Exception:
                log.exception("looking up call %s of %s failed", call_id, sid)
                page, rows = None, None
            try:
                signal.emit(sid, generation, call_id, (page, rows))
            except RuntimeError:
                pass

        self._submit(work)

    def _on_call_found(self, session_id: str, generation: int, call_id: str, found: object) -> None:
        if generation != self._generation or session_id != self.session_id:
            return
        self._locating.discard(call_id)
        page, rows = found if isinstance(found, tuple) else (None, None)
        if page is None or not isinstance(rows, list):
            self._overlay.pop(call_id, None)
            return
        if page not in self._cache:
            for item in rows:
                if item.kind == "tool" and item.call_id in self._overlay:
                    self._lay_over(item)
            self._cache[page] = rows
            self._trim_cache()
        self.located.emit(call_id)

    def mark_resolved(self, call_id: str, item_id: int) -> int | None:
        """Inbox item ``item_id`` was answered: returns the row that stopped waiting."""
        waiting = self._overlay.get(call_id)
        if waiting is not None and waiting[0] == item_id:
            del self._overlay[call_id]
        if self._reducer.mark_resolved(call_id, item_id) is None:
            return None
        return self.tool_row(call_id)
