"""SQLite storage: WAL, migrations, durability of messages, damaged data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database, StorageError


def test_wal_and_foreign_keys(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    assert db.query("PRAGMA journal_mode")[0][0] == "wal"
    assert db.query("PRAGMA foreign_keys")[0][0] == 1


def test_migrations_apply_forward_once(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    db = Database(path)
    db.ensure("demo", ["CREATE TABLE a (x INTEGER)"])
    assert db.version("demo") == 1
    db.ensure("demo", ["CREATE TABLE a (x INTEGER)", "ALTER TABLE a ADD COLUMN y TEXT"])
    assert db.version("demo") == 2
    db.close()
    again = Database(path)
    again.ensure("demo", ["CREATE TABLE a (x INTEGER)", "ALTER TABLE a ADD COLUMN y TEXT"])
    cols = [r["name"] for r in again.query("PRAGMA table_info(a)")]
    assert cols == ["x", "y"]


def test_failed_migration_rolls_back(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    with pytest.raises(sqlite3.OperationalError):
        db.ensure("demo", ["CREATE TABLE a (x INTEGER); CREATE TABLE a (y INTEGER)"])
    assert db.version("demo") == 0
    assert not db.query("SELECT name FROM sqlite_master WHERE name = 'a'")


def test_newer_database_is_refused(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    db.ensure("demo", ["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (x INTEGER)"])
    with pytest.raises(StorageError, match="newer than this app knows"):
        db.ensure("demo", ["CREATE TABLE a (x INTEGER)"])


def test_corrupt_database_file_is_a_clear_error_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    garbage = b"this is not a database" * 100
    path.write_bytes(garbage)
    with pytest.raises(StorageError, match="broken.sqlite3"):
        Database(path)
    assert path.read_bytes() == garbage


def test_sessions_and_messages_roundtrip(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "x.sqlite3"))
    s = store.create_session(model="scripted:x", workspace="/w")
    store.append(s.id, {"role": "user", "content": "Prepare the ACME renewal brief", "ts": 1.0})
    store.append(s.id, {"role": "assistant", "content": "On it — 中文也可以", "ts": 2.0})
    assert store.load(s.id)[1]["content"] == "On it — 中文也可以"
    info = store.get_session(s.id)
    assert info is not None
    assert info.title == "Prepare the ACME renewal brief"
    assert info.message_count == 2
    assert store.find_session(s.id[:6]) is not None
    assert [x.id for x in store.list_sessions(search="ACME")] == [s.id]
    store.update_session(s.id, unattended=True, title="Renamed")
    info = store.get_session(s.id)
    assert info is not None and info.unattended and info.title == "Renamed"
    with pytest.raises(ValueError, match="unknown session fields"):
        store.update_session(s.id, bogus=1)
    store.delete_session(s.id)
    assert store.get_session(s.id) is None
    assert store.load(s.id) == []


def test_damaged_message_row_is_shown_not_fatal(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    store = ConversationStore(db)
    s = store.create_session()
    store.append(s.id, {"role": "user", "content": "one"})
    store.append(s.id, {"role": "assistant", "content": "two"})
    db.execute("UPDATE messages SET data = '{not json' WHERE role = 'user'")
    loaded = store.load(s.id)
    assert loaded[0]["role"] == "notice" and "could not be read" in loaded[0]["text"]
    assert loaded[1]["content"] == "two"


def test_two_processes_worth_of_connections_share_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    a = ConversationStore(Database(path))
    b = ConversationStore(Database(path))
    s = a.create_session()
    a.append(s.id, {"role": "user", "content": "hi"})
    assert b.load(s.id)[0]["content"] == "hi"


def test_batch_commits_once_for_several_stores(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    db = Database(path)
    store = ConversationStore(db)
    s = store.create_session()
    other = ConversationStore(Database(path))  # another connection sees only commits
    with store.batch():
        store.append(s.id, {"role": "tool", "tool_call_id": "a", "content": "A"})
        store.append(s.id, {"role": "user", "content": "joins the batch too"})  # nested transaction
        assert other.load(s.id) == []
    assert [m["content"] for m in other.load(s.id)] == ["A", "joins the batch too"]


def test_a_failed_batch_writes_nothing(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "x.sqlite3"))
    s = store.create_session()
    def crash_mid_batch() -> None:
        with store.batch():
            store.append(s.id, {"role": "tool", "tool_call_id": "a", "content": "A"})
            raise RuntimeError("tool crashed mid-batch")

    with pytest.raises(RuntimeError):
        crash_mid_batch()
    assert store.load(s.id) == []
    store.append(s.id, {"role": "tool", "tool_call_id": "b", "content": "B"})  # usable again
    assert [m["content"] for m in store.load(s.id)] == ["B"]


def _turns(store: ConversationStore, sid: str, n: int) -> list[dict[str, object]]:
    msgs: list[dict[str, object]] = []
    for i in range(n):
        msgs += [
            {"role": "user", "content": f"q{i}"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": "t", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": f"r{i}", "status": "ok"},
            {"role": "assistant", "content": f"a{i}"},
        ]
    with store.batch():
        for m in msgs:
            store.append(sid, m)
    return msgs


def test_pages_start_at_a_user_message_and_join_up_to_the_whole_history(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "x.sqlite3"))
    sid = store.create_session().id
    _turns(store, sid, 30)  # 120 messages
    page, before = store.newest_messages(sid, limit=10)
    assert before is not None
    assert page[0]["role"] == "user" and len(page) <= 10  # never a result without its call
    older = store.messages_before(sid, before, chunk=7)  # several reads
    assert older + page == store.load(sid)
    whole, none = store.newest_messages(sid, limit=1000)
    assert none is None and whole == store.load(sid)
    assert store.newest_messages("no-such-session") == ([], None)


def test_a_turn_longer_than_a_page_widens_the_page(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "x.sqlite3"))
    sid = store.create_session().id
    _turns(store, sid, 30)
    with store.batch():
        for i in range(50):  # one turn of 50 tool steps, no user message in between
            store.append(sid, {"role": "tool", "tool_call_id": f"x{i}", "content": "", "status": "ok"})
    page, before = store.newest_messages(sid, limit=8)
    assert before is not None and page[0]["role"] == "user"
    assert [m.get("tool_call_id") for m in page[-50:]] == [f"x{i}" for i in range(50)]
    assert store.messages_before(sid, before) + page == store.load(sid)


def test_a_damaged_row_in_a_page_is_a_notice(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    store = ConversationStore(db)
    sid = store.create_session().id
    _turns(store, sid, 3)
    db.execute("UPDATE messages SET data = '[1, 2]' WHERE data LIKE '%\"a0\"%'")
    db.execute("UPDATE messages SET data = '{not json' WHERE data LIKE '%\"a2\"%'")
    page, before = store.newest_messages(sid, limit=4)
    assert page[-1]["role"] == "notice" and "could not be read" in str(page[-1]["text"])
    older = store.messages_before(sid, before or 0)
    assert older[3]["role"] == "notice" and "not an object" in str(older[3]["text"])
