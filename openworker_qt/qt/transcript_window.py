"""One session's rows: the live tail, its cut into pages, the inbox overlay (no Qt here).

:class:`TranscriptWindow` is a :class:`~openworker_qt.qt.transcript_paging.PagingWindow`
(which pages of a long session are exposed, read and kept) that also holds the
session's newest rows: it is the reducer's
:class:`~openworker_qt.qt.transcript_reducer.RowSink`, so live rows always go to
the tail, shown or not (a message that arrives while the user reads the middle
of the session is there when they come back to the end).

A session kept open for weeks does not grow the tail without bound: when a turn
ends and the tail holds :data:`~openworker_qt.qt.transcript_pages.CUT_MESSAGES`
stored messages, its oldest settled page becomes a regular page (the *tail cut*:
looked up off the loop; the live rows move into it, so nothing on screen
changes), and while the user follows the end the window then drops its oldest
page like any other (the listener's ``full``, answered by
:meth:`~TranscriptWindow.fit_window`; rows still streaming or waiting for the
user are never in a page cut off, so they are never dropped). A call waiting for
the user whose row is in an older page not held is looked up in SQLite (the
listener's ``located``), and the waiting state is laid over its row whenever
its page is read again.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_pages import PAGE_MESSAGES, LiveCut, SessionPages
from openworker_qt.qt.transcript_paging import PagingWindow, Runner, WindowListener, run_now
from openworker_qt.qt.transcript_reducer import TranscriptReducer

log = logging.getLogger(__name__)

#: Tail rows from which a turn's end looks for a page to cut off the tail.
CUT_CHECK_ROWS = PAGE_MESSAGES

def settled(row: TranscriptItem) -> bool:
    """A row that can leave the tail: nothing streams into it or waits on it."""
    if row.kind == "assistant":
        return not row.streaming
    if row.kind == "tool":
        return row.status not in ("pending", "awaiting", "running")
    if row.kind == "notice":
        return row.notice_kind != "waiting"
    return row.source != "queued"


class TranscriptWindow(PagingWindow):
    """The rows of one session and which of them are exposed (see module docstring)."""

    def __init__(self, listener: WindowListener | None = None, runner: Runner = run_now) -> None:
        super().__init__(listener, runner)
        #: The store a short session's live rows are paged from once it grows; a
        #: paged session's pages bring their own.
        self.store: Any = None
        self._tools: dict[str, TranscriptItem] = {}  # call id -> its newest tail row
        # The rules that build and change rows; this window holds them.
        self._reducer = TranscriptReducer(self)
        self._layout: SessionPages | None = None  # the page layout, paged yet or not
        self.cutting = False  # a look for a page to cut off the tail is under way
        self.locating: set[str] = set()  # waiting calls being looked up

    # ------------------------------------------------------------------ access

    def newest_rows(self) -> list[TranscriptItem]:
        """The session's newest rows (the tail), exposed or not; every row of a
        session that is not paged."""
        return self._tail

    def tool_row(self, call_id: str) -> int | None:
        """The exposed row of a call (its newest), or ``None``."""
        item = self.find_tool(call_id)
        return None if item is None else self._row_of(item)

    def reset(self, session_id: str, items: list[TranscriptItem], *,
              pages: SessionPages | None = None) -> int:
        """Show ``items``: a whole session, or with ``pages`` the newest page (the
        tail) of a longer one, whose older pages are read as asked. Returns the
        rows the window held before (they are dropped)."""
        held = len(self._rows) + len(self._tail) + sum(len(r) for r in self._cache.values())
        self.listener.begin_reset(False)
        self._generation += 1
        self.session_id = session_id
        self._tail = list(items)
        self._tools = {it.call_id: it for it in self._tail if it.kind == "tool"}
        self._rows, self._offsets = [], []
        self.pages = pages if pages is not None and pages.count else None
        if pages is None and self.store is not None and session_id:
            pages = SessionPages(self.store, session_id, older=0, tail_id=0,
                                 tail_messages=max(1, len(self._tail)))
        self._layout = pages
        self.cutting = False
        self._first = self.pages.count if self.pages is not None else 0
        self._last = self._first - 1
        self._at_end = True
        self._cache.clear()
        self._want = None
        self._reading = None
        self._overlay.clear()
        self.locating.clear()
        self._tail_rows0 = max(1, len(self._tail))
        self.listener.end_reset()
        self.listener.extent_changed()
        if self.pages is not None:
            self._prefetch()  # the page above the newest one, for the first scroll up
        return held

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
            self.listener.extent_changed()
            return -1
        row = len(self._rows) + at
        self.listener.begin_insert(row)
        self._tail.insert(at, item)
        self.listener.end_insert()
        if self.pages is not None:
            self.listener.extent_changed()
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
            self.listener.begin_remove(row)
            del self._tail[i]
            self.listener.end_remove()

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
        self.listener.begin_remove(row)
        del self._tail[at]
        self.listener.end_remove()

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
        self.listener.data_changed(row)

    def toggle_expanded(self, row: int) -> None:
        item = self.item(row)
        if item.kind in ("tool", "assistant", "user"):
            item.expanded = not item.expanded
            self.changed(row)

    # ---------------------------------------------------------------- live input

    def apply(self, event: ev.Event) -> None:
        """Update rows for one event of this session (see TranscriptReducer)."""
        self._reducer.apply_event(event)
        if isinstance(event, ev.TurnEnded):
            self._look_for_cut()

    def append_text(self, text: str) -> None:
        """Streamed assistant text (coalesced deltas)."""
        self._reducer.append_text(text)

    def append_reasoning(self, text: str) -> None:
        self._reducer.append_reasoning(text)

    # ------------------------------------------------- live rows become pages

    def _look_for_cut(self) -> None:
        """A turn ended: if the tail is long, look (off the loop) for a page to cut off."""
        layout = self._layout
        if layout is None or self.cutting or len(self._tail) < CUT_CHECK_ROWS:
            return
        self.cutting = True
        sid, generation = self.session_id, self._generation

        def work() -> LiveCut | None:
            try:
                return layout.find_cut()
            except Exception:
                log.exception("looking for a page of %s to cut failed", sid)
                return None

        def done(found: LiveCut | None) -> None:
            if generation == self._generation and sid == self.session_id:
                self._cut_found(found)

        self.runner(work, done)

    def _cut_found(self, found: LiveCut | None) -> None:
        self.cutting = False
        layout = self._layout
        if found is None or layout is None or layout.tail_id != found.tail_id:
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
        if not all(settled(row) for row in prefix):
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
        self.pages = layout
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
        self.listener.extent_changed()  # (a short session takes up the session scrollbar)
        if self._at_end and self._last - self._first + 1 > self.window_pages:
            self.listener.full()

    def fit_window(self, reading_row: int | None = None) -> None:
        """Drop the window's oldest pages beyond ``window_pages`` (after live rows
        became a page). ``reading_row``: the row at the top of the screen while the
        user is not following the end; pages wholly above it go, and if that is not
        enough the window leaves the end instead, keeping the rows being read."""
        if self.pages is None or not self._at_end:
            return
        over = self._last - self._first + 1 - self.window_pages
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
        last = self.pages.count if drop == over else first + self.window_pages - 1
        self._show(first, last)
        self._prefetch()

    # ------------------------------------------------------------ inbox overlay

    def reveal_call(self, call_id: str) -> int | None:
        """Expose the row of a call held (moving the window to its page at once)
        and return it."""
        row = self.tool_row(call_id)
        if row is not None or self.pages is None:
            return row
        if call_id in self._tools:
            self._show_cached_around(self.pages.count)
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
        looked up off the loop: the listener's ``located`` tells when to mark it again."""
        if self.find_tool(call_id) is None and self.pages is not None:
            self._overlay[call_id] = (item_id, reason, target)
            self._locate(call_id)
            return None
        if self._reducer.mark_awaiting(call_id, item_id, reason=reason, target=target) is None:
            return None
        if call_id not in self._tools:
            self._overlay[call_id] = (item_id, reason, target)  # its page may be read again
        return self.reveal_call(call_id)

    def _locate(self, call_id: str) -> None:
        if call_id in self.locating or self.pages is None:
            return
        self.locating.add(call_id)
        pages, sid, generation = self.pages, self.session_id, self._generation

        def work() -> tuple[int | None, list[TranscriptItem] | None]:
            try:
                page = pages.page_of_call(call_id)
                return page, (pages.read(page) if page is not None else None)
            except Exception:
                log.exception("looking up call %s of %s failed", call_id, sid)
                return None, None

        def done(found: tuple[int | None, list[TranscriptItem] | None]) -> None:
            if generation == self._generation and sid == self.session_id:
                self._call_found(call_id, *found)

        self.runner(work, done)

    def _call_found(self, call_id: str, page: int | None,
                    rows: list[TranscriptItem] | None) -> None:
        self.locating.discard(call_id)
        if page is None or rows is None:
            self._overlay.pop(call_id, None)
            return
        if page not in self._cache:
            for item in rows:
                if item.kind == "tool" and item.call_id in self._overlay:
                    self._lay_over(item)
            self._cache[page] = rows
            self._trim_cache()
        self.listener.located(call_id)

    def mark_resolved(self, call_id: str, item_id: int) -> int | None:
        """Inbox item ``item_id`` was answered: returns the row that stopped waiting."""
        waiting = self._overlay.get(call_id)
        if waiting is not None and waiting[0] == item_id:
            del self._overlay[call_id]
        if self._reducer.mark_resolved(call_id, item_id) is None:
            return None
        return self.tool_row(call_id)
