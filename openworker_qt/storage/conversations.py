"""Sessions and their canonical message history in SQLite.

Implements the engine's ``HistoryStore``: :meth:`append` commits before it
returns, so an event announcing a message is never ahead of the disk. Messages
are stored as JSON, one row each, in order. A row that can no longer be decoded
is loaded as a visible ``error`` notice instead of failing the whole session.
A long session is read newest-first (:meth:`ConversationStore.newest_messages`,
then :meth:`ConversationStore.messages_before`), so a window paints at once.

The tables and their migrations: conversation_schema.py; the search indexes
(kept here as sessions and messages are written) and the search itself:
conversation_search.py.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from typing import Any

from openworker_qt.domain.messages import Message
from openworker_qt.domain.sessions import SessionInfo as SessionInfo  # (its home: domain)
from openworker_qt.storage import conversation_search
from openworker_qt.storage.conversation_schema import MIGRATIONS, RECENT_ORDER, decode_message
from openworker_qt.storage.conversation_search import (
    SearchHit,
    index_message,
    index_title,
    searchable_text,
)
from openworker_qt.storage.db import Database
from openworker_qt.storage.search_text import index_text


@dataclass(slots=True, frozen=True)
class SessionGroups:
    """How many sessions the sidebar shows in each group, in its order: pinned,
    then by the day of their last activity (today, yesterday, the 7 days before,
    older). ``today`` etc. are the local-time bounds used."""

    pinned: int
    today: int
    yesterday: int
    week: int
    older: int
    #: The newest activity time (any change the sidebar shows moves it or a count).
    latest: float = 0.0

    @property
    def total(self) -> int:
        return self.pinned + self.today + self.yesterday + self.week + self.older


# Messages typed (and files attached) by the user at this computer.
USER_SOURCES = frozenset({"user", "steering"})

NEWEST_PAGE = 240  # messages read before the first paint of a session
OLDER_CHUNK = 1000  # messages per query while the rest loads (keeps the DB lock short)

_SESSION_FIELDS = {"title", "model", "persona", "mode", "workspace", "unattended", "status"}


class ConversationStore:
    """Sessions and messages; the engine's durable ``HistoryStore``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.ensure("conversations", MIGRATIONS)
        self._attached: dict[str, tuple[int, list[str]]] = {}
        self._settings: dict[str, tuple[tuple[int, int, int], SessionInfo | None]] = {}

    # sessions ---------------------------------------------------------------

    def create_session(
        self,
        *,
        title: str = "",
        model: str = "",
        persona: str = "cowork",
        mode: str = "interactive",
        workspace: str = "",
        unattended: bool = False,
        session_id: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> SessionInfo:
        mode = session_mode(mode)
        sid = session_id or uuid.uuid4().hex[:12]
        ts = time.time()
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO sessions(id, title, model, persona, mode, workspace, unattended, meta,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (sid, title, model, persona, mode, workspace, int(unattended),
                 json.dumps(meta or {}), ts, ts),
            )
            index_title(conn, sid)
        info = self.get_session(sid)
        assert info is not None
        return info

    def get_session(self, session_id: str) -> SessionInfo | None:
        rows = self.db.query(
            "SELECT s.*, s.message_count AS n"
            " FROM sessions s WHERE s.id = ?",
            (session_id,),
        )
        return _session(rows[0]) if rows else None

    def session_settings(self, session_id: str) -> SessionInfo | None:
        """The session as it is now, cached: for checks made on every tool call
        (its mode, its granted folders).

        Read again whenever the database may have changed since the last read
        (:meth:`Database.stamp`: any write here, any commit elsewhere), so a mode
        switched or a folder granted by another window or the CLI counts at once.
        The caller must not change the returned object.
        """
        stamp = self.db.stamp()
        hit = self._settings.get(session_id)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        rows = self.db.query("SELECT *, message_count AS n FROM sessions WHERE id = ?", (session_id,))
        info = _session(rows[0]) if rows else None
        if len(self._settings) > 256:
            self._settings.clear()
        self._settings[session_id] = (stamp, info)
        return info

    def find_session(self, prefix: str) -> SessionInfo | None:
        """A session by id or unique id prefix (as typed on the command line)."""
        exact = self.get_session(prefix)
        if exact:
            return exact
        rows = self.db.query("SELECT id FROM sessions WHERE id LIKE ? LIMIT 2", (prefix + "%",))
        return self.get_session(rows[0]["id"]) if len(rows) == 1 else None

    def list_sessions(self, *, limit: int = 500, search: str = "") -> list[SessionInfo]:
        sql = (
            "SELECT s.*, s.message_count AS n"
            " FROM sessions s"
        )
        params: list[object] = []
        if search:
            sql += " WHERE s.title LIKE ?"
            params.append(f"%{search}%")
        sql += " ORDER BY s.updated_at DESC LIMIT ?"
        params.append(limit)
        return [_session(r) for r in self.db.query(sql, params)]

    # the sidebar: every session, a page at a time, and search ----------------------

    def session_groups(self, now: float | None = None) -> tuple[SessionGroups, tuple[float, float, float]]:
        """The sidebar's group sizes and the (today, yesterday, week) bounds used
        (local midnight of today, of yesterday, and 7 days before yesterday)."""
        bounds = day_bounds(now)
        today, yesterday, week = bounds
        total = int(self.db.query("SELECT COUNT(*) FROM sessions")[0][0])
        row = self.db.query(
            "SELECT (SELECT COUNT(*) FROM sessions WHERE pinned = 1),"
            " (SELECT COUNT(*) FROM sessions WHERE pinned = 0 AND updated_at >= ?),"
            " (SELECT COUNT(*) FROM sessions WHERE pinned = 0 AND updated_at >= ? AND updated_at < ?),"
            " (SELECT COUNT(*) FROM sessions WHERE pinned = 0 AND updated_at >= ? AND updated_at < ?),"
            " (SELECT MAX(updated_at) FROM sessions WHERE pinned = 0),"
            " (SELECT MAX(updated_at) FROM sessions WHERE pinned = 1)",
            (today, yesterday, today, week, yesterday),
        )[0]
        pinned, t, y, w = (int(v) for v in row[:4])
        latest = max(float(row[4] or 0.0), float(row[5] or 0.0))
        return SessionGroups(pinned, t, y, w, max(0, total - pinned - t - y - w), latest), bounds

    def sessions_page(self, offset: int, limit: int) -> list[SessionInfo]:
        """Sessions ``offset`` … ``offset + limit`` in the sidebar's order (an
        index-only skip: deep pages are as quick as the first)."""
        rows = self.db.query(
            "SELECT *, message_count AS n FROM sessions WHERE rowid IN ("
            f" SELECT rowid FROM sessions ORDER BY {RECENT_ORDER} LIMIT ? OFFSET ?)"
            f" ORDER BY {RECENT_ORDER}",
            (limit, offset),
        )
        return [_session(r) for r in rows]

    def sessions_by_id(self, ids: list[str]) -> dict[str, SessionInfo]:
        """The sessions with these ids; missing ones left out."""
        found: dict[str, SessionInfo] = {}
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            marks = ",".join("?" * len(part))
            for r in self.db.query(f"SELECT *, message_count AS n FROM sessions WHERE id IN ({marks})", part):
                info = _session(r)
                found[info.id] = info
        return found

    def session_position(self, session_id: str) -> int | None:
        """The session's place (0-based) in the sidebar's order, or None if it is gone."""
        rows = self.db.query(
            "SELECT pinned, updated_at FROM sessions WHERE id = ?", (session_id,))
        if not rows:
            return None
        pinned, updated = int(rows[0][0]), float(rows[0][1])
        # Three ranges of the sidebar's index, each counted on its own: only the
        # rows before the session are visited (one OR visited every row of its
        # group: ~8 ms of CPU on the loop at 100,000 sessions, wherever it was).
        before = self.db.query(
            "SELECT (SELECT COUNT(*) FROM sessions WHERE pinned > ?1)"
            " + (SELECT COUNT(*) FROM sessions WHERE pinned = ?1 AND updated_at > ?2)"
            " + (SELECT COUNT(*) FROM sessions WHERE pinned = ?1 AND updated_at = ?2 AND id > ?3)",
            (pinned, updated, session_id),
        )
        return int(before[0][0])

    def search_sessions(
        self, text: str, *, first: int = 0,
        on_first: Callable[[list[SearchHit]], None] | None = None,
    ) -> list[SearchHit]:
        """Every session whose title or messages hold all the words of ``text``, in
        the sidebar's order
        (:func:`~openworker_qt.storage.conversation_search.search_sessions`: call
        it from a worker, not the loop thread)."""
        return conversation_search.search_sessions(self.db, text, first=first, on_first=on_first)

    def message_texts(self, message_ids: list[int]) -> dict[int, str]:
        """The searchable words of these messages (for the snippets of search hits),
        as written (not as indexed)."""
        return conversation_search.message_texts(self.db, message_ids)

    def backfill_search(self, chunk: int = conversation_search.BACKFILL_CHUNK) -> bool:
        """One chunk of the search index's catching up
        (:func:`~openworker_qt.storage.conversation_search.backfill_search`); True
        while some are left (call again, from a worker)."""
        return conversation_search.backfill_search(self.db, chunk)

    def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin a session to the top of the sidebar (its activity time is kept)."""
        self.db.execute("UPDATE sessions SET pinned = ? WHERE id = ?", (int(pinned), session_id))

    def sessions_with_status(self, statuses: tuple[str, ...]) -> list[SessionInfo]:
        """Sessions in one of these states (e.g. a turn left running): an index
        lookup, however many sessions there are."""
        marks = ",".join("?" * len(statuses))
        rows = self.db.query(
            f"SELECT *, message_count AS n FROM sessions WHERE status IN ({marks})"
            f" ORDER BY {RECENT_ORDER}", statuses)
        return [_session(r) for r in rows]

    def update_session(self, session_id: str, **fields: Any) -> None:
        unknown = set(fields) - _SESSION_FIELDS - {"meta"}
        if unknown:
            raise ValueError(f"unknown session fields: {sorted(unknown)}")
        if "mode" in fields:
            fields["mode"] = session_mode(fields["mode"])
        if "meta" in fields:
            fields["meta"] = json.dumps(fields["meta"])
        if "unattended" in fields:
            fields["unattended"] = int(bool(fields["unattended"]))
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.db.transaction() as conn:
            conn.execute(
                f"UPDATE sessions SET {cols}, updated_at = ? WHERE id = ?",
                (*fields.values(), time.time(), session_id),
            )
            if "title" in fields:
                index_title(conn, session_id)

    def delete_session(self, session_id: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    # messages (HistoryStore) ----------------------------------------------------

    def append(self, session_id: str, message: Message) -> None:
        data = json.dumps(message, ensure_ascii=False)
        ts = float(message.get("ts") or time.time())
        insert = "INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)"
        row = (session_id, str(message.get("role", "")), data, ts)
        words = index_text(searchable_text(message))
        if message["role"] != "user" and not words:
            # One statement is its own atomic commit; the session's updated_at moves
            # with user messages and status changes, not with every tool result.
            self.db.execute(insert, row)
            return
        with self.db.transaction() as conn:
            cursor = conn.execute(insert, row)
            if words:  # written through to the search index, in the same commit
                index_message(conn, cursor.lastrowid, words, session_id)
            if message["role"] != "user":
                return
            if isinstance(message["content"], str):
                named = conn.execute(
                    "UPDATE sessions SET title = ? WHERE id = ? AND title = ''",
                    (_title(message["content"]), session_id),
                )
                if named.rowcount:
                    index_title(conn, session_id)
            conn.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (ts, session_id))

    def batch(self) -> AbstractContextManager[None]:
        """One commit for several appends (and other stores' writes on this database)."""
        return self.db.batch()

    def writing(self) -> AbstractAsyncContextManager[None]:
        """:meth:`batch`, its write lock awaited without blocking the loop
        (:meth:`Database.writing`)."""
        return self.db.writing()

    def load(self, session_id: str) -> list[Message]:
        rows = self.db.query(
            "SELECT id, data FROM messages WHERE session_id = ? ORDER BY id", (session_id,)
        )
        return [decode_message(row) for row in rows]

    def iter_messages(self, session_id: str, *, page: int = OLDER_CHUNK) -> Iterator[Message]:
        """Every message of the session, oldest first, read ``page`` rows per query:
        memory stays flat however long the session is (``openworker-qt show``)."""
        after = 0
        while True:
            rows = self.db.query(
                "SELECT id, data FROM messages WHERE session_id = ? AND id > ?"
                " ORDER BY id LIMIT ?",
                (session_id, after, page),
            )
            for row in rows:
                yield decode_message(row)
            if len(rows) < page:
                return
            after = int(rows[-1]["id"])

    # paging (a long session opens newest-first) ------------------------------------

    def newest_messages(
        self, session_id: str, limit: int = NEWEST_PAGE, *, before: int | None = None
    ) -> tuple[list[Message], int | None]:
        """The newest ``limit``-odd messages (older than message ``before`` if given),
        and the id of the first one returned.

        The page is widened back to a user message, so a tool call is never split
        from its result and a page reduces to the same rows as the whole history
        would show for it. The id is ``None`` when nothing older exists. Reading
        the newest page of a 10,000-message session takes a few ms, the whole
        session ~150 ms (bench/transcript.py): the window paints the page first,
        then reads older pages the same way (``before``) as the user scrolls up.
        """
        bound = "" if before is None else " AND id < ?"
        while True:
            params: tuple[object, ...] = (session_id,) if before is None else (session_id, before)
            rows = self.db.query(
                f"SELECT id, role, data FROM messages WHERE session_id = ?{bound}"
                " ORDER BY id DESC LIMIT ?",
                (*params, limit + 1),
            )
            if len(rows) <= limit:  # the whole (rest of the) session fits
                return [decode_message(r) for r in reversed(rows)], None
            page = list(reversed(rows[:limit]))
            start = next((i for i, r in enumerate(page) if r["role"] == "user"), None)
            if start is not None:
                page = page[start:]
                return [decode_message(r) for r in page], int(page[0]["id"])
            limit *= 4  # one very long turn: widen the page until it starts at a user message

    def messages_before(
        self, session_id: str, before_id: int, *, chunk: int = OLDER_CHUNK
    ) -> list[Message]:
        """Every message older than ``before_id``, oldest first, read ``chunk`` rows
        per query (each query holds the database lock only briefly)."""
        messages: list[Message] = []
        cursor = before_id
        while True:
            rows = self.db.query(
                "SELECT id, data FROM messages WHERE session_id = ? AND id < ?"
                " ORDER BY id DESC LIMIT ?",
                (session_id, cursor, chunk),
            )
            messages.extend(decode_message(r) for r in rows)
            if len(rows) < chunk:
                break
            cursor = int(rows[-1]["id"])
        messages.reverse()
        return messages

    def message_id_from(self, session_id: str, from_id: int, steps: int) -> int | None:
        """The id of the message ``steps`` messages after the first one with an id
        of at least ``from_id`` (0 steps: that one), ``None`` past the end. Worker
        thread: the offset walks the session's index (a few ms per 100,000)."""
        rows = self.db.query(
            "SELECT id FROM messages WHERE session_id = ? AND id >= ? ORDER BY id"
            " LIMIT 1 OFFSET ?",
            (session_id, from_id, max(0, steps)),
        )
        return int(rows[0][0]) if rows else None

    def message_id_before(self, session_id: str, before_id: int, steps: int) -> int | None:
        """The id of the ``steps``-th message before message ``before_id`` (1: the
        one just before it), ``None`` past the start."""
        rows = self.db.query(
            "SELECT id FROM messages WHERE session_id = ? AND id < ? ORDER BY id DESC"
            " LIMIT 1 OFFSET ?",
            (session_id, before_id, max(0, steps - 1)),
        )
        return int(rows[0][0]) if rows else None

    def turn_start(self, session_id: str, from_id: int, end_id: int) -> int:
        """The id of the first user message with ``from_id <= id < end_id`` (a turn
        starts there, so a page read from it never splits a tool call from its
        result), or ``end_id``."""
        rows = self.db.query(
            "SELECT id FROM messages WHERE session_id = ? AND id >= ? AND id < ?"
            " AND role = 'user' ORDER BY id LIMIT 1",
            (session_id, from_id, end_id),
        )
        return int(rows[0][0]) if rows else end_id

    def messages_between(self, session_id: str, first_id: int, end_id: int) -> list[Message]:
        """The messages with ``first_id <= id < end_id``, oldest first."""
        rows = self.db.query(
            "SELECT id, data FROM messages WHERE session_id = ? AND id >= ? AND id < ?"
            " ORDER BY id",
            (session_id, first_id, end_id),
        )
        return [decode_message(r) for r in rows]

    def call_ordinal(self, session_id: str, call_id: str) -> int | None:
        """How many of the session's messages come before the newest assistant
        message proposing tool call ``call_id`` (``None``: no such call)."""
        needle = json.dumps(call_id, ensure_ascii=False)
        rows = self.db.query(
            "SELECT id, data FROM messages WHERE session_id = ? AND role = 'assistant'"
            " AND instr(data, ?) > 0 ORDER BY id DESC LIMIT 8",
            (session_id, needle),
        )
        for row in rows:
            calls = decode_message(row).get("tool_calls")
            if isinstance(calls, list) and any(
                    isinstance(c, dict) and str(c.get("id")) == call_id for c in calls):
                count = self.db.query(
                    "SELECT COUNT(*) FROM messages WHERE session_id = ? AND id < ?",
                    (session_id, int(row["id"])),
                )
                return int(count[0][0])
        return None

    def last_tool_results(self, session_id: str, name: str, limit: int = 20) -> list[Message]:
        """The newest ``limit`` stored results of the tool ``name``, newest first
        (the to-do list reads its last one back without loading the whole session)."""
        rows = self.db.query(
            "SELECT id, data FROM messages WHERE session_id = ? AND role = 'tool'"
            " AND json_extract(data, '$.name') = ? ORDER BY id DESC LIMIT ?",
            (session_id, name, limit),
        )
        return [decode_message(r) for r in rows]

    def attached_paths(self, session_id: str) -> list[str]:
        """The paths of the files the user attached to this session's messages
        (content parts carrying a ``path``; the model never writes user messages).

        Cached per session and only extended by user messages appended since the
        last call, so asking again is one indexed query.
        """
        last_id, paths = self._attached.get(session_id, (0, []))
        rows = self.db.query(
            "SELECT id, data FROM messages WHERE session_id = ? AND role = 'user' AND id > ?"
            " ORDER BY id",
            (session_id, last_id),
        )
        if not rows:
            return list(paths)
        found = list(paths)
        for row in rows:
            last_id = int(row["id"])
            if '"path"' not in row["data"]:
                continue
            try:
                msg = json.loads(row["data"])
            except ValueError:
                continue
            if not isinstance(msg, dict) or msg.get("source", "user") not in USER_SOURCES:
                continue
            content = msg.get("content")
            for part in content if isinstance(content, list) else ():
                path = part.get("path") if isinstance(part, dict) else None
                if isinstance(path, str) and path and path not in found:
                    found.append(path)
        self._attached[session_id] = (last_id, found)
        return list(found)

    def count(self, session_id: str) -> int:
        rows = self.db.query("SELECT message_count FROM sessions WHERE id = ?", (session_id,))
        if rows:
            return int(rows[0][0])
        rows = self.db.query("SELECT COUNT(*) FROM messages WHERE session_id = ?", (session_id,))
        return int(rows[0][0])


def day_bounds(now: float | None = None) -> tuple[float, float, float]:
    """Local midnight today, yesterday, and 7 days before yesterday (epoch seconds)."""
    import datetime as dt

    current = dt.datetime.fromtimestamp(time.time() if now is None else now)
    midnight = current.replace(hour=0, minute=0, second=0, microsecond=0)
    today = midnight.timestamp()
    yesterday = (midnight - dt.timedelta(days=1)).timestamp()
    week = (midnight - dt.timedelta(days=8)).timestamp()
    return today, yesterday, week


def session_mode(value: object) -> str:
    """A session's permission mode, normalised; ``""`` means "as the settings say".

    Raises :class:`ValueError` naming the valid modes for anything else.
    """
    from openworker_qt.storage.config import MODES, normal_mode

    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    mode = normal_mode(value)
    if mode is None:
        raise ValueError(
            f"unknown permission mode {value!r} (expected one of: {', '.join(MODES)})"
        )
    return mode


def _title(text: str, limit: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _session(row: Any) -> SessionInfo:
    try:
        meta = json.loads(row["meta"] or "{}")
    except ValueError:
        meta = {}
    return SessionInfo(
        id=row["id"],
        title=row["title"],
        model=row["model"],
        persona=row["persona"],
        mode=row["mode"],
        workspace=row["workspace"],
        unattended=bool(row["unattended"]),
        status=row["status"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        message_count=int(row["n"]),
        meta=meta if isinstance(meta, dict) else {},
        pinned=bool(row["pinned"]),
    )
