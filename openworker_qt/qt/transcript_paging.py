"""Which part of a long session is exposed: pages, their LRU, their reads (no Qt here).

A list view lays out every row it is given, so no view may hold the rows of a
100,000-message session. :class:`PagingWindow` exposes a bounded *window* of the
session: at most :data:`WINDOW_PAGES` consecutive pages of stored messages
(:mod:`~openworker_qt.qt.transcript_pages`), plus the *tail* (the newest page,
read before the first paint, and every row that arrived live since) when the
window reaches the end. The session's length is counted in *units* of stored
messages (:meth:`~PagingWindow.total_units`, :meth:`~PagingWindow.units_of_row`,
:meth:`~PagingWindow.row_of_units`), so a scrollbar over the whole session is
right from the first paint. Moving the window (:meth:`~PagingWindow.request_units`
for a jump anywhere, :meth:`~PagingWindow.request_shift` near an edge) reads the
missing pages off the loop and swaps the rows in one reset. Pages read are kept in
a small LRU cache (:data:`CACHE_PAGES`: the window and its read-ahead neighbours),
so memory is bounded whatever the user scrolls through. A call waiting for the
user gets its waiting state laid over its row whenever its page is read.

Every change is announced to a :class:`WindowListener` (the Qt model turns the
calls into ``beginResetModel``, ``rowsInserted``, ``dataChanged`` and its
signals); work off the loop goes through a :class:`Runner` (the Qt model's: a
worker thread, results back on the loop; :func:`run_now` runs it at once). The
live rows of the tail, the tail cut and the inbox overlay are the subclass's:
:class:`~openworker_qt.qt.transcript_window.TranscriptWindow`.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol, TypeVar

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_pages import SessionPages

log = logging.getLogger(__name__)

#: Older pages exposed at once (besides the tail); a window reads it when made.
WINDOW_PAGES = 3
#: Pages read and kept: the window and its read-ahead neighbours.
CACHE_PAGES = WINDOW_PAGES + 4

T = TypeVar("T")


class Runner(Protocol):
    """Runs ``work`` off the loop, then ``done(result)`` on the loop."""

    def __call__(self, work: Callable[[], T], done: Callable[[T], None]) -> None: ...


def run_now(work: Callable[[], T], done: Callable[[T], None]) -> None:
    """A :class:`Runner` that does both at once, on the caller's thread."""
    done(work())


class WindowListener:
    """What a window tells whoever shows its rows (here: nothing; override)."""

    def begin_reset(self, moving: bool) -> None:
        """Every row is about to change (``moving``: for another part of the session)."""

    def end_reset(self) -> None: ...

    def begin_insert(self, row: int) -> None: ...

    def end_insert(self) -> None: ...

    def begin_remove(self, row: int) -> None: ...

    def end_remove(self) -> None: ...

    def data_changed(self, row: int) -> None:
        """Exposed row ``row`` renders differently."""

    def moved(self) -> None:
        """The rows were swapped for another part of the same session."""

    def extent_changed(self) -> None:
        """The session's length in units changed."""

    def located(self, call_id: str) -> None:
        """The older page of a waiting call was read: mark it again."""

    def full(self) -> None:
        """Live rows made the window longer than ``window_pages`` pages and the
        tail: answer with
        :meth:`~openworker_qt.qt.transcript_window.TranscriptWindow.fit_window`."""


