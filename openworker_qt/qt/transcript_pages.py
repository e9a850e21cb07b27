"""Pages of a long stored session, read from SQLite on demand (no Qt here).

A session is cut into pages of :data:`PAGE_MESSAGES` stored messages by
*ordinal* (the n-th message of the session, 0 first): page ``k`` holds the
messages from ordinal ``k * PAGE_MESSAGES`` on, each end moved forward to the
next user message so a tool call and its result are never on two pages (a page
inside one very long turn may be empty; the turn then belongs to the page where
it started). The newest messages, read before the first paint, are the *tail*:
pages cover only the ``older`` messages before it.

A session that stays open keeps growing at its end: once its tail holds
:data:`CUT_MESSAGES` stored messages, its oldest :data:`PAGE_MESSAGES` (to the
next user message) become a page of their own (:meth:`SessionPages.find_cut` in a
worker, :meth:`SessionPages.add_cut` on the loop). Pages cut that way start at
the ordinals they were cut at, after the pages laid out when the session opened.

Finding where a page starts costs an index walk from the nearest start already
known (the session's first message, the tail, or a page read before), so
reading page after page costs a few ms each and a jump into the middle of
1,000,000 messages a few tens of ms, in a worker thread (never on the loop).
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from typing import Any, NamedTuple, Protocol

from openworker_qt.domain.messages import Message
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_reducer import items_from_history

#: Stored messages per page (about 120 rows, three screens).
PAGE_MESSAGES = 160
#: Stored messages of the tail at which its oldest page is cut off.
CUT_MESSAGES = 2 * PAGE_MESSAGES
_END_ID = 2**63 - 1


class PagedStore(Protocol):
    """The reads of :class:`~openworker_qt.storage.conversations.ConversationStore` paging uses."""

    def message_id_from(self, session_id: str, from_id: int, steps: int) -> int | None: ...

    def message_id_before(self, session_id: str, before_id: int, steps: int) -> int | None: ...

    def turn_start(self, session_id: str, from_id: int, end_id: int) -> int: ...

    def messages_between(self, session_id: str, first_id: int, end_id: int) -> list[Message]: ...

    def call_ordinal(self, session_id: str, call_id: str) -> int | None: ...

    def count(self, session_id: str) -> int: ...


class LiveCut(NamedTuple):
    """Where the tail can be cut (see :meth:`SessionPages.find_cut`)."""

    tail_id: int  # the tail's first message when it was looked up
    cut_id: int  # the user message the tail starts at after the cut
    messages: int  # stored messages of the page cut off
    rows: list[TranscriptItem]  # their rows, as stored
    total: int  # the session's stored messages
    cut_text: str  # the text of the user message the tail starts at after the cut


class SessionPages:
    """The page geometry of one long session, and its reads (see module docstring).

    ``older``: stored messages before the tail; ``tail_id``: the id of the tail's
    first message; ``tail_messages``: how many messages the tail was read from.
    :meth:`read` and :meth:`page_of_call` query SQLite: call them in a worker.
    """

    def __init__(self, store: PagedStore | Any, session_id: str, *, older: int, tail_id: int,
                 tail_messages: int) -> None:
        self.store = store
        self.session_id = session_id
        self.older = max(0, older)
        self.tail_id = tail_id
        self.tail_messages = max(1, tail_messages)
        #: Older pages (the tail comes after them, as page ``count``).
        self.count = -(-self.older // PAGE_MESSAGES)
        # Pages laid out by ordinal when the session opened, and where each page cut
        # from the live tail since starts (page ``_base + i``).
        self._base, self._base_older = self.count, self.older
        self._cuts: list[int] = []
        self._lock = threading.Lock()
        # Where to walk the index from: ordinal -> an id at or before the message there
        # (its own id once found). Known at once: the start (any id >= 0 is the first
        # message's) and the tail's first message.
        self._marks: dict[int, int] = {0: 0, self.older: tail_id}
        self._starts: dict[int, int] = {0: 0, self.count: tail_id}

    def span(self, page: int) -> tuple[int, int]:
        """The ordinals page ``page`` (an older one) is cut at."""
        if page < self._base:
            return page * PAGE_MESSAGES, min((page + 1) * PAGE_MESSAGES, self._base_older)
        i = page - self._base
        return self._cuts[i], self._cuts[i + 1] if i + 1 < len(self._cuts) else self.older

    def page_of(self, ordinal: float) -> int:
        """The page holding ordinal ``ordinal`` (``count``: the tail)."""
        if ordinal >= self.older:
            return self.count
        if self._cuts and ordinal >= self._cuts[0]:
            return self._base + bisect_right(self._cuts, ordinal) - 1
        return min(max(0, int(ordinal) // PAGE_MESSAGES), max(0, self._base - 1))

    def find_cut(self) -> LiveCut | None:
        """Where to cut the tail's oldest page off, once it holds
        :data:`CUT_MESSAGES` messages: at the first user message
        :data:`PAGE_MESSAGES` messages in (``None``: not yet). Worker thread."""
        sid, tail_id = self.session_id, self.tail_id
        if self.store.message_id_from(sid, tail_id, CUT_MESSAGES - 1) is None:
            return None
        at = self.store.message_id_from(sid, tail_id, PAGE_MESSAGES)
        if at is None:
            return None
        cut = self.store.turn_start(sid, at, _END_ID)
        if cut >= _END_ID:
            return None
        messages = self.store.messages_between(sid, tail_id, cut)
        first = items_from_history(self.store.messages_between(sid, cut, cut + 1))
        return LiveCut(tail_id, cut, len(messages), items_from_history(messages),
                       int(self.store.count(sid)), first[0].text if first else "")

    def add_cut(self, cut: LiveCut) -> int:
        """Make the tail's oldest messages (found by :meth:`find_cut`) a page; returns
        it (-1: the tail moved since it was looked up)."""
        with self._lock:
            if cut.tail_id != self.tail_id or cut.messages <= 0:
                return -1
            page = self.count
            self._cuts.append(self.older)
            self._starts[page] = self.tail_id
            self.older += cut.messages
            self.count += 1
            self.tail_id = cut.cut_id
            self._marks[self.older] = cut.cut_id
            self._starts[self.count] = cut.cut_id
            self.tail_messages = max(1, cut.total - self.older)
        return page

    def _id_at(self, ordinal: int) -> int | None:
        with self._lock:
            below = max((o for o in self._marks if o <= ordinal), default=None)
            above = min((o for o in self._marks if o >= ordinal), default=None)
            marks = dict(self._marks)
        if above is not None and above > 0 and (below is None or above - ordinal < ordinal - below):
            found = (marks[above] if above == ordinal else
                     self.store.message_id_before(self.session_id, marks[above], above - ordinal))
        elif below is not None:
            found = self.store.message_id_from(self.session_id, marks[below], ordinal - below)
        else:
            found = self.store.message_id_from(self.session_id, 0, ordinal)
        if found is not None:
            with self._lock:
                self._marks[ordinal] = found
        return found

    def start(self, page: int) -> int:
        """The id page ``page`` starts at (a user message, or the tail)."""
        if page >= self.count:
            return self.tail_id
        with self._lock:
            known = self._starts.get(page)
        if known is not None:
            return known
        at = self._id_at(page * PAGE_MESSAGES)
        first = self.tail_id if at is None else self.store.turn_start(
            self.session_id, at, self.tail_id)
        with self._lock:
            self._starts[page] = first
        return first

    def read(self, page: int) -> list[TranscriptItem]:
        """The rows of older page ``page`` (worker thread)."""
        first, end = self.start(page), self.start(page + 1)
        if first >= end:
            return []
        return items_from_history(self.store.messages_between(self.session_id, first, end))

    def page_of_call(self, call_id: str) -> int | None:
        """The older page where tool call ``call_id`` was proposed (``None``: not in
        an older page). Worker thread."""
        ordinal = self.store.call_ordinal(self.session_id, call_id)
        if ordinal is None or ordinal >= self.older:
            return None
        page = min(self.page_of(ordinal), self.count - 1)
        # A page starts at the turn after its cut: the call may sit on the page before.
        while page > 0 and self.start(page) > self._proposal_id(call_id, ordinal):
            page -= 1
        return page

    def _proposal_id(self, call_id: str, ordinal: int) -> int:
        found = self._id_at(ordinal)
        return found if found is not None else self.tail_id


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
