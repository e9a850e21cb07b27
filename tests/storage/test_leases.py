"""Session leases: one owner at a time, taken over only when the owner is gone."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from openworker_qt.storage.db import Database
from openworker_qt.storage.leases import SessionBusy, SessionLeases, pid_alive


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_second_owner_is_refused_with_the_holders_pid(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    first, second = SessionLeases(db), SessionLeases(db)
    first.acquire("s1")
    first.acquire("s1")  # re-entrant for its owner
    with pytest.raises(SessionBusy) as caught:
        second.acquire("s1")
    assert f"pid {first.pid}" in str(caught.value)
    assert "another OpenWorker window/process" in str(caught.value)
    assert second.holder("s1") is not None and first.holder("s1") is None
    second.acquire("s2")  # other sessions are free
    first.release("s1")
    second.acquire("s1")
    assert first.held() == set() and second.held() == {"s1", "s2"}


def test_release_by_a_non_owner_does_nothing(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    first, second = SessionLeases(db), SessionLeases(db)
    first.acquire("s1")
    second.release("s1")
    assert second.holder("s1") is not None


def test_a_dead_owners_lease_is_taken_over(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    gone = dead_pid()
    assert not pid_alive(gone)
    ghost = SessionLeases(db)
    ghost.pid = gone  # as written by a process that was killed since
    ghost.acquire("s1")
    heir = SessionLeases(db)
    assert heir.holder("s1") is None
    heir.acquire("s1")
    lease = heir.get("s1")
    assert lease is not None and lease.owner == heir.owner


def test_a_lease_left_by_an_earlier_process_with_our_pid_is_taken_over(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    me = SessionLeases(db)
    db.execute(  # written by a process that had this pid before us (pids are reused)
        "INSERT INTO session_leases(session_id, owner, pid, host, acquired_at, heartbeat)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        ("s1", f"{me.pid}@{me.host}:0000.0000", me.pid, me.host, time.time(), time.time()),
    )
    assert me.holder("s1") is None
    me.acquire("s1")
    # Another manager of this same process is a live driver, though.
    with pytest.raises(SessionBusy):
        SessionLeases(db).acquire("s1")


def test_a_silent_owner_goes_stale_and_beating_keeps_it(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    clock = Clock()
    owner = SessionLeases(db, clock=clock, stale_after=60)
    other = SessionLeases(db, clock=clock, stale_after=60)
    owner.acquire("s1")
    clock.now += 50
    assert owner.beat({"s1"}) == set()
    clock.now += 50  # 100 s after taking it, 50 s after the last beat: alive
    with pytest.raises(SessionBusy):
        other.acquire("s1")
    clock.now += 61  # silent for longer than the limit (frozen, or on another host)
    other.acquire("s1")
    # The old owner learns on its next beat that the session is no longer its own.
    assert owner.beat({"s1"}) == {"s1"}
    assert other.beat({"s1"}) == set()


def test_busy_elsewhere_lists_live_foreign_leases_only(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    me, live, ghost = SessionLeases(db), SessionLeases(db), SessionLeases(db)
    ghost.pid = dead_pid()
    me.acquire("mine")
    live.acquire("theirs")
    ghost.acquire("abandoned")
    assert me.busy_elsewhere() == {"theirs"}


def test_the_migration_is_forward_only_and_versioned(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    SessionLeases(db)
    assert db.version("leases") == 1
    SessionLeases(db)  # idempotent
    assert db.version("leases") == 1
