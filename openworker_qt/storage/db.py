"""One SQLite database for everything that must last.

WAL journal, foreign keys on, so two processes (the app and the CLI) can share
the file. Schema is versioned per *component* (sessions, inbox, audit, memory,
…) in ``schema_versions``, so each module owns its tables and its forward-only
migrations: a store calls :meth:`Database.ensure` with its ordered list of
steps and the missing ones are applied in one transaction.

A database written by a newer version of the app (a component version higher
than the code knows) is refused with a clear error rather than misread.

Connections and threads. The thread that opens the database (the event loop's,
in the app and the CLI) has its own connection; every other thread (a worker
paging a transcript, the warm-up) gets a connection of its own on first use, so
a worker's query never holds the loop's connection, and in WAL mode readers
never wait for a writer.

Another process holding the write lock (the CLI in a long write transaction):

* :meth:`Database.writing` — for the loop — awaits the write lock without
  blocking the loop (short tries, ``asyncio.sleep`` between them), then runs a
  block of synchronous writes as one transaction it cannot lose to anyone: the
  engine wraps each of a turn's writes in it, so a message is committed before
  it is announced and the window keeps painting meanwhile;
* plain calls (:meth:`execute`, :meth:`transaction`, :meth:`batch`) wait up to
  :data:`BUSY_TIMEOUT` seconds, as before (on the loop thread, that wait blocks
  it: use :meth:`writing` there for anything a turn does).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

from openworker_qt.storage.search_text import SQL_FUNCTION, index_text

T = TypeVar("T")

#: How long a plain (synchronous) call waits for another process's write lock.
BUSY_TIMEOUT = 10.0
#: How long :meth:`Database.writing` waits for it (the loop runs meanwhile).
WRITE_WAIT = 60.0
#: One try at the lock on the loop's connection (SQLite's own wait): kept short so
#: the loop is never held longer than this by another process's lock.
LOOP_TRY = 0.005


class StorageError(RuntimeError):
    """The database cannot be opened or used; the message says what to do."""


class StorageBusy(StorageError):
    """Another process kept the database's write lock longer than we could wait."""


def is_busy(exc: BaseException) -> bool:
    """SQLite said "database is locked/busy" (another connection holds the lock)."""
    return isinstance(exc, sqlite3.OperationalError) and getattr(
        exc, "sqlite_errorcode", None
    ) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class _Link:
    """One connection, its lock and its open batch depth."""

    __slots__ = ("conn", "depth", "home", "lock")

    def __init__(self, conn: sqlite3.Connection, *, home: bool) -> None:
        self.conn = conn
        self.lock = threading.RLock()
        self.depth = 0  # > 0 inside batch()/writing(): writes join the open transaction
        self.home = home  # the loop's: SQLite waits only LOOP_TRY, we retry