class PagingWindow:
    """Pages of one session exposed, read and kept (see module docstring)."""

    def __init__(self, listener: WindowListener | None = None, runner: Runner = run_now) -> None:
        self.listener = listener if listener is not None else WindowListener()
        self.runner = runner
        self.window_pages = WINDOW_PAGES
        self.session_id = ""
        # The newest rows and every live one, oldest first (the subclass fills it).
        self._tail: list[TranscriptItem] = []
        # The exposed older pages (first..last) and their rows, flattened.
        self._rows: list[TranscriptItem] = []
        self._offsets: list[int] = []  # first row of each exposed page
        self._first = 0
        self._last = -1  # last exposed older page (first - 1: none)
        self._at_end = True  # the tail is exposed after them
        self.pages: SessionPages | None = None  # set while older pages exist
        self._cache: OrderedDict[int, list[TranscriptItem]] = OrderedDict()
        self._want: tuple[int, int] | None = None  # (first, last) page asked for
        self._reading: int | None = None  # the page being read
        self._tail_rows0 = 1  # tail rows when the session opened (units per tail row)
        # Waiting calls (call id -> inbox item, reason, target), laid over rows read later.
        self._overlay: dict[str, tuple[int, str, str]] = {}
        self._generation = 0  # bumped by a reset: a page for an older view is dropped

    # ------------------------------------------------------------------ access

    def count(self) -> int:
        """Rows exposed."""
        return len(self._rows) + (len(self._tail) if self._at_end else 0)

    @property
    def items(self) -> list[TranscriptItem]:
        """The exposed rows (a new list)."""
        return self._rows + self._tail if self._at_end else list(self._rows)

    def item(self, row: int) -> TranscriptItem:
        older = len(self._rows)
        if row < older:
            return self._rows[row]
        if not self._at_end:
            raise IndexError(row)
        return self._tail[row - older]

    # ------------------------------------------------------- the session's extent

    def paged(self) -> bool:
        """True for a session longer than its newest page (older pages exist)."""
        return self.pages is not None

    def window(self) -> tuple[int, int, bool]:
        """(first, last) older page exposed (last = first - 1: none) and whether
        the tail is exposed."""
        return self._first, self._last, self._at_end

    def at_end(self) -> bool:
        return self._at_end

    def has_older(self) -> bool:
        """True while rows older than the first exposed one exist."""
        return self.pages is not None and self._first > 0

    def cached_pages(self) -> int:
        return len(self._cache)

    def _tail_units(self) -> float:
        per_row = (self.pages.tail_messages if self.pages else self._tail_rows0) / self._tail_rows0
        return max(1.0, len(self._tail) * per_row)

    def total_units(self) -> float:
        """The session's length in stored messages (rows that arrived since it
        opened count as the messages their neighbours were)."""
        older = self.pages.older if self.pages is not None else 0
        return older + self._tail_units()

    def _page_units(self, page: int) -> tuple[float, float]:
        assert self.pages is not None
        if page >= self.pages.count:
            return float(self.pages.older), self._tail_units()
        lo, hi = self.pages.span(page)
        return float(lo), float(hi - lo)

    def _exposed_pages(self) -> list[tuple[int, int, int]]:
        """(page, first row, rows) of every exposed page, the tail as page ``count``."""
        out = [(p, self._offsets[i], len(self._page_rows(p)))
               for i, p in enumerate(range(self._first, self._last + 1))]
        if self._at_end:
            tail_page = self.pages.count if self.pages is not None else 0
            out.append((tail_page, len(self._rows), len(self._tail)))
        return out

    def _page_rows(self, page: int) -> list[TranscriptItem]:
        i = page - self._first
        end = self._offsets[i + 1] if i + 1 < len(self._offsets) else len(self._rows)
        return self._rows[self._offsets[i]:end]

    def units_of_row(self, row: int, fraction: float = 0.0) -> float:
        """Where exposed row ``row`` (and ``fraction`` of it) is in the session."""
        if self.pages is None:
            return float(row) + fraction
        for page, first, count in self._exposed_pages():
            if first <= row < first + count or (count == 0 and row == first):
                lo, span = self._page_units(page)
                return lo + span * (row - first + fraction) / max(1, count)
        return self.total_units()

    def row_of_units(self, units: float) -> tuple[int, float] | None:
        """The exposed row at ``units`` and the fraction into it, ``None`` when
        that part of the session is not exposed."""
        if self.pages is None:
            rows = self.count()
            if not rows:
                return None
            row = min(rows - 1, max(0, int(units)))
            return row, min(1.0, max(0.0, units - row))
        for page, first, count in self._exposed_pages():
            lo, span = self._page_units(page)
            if lo <= units < lo + span or (page == self.pages.count and units >= lo):
                if count == 0:
                    return None
                at = min(count - 0.001, max(0.0, (units - lo) / span * count))
                return first + int(at), at - int(at)
        return None

    def covers(self, units: float, margin_pages: int = 0) -> bool:
        """``units`` is exposed, with ``margin_pages`` exposed pages around it where
        the session has them."""
        if self.pages is None:
            return True
        page = self.page_of_units(units)
        lo = max(0, page - margin_pages)
        hi = min(self.pages.count, page + margin_pages)
        last = self.pages.count if self._at_end else self._last
        return self._first <= lo and hi <= last

    def page_of_units(self, units: float) -> int:
        assert self.pages is not None
        return self.pages.page_of(units)

    # ------------------------------------------------------------ moving the window

    def request_units(self, units: float) -> None:
        """Expose the part of the session at ``units`` (with a page around it)."""
        if self.pages is None:
            return
        page = self.page_of_units(units)
        first = max(0, page - 1)
        last = min(self.pages.count, first + self.window_pages - 1)
        first = max(0, last - self.window_pages + 1)
        self._request(first, last)

    def request_shift(self, older: bool) -> bool:
        """Expose the page before (``older``) or after the window, dropping one at
        the other end; False when there is none."""
        if self.pages is None:
            return False
        last = self.pages.count if self._at_end else self._last
        first = self._first
        if older:
            if first == 0:
                return False
            first -= 1
            last = min(last, first + self.window_pages - 1 + (last == self.pages.count))
        else:
            if self._at_end:
                return False
            last += 1
            first = max(first, last - self.window_pages + 1)
        if self._want == (first, last):
            return True
        self._request(first, last)
        return True

    def reading(self) -> bool:
        """A page is being read or a window move waits for one."""
        return self._reading is not None or self._want is not None

    def _request(self, first: int, last: int) -> None:
        self._want = (first, last)
        if self._reading is None:
            self._advance()

    def _missing(self, first: int, last: int) -> list[int]:
        assert self.pages is not None
        return [p for p in range(first, min(last, self.pages.count - 1) + 1)
                if p not in self._cache]

    def _advance(self) -> None:
        """Show what was asked for if its pages are read; else read the next one."""
        if self._want is None or self.pages is None:
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
        if self._reading is not None or self.pages is None:
            return
        for page in (self._first - 1, (self.pages.count if self._at_end else self._last) + 1):
            if 0 <= page < self.pages.count and page not in self._cache:
                self._read(page)
                return

    def _read(self, page: int) -> None:
        assert self.pages is not None
        self._reading = page
        pages, sid, generation = self.pages, self.session_id, self._generation

        def work() -> tuple[list[TranscriptItem], str]:
            try:
                return pages.read(page), ""
            except Exception as exc:
                log.exception("reading page %s of %s failed", page, sid)
                return [], str(exc) or type(exc).__name__

        def done(result: tuple[list[TranscriptItem], str]) -> None:
            if generation == self._generation and sid == self.session_id:
                self._page_read(page, *result)

        self.runner(work, done)

    def _page_read(self, page: int, rows: list[TranscriptItem], error: str) -> None:
        self._reading = None
        items = list(rows)
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
        """Forget the least recently shown pages beyond :data:`CACHE_PAGES` (never
        one exposed or asked for)."""
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
        assert self.pages is not None
        at_end = last >= self.pages.count
        older_last = min(last, self.pages.count - 1)
        if (first, older_last, at_end) == (self._first, self._last, self._at_end) and tail is None:
            return
        rows: list[TranscriptItem] = []
        offsets: list[int] = []
        for page in range(first, older_last + 1):
            offsets.append(len(rows))
            rows.extend(self._cache[page])
            self._cache.move_to_end(page)
        self.listener.begin_reset(True)
        self._rows, self._offsets = rows, offsets
        self._first, self._last, self._at_end = first, older_last, at_end
        if tail is not None:
            self._tail = tail
        self.listener.end_reset()
        self._trim_cache()
        self.listener.moved()

    def _show_cached_around(self, page: int) -> None:
        """Expose ``page`` (read) and the read pages next to it, at once."""
        assert self.pages is not None
        first = last = page
        while last - first + 1 < self.window_pages:
            if first - 1 >= 0 and first - 1 in self._cache:
                first -= 1
            elif last + 1 < self.pages.count and last + 1 in self._cache:
                last += 1
            elif last + 1 == self.pages.count:
                last += 1  # the tail is always held
            else:
                break
        self._show(first, last)
        self._prefetch()
