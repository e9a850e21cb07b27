"""One SQLite database for everything that must last.

WAL journal, foreign keys on, a busy timeout so two processes (the app and the
CLI) can share the file. Schema is versioned per *component* (sessions, inbox,
audit, memory, …) in ``schema_versions``, so each module owns its tables and
its forward-only migrations: a store calls :meth:`Database.ensure` with its
ordered list of steps and the missing ones are applied in one transaction.

A database written by a newer version of the app (a component version higher
than the code knows) is refused with a clear error rather than misread.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


class StorageError(RuntimeError):
    """The database cannot be opened or used; the message says what to do."""


class Database:
    """A shared connection with a lock; safe to use from worker threads too."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._depth = 0  # > 0 inside batch(): writes join the open transaction
        try:
            self._conn = sqlite3.connect(
                str(path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._conn.row_factory = sqlite3.Row
            self._conn.execute("PRAGMA busy_timeout = 10000")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_versions ("
                " component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
        except sqlite3.DatabaseError as exc:
            raise StorageError(
                f"cannot open the database {self.path}: {exc}. The file was left untouched; "
                "move it aside to start fresh, or restore it from a backup."
            ) from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``: a write lock held for the whole block.

        Inside :meth:`batch` it joins the batch's transaction instead.
        """
        with self._lock:
            if self._depth:
                yield self._conn
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes made by several stores into one commit.

        For synchronous blocks only (never ``await`` inside: the connection's lock
        is held). Used where several rows become durable at the same moment, e.g.
        the results of concurrent tools that finished together: one commit instead
        of one per row (bench/engine.py).
        """
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._depth = 0

    def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self._conn.execute(sql, params)

    def query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def stamp(self) -> tuple[int, int]:
        """Changes as soon as anything in the database may have changed: a commit by
        any other connection (``PRAGMA data_version``) or a row this one wrote.
        Caches of rows compare it to know they are still true (a few µs)."""
        with self._lock:
            row = self._conn.execute("PRAGMA data_version").fetchone()
            return int(row[0]), self._conn.total_changes

    def version(self, component: str) -> int:
        rows = self.query("SELECT version FROM schema_versions WHERE component = ?", (component,))
        return int(rows[0][0]) if rows else 0

    def ensure(self, component: str, steps: Sequence[str]) -> None:
        """Apply the steps of ``component`` the database does not have yet."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT version FROM schema_versions WHERE component = ?", (component,)
            ).fetchone()
            current = int(row[0]) if row else 0
            if current > len(steps):
                raise StorageError(
                    f"{self.path}: the '{component}' tables are at version {current}, newer than "
                    f"this app knows ({len(steps)}). Update OpenWorker Qt to open this database."
                )
            for step in steps[current:]:
                for statement in _split(step):
                    conn.execute(statement)
            if current < len(steps):
                conn.execute(
                    "INSERT INTO schema_versions(component, version) VALUES (?, ?) "
                    "ON CONFLICT(component) DO UPDATE SET version = excluded.version",
                    (component, len(steps)),
                )


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
