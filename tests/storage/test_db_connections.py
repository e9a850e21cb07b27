"""Database connections and locks: worker threads read on connections of their
own, the loop's writes await another connection's write lock without blocking,
and change stamps let caches of rows see every commit (any process's)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database, StorageBusy


def test_a_worker_query_does_not_wait_for_the_loops_open_transaction(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    db.execute("CREATE TABLE t (x INTEGER)")
    db.execute("INSERT INTO t VALUES (1)")
    seen: list[list[int]] = []
    done = threading.Event()

    def worker() -> None:
        seen.append([r[0] for r in db.query("SELECT x FROM t ORDER BY x")])
        done.set()

    with db.batch():  # the loop's connection is busy (its lock held) for this block
        db.execute("INSERT INTO t VALUES (2)")
        thread = threading.Thread(target=worker)
        thread.start()
        answered = done.wait(10)  # a shared connection would wait for the block to end
    thread.join()
    assert answered
    assert seen == [[1]]  # its own connection: only what was committed
    assert [r[0] for r in db.query("SELECT x FROM t ORDER BY x")] == [1, 2]
    db.close()


def test_a_worker_writes_on_its_own_connection_and_the_loop_sees_it(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    store = ConversationStore(db)
    info = store.create_session(mode="auto")
    assert store.session_settings(info.id).mode == "auto"
    thread = threading.Thread(target=lambda: store.update_session(info.id, mode="plan"))
    thread.start()
    thread.join()
    assert store.session_settings(info.id).mode == "plan"
    db.close()


def test_session_settings_follow_changes_from_another_process(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    store = ConversationStore(Database(path))
    info = store.create_session(mode="auto")
    assert store.session_settings(info.id).mode == "auto"
    other = sqlite3.connect(path, isolation_level=None)  # as the CLI would
    other.execute("UPDATE sessions SET mode = 'plan', meta = ? WHERE id = ?",
                  ('{"granted_roots": [{"path": "/srv", "writable": true}]}', info.id))
    now = store.session_settings(info.id)
    assert now is not None and now.mode == "plan" and now.meta["granted_roots"][0]["path"] == "/srv"
    store.update_session(info.id, mode="interactive")  # and this process's own writes
    assert store.session_settings(info.id).mode == "interactive"
    other.close()


async def test_writing_waits_for_another_connections_lock_without_blocking_the_loop(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.sqlite3"
    db = Database(path)
    db.execute("CREATE TABLE t (x INTEGER)")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t VALUES (1)")
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    ticker = asyncio.create_task(tick())
    releaser = asyncio.get_running_loop().call_later(0.5, other.execute, "COMMIT")
    async with db.writing():  # waits for the other connection's commit ...
        db.execute("INSERT INTO t VALUES (2)")
        db.execute("INSERT INTO t VALUES (3)")
    ticker.cancel()
    releaser.cancel()
    # ... while the loop ran (a blocked loop would not have ticked), then wrote in order.
    assert ticks > 5
    assert [r[0] for r in db.query("SELECT x FROM t ORDER BY rowid")] == [1, 2, 3]
    other.close()
    db.close()


async def test_writing_gives_up_with_a_clear_error_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    db = Database(path)
    db.execute("CREATE TABLE t (x INTEGER)")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StorageBusy, match="locked by another OpenWorker process"):
        async with db.writing(wait=0.1):
            db.execute("INSERT INTO t VALUES (1)")
    other.execute("ROLLBACK")
    assert db.query("SELECT COUNT(*) FROM t")[0][0] == 0
    async with db.writing():  # the lock is free again: the connection is usable
        db.execute("INSERT INTO t VALUES (2)")
    assert db.query("SELECT x FROM t")[0][0] == 2
    other.close()
    db.close()


async def test_a_failing_block_inside_writing_is_rolled_back(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    db.execute("CREATE TABLE t (x INTEGER)")
    async def fail_midway() -> None:
        async with db.writing():
            db.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await fail_midway()
    assert db.query("SELECT COUNT(*) FROM t")[0][0] == 0
    db.close()


def test_plain_writes_still_wait_for_another_connections_lock(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    db = Database(path)
    db.execute("CREATE TABLE t (x INTEGER)")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t VALUES (1)")
    timer = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    timer.start()
    db.execute("INSERT INTO t VALUES (2)")  # waits (as before) rather than failing
    timer.join()
    assert [r[0] for r in db.query("SELECT x FROM t ORDER BY rowid")] == [1, 2]
    other.close()
    db.close()
