"""The conversation tables' schema: their migration steps, and how a stored
message row reads back.

The steps are frozen: a database stored at any earlier version is brought up to
date by running the steps it lacks, exactly as they were written
(tests/storage/test_conversation_schema.py checks every old version ends with
the schema a new database gets). A new change is a new step at the end.
"""

from __future__ import annotations

import json
import time
from typing import Any, cast

from openworker_qt.domain.messages import Message

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


#: The roles whose stored ``usage`` counts in ``session_usage``: replies (step 5),
#: and since step 6 the tool results of a sub-agent too.
_USAGE_ROLES_5 = "'assistant', 'notice'"
_USAGE_ROLES_6 = "'assistant', 'notice', 'tool'"


def _usage_sum(roles: str) -> str:
    """The statement filling ``session_usage`` from the stored messages of ``roles``
    (a message whose JSON no longer parses counts nothing)."""
    return """    INSERT INTO session_usage
        SELECT session_id, CAST(COALESCE(json_extract(data, '$.model'), '') AS TEXT), COUNT(*),
            SUM(COALESCE(json_extract(data, '$.usage.input_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.output_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.cache_read_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.cache_write_tokens'), 0)),
            SUM(COALESCE(json_extract(data, '$.usage.reasoning_tokens'), 0))
        FROM messages WHERE role IN (""" + roles + """)
            AND json_extract(CASE WHEN json_valid(data) THEN data END, '$.usage') IS NOT NULL
        GROUP BY 1, 2;
"""


def _usage_triggers(roles: str) -> str:
    """The four triggers keeping ``session_usage`` as messages of ``roles`` are
    written, deleted (while their session exists) or rewritten."""
    return """    CREATE TRIGGER messages_usage_ai AFTER INSERT ON messages
    WHEN new.role IN (""" + roles + """)
        AND json_extract(CASE WHEN json_valid(new.data) THEN new.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_ADD + """    END;
    CREATE TRIGGER messages_usage_ad AFTER DELETE ON messages
    WHEN old.role IN (""" + roles + """)
        AND EXISTS (SELECT 1 FROM sessions WHERE id = old.session_id)
        AND json_extract(CASE WHEN json_valid(old.data) THEN old.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_REMOVE + """    END;
    CREATE TRIGGER messages_usage_au_old AFTER UPDATE OF session_id, role, data ON messages
    WHEN old.role IN (""" + roles + """)
        AND json_extract(CASE WHEN json_valid(old.data) THEN old.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_REMOVE + """    END;
    CREATE TRIGGER messages_usage_au_new AFTER UPDATE OF session_id, role, data ON messages
    WHEN new.role IN (""" + roles + """)
        AND json_extract(CASE WHEN json_valid(new.data) THEN new.data END, '$.usage') IS NOT NULL
    BEGIN
""" + _USAGE_ADD + """    END;
"""


def _usage_triggers_7(roles: str) -> str:
    """Step 7's triggers: step 6's, with ``estimated_tokens`` added and taken away."""
    add = _USAGE_ADD.replace(
        "COALESCE(json_extract(new.data, '$.usage.reasoning_tokens'), 0))",
        "COALESCE(json_extract(new.data, '$.usage.reasoning_tokens'), 0),\n"
        "            COALESCE(json_extract(new.data, '$.usage.estimated_tokens'), 0))",
    ).replace(
        "reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens;",
        "reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens,\n"
        "            estimated_tokens = estimated_tokens + excluded.estimated_tokens;",
    )
    remove = _USAGE_REMOVE.replace(
        "reasoning_tokens - COALESCE(json_extract(old.data, '$.usage.reasoning_tokens'), 0)\n",
        "reasoning_tokens - COALESCE(json_extract(old.data, '$.usage.reasoning_tokens'), 0),\n"
        "            estimated_tokens =\n"
        "                estimated_tokens - COALESCE(json_extract(old.data, '$.usage.estimated_tokens'), 0)\n",
    )
    return _usage_triggers(roles).replace(_USAGE_ADD, add).replace(_USAGE_REMOVE, remove)


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
""" + _usage_sum(_USAGE_ROLES_5) + _usage_triggers(_USAGE_ROLES_5) + """    CREATE TRIGGER sessions_usage_gone AFTER DELETE ON sessions BEGIN
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
""" + _usage_sum(_USAGE_ROLES_6) + _usage_triggers(_USAGE_ROLES_6) + """    """,
    # 7: the part of a call's tokens that is an estimate (a local server that reports
    # no usage: domain/usage.py, estimated_tokens) is kept in the session's totals too,
    # so the status bar can say the figure is estimated. Rows stored before this step
    # have no estimate: the column starts at 0 and the totals need no new sum.
    """
    DROP TRIGGER messages_usage_ai;
    DROP TRIGGER messages_usage_ad;
    DROP TRIGGER messages_usage_au_old;
    DROP TRIGGER messages_usage_au_new;
    ALTER TABLE session_usage ADD COLUMN estimated_tokens INTEGER NOT NULL DEFAULT 0;
""" + _usage_triggers_7(_USAGE_ROLES_6) + """    """,
]

#: The sidebar's order (pinned first, then most recently active): the
#: ``sessions_by_recent`` index of step 2.
RECENT_ORDER = "pinned DESC, updated_at DESC, id DESC"


def decode_message(row: Any) -> Message:
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


