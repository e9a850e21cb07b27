"""SessionListModel: the sessions sidebar, paged from SQLite.

Every session is reachable: the model knows how many sessions each group holds
(Pinned, Today, Yesterday, Previous 7 days, Older — a header row before each
group that is not empty) and reads the rows a page at a time as the view asks
for them (:meth:`ConversationStore.sessions_page`). Only a few pages are kept,
so scrolling through 100,000 sessions keeps memory flat.

A search (:meth:`set_search`, on every key) starts at once in a worker thread
(full-text search over titles and messages,
:meth:`ConversationStore.search_sessions`); the newest one wins: the query of
the search it replaces is stopped there (its query ends within a few thousand
SQLite steps: :meth:`Database.stoppable`),
a search still queued never runs, and a result arriving after a newer search
started is dropped without touching the list. Its result is the complete list
of matching sessions, shown without headers, each with the words that matched
marked in its title and in a snippet of the message that matched; the first
page and its snippets are read in the worker too. SQLite sorts the hits; when
there are more than a page, the first page is shown as soon as it is read
(:attr:`results_shown`), and the rest of the rows are added after it once read
(:attr:`search_done`): the rows on screen never move.

:meth:`reload` (the database changed) keeps the view's selection, current row
and scroll position: rows are re-laid out (``layoutChanged``) and the
persistent indexes follow their sessions — never a reset.

Two live badges the store does not know: *running* is read from ``running()``
(the session manager's :meth:`~openworker_qt.core.sessions.SessionManager.running_sessions`;
the model keeps no copy, :meth:`running_changed` repaints a row), the number of
*pending approvals* is set by the window (from the inbox). A session whose turn
ended while another one was on screen (:attr:`viewing`) has a *new result*
until it is opened.

Roles:
    Qt.DisplayRole: the title (or "New session"), or a group's name for a header.
    Qt.ToolTipRole / AccessibleTextRole: title, group and badges in words.
    ID_ROLE: session id (None for a header). RUNNING_ROLE: bool. PENDING_ROLE: int.
    HEADER_ROLE: True for a group header. PINNED_ROLE: bool. UPDATED_ROLE: epoch s.
    MATCH_ROLE: the words searched for (to mark in the title).
    SNIPPET_ROLE: a piece of the matching message, or "".
    ATTENTION_ROLE: True when something waits for the user (asks, a new result).
"""

from __future__ import annotations

import concurrent.futures
import logging
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from openworker_qt.storage.conversation_search import SearchHit
from openworker_qt.storage.conversations import ConversationStore, SessionGroups, SessionInfo
from openworker_qt.storage.search_text import search_words

log = logging.getLogger(__name__)

ID_ROLE = int(Qt.ItemDataRole.UserRole) + 1
RUNNING_ROLE = int(Qt.ItemDataRole.UserRole) + 2
PENDING_ROLE = int(Qt.ItemDataRole.UserRole) + 3
MODEL_ROLE = int(Qt.ItemDataRole.UserRole) + 4
HEADER_ROLE = int(Qt.ItemDataRole.UserRole) + 5
PINNED_ROLE = int(Qt.ItemDataRole.UserRole) + 6
UPDATED_ROLE = int(Qt.ItemDataRole.UserRole) + 7
MATCH_ROLE = int(Qt.ItemDataRole.UserRole) + 8
SNIPPET_ROLE = int(Qt.ItemDataRole.UserRole) + 9
ATTENTION_ROLE = int(Qt.ItemDataRole.UserRole) + 10

#: Rows read per query, and pages kept (the rest is read again when scrolled to).
PAGE = 50
KEEP_PAGES = 24
SNIPPET_CHARS = 90

AnyIndex = QModelIndex | QPersistentModelIndex


def _tr(text: str) -> str:
    return QCoreApplication.translate("SessionListModel", text)


def group_names() -> list[str]:
    return [_tr("Pinned"), _tr("Today"), _tr("Yesterday"), _tr("Previous 7 days"), _tr("Older")]


@dataclass(slots=True)
class _Section:
    name: str
    first_row: int  # the header's row
    first_offset: int  # the first session's place in the sidebar's order
    count: int


#: Markdown marks a snippet leaves out (it is plain words): code fences with their
#: language, backticks, ** (bold), heading and quote marks at a line's start.
_MARKUP = re.compile(r"```[^\s`]*|^[ \t]{0,3}(?:#{1,6}|>)[ \t]", re.MULTILINE)
_INLINE_MARKUP = re.compile(r"`+|\*\*")  # glued to the words they mark