class Database:
    """The database (see the module docstring); safe to use from any thread."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._memory = str(path) == ":memory:"
        if not self._memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._home_thread = threading.get_ident()
        self._local = threading.local()
        self._others: list[_Link] = []
        self._others_lock = threading.Lock()
        self._closed = False
        try:
            self._home = self._open(home=True)
            self._retry(self._home, lambda: self._home.conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_versions ("
                " component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            ))
        except sqlite3.DatabaseError as exc:
            raise StorageError(
                f"cannot open the database {self.path}: {exc}. The file was left untouched; "
                "move it aside to start fresh, or restore it from a backup."
            ) from exc

    def _open(self, *, home: bool) -> _Link:
        wait = LOOP_TRY if home else BUSY_TIMEOUT
        conn = sqlite3.connect(
            str(self.path) if not self._memory else ":memory:",
            check_same_thread=False, isolation_level=None, timeout=wait,
        )
        conn.row_factory = sqlite3.Row
        link = _Link(conn, home=home)
        self._retry(link, lambda: conn.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}"))
        if not self._memory:
            self._retry(link, lambda: conn.execute("PRAGMA journal_mode = WAL"))
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        # The search index's text for a title (its triggers call it; storage/search_text.py).
        conn.create_function(SQL_FUNCTION, 1, _index_text, deterministic=True)
        return link

    def _link(self) -> _Link:
        """This thread's connection (the loop's, or a worker's own)."""
        if self._memory or threading.get_ident() == self._home_thread:
            return self._home
        link: _Link | None = getattr(self._local, "link", None)
        if link is None:
            if self._closed:
                raise StorageError(f"the database {self.path} is closed")
            link = self._open(home=False)
            self._local.link = link
            with self._others_lock:
                self._others.append(link)
        return link

    @contextmanager
    def stoppable(self, stop: Callable[[], bool], every: int = 1000) -> Iterator[None]:
        """This thread's queries inside the block end at once (``OperationalError``
        "interrupted") when ``stop()`` turns true: SQLite asks it every ``every``
        steps of a statement (a newer search stops the one it replaces however
        long its query is). On the loop's connection it does nothing."""
        link = self._link()
        if link.home:
            yield
            return
        link.conn.set_progress_handler(lambda: 1 if stop() else 0, every)
        try:
            yield
        finally:
            link.conn.set_progress_handler(None, 0)

    @staticmethod
    def _retry(link: _Link, action: Callable[[], T], budget: float = BUSY_TIMEOUT) -> T:
        """``action`` on ``link``; on the loop's connection, a "busy" answer is tried
        again until ``budget`` seconds passed (other connections let SQLite wait)."""
        if not link.home:
            return action()
        deadline = time.monotonic() + budget
        pause = 0.001
        while True:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def close(self) -> None:
        self._closed = True
        with self._others_lock:
            others, self._others = self._others, []
        for link in others:
            with link.lock:
                link.conn.close()
        with self._home.lock:
            self._home.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``: a write lock held for the whole block.

        Inside :meth:`batch` or :meth:`writing` it joins that transaction instead.
        """
        link = self._link()
        with link.lock:
            if link.depth:
                yield link.conn
                return
            self._retry(link, lambda: link.conn.execute("BEGIN IMMEDIATE"))
            try:
                yield link.conn
            except BaseException:
                link.conn.execute("ROLLBACK")
                raise
            self._retry(link, lambda: link.conn.execute("COMMIT"))

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes made by several stores into one commit.

        For synchronous blocks only (never ``await`` inside: the connection's lock
        is held). Used where several rows become durable at the same moment, e.g.
        the results of concurrent tools that finished together: one commit instead
        of one per row (bench/engine.py).
        """
        link = self._link()
        with link.lock:
            if link.depth:
                with self._joined(link):
                    yield
                return
            self._retry(link, lambda: link.conn.execute("BEGIN IMMEDIATE"))
            with self._begun(link):
                yield

    @staticmethod
    @contextmanager
    def _joined(link: _Link) -> Iterator[None]:
        """Inside a batch already open on this connection: its writes join it."""
        link.depth += 1
        try:
            yield
        finally:
            link.depth -= 1

    @contextmanager
    def _begun(self, link: _Link) -> Iterator[None]:
        """The block of a batch whose ``BEGIN IMMEDIATE`` just succeeded: commit at
        its end, roll back if it raises."""
        link.depth = 1
        try:
            yield
        except BaseException:
            link.conn.execute("ROLLBACK")
            raise
        else:
            self._retry(link, lambda: link.conn.execute("COMMIT"))
        finally:
            link.depth = 0

    @asynccontextmanager
    async def writing(self, *, wait: float = WRITE_WAIT) -> AsyncIterator[None]:
        """A :meth:`batch` whose write lock is awaited without blocking the loop.

        While another process holds the lock, this tries again every few
        milliseconds (``asyncio.sleep`` between tries, each try waiting at most
        :data:`LOOP_TRY`); once it has the lock, the block's synchronous writes
        cannot be refused and commit together when it ends. Never ``await``
        inside the block. Raises :class:`StorageBusy` after ``wait`` seconds.
        From another thread, or inside a batch, it is a plain :meth:`batch`.
        """
        link = self._link()
        if not link.home or link.depth:
            with self.batch():
                yield
            return
        deadline = time.monotonic() + wait
        pause = 0.002
        while True:
            link.lock.acquire()
            if link.depth:  # (another coroutine's batch on this thread: join it)
                break
            try:
                link.conn.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as exc:
                link.lock.release()
                if not is_busy(exc):
                    raise
            if time.monotonic() >= deadline:
                raise StorageBusy(
                    f"the database {self.path} stayed locked by another OpenWorker process "
                    f"for {wait:g} s; nothing was written. Try again when it has finished."
                )
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)
        try:
            with self._joined(link) if link.depth else self._begun(link):
                yield
        finally:
            link.lock.release()

    def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        link = self._link()
        with link.lock:
            return self._retry(link, lambda: link.conn.execute(sql, params))

    def query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        link = self._link()
        with link.lock:
            return self._retry(link, lambda: link.conn.execute(sql, params).fetchall())

    def query_head(self, sql: str, params: Sequence[object], first: int,
                   on_first: Callable[[list[tuple[Any, ...]]], None]) -> list[tuple[Any, ...]]:
        """Every row of the query as a plain tuple (quicker to make than a row by
        name, for many rows); when there are more than ``first``, ``on_first`` is
        given the first ``first`` rows as soon as SQLite has them, before the
        others are read (it may query this database)."""
        link = self._link()
        with link.lock:
            cursor = link.conn.cursor()
            cursor.row_factory = None
            self._retry(link, lambda: cursor.execute(sql, params))
            if first <= 0:
                return cursor.fetchall()
            rows = cursor.fetchmany(first + 1)
            if len(rows) <= first:
                return rows
            on_first(rows[:first])
            rows.extend(cursor.fetchall())
            return rows

    def stamp(self) -> tuple[int, int, int]:
        """Changes as soon as anything in the database may have changed, as seen from
        this thread's connection: a commit by any other connection (``PRAGMA
        data_version``) or a row this one wrote. Caches of rows compare it to know
        they are still true (a few µs)."""
        link = self._link()
        with link.lock:
            row = self._retry(link, lambda: link.conn.execute("PRAGMA data_version").fetchone())
            return id(link), int(row[0]), link.conn.total_changes

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


def _index_text(value: str | None) -> str | None:
    return index_text(value) if isinstance(value, str) else value


def _split(script: str) -> list[str]:
    """The statements of a migration script (a trigger's body keeps its own ``;``)."""
    statements: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\n;"):
                statements.append(pending.strip()[:-1].strip())
            pending = ""
    if pending.strip(" \t\n;"):
        statements.append(pending.strip().rstrip(";"))
    return statements
