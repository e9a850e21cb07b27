"""Sessions waiting to be woken (self-wake): the ``wakes`` table.

A session asks to be resumed at a time (``sleep_for``, ``sleep_until``), when one
of its background jobs ends (``wake_on``) or when an event is fired
(``wake_on_event``). The table is made by the automations' migrations
(automation/store.py), in the app's SQLite database; a wake is fired once, even
with two processes sharing the file.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from openworker_qt.automation.store import MIGRATIONS
from openworker_qt.storage.db import Database

__all__ = ["Wake", "WakeStore"]


@dataclass(slots=True)
class Wake:
    """A session waiting to be woken: at a time (``timer``), when a background
    job ends (``job``) or when an event is fired (``event``). ``due`` once its
    condition is met; ``fired`` once the session was resumed."""

    id: int
    session_id: str
    kind: Literal["timer", "job", "event"]
    fire_at: float | None
    job_id: str | None
    event_key: str | None
    note: str
    status: Literal["pending", "due", "fired"]
    created_at: float

    @property
    def described_when(self) -> str:
        if self.kind == "timer":
            import datetime as dt

            when = dt.datetime.fromtimestamp(self.fire_at or 0).astimezone()
            return f"{when:%Y-%m-%d %H:%M}"
        if self.kind == "job":
            return f"{self.job_id} finishes"
        return f"“{self.event_key}” happens"

    @property
    def described(self) -> str:
        if self.kind == "timer":
            import datetime as dt

            when = dt.datetime.fromtimestamp(self.fire_at or 0).astimezone()
            return f"the timer set for {when:%Y-%m-%d %H:%M} went off"
        if self.kind == "job":
            return f"the background task {self.job_id} finished"
        return f"the event “{self.event_key}” happened"


def _wake(row: Any) -> Wake:
    return Wake(
        id=int(row["id"]), session_id=row["session_id"], kind=row["kind"],
        fire_at=row["fire_at"], job_id=row["job_id"], event_key=row["event_key"],
        note=row["note"], status=row["status"], created_at=float(row["created_at"]),
    )


class WakeStore:
    """The ``wakes`` table (self-wake: ``sleep_for``, ``sleep_until``, ``wake_on``,
    ``wake_on_event``). Rows survive a restart; a wake is fired once."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        db.ensure("automations", MIGRATIONS)

    def add(
        self, session_id: str, kind: Literal["timer", "job", "event"], *,
        fire_at: float | None = None, job_id: str | None = None,
        event_key: str | None = None, note: str = "",
    ) -> Wake:
        cur = self.db.execute(
            "INSERT INTO wakes (session_id, kind, fire_at, job_id, event_key, note, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (session_id, kind, fire_at, job_id, event_key, note, self.clock()))
        found = self.get(int(cur.lastrowid or 0))
        assert found is not None
        return found

    def get(self, wake_id: int) -> Wake | None:
        rows = self.db.query("SELECT * FROM wakes WHERE id = ?", (wake_id,))
        return _wake(rows[0]) if rows else None

    def pending(self, session_id: str | None = None) -> list[Wake]:
        sql = "SELECT * FROM wakes WHERE status != 'fired'"
        params: list[object] = []
        if session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        return [_wake(r) for r in self.db.query(sql + " ORDER BY id", params)]

    def complete_job(self, session_id: str, job_id: str) -> int:
        """The background job ended: its wakes are due."""
        return self.db.execute(
            "UPDATE wakes SET status = 'due' WHERE status = 'pending' AND kind = 'job'"
            " AND session_id = ? AND job_id = ?", (session_id, job_id)).rowcount

    def fire_event(self, key: str) -> int:
        """The event ``key`` happened: every wake waiting on it is due."""
        return self.db.execute(
            "UPDATE wakes SET status = 'due' WHERE status = 'pending' AND kind = 'event'"
            " AND event_key = ?", (key,)).rowcount

    def due(self, now: float) -> list[Wake]:
        """Wakes to fire now: timers past their time (strictly), jobs and events
        marked due."""
        return [_wake(r) for r in self.db.query(
            "SELECT * FROM wakes WHERE status = 'due' OR (status = 'pending' AND kind = 'timer'"
            " AND fire_at < ?) ORDER BY id", (now,))]

    def mark_fired(self, wake_id: int) -> bool:
        """Claim the wake (once, across processes)."""
        return self.db.execute(
            "UPDATE wakes SET status = 'fired', fired_at = ? WHERE id = ? AND status != 'fired'",
            (self.clock(), wake_id)).rowcount == 1

    def cancel(self, session_id: str) -> int:
        return self.db.execute("DELETE FROM wakes WHERE session_id = ? AND status != 'fired'",
                               (session_id,)).rowcount
