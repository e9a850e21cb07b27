"""Sessions and their canonical message history in SQLite.

Implements the engine's ``HistoryStore``: :meth:`append` commits before it
returns, so an event announcing a message is never ahead of the disk. Messages
are stored as JSON, one row each, in order. A row that can no longer be decoded
is loaded as a visible ``error`` notice instead of failing the whole session.
A long session is read newest-first (:meth:`ConversationStore.newest_messages`,
then :meth:`ConversationStore.messages_before`), so a window paints at once.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, cast

from openworker_qt.domain.messages import Message
from openworker_qt.storage.db import Database

MIGRATIONS = [
    """
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        model TEXT NOT NULL DEFAULT '',
        persona TEXT NOT NULL DEFAULT 'cowork',
        mode TEXT NOT NULL DEFAULT 'interactive',
        workspace TEXT NOT NULL DEFAULT '',
        unattended INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'idle',
        meta TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX messages_by_session ON messages(session_id, id);
    """,
]


@dataclass(slots=True)
class SessionInfo:
    id: str
    title: str
    model: str
    persona: str
    mode: str
    workspace: str
    unattended: bool
    status: str
    created_at: float
    updated_at: float
    message_count: int = 0
    meta: dict[str, Any] = field(default_factory=dict)


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
        self.db.execute(
            "INSERT INTO sessions(id, title, model, persona, mode, workspace, unattended, meta,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (sid, title, model, persona, mode, workspace, int(unattended),
             json.dumps(meta or {}), ts, ts),
        )
        info = self.get_session(sid)
        assert info is not None
        return info

    def get_session(self, session_id: str) -> SessionInfo | None:
        rows = self.db.query(
            "SELECT s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS n"
            " FROM sessions s WHERE s.id = ?",
            (session_id,),
        )
        return _session(rows[0]) if rows else None

    def session_settings(self, session_id: str) -> SessionInfo | None:
        """The session as it is now, without its message count (``message_count``
        is 0): for checks made on every tool call (its mode, its granted folders).

        Read again whenever the database may have changed since the last read
        (:meth:`Database.stamp`: any write here, any commit elsewhere), so a mode
        switched or a folder granted by another window or the CLI counts at once.
        The caller must not change the returned object.
        """
        stamp = self.db.stamp()
        hit = self._settings.get(session_id)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        rows = self.db.query("SELECT *, 0 AS n FROM sessions WHERE id = ?", (session_id,))
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
            "SELECT s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS n"
            " FROM sessions s"
        )
        params: list[object] = []
        if search:
            sql += " WHERE s.title LIKE ?"
            params.append(f"%{search}%")
        sql += " ORDER BY s.updated_at DESC LIMIT ?"
        params.append(limit)
        return [_session(r) for r in self.db.query(sql, params)]

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
        self.db.execute(
            f"UPDATE sessions SET {cols}, updated_at = ? WHERE id = ?",
            (*fields.values(), time.time(), session_id),
        )

    def delete_session(self, session_id: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    # messages (HistoryStore) ----------------------------------------------------

    def append(self, session_id: str, message: Message) -> None:
        data = json.dumps(message, ensure_ascii=False)
        ts = float(message.get("ts") or time.time())
        insert = "INSERT INTO messages(session_id, role, data, created_at) VALUES (?, ?, ?, ?)"
        row = (session_id, str(message.get("role", "")), data, ts)
        if message["role"] != "user":
            # One statement is its own atomic commit; the session's updated_at moves
            # with user messages and status changes, not with every tool result.
            self.db.execute(insert, row)
            return
        with self.db.transaction() as conn:
            conn.execute(insert, row)
            if isinstance(message["content"], str):
                conn.execute(
                    "UPDATE sessions SET title = ? WHERE id = ? AND title = ''",
                    (_title(message["content"]), session_id),
                )
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
        return [_decode(row) for row in rows]

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
                yield _decode(row)
            if len(rows) < page:
                return
            after = int(rows[-1]["id"])

    # paging (a long session opens newest-first) ------------------------------------

    def newest_messages(
        self, session_id: str, limit: int = NEWEST_PAGE
    ) -> tuple[list[Message], int | None]:
        """The newest ``limit``-odd messages, and the id of the first one returned.

        The page is widened back to a user message, so a tool call is never split
        from its result and a page reduces to the same rows as the whole history
        would show for it. The id is ``None`` when nothing older exists. Reading
        the newest page of a 10,000-message session takes a few ms, the whole
        session ~150 ms (bench/transcript.py): the window paints the page first.
        """
        while True:
            rows = self.db.query(
                "SELECT id, role, data FROM messages WHERE session_id = ?"
                " ORDER BY id DESC LIMIT ?",
                (session_id, limit + 1),
            )
            if len(rows) <= limit:  # the whole session fits
                return [_decode(r) for r in reversed(rows)], None
            page = list(reversed(rows[:limit]))
            start = next((i for i, r in enumerate(page) if r["role"] == "user"), None)
            if start is not None:
                page = page[start:]
                return [_decode(r) for r in page], int(page[0]["id"])
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
            messages.extend(_decode(r) for r in rows)
            if len(rows) < chunk:
                break
            cursor = int(rows[-1]["id"])
        messages.reverse()
        return messages

    def last_tool_results(self, session_id: str, name: str, limit: int = 20) -> list[Message]:
        """The newest ``limit`` stored results of the tool ``name``, newest first
        (the to-do list reads its last one back without loading the whole session)."""
        rows = self.db.query(
            "SELECT id, data FROM messages WHERE session_id = ? AND role = 'tool'"
            " AND json_extract(data, '$.name') = ? ORDER BY id DESC LIMIT ?",
            (session_id, name, limit),
        )
        return [_decode(r) for r in rows]

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
        rows = self.db.query("SELECT COUNT(*) FROM messages WHERE session_id = ?", (session_id,))
        return int(rows[0][0])


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


def _decode(row: Any) -> Message:
    """A stored message; one that can no longer be read becomes a visible error notice.

    Rows hold what :meth:`ConversationStore.append` wrote, so an object read back is
    taken for the message it was (readers still use ``.get`` for optional keys).
    """
    try:
        data = json.loads(row["data"])
        if not isinstance(data, dict):
            raise ValueError("not an object")
        msg = cast(Message, data)
    except ValueError as exc:
        msg = {
            "role": "notice",
            "kind": "error",
            "text": f"Stored message #{row['id']} could not be read ({exc}); skipped.",
            "ts": time.time(),
        }
    return msg


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
    )