def snippet(text: str, words: list[str], width: int = SNIPPET_CHARS) -> str:
    """A one-line piece of ``text`` around the first word searched for, as plain
    words (without its Markdown marks)."""
    flat = " ".join(_INLINE_MARKUP.sub("", _MARKUP.sub(" ", text)).split())
    low = flat.lower()
    at = min((i for i in (low.find(w) for w in words) if i >= 0), default=0)
    start = max(0, at - width // 3)
    piece = flat[start:start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")


@dataclass(slots=True, frozen=True)
class _Result:
    """A search's hits, with its first page and snippets read in the worker;
    ``complete`` False: only the first page of hits (the rest follows)."""

    hits: list[SearchHit]
    page: list[SessionInfo]
    snippets: dict[int, str]
    complete: bool = True


@dataclass(slots=True, frozen=True)
class _Browse:
    """Every session again (the search cleared): the groups and the first page."""

    groups: SessionGroups
    page: list[SessionInfo]


class SessionListModel(QAbstractListModel):
    #: (search number, result) from the worker; handled on the model's thread.
    _found = Signal(int, object)
    #: A search finished and its rows are shown (the text searched for).
    search_done = Signal(str)
    #: A search's first rows are shown (the text searched for); the rest of its
    #: rows may still be on their way (:attr:`search_done` says when all are).
    results_shown = Signal(str)

    def __init__(self, store: ConversationStore | None = None, parent: Any = None, *,
                 running: Callable[[], Collection[str]] = frozenset) -> None:
        super().__init__(parent)
        self.store = store
        self._running = running
        self._pending: dict[str, int] = {}
        self._was_running: set[str] = set()
        self._unseen: set[str] = set()  # a turn ended while not on screen
        #: The session on screen (the sidebar sets it): its results are seen.
        self.viewing: str | None = None
        self._sections: list[_Section] = []
        self._rows = 0
        self._pages: OrderedDict[int, list[SessionInfo]] = OrderedDict()
        self._search = ""
        self._words: list[str] = []
        self._hits: list[SearchHit] | None = None  # a search's results (no headers)
        self._snippets: dict[int, str] = {}
        self._seq = 0  # the newest search (set_search on the loop; read by the worker)
        self._partial = 0  # the search whose first page only is shown (0: none)
        #: Searches stopped in the worker because a newer one started (benches, tests).
        self.stale_stopped = 0
        self._search_worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._backfilling = False
        self._signature: object = None  # the groups last laid out (see reload)
        self._placed: dict[str, int | None] = {}  # rows found by query, this layout
        self._stop_backfill = threading.Event()
        self._found.connect(self._on_found)

    # ------------------------------------------------------------------ reading

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._rows

    def _locate(self, row: int) -> tuple[_Section | None, int]:
        """(the header's section, -1) for a header row, else (None, the session's offset)."""
        if self._hits is not None:
            return None, row
        for section in reversed(self._sections):
            if row >= section.first_row:
                if row == section.first_row:
                    return section, -1
                return None, section.first_offset + row - section.first_row - 1
        return None, -1

    def _page(self, number: int) -> list[SessionInfo]:
        page = self._pages.get(number)
        if page is not None:
            self._pages.move_to_end(number)
            return page
        page = self._read_page(number)
        self._pages[number] = page
        while len(self._pages) > KEEP_PAGES:
            self._pages.popitem(last=False)
        return page

    def _read_page(self, number: int) -> list[SessionInfo]:
        if self.store is None:
            return []
        start = number * PAGE
        if self._hits is None:
            return self.store.sessions_page(start, PAGE)
        hits = self._hits[start:start + PAGE]
        found = self.store.sessions_by_id([h.session_id for h in hits])
        mids = [h.message_id for h in hits if h.message_id is not None]
        texts = self.store.message_texts(mids) if mids else {}
        for mid, text in texts.items():
            self._snippets[mid] = snippet(text, self._words)
        return [found.get(h.session_id) or _gone(h.session_id) for h in hits]

    def session_at(self, row: int) -> SessionInfo | None:
        """The session shown at ``row`` (None for a header or out of range)."""
        if not 0 <= row < self._rows:
            return None
        section, offset = self._locate(row)
        if section is not None or offset < 0:
            return None
        page = self._page(offset // PAGE)
        return page[offset % PAGE] if offset % PAGE < len(page) else None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self._rows:
            return None
        section, offset = self._locate(index.row())
        if section is not None:
            if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
                return section.name
            if role == HEADER_ROLE:
                return True
            return None
        info = self.session_at(index.row())
        if info is None:
            return None
        title = info.title or _tr("New session")
        if role == Qt.ItemDataRole.DisplayRole:
            return title
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            parts = [title]
            if info.pinned:
                parts.append(_tr("pinned"))
            if info.id in self._running():
                parts.append(_tr("running"))
            n = self._pending.get(info.id, 0)
            if n:
                parts.append(_tr("{n} waiting for you").format(n=n))
            elif info.id in self._unseen:
                parts.append(_tr("new result"))
            if info.unattended:
                parts.append(_tr("unattended"))
            text = self._snippet_of(offset)
            if text:
                parts.append(_tr("found in: {text}").format(text=text))
            return " · ".join(parts)
        if role == ID_ROLE:
            return info.id
        if role == RUNNING_ROLE:
            return info.id in self._running()
        if role == PENDING_ROLE:
            return self._pending.get(info.id, 0)
        if role == ATTENTION_ROLE:
            return bool(self._pending.get(info.id)) or info.id in self._unseen
        if role == MODEL_ROLE:
            return info.model
        if role == HEADER_ROLE:
            return False
        if role == PINNED_ROLE:
            return info.pinned
        if role == UPDATED_ROLE:
            return info.updated_at
        if role == MATCH_ROLE:
            return list(self._words)
        if role == SNIPPET_ROLE:
            return self._snippet_of(offset)
        return None

    def _snippet_of(self, offset: int) -> str:
        if self._hits is None or not 0 <= offset < len(self._hits):
            return ""
        mid = self._hits[offset].message_id
        return self._snippets.get(mid, "") if mid is not None else ""

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self.is_header(index.row()):
            return Qt.ItemFlag.NoItemFlags  # skipped by the keyboard, never selected
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def is_header(self, row: int) -> bool:
        return self._hits is None and any(s.first_row == row for s in self._sections)

    @property
    def searching(self) -> bool:
        return self._hits is not None

    def session_count(self) -> int:
        """Sessions shown (headers not counted)."""
        if self._hits is not None:
            return len(self._hits)
        return sum(s.count for s in self._sections)

    # ------------------------------------------------------------------ layout

    def _layout(self) -> tuple[list[_Section], int]:
        if self.store is None:
            return [], 0
        groups, _bounds = self.store.session_groups()
        return self._sections_for(groups)

    def _sections_for(self, groups: SessionGroups) -> tuple[list[_Section], int]:
        self._signature = groups
        counts = [groups.pinned, groups.today, groups.yesterday, groups.week, groups.older]
        sections: list[_Section] = []
        row = offset = 0
        for name, count in zip(group_names(), counts, strict=True):
            if count:
                sections.append(_Section(name, row, offset, count))
                row += count + 1
                offset += count
        return sections, row

    def reload(self) -> None:
        """Read the sessions again (something changed); the view keeps its place."""
        if self.store is None:
            return
        if self._search:
            self._start_search()
            return
        before = self._signature
        sections, rows = self._layout()
        if self._hits is None and before is not None and self._signature == before:
            return  # nothing the list shows changed: the rows read stay (no re-reads)
        self._apply(sections, rows, None)

    def _apply(self, sections: list[_Section], rows: int, hits: list[SearchHit] | None,
               page: list[SessionInfo] | None = None, snippets: dict[int, str] | None = None,
               ) -> None:
        """Swap in a new layout (with a search's first page, read already); persistent
        indexes (selection, current) follow their sessions (a vanished one becomes
        invalid)."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        ids = [self._id_at(i.row()) for i in old]
        self._sections, self._rows, self._hits = sections, rows, hits
        self._partial = 0
        self._pages.clear()
        self._placed.clear()
        self._snippets.clear()
        if page:
            self._pages[0] = page
            self._snippets.update(snippets or {})
        new: list[QModelIndex] = []
        for sid in ids:
            row = self.row_of(sid) if sid else None
            new.append(self.index(row, 0) if row is not None else QModelIndex())
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _id_at(self, row: int) -> str | None:
        info = self.session_at(row)
        return info.id if info is not None else None

    def row_of(self, session_id: str) -> int | None:
        if self.store is None:
            return None
        if self._hits is not None:
            for i, hit in enumerate(self._hits):
                if hit.session_id == session_id:
                    return i
            return None
        for number, page in self._pages.items():  # shown lately: no query
            for i, info in enumerate(page):
                if info.id == session_id:
                    return self._row_for_offset(number * PAGE + i)
        if session_id in self._placed:  # asked again before the view read its page
            return self._placed[session_id]
        offset = self.store.session_position(session_id)
        row = None if offset is None else self._row_for_offset(offset)
        if len(self._placed) > 64:
            self._placed.clear()
        self._placed[session_id] = row
        return row

    def _row_for_offset(self, offset: int) -> int | None:
        for section in self._sections:
            if section.first_offset <= offset < section.first_offset + section.count:
                return section.first_row + 1 + offset - section.first_offset
        return None

    def info(self, row: int) -> SessionInfo:
        info = self.session_at(row)
        if info is None:
            raise IndexError(f"no session at row {row}")
        return info

    # ------------------------------------------------------------------ search

    @property
    def search_text(self) -> str:
        return self._search

    def set_search(self, text: str) -> None:
        """Show the sessions matching ``text`` (all of them when it is empty).

        Called on every key: the search starts at once in the search worker, and
        the one it replaces is stopped there (or, queued, never runs); only the
        newest search's result is shown (:attr:`search_done` says when)."""
        self._search = text.strip()
        self._start_search()  # (cleared: the worker reads the groups and first page)

    def _start_search(self) -> None:
        store = self.store
        if store is None:
            return
        self._seq += 1
        seq, text = self._seq, self._search
        found = self._found

        def stale() -> bool:
            return seq != self._seq

        def work() -> None:
            if stale():
                return  # a newer search is queued behind this one: never runs
            result: _Result | _Browse | None
            try:
                with store.db.stoppable(stale):  # a newer search stops its query
                    if not text:  # back to every session: the groups' sizes, the first rows
                        result = _Browse(store.session_groups()[0], store.sessions_page(0, PAGE))
                    else:
                        words = search_words(text)
                        first: list[tuple[list[SessionInfo], dict[int, str]]] = []

                        def show_first(head: list[SearchHit]) -> None:
                            # more than a page of hits: their first page is shown
                            # before the rest become Python rows
                            first.append(self._first_page(store, head, words))
                            if not stale():
                                found.emit(seq, _Result(head, *first[0], complete=False))

                        hits = store.search_sessions(text, first=PAGE, on_first=show_first)
                        result = _Result(hits, *(first[0] if first else
                                                 self._first_page(store, hits, words)))
            except sqlite3.OperationalError as exc:
                if not stale():
                    log.warning("searching the sessions failed: %s", exc)
                else:
                    self.stale_stopped += 1
                result = None
            except Exception:
                log.exception("searching the sessions failed")
                result = None
            if stale():
                return  # never shown, nothing repainted
            try:
                found.emit(seq, result)
            except RuntimeError:  # the model is gone (the window closed)
                pass

        if self._search_worker is None:
            self._search_worker = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="session-search")
        self._search_worker.submit(work)

    @staticmethod
    def _first_page(store: ConversationStore, hits: list[SearchHit],
                    words: list[str]) -> tuple[list[SessionInfo], dict[int, str]]:
        """The first page of hits and their snippets, read in the worker (the loop
        shows the result without a query)."""
        head = hits[:PAGE]
        infos = store.sessions_by_id([h.session_id for h in head])
        mids = [h.message_id for h in head if h.message_id is not None]
        texts = store.message_texts(mids) if mids else {}
        page = [infos.get(h.session_id) or _gone(h.session_id) for h in head]
        return page, {mid: snippet(text, words) for mid, text in texts.items()}

    def _on_found(self, seq: int, result: object) -> None:
        if seq != self._seq:
            return  # a newer search is on its way: the list is not touched
        if not self._search:
            if isinstance(result, _Browse):
                sections, rows = self._sections_for(result.groups)
                self._words = []
                self._apply(sections, rows, None, result.page, {})
            else:  # (the worker failed: read them here)
                self._words = []
                self._apply(*self._layout(), None)
            self.results_shown.emit("")
            self.search_done.emit("")
            return
        done = result if isinstance(result, _Result) else None
        if done is not None and done.complete and self._partial == seq and self._hits is not None:
            # the rest of the hits, after the first page on screen: rows added below it
            shown, self._partial = len(self._hits), 0
            if len(done.hits) > shown:
                self.beginInsertRows(QModelIndex(), shown, len(done.hits) - 1)
                self._hits, self._rows = done.hits, len(done.hits)
                self.endInsertRows()
            else:  # (no more after all: the same rows)
                self._hits = done.hits
            self.search_done.emit(self._search)
            return
        found = done.hits if done is not None else []
        self._words = search_words(self._search)
        self._apply([], len(found), found, *((done.page, done.snippets) if done else ()))
        if done is not None and not done.complete:
            self._partial = seq
        self.results_shown.emit(self._search)
        if self._partial != seq:
            self.search_done.emit(self._search)

    def _submit(self, work: Callable[[], None]) -> None:
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="session-search")
        self._worker.submit(work)

    def run_in_worker(self, work: Callable[[], None]) -> None:
        """Run ``work`` on the model's worker thread (disk work of the sidebar)."""
        self._submit(work)

    def export_markdown(self, session_id: str, path: Path,
                        done: Callable[[str, str], None]) -> bool:
        """Write ``session_id`` as Markdown to ``path`` on the worker thread, then call
        ``done(path, error)`` there (``error`` empty when it was written; nothing
        half-written otherwise). False when there is no store to read it from."""
        store = self.store
        if store is None:
            return False

        def work() -> None:
            from openworker_qt.storage.markdown_export import export_markdown

            try:
                export_markdown(store, session_id, path)
            except Exception as exc:  # said to the user by ``done``
                done(str(path), str(exc) or type(exc).__name__)
                return
            done(str(path), "")

        self._submit(work)
        return True

    def start_backfill(self) -> threading.Thread | None:
        """Bring the search index up to date with what was stored before (messages
        from before search existed, text indexed before CJK words could be found,
        titles: :meth:`ConversationStore.backfill_search`), a chunk per short
        transaction, in a daemon thread (quitting never waits for it); search
        works meanwhile, on what is indexed so far."""
        store = self.store
        if store is None or self._backfilling:
            return None
        self._backfilling = True
        stop = self._stop_backfill

        def work() -> None:
            try:
                while not stop.is_set() and store.backfill_search():
                    pass
            except Exception:
                if not stop.is_set():
                    log.warning("indexing older messages for search failed", exc_info=True)

        thread = threading.Thread(target=work, name="search-backfill", daemon=True)
        thread.start()
        return thread

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Wait for the workers' queued work (tests and benches; not on the loop)."""
        for worker in (self._worker, self._search_worker):
            if worker is not None:
                worker.submit(lambda: None).result(timeout)

    def close(self) -> None:
        self._stop_backfill.set()
        self._seq += 1  # (a search still running stops)
        if self._search_worker is not None:
            self._search_worker.shutdown(wait=False, cancel_futures=True)
            self._search_worker = None
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None

    # ------------------------------------------------------------------ badges

    def running_changed(self, session_id: str) -> None:
        """The session's turn began or is over (``running()`` says which): repaint it;
        a turn that ended off screen leaves a new result to look at."""
        if session_id in self._running():
            self._was_running.add(session_id)
        elif session_id in self._was_running:
            self._was_running.discard(session_id)
            if session_id != self.viewing:
                self._unseen.add(session_id)
        self._changed(session_id)

    def set_viewing(self, session_id: str | None) -> None:
        """``session_id`` is on screen: its new result is seen."""
        self.viewing = session_id
        if session_id is not None and session_id in self._unseen:
            self._unseen.discard(session_id)
            self._changed(session_id)

    def set_pending(self, counts: dict[str, int]) -> None:
        touched = set(counts) | set(self._pending)
        self._pending = {k: v for k, v in counts.items() if v}
        for sid in touched:
            self._changed(sid)

    def _changed(self, session_id: str) -> None:
        """Repaint the session's row if it is shown now (rows read later read the
        badge then)."""
        for number, page in self._pages.items():
            for i, info in enumerate(page):
                if info.id == session_id:
                    row = (number * PAGE + i if self._hits is not None
                           else self._row_for_offset(number * PAGE + i))
                    if row is not None:
                        idx = self.index(row, 0)
                        self.dataChanged.emit(idx, idx)
                    return


def _gone(session_id: str) -> SessionInfo:
    """A search hit deleted since the search ran (shown until the next reload)."""
    return SessionInfo(id=session_id, title="", model="", persona="", mode="", workspace="",
                       unattended=False, status="", created_at=0.0, updated_at=0.0)
