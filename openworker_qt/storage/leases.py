"""Session leases: one driver per session across processes.

The app, a second window and the CLI share one database. A turn may only be
driven by one of them at a time, so a turn takes the session's lease when it
starts and gives it back when it ends. A lease names its owner (pid, host and a
random token, so two managers in one process differ) and carries a heartbeat
the owner refreshes while it holds it.

A lease is *stale*, and taken over by the next driver, when its owner is gone:
its pid no longer exists on this host, or its heartbeat is older than
``stale_after`` seconds (a frozen process, or one on another host sharing the
file).
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from openworker_qt.storage.db import Database

MIGRATIONS = [
    """
    CREATE TABLE session_leases (
        session_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        acquired_at REAL NOT NULL,
        heartbeat REAL NOT NULL
    );
    """,
]

HEARTBEAT_EVERY = 10.0
STALE_AFTER = 90.0

# Told apart from an earlier process that had the same pid (pids are reused).
_PROCESS_TOKEN = secrets.token_hex(4)


@dataclass(frozen=True, slots=True)
class Lease:
    session_id: str
    owner: str
    pid: int
    host: str
    acquired_at: float
    heartbeat: float


class SessionBusy(RuntimeError):
    """Another live process (or window) is driving this session."""

    def __init__(self, session_id: str, holder: Lease) -> None:
        self.session_id = session_id
        self.holder = holder
        where = "" if holder.host == socket.gethostname() else f" on {holder.host}"
        super().__init__(
            f"this session is being worked on by another OpenWorker window/process "
            f"(pid {holder.pid}{where}). Wait for its turn to end, or stop it there."
        )


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists on this machine."""
    if pid <= 0:
        return False
    if sys.platform == "win32":  # os.kill(pid, 0) would terminate the process there
        return _windows_pid_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    except OSError:
        return False
    return True


def _windows_pid_alive(pid: int) -> bool:  # pragma: no cover - Windows only
    import ctypes

    kernel32: Any = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return bool(kernel32.GetLastError() == 5)  # access denied: it exists
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == 259  # STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


class SessionLeases:
    """The lease table, seen by one owner (one per session manager)."""

    def __init__(
        self,
        db: Database,
        *,
        stale_after: float = STALE_AFTER,
        clock: Callable[[], float] = time.time,
        alive: Callable[[int], bool] = pid_alive,
    ) -> None:
        self.db = db
        db.ensure("leases", MIGRATIONS)
        self.pid = os.getpid()
        self.host = socket.gethostname()
        self._process = f"{self.pid}@{self.host}:{_PROCESS_TOKEN}."
        self.owner = self._process + secrets.token_hex(4)
        self.stale_after = stale_after
        self.clock = clock
        self.alive = alive

    def stale(self, lease: Lease) -> bool:
        """The owner is gone: its pid is dead here (or is ours now, reused), or it
        stopped beating."""
        if lease.host == self.host:
            if lease.pid == self.pid:
                if not lease.owner.startswith(self._process):
                    return True  # an earlier process that had our pid
            elif not self.alive(lease.pid):
                return True
        return self.clock() - lease.heartbeat > self.stale_after

    def acquire(self, session_id: str) -> None:
        """Take the session's lease (again, if we hold it); take over a stale one.

        Raises :class:`SessionBusy` while another live owner holds it.
        """
        now = self.clock()
        with self.db.transaction() as conn:
            row = conn.execute(
                "SELECT * FROM session_leases WHERE session_id = ?", (session_id,)
            ).fetchone()
            if row is not None:
                lease = _lease(row)
                if lease.owner != self.owner and not self.stale(lease):
                    raise SessionBusy(session_id, lease)
            conn.execute(
                "INSERT INTO session_leases(session_id, owner, pid, host, acquired_at, heartbeat)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(session_id) DO UPDATE SET"
                " owner = excluded.owner, pid = excluded.pid, host = excluded.host,"
                " acquired_at = excluded.acquired_at, heartbeat = excluded.heartbeat",
                (session_id, self.owner, self.pid, self.host, now, now),
            )

    def release(self, session_id: str) -> None:
        self.db.execute(
            "DELETE FROM session_leases WHERE session_id = ? AND owner = ?",
            (session_id, self.owner),
        )

    def beat(self, held: Collection[str]) -> set[str]:
        """Refresh every lease this owner holds (one UPDATE). Returns those of
        ``held`` it no longer holds: another driver took them over."""
        cursor = self.db.execute(
            "UPDATE session_leases SET heartbeat = ? WHERE owner = ?", (self.clock(), self.owner)
        )
        if cursor.rowcount == len(held):
            return set()
        return set(held) - self.held()

    def held(self) -> set[str]:
        rows = self.db.query(
            "SELECT session_id FROM session_leases WHERE owner = ?", (self.owner,)
        )
        return {str(r[0]) for r in rows}

    def get(self, session_id: str) -> Lease | None:
        rows = self.db.query("SELECT * FROM session_leases WHERE session_id = ?", (session_id,))
        return _lease(rows[0]) if rows else None

    def holder(self, session_id: str) -> Lease | None:
        """The live *other* owner driving this session, if any."""
        lease = self.get(session_id)
        if lease is None or lease.owner == self.owner or self.stale(lease):
            return None
        return lease

    def busy_elsewhere(self) -> set[str]:
        """Every session a live other owner is driving (one query)."""
        rows = self.db.query("SELECT * FROM session_leases WHERE owner != ?", (self.owner,))
        return {lease.session_id for lease in map(_lease, rows) if not self.stale(lease)}


def _lease(row: Any) -> Lease:
    return Lease(
        session_id=str(row["session_id"]), owner=str(row["owner"]), pid=int(row["pid"]),
        host=str(row["host"]), acquired_at=float(row["acquired_at"]),
        heartbeat=float(row["heartbeat"]),
    )
