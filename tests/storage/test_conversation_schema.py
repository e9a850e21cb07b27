"""The conversation tables' migrations: frozen, and a database stored at any
earlier version ends with the very schema a new one gets, its rows kept.

An old database is built by running only the first N steps (what the app of that
version did), with sessions and messages written by plain SQL as that app wrote
them; opening it with today's store runs the steps it lacks."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from openworker_qt.domain.usage import Usage
from openworker_qt.storage.conversation_schema import MIGRATIONS
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.usage import ModelUsage, scan_session_usage, session_usage

#: The first 16 hex digits of each step's SHA-256: a step, once released, is never
#: edited (a database already past it would never see the edit). Add new steps.
FROZEN = (
    "35594eec02c9a5b2",
    "755a22220c348532",
    "63c370ad3638d954",
    "3b9f61dce96bd853",
    "7dfd53a4cf8d15a2",
    "a222c4b86b3de007",
    "3940dd91469e5fa5",
)

MODEL = "anthropic:claude-sonnet-4-5"


def schema(db: Database) -> list[tuple[str, str, str, str | None]]:
    """Every table, index, trigger and view, with the SQL SQLite keeps for it."""
    rows = db.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    return [(r[0], r[1], r[2], r[3]) for r in rows]


def columns(db: Database) -> dict[str, list[tuple[object, ...]]]:
    tables = [r[0] for r in db.query("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: [tuple(c) for c in db.query(f"PRAGMA table_xinfo('{t}')")] for t in tables}


def test_the_released_steps_are_unchanged() -> None:
    digests = tuple(hashlib.sha256(step.encode()).hexdigest()[:16] for step in MIGRATIONS)
    assert digests[: len(FROZEN)] == FROZEN


def old_database(path: Path, version: int) -> None:
    """A database the app at ``version`` left: its steps, then a session with a
    question, a reply carrying its usage and a sub-agent's result (its tokens
    only in what it displays, as before step 6), written as that app wrote them."""
    old = Database(path)
    old.ensure("conversations", MIGRATIONS[:version])
    old.execute("INSERT INTO sessions(id, title, model, created_at, updated_at)"
                " VALUES ('s', 'Quarterly okapi census', ?, 1, 1)", (MODEL,))
    rows = [
        ("user", {"role": "user", "content": "where are the zebra figures?"}),
        ("assistant", {"role": "assistant", "content": "Here they are.", "model": MODEL,
                       "usage": {"input_tokens": 1_000, "output_tokens": 10}}),
        ("tool", {"role": "tool", "tool_call_id": "x1", "name": "explore", "content": "alpha",
                  "_display": {"agent_usage": {"input_tokens": 70, "output_tokens": 7}}}),
        ("tool", {"role": "tool", "tool_call_id": "r1", "name": "read_file", "content": "x"}),
    ]
    if version >= 6:  # from step 6 on, the app stores a sub-agent's tokens as its usage
        explorer = rows[2][1]
        explorer["usage"], explorer["model"] = explorer.pop("_display")["agent_usage"], MODEL
    for role, data in rows:
        old.execute("INSERT INTO messages(session_id, role, data, created_at) VALUES ('s', ?, ?, 1)",
                    (role, json.dumps(data)))
    old.close()


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS)))
def test_an_old_database_migrates_to_the_schema_a_new_one_gets(
    tmp_path: Path, version: int
) -> None:
    fresh = Database(tmp_path / "fresh.sqlite3")
    ConversationStore(fresh)

    path = tmp_path / f"v{version}.sqlite3"
    old_database(path, version)
    db = Database(path)
    store = ConversationStore(db)

    assert schema(db) == schema(fresh)
    assert columns(db) == columns(fresh)
    assert db.query("SELECT version FROM schema_versions WHERE component = 'conversations'")[0][0] \
        == len(MIGRATIONS)

    # Its rows are all there and read as before, counted, and their usage totalled
    # (the sub-agent's tokens too, on the session's model).
    info = store.get_session("s")
    assert info is not None and info.title == "Quarterly okapi census"
    assert info.message_count == 4 == store.count("s")
    assert [m["role"] for m in store.load("s")] == ["user", "assistant", "tool", "tool"]
    assert session_usage(db, "s") == scan_session_usage(db, "s") == [
        ModelUsage(MODEL, Usage(input_tokens=1_070, output_tokens=17), 2)]

    # Once the search index has caught up, the title is found by its words; the
    # messages too where they were stored before search existed (later ones were
    # written through by the app, not by this test's plain SQL).
    while store.backfill_search(chunk=2):
        pass
    assert [h.session_id for h in store.search_sessions("okapi census")] == ["s"]
    found = store.search_sessions("zebra")
    assert [h.session_id for h in found] == (["s"] if version == 1 else [])

    # And it keeps working as a new one does.
    store.append("s", {"role": "user", "content": "and the giraffe ones?"})
    assert [h.session_id for h in store.search_sessions("giraffe")] == ["s"]
    assert store.count("s") == 5
