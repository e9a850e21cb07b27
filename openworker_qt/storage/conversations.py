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
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from openworker_qt.domain.messages import Message
from openworker_qt.storage.db import Database
from openworker_qt.storage.search_text import fts_query, index_text, search_words

#: Trigger statements keeping ``session_usage`` (schema step 5): a stored reply's usage
#: added to its session's totals (``new``), or taken away (``old``).
_USAGE_ADD = """        INSERT INTO session_usage VALUES (
            new.session_id, CAST(COALESCE(json_extract(new.data, '$.model'), '') AS TEXT), 1,
            COALESCE(json_extract(new.data, '$.usage.input_tokens'), 0),
            COALESCE(json_extract(new.data, '$.usage.output_tokens'), 0),
            COALESCE(json_extract(new.data, '$.usage.cache_read_tokens'), 0),
            COALESCE(json_extract(new.data, '$.usage.cache_write_tokens'), 0),
            COALESCE(json_extract(new.data, '$.usage.reasoning_tokens'), 0))
        ON CONFLICT(session_id, model) DO UPDATE SET calls = calls + 1,
            input_tokens = input_tokens + excluded.input_tokens,
            output_tokens = output_tokens + excluded.output_tokens,
            cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
            cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
            reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens;
"""
_USAGE_REMOVE = """        UPDATE session_usage SET calls = calls - 1,
            input_tokens = input_tokens - COALESCE(json_extract(old.data, '$.usage.input_tokens'), 0),
            output_tokens = output_tokens - COALESCE(json_extract(old.data, '$.usage.output_tokens'), 0),
            cache_read_tokens =
                cache_read_tokens - COALESCE(json_extract(old.data, '$.usage.cache_read_tokens'), 0),
            cache_write_tokens =
                cache_write_tokens - COALESCE(json_extract(old.data, '$.usage.cache_write_tokens'), 0),
            reasoning_tokens =
                reasoning_tokens - COALESCE(json_extract(old.data, '$.usage.reasoning_tokens'), 0)
        WHERE session_id = old.session_id
            AND model = CAST(COALESCE(json_extract(old.data, '$.model'), '') AS TEXT);
        DELETE FROM session_usage WHERE session_id = old.session_id AND calls <= 0;
"""


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
    # 2: pinned sessions, the sidebar's order as an index, full-text search (FTS5)
    # over titles (kept by triggers) and over what the user and the assistant wrote
    # (written through by append(); rows older than this step are indexed in chunks
    # by backfill_search(), newest first, from search_backfill.below down to 0);
    # each session's message count kept by triggers (counting 1,000,000 messages
    # took ~0.3 s on the loop thread every time a session was opened or run); the
    # results of a tool by name (the to-do list, the deliverables) found by index.
    """
    ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX sessions_by_recent ON sessions(pinned, updated_at, id);
    CREATE INDEX sessions_by_status ON sessions(status);
    CREATE VIRTUAL TABLE title_search USING fts5(
        title, content='sessions', content_rowid='rowid',
        tokenize='unicode61 remove_diacritics 2');
    CREATE TRIGGER sessions_title_ai AFTER INSERT ON sessions BEGIN
        INSERT INTO title_search(rowid, title) VALUES (new.rowid, new.title);
    END;
    CREATE TRIGGER sessions_title_ad AFTER DELETE ON sessions BEGIN
        INSERT INTO title_search(title_search, rowid, title) VALUES ('delete', old.rowid, old.title);
    END;
    CREATE TRIGGER sessions_title_au AFTER UPDATE OF title ON sessions BEGIN
        INSERT INTO title_search(title_search, rowid, title) VALUES ('delete', old.rowid, old.title);
        INSERT INTO title_search(rowid, title) VALUES (new.rowid, new.title);
    END;
    INSERT INTO title_search(title_search) VALUES ('rebuild');
    CREATE VIRTUAL TABLE message_search USING fts5(
        text, session_id UNINDEXED, tokenize='unicode61 remove_diacritics 2');
    CREATE TRIGGER messages_search_ad AFTER DELETE ON messages BEGIN
        DELETE FROM message_search WHERE rowid = old.id;
    END;
    CREATE TABLE search_backfill (below INTEGER NOT NULL);
    INSERT INTO search_backfill SELECT COALESCE(MAX(id), 0) + 1 FROM messages;
    ALTER TABLE sessions ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
    UPDATE sessions SET message_count =
        (SELECT COUNT(*) FROM messages m WHERE m.session_id = sessions.id);
    CREATE TRIGGER messages_count_ai AFTER INSERT ON messages BEGIN
        UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id;
    END;
    CREATE TRIGGER messages_count_ad AFTER DELETE ON messages BEGIN
        UPDATE sessions SET message_count = message_count - 1 WHERE id = old.session_id;
    END;
    CREATE INDEX messages_tool_by_name ON messages(session_id, json_extract(data, '$.name'))
        WHERE role = 'tool';
    """,
    # 3: a word inside Chinese, Japanese or Korean text is found (storage/search_text.py):
    # the indexes hold their text with every CJK character spaced. Titles get an index
    # of their own (a plain FTS5 table: its triggers index the spaced title through the
    # SQL function every connection has, and delete by rowid); messages indexed before
    # this step are rewritten in chunks by backfill_search(), from search_respace.below
    # down, and titles from search_respace.titles_below down — in the background;
    # search works meanwhile (titles also match as substrings; a CJK word is also
    # looked for as it was indexed before).
    """
    DROP TRIGGER sessions_title_ai;
    DROP TRIGGER sessions_title_ad;
    DROP TRIGGER sessions_title_au;
    DROP TABLE title_search;
    CREATE VIRTUAL TABLE title_words USING fts5(title, tokenize='unicode61 remove_diacritics 2');
    CREATE TRIGGER sessions_words_ai AFTER INSERT ON sessions BEGIN
        INSERT INTO title_words(rowid, title) VALUES (new.rowid, ow_search_text(new.title));
    END;
    CREATE TRIGGER sessions_words_ad AFTER DELETE ON sessions BEGIN
        DELETE FROM title_words WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER sessions_words_au AFTER UPDATE OF title ON sessions BEGIN
        DELETE FROM title_words WHERE rowid = old.rowid;
        INSERT INTO title_words(rowid, title) VALUES (new.rowid, ow_search_text(new.title));
    END;
    CREATE TABLE search_respace (below INTEGER NOT NULL, titles_below INTEGER NOT NULL);
    INSERT INTO search_respace SELECT
        (SELECT COALESCE(MAX(rowid), 0) + 1 FROM message_search),
        (SELECT COALESCE(MAX(rowid), 0) + 1 FROM sessions);
    """,
    # 4: the title index needs neither the app's SQL function nor the sessions table's
    # implicit rowid (VACUUM or a dump and reload may renumber it). Each session has a
    # key of its own in title_keys (an INTEGER PRIMARY KEY: never renumbered), the
    # title index's rowid. Plain-SQL triggers keep the keys and mark a title "stale"
    # when it is written (a rename from any SQLite tool succeeds); the app indexes
    # the titles it writes in the same transaction (_index_title), and
    # backfill_search() the stale ones left by other tools. A stale title is found
    # by substring meanwhile, never by its old words. (The keys start as the rowids
    # the old index used, so its rows stay true while they are rewritten.)
    """
    DROP TRIGGER sessions_words_ai;
    DROP TRIGGER sessions_words_ad;
    DROP TRIGGER sessions_words_au;
    CREATE TABLE title_keys (
        key INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL UNIQUE,
        stale INTEGER NOT NULL DEFAULT 1
    );
    INSERT INTO title_keys(key, session_id, stale) SELECT rowid, id, 1 FROM sessions;
    CREATE INDEX title_keys_stale ON title_keys(key) WHERE stale;
    CREATE TRIGGER sessions_title_new AFTER INSERT ON sessions BEGIN
        INSERT INTO title_keys(session_id) VALUES (new.id)
            ON CONFLICT(session_id) DO UPDATE SET stale = 1;
    END;
    CREATE TRIGGER sessions_title_renamed AFTER UPDATE OF title ON sessions BEGIN
        UPDATE title_keys SET stale = 1 WHERE session_id = new.id;
    END;
    CREATE TRIGGER sessions_id_changed AFTER UPDATE OF id ON sessions BEGIN
        UPDATE title_keys SET session_id = new.id, stale = 1 WHERE session_id = old.id;
    END;
    CREATE TRIGGER sessions_title_gone AFTER DELETE ON sessions BEGIN
        DELETE FROM title_words WHERE rowid = (SELECT key FROM title_keys WHERE session_id = old.id);
        DELETE FROM title_keys WHERE session_id = old.id;
    END;
    UPDATE search_respace SET titles_below = 0;
    """,
    # 5: each session's token usage per model as a running total (session_usage), so
    # the status bar reads a few rows instead of summing every message of the session
    # (~250 ms of CPU at 1,000,000 messages, each time it was opened). Triggers keep
    # it in the transaction that writes a message, whoever writes it (append, a
    # deleted session's messages, another SQLite tool), with the figures of the sum
    # it replaces (storage/usage.py: scan_session_usage); rows stored before this
    # step are summed once here. A message whose JSON no longer parses counts nothing.
    # (The messages of a deleted session are not subtracted one by one: its session
    # row is gone by then, and sessions_usage_gone drops its totals at once.)
    """
    CREATE TABLE session_usage (
        session_id TEXT NOT NULL,
        model TEXT NOT NULL,
        calls INTEGER NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cache_read_tokens INTEGER NOT NULL,
        cache_write_tokens INTEGER NOT NULL,
        reasoning_tokens INTEGER NOT NULL,
        PRIMARY KEY (session_id, model)
    ) WITHOUT ROWID;
    INSERT INTO session_usage
        SELECT session_id, CAST(COALESCE(json_extract(data, '$.model'), '') AS TEXT), COUNT(*),
            SUM(COALESCE(json_extract(data, '$.usage.input_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.output_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.cache_read_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.cache_write_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.reasoning_tokens'), 0))
        FROM messages WHERE role IN ('assistant', 'notice')
            AND json_extract(CASE WHEN json_valid(data) THEN data END, '$.usage') IS NOT NULL
        GROUP BY 1, 2;
    CREATE TRIGGER messages_usage_ai AFTER INSERT ON messages
    WHEN new.role IN ('assistant', 'notice')
        AND json_extract(CASE WHEN json_valid(new.data) THEN new.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_ADD + """    END;
    CREATE TRIGGER messages_usage_ad AFTER DELETE ON messages
    WHEN old.role IN ('assistant', 'notice')
        AND EXISTS (SELECT 1 FROM sessions WHERE id = old.session_id)
        AND json_extract(CASE WHEN json_valid(old.data) THEN old.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_REMOVE + """    END;
    CREATE TRIGGER messages_usage_au_old AFTER UPDATE OF session_id, role, data ON messages
    WHEN old.role IN ('assistant', 'notice')
        AND json_extract(CASE WHEN json_valid(old.data) THEN old.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_REMOVE + """    END;
    CREATE TRIGGER messages_usage_au_new AFTER UPDATE OF session_id, role, data ON messages
    WHEN new.role IN ('assistant', 'notice')
        AND json_extract(CASE WHEN json_valid(new.data) THEN new.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_ADD + """    END;
    CREATE TRIGGER sessions_usage_gone AFTER DELETE ON sessions BEGIN
        DELETE FROM session_usage WHERE session_id = old.id;
    END;
    """,
    # 6: a sub-agent's tokens (the explorer's) count in the session's totals: its tool
    # result carries them as ``usage`` (with the ``model`` it ran on), so the usage
    # triggers also watch ``tool`` rows. Results stored before this step kept those
    # tokens only in what they display (``_display.agent_usage``): they get them as
    # their usage (with the session's model, the one the explorer ran on), and the
    # totals are summed again from the messages, as step 5 did.
    """
    DROP TRIGGER messages_usage_ai;
    DROP TRIGGER messages_usage_ad;
    DROP TRIGGER messages_usage_au_old;
    DROP TRIGGER messages_usage_au_new;
    UPDATE messages SET data = json_set(data,
            '$.usage', json(json_extract(data, '$._display.agent_usage')),
            '$.model', COALESCE((SELECT model FROM sessions WHERE id = messages.session_id), ''))
        WHERE role = 'tool' AND json_valid(data)
            AND json_type(data, '$._display.agent_usage') = 'object'
            AND json_extract(data, '$._display.agent_usage') <> '{}'
            AND json_extract(data, '$.usage') IS NULL;
    DELETE FROM session_usage;
    INSERT INTO session_usage
        SELECT session_id, CAST(COALESCE(json_extract(data, '$.model'), '') AS TEXT), COUNT(*),
            SUM(COALESCE(json_extract(data, '$.usage.input_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.output_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.cache_read_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.cache_write_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.reasoning_tokens'), 0))
        FROM messages WHERE role IN ('assistant', 'notice', 'tool')
            AND json_extract(CASE WHEN json_valid(data) THEN data END, '$.usage') IS NOT NULL
        GROUP BY 1, 2;
    CREATE TRIGGER messages_usage_ai AFTER INSERT ON messages
    WHEN new.role IN ('assistant', 'notice', 'tool')
        AND json_extract(CASE WHEN json_valid(new.data) THEN new.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_ADD + """    END;
    CREATE TRIGGER messages_usage_ad AFTER DELETE ON messages
    WHEN old.role IN ('assistant', 'notice', 'tool')
        AND EXISTS (SELECT 1 FROM sessions WHERE id = old.session_id)
        AND json_extract(CASE WHEN json_valid(old.data) THEN old.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_REMOVE + """    END;
    CREATE TRIGGER messages_usage_au_old AFTER UPDATE OF session_id, role, data ON messages
    WHEN old.role IN ('assistant', 'notice', 'tool')
        AND json_extract(CASE WHEN json_valid(old.data) THEN old.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_REMOVE + """    END;
    CREATE TRIGGER messages_usage_au_new AFTER UPDATE OF session_id, role, data ON messages
    WHEN new.role IN ('assistant', 'notice', 'tool')
        AND json_extract(CASE WHEN json_valid(new.data) THEN new.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_ADD + """    END;
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
    pinned: bool = False


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


class SearchHit(NamedTuple):
    """A session a search found: by its title, and/or by one of its messages
    (``message_id``: the newest message that matched). A tuple: 10,000 of them
    are made in a few ms."""

    session_id: str
    message_id: int | None


# Messages typed (and files attached) by the user at this computer.
USER_SOURCES = frozenset({"user", "steering"})

#: Roles whose words are searchable (what the user and the assistant wrote).
SEARCHED_ROLES = frozenset({"user", "assistant"})
#: Message rows indexed per transaction by :meth:`ConversationStore.backfill_search`.
BACKFILL_CHUNK = 500
#: The sidebar's order (pinned first, then most recently active).
RECENT_ORDER = "pinned DESC, updated_at DESC, id DESC"

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
            _index_title(conn, sid)
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
        """Every session whose title or messages hold all the words of ``text`` (a
        Latin word as a prefix, as it is being typed; a Chinese, Japanese or Korean
        word anywhere in the text), in the sidebar's order.

        Titles also match as plain substrings (a part of a word, any script).
        Runs a full-text query: call it from a worker, not the loop thread (a
        newer search may stop it there: :meth:`Database.stoppable`).

        SQLite puts the hits in order; ``on_first`` is given the first ``first``
        of them as soon as they are read, before the rest become Python rows (a
        list shows its first page meanwhile). Not called when they are all.
        """
        words = search_words(text)
        like = f"%{_like_escape(text.strip())}%"
        if not words:
            sql = (f"SELECT id, NULL AS mid FROM sessions WHERE title LIKE ?1 ESCAPE '\\'"
                   f" ORDER BY {RECENT_ORDER}")
            params: tuple[object, ...] = (like,)
        else:
            respacing = self.db.query("SELECT below FROM search_respace")
            old_cjk = bool(respacing and int(respacing[0][0]) > 0)
            # One statement: the matching messages (the newest one per session; their
            # session read from the messages row: its session_id comes before the
            # text, unlike the index's own copy), the
            # titles by their words (not a stale one: its old words no longer count;
            # its substring does), the titles as substrings; each session once, in
            # the sidebar's order by SQLite's sorter (~30 ms for 10,000 hits at
            # 100,000 sessions: bench/sessions.py).
            sql = (
                "WITH hits(sid, mid) AS ("
                " SELECT m.session_id, f.rowid FROM message_search f JOIN messages m ON m.id = f.rowid"
                "  WHERE message_search MATCH ?2"
                " UNION ALL SELECT k.session_id, NULL FROM title_words t"
                "  JOIN title_keys k ON k.key = t.rowid WHERE title_words MATCH ?3 AND NOT k.stale"
                " UNION ALL SELECT id, NULL FROM sessions WHERE title LIKE ?1 ESCAPE '\\')"
                " SELECT s.id, h.mid FROM (SELECT sid, MAX(mid) AS mid FROM hits GROUP BY sid) h"
                " JOIN sessions s ON s.id = h.sid"
                " ORDER BY s.pinned DESC, s.updated_at DESC, s.id DESC")
            params = (like, fts_query(words, unspaced=old_cjk), fts_query(words))

        def head(rows: list[tuple[Any, ...]]) -> None:
            if on_first is not None:
                on_first(list(map(SearchHit._make, rows)))

        return list(map(SearchHit._make, self.db.query_head(sql, params, first, head)))

    def message_texts(self, message_ids: list[int]) -> dict[int, str]:
        """The searchable words of these messages (for the snippets of search hits),
        as written (not as indexed)."""
        out: dict[int, str] = {}
        for start in range(0, len(message_ids), 500):
            part = message_ids[start:start + 500]
            marks = ",".join("?" * len(part))
            for r in self.db.query(f"SELECT id, data FROM messages WHERE id IN ({marks})", part):
                out[int(r["id"])] = searchable_text(_decode(r))
        return out

    def backfill_search(self, chunk: int = BACKFILL_CHUNK) -> bool:
        """One chunk of the search index's catching up, in one short transaction:
        titles written by another SQLite tool or before the title index was
        rebuilt (schema steps 3 and 4: its "stale" keys), messages
        stored before full-text search existed (step 2), then messages indexed
        before CJK text was spaced (step 3) — each newest first. True while some
        are left (call again, from a worker: it reads and writes the disk)."""
        with self.db.transaction() as conn:
            respace = conn.execute("SELECT below FROM search_respace").fetchone()
            respace_below = int(respace[0]) if respace else 0
            row = conn.execute("SELECT below FROM search_backfill").fetchone()
            below = int(row[0]) if row else 0
            stale = conn.execute(
                "SELECT k.key, s.title FROM title_keys k JOIN sessions s ON s.id = k.session_id"
                " WHERE k.stale ORDER BY k.key DESC LIMIT ?", (chunk,)).fetchall()
            for r in stale:
                _reindex_title(conn, int(r[0]), str(r[1]))
            titles_left = len(stale) == chunk
            if stale:  # (one kind of work per transaction, each short)
                pass
            elif below > 0:
                rows = conn.execute(
                    "SELECT id, session_id, role, data FROM messages WHERE id < ?"
                    " ORDER BY id DESC LIMIT ?", (below, chunk),
                ).fetchall()
                for r in rows:
                    if r["role"] not in SEARCHED_ROLES:
                        continue
                    words = index_text(searchable_text(_decode(r)))
                    if words:
                        conn.execute(
                            "INSERT OR REPLACE INTO message_search(rowid, text, session_id)"
                            " VALUES (?, ?, ?)", (r["id"], words, r["session_id"]))
                below = int(rows[-1]["id"]) if len(rows) == chunk else 0
                conn.execute("UPDATE search_backfill SET below = ?", (below,))
            elif respace_below > 0:
                rows = conn.execute(
                    "SELECT rowid, text FROM message_search WHERE rowid < ?"
                    " ORDER BY rowid DESC LIMIT ?", (respace_below, chunk)).fetchall()
                for r in rows:
                    spaced = index_text(str(r[1]))
                    if spaced != r[1]:
                        conn.execute("UPDATE message_search SET text = ? WHERE rowid = ?",
                                     (spaced, r[0]))
                respace_below = int(rows[-1][0]) if len(rows) == chunk else 0
                conn.execute("UPDATE search_respace SET below = ?", (respace_below,))
            return titles_left or below > 0 or respace_below > 0

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
                _index_title(conn, session_id)

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
                conn.execute(
                    "INSERT INTO message_search(rowid, text, session_id) VALUES (?, ?, ?)",
                    (cursor.lastrowid, words, session_id),
                )
            if message["role"] != "user":
                return
            if isinstance(message["content"], str):
                named = conn.execute(
                    "UPDATE sessions SET title = ? WHERE id = ? AND title = ''",
                    (_title(message["content"]), session_id),
                )
                if named.rowcount:
                    _index_title(conn, session_id)
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
        return [_decode(r) for r in rows]

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
            calls = _decode(row).get("tool_calls")
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
        rows = self.db.query("SELECT message_count FROM sessions WHERE id = ?", (session_id,))
        if rows:
            return int(rows[0][0])
        rows = self.db.query("SELECT COUNT(*) FROM messages WHERE session_id = ?", (session_id,))
        return int(rows[0][0])


def searchable_text(message: Message | dict[str, Any]) -> str:
    """What a search looks in: the text the user or the assistant wrote (not tool
    output, not attachments' data)."""
    if message.get("role") not in SEARCHED_ROLES:
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part.get("text") or "") for part in content
            if isinstance(part, dict) and part.get("type") == "text")
    return ""


def _index_title(conn: sqlite3.Connection, session_id: str) -> None:
    """Index the session's title as it is now (inside the transaction that wrote it)."""
    row = conn.execute(
        "SELECT k.key, s.title FROM title_keys k JOIN sessions s ON s.id = k.session_id"
        " WHERE k.session_id = ?", (session_id,)).fetchone()
    if row is not None:
        _reindex_title(conn, int(row[0]), str(row[1]))


def _reindex_title(conn: sqlite3.Connection, key: int, title: str) -> None:
    conn.execute("INSERT OR REPLACE INTO title_words(rowid, title) VALUES (?, ?)",
                 (key, index_text(title)))
    conn.execute("UPDATE title_keys SET stale = 0 WHERE key = ?", (key,))


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


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
        pinned=bool(row["pinned"]),
    )
