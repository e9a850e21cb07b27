"""Full-text search over the conversations: the title and message indexes
(written through as the store writes, caught up in the background for rows
older than the index) and the sidebar's search query.

The tables are made by the schema's steps 2-4 (conversation_schema.py); the
store (conversations.py) calls in here to keep them in step with what it
writes, and :class:`~openworker_qt.storage.conversations.ConversationStore`'s
search methods are these functions on its database.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, NamedTuple

from openworker_qt.domain.messages import Message
from openworker_qt.storage.conversation_schema import RECENT_ORDER, decode_message
from openworker_qt.storage.db import Database
from openworker_qt.storage.search_text import fts_query, index_text, search_words


class SearchHit(NamedTuple):
    """A session a search found: by its title, and/or by one of its messages
    (``message_id``: the newest message that matched). A tuple: 10,000 of them
    are made in a few ms."""

    session_id: str
    message_id: int | None


#: Roles whose words are searchable (what the user and the assistant wrote).
SEARCHED_ROLES = frozenset({"user", "assistant"})
#: Message rows indexed per transaction by :func:`backfill_search`.
BACKFILL_CHUNK = 500


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



def index_message(
    conn: sqlite3.Connection, message_id: int | None, words: str, session_id: str
) -> None:
    """Index a message's words (``index_text`` of its searchable text) inside the
    transaction that stores it (``message_id``: its row's id, the cursor's
    ``lastrowid``)."""
    conn.execute(
        "INSERT INTO message_search(rowid, text, session_id) VALUES (?, ?, ?)",
        (message_id, words, session_id),
    )


def index_title(conn: sqlite3.Connection, session_id: str) -> None:
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



def search_sessions(
    db: Database, text: str, *, first: int = 0,
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
        respacing = db.query("SELECT below FROM search_respace")
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

    return list(map(SearchHit._make, db.query_head(sql, params, first, head)))


def message_texts(db: Database, message_ids: list[int]) -> dict[int, str]:
    """The searchable words of these messages (for the snippets of search hits),
    as written (not as indexed)."""
    out: dict[int, str] = {}
    for start in range(0, len(message_ids), 500):
        part = message_ids[start:start + 500]
        marks = ",".join("?" * len(part))
        for r in db.query(f"SELECT id, data FROM messages WHERE id IN ({marks})", part):
            out[int(r["id"])] = searchable_text(decode_message(r))
    return out


def backfill_search(db: Database, chunk: int = BACKFILL_CHUNK) -> bool:
    """One chunk of the search index's catching up, in one short transaction:
    titles written by another SQLite tool or before the title index was
    rebuilt (schema steps 3 and 4: its "stale" keys), messages
    stored before full-text search existed (step 2), then messages indexed
    before CJK text was spaced (step 3) — each newest first. True while some
    are left (call again, from a worker: it reads and writes the disk)."""
    with db.transaction() as conn:
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
                words = index_text(searchable_text(decode_message(r)))
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
