"""Pages of a long stored session, read from SQLite on demand (no Qt here).

A session is cut into pages of :data:`PAGE_MESSAGES` stored messages by
*ordinal* (the n-th message of the session, 0 first): page ``k`` holds the
messages from ordinal ``k * PAGE_MESSAGES`` on, each end moved forward to the
next user message so a tool call and its result are never on two pages (a page
inside one very long turn may be empty; the turn then belongs to the page where
it started). The newest messages, read before the first paint, are the *tail*:
pages cover only the ``older`` messages before it.

Finding where a page starts costs an index walk from the nearest start already
known (the session's first message, the tail, or a page read before), so
reading page after page costs a few ms each and a jump into the middle of
1,000,000 messages a few tens of ms, in a worker thread (never on the loop).
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from openworker_qt.domain.messages import Message
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_reducer import items_from_history

#: Stored messages per page (about 120 rows, three screens).
PAGE_MESSAGES = 160


class PagedStore(Protocol):
    """The reads of :class:`~openworker_qt.storage.conversations.ConversationStore` paging uses."""

    def message_id_from(self, session_id: str, from_id: int, steps: int) -> int | None: ...

    def message_id_before(self, session_id: str, before_id: int, steps: int) -> int | None: ...

    def turn_start(self, session_id: str, from_id: int, end_id: int) -> int: ...

    def messages_between(self, session_id: str, first_id: int, end_id: int) -> list[Message]: ...

    def call_ordinal(self, session_id: str, call_id: str) -> int | None: ...


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
        self._lock = threading.Lock()
        # Where to walk the index from: ordinal -> an id at or before the message there
        # (its own id once found). Known at once: the start (any id >= 0 is the first
        # message's) and the tail's first message.
        self._marks: dict[int, int] = {0: 0, self.older: tail_id}
        self._starts: dict[int, int] = {0: 0, self.count: tail_id}

    def span(self, page: int) -> tuple[int, int]:
        """The ordinals page ``page`` (an older one) is cut at."""
        return page * PAGE_MESSAGES, min((page + 1) * PAGE_MESSAGES, self.older)

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
        page = min(ordinal // PAGE_MESSAGES, self.count - 1)
        # A page starts at the turn after its cut: the call may sit on the page before.
        while page > 0 and self.start(page) > self._proposal_id(call_id, ordinal):
            page -= 1
        return page

    def _proposal_id(self, call_id: str, ordinal: int) -> int:
        found = self._id_at(ordinal)
        return found if found is not None else self.tail_id
