"""Automations and their runs, in the app's SQLite database.

An *automation* is a prompt the app runs on its own: its name, prompt, persona,
model and folder, a :class:`~openworker_qt.automation.schedule.Schedule` (cron
in a time zone, or one moment), whether it is enabled, what to do about runs
missed while the app was not running (``run_once``: one catch-up run at start;
``skip``), who created it (the user or an agent, with the agent's session) and
the permissions granted at creation: standing rules on exact targets, stored in
the standing-rule table with scope ``task`` (they hold for this automation's
runs only, never for another session).

A *run* is one execution: a session of its own (``session_id``), why it ran
(``schedule``, ``catch_up``, ``manual``, ``wake``), its status (``running``,
``waiting`` — for you, in the inbox —, ``completed``, ``failed``, ``skipped``),
its deliverables and whether the user has seen a failure yet.

Claiming a due fire is one transaction (:meth:`AutomationStore.claim`): the
run row is written and ``next_run`` moved forward together, so two processes
sharing the database (the window and ``serve``) can never both start the same
fire; a task whose previous run is still going gets a ``skipped`` run instead.

The same migrations make the ``wakes`` table (automation/wakes.py).
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from openworker_qt.automation.schedule import (
    Schedule,
    ScheduleError,
    describe,
    next_fire,
    parse_cron,
    zone,
)
from openworker_qt.core.standing_rules import StandingRule, StandingRuleStore, parse_entry
from openworker_qt.storage.db import Database

__all__ = [
    "ACTIVE",
    "Automation",
    "AutomationError",
    "AutomationStore",
    "Run",
    "RunStatus",
]

RunStatus = Literal["running", "waiting", "completed", "failed", "skipped"]
Trigger = Literal["schedule", "catch_up", "manual", "wake"]
MissedPolicy = Literal["run_once", "skip"]
ACTIVE: tuple[RunStatus, ...] = ("running", "waiting")
STATUS_WORDS = {
    "running": "running", "waiting": "waiting for you", "completed": "completed",
    "failed": "failed", "skipped": "skipped",
}

MIGRATIONS = [
    """
    CREATE TABLE automations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        prompt TEXT NOT NULL,
        persona TEXT NOT NULL DEFAULT 'cowork',
        model TEXT NOT NULL DEFAULT '',
        workspace TEXT NOT NULL DEFAULT '',
        kind TEXT NOT NULL CHECK (kind IN ('cron', 'once')),
        cron TEXT NOT NULL DEFAULT '',
        fire_at REAL,
        tz TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        missed TEXT NOT NULL DEFAULT 'run_once' CHECK (missed IN ('run_once', 'skip')),
        created_by TEXT NOT NULL DEFAULT 'user' CHECK (created_by IN ('user', 'agent')),
        origin_session TEXT,
        grants TEXT NOT NULL DEFAULT '[]',
        next_run REAL,
        last_run_at REAL,
        last_status TEXT,
        run_count INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX automations_due ON automations (enabled, next_run);
    CREATE TABLE automation_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        automation_id TEXT NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
        session_id TEXT,
        trigger TEXT NOT NULL,
        scheduled_for REAL,
        status TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        deliverables TEXT NOT NULL DEFAULT '[]',
        seen INTEGER NOT NULL DEFAULT 0,
        owner TEXT,
        started_at REAL NOT NULL,
        finished_at REAL
    );
    CREATE INDEX automation_runs_of ON automation_runs (automation_id, id);
    CREATE INDEX automation_runs_active ON automation_runs (status);
    CREATE TABLE automation_flags (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE wakes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('timer', 'job', 'event')),
        fire_at REAL,
        job_id TEXT,
        event_key TEXT,
        note TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'due', 'fired')),
        created_at REAL NOT NULL,
        fired_at REAL
    );
    CREATE INDEX wakes_pending ON wakes (status, kind, fire_at)
    """,
    # Power-aware: on battery below this percentage, a due run waits for power.
    "ALTER TABLE automations ADD COLUMN battery_floor INTEGER",
    # Why its due run could not be started (claimed), shown until a claim succeeds.
    "ALTER TABLE automations ADD COLUMN last_error TEXT",
]


class AutomationError(ValueError):
    """An automation that cannot be saved or found; the message says why."""


@dataclass(slots=True)
class Automation:
    id: str
    name: str
    prompt: str
    schedule: Schedule
    persona: str = "cowork"
    model: str = ""
    workspace: str = ""
    enabled: bool = True
    missed: MissedPolicy = "run_once"
    created_by: Literal["user", "agent"] = "user"
    origin_session: str | None = None
    grants: list[str] = field(default_factory=list)
    next_run: float | None = None
    last_run_at: float | None = None
    last_status: str | None = None
    run_count: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    #: On battery below this percentage a due run waits for power (None: never).
    battery_floor: int | None = None
    #: Why its due run could not be started (the scheduler tries again), or None.
    last_error: str | None = None

    @property
    def described(self) -> str:
        return describe(self.schedule)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "prompt": self.prompt, "persona": self.persona,
            "model": self.model, "workspace": self.workspace, "enabled": self.enabled,
            "schedule": self.described, "cron": self.schedule.cron, "tz": self.schedule.tz,
            "fire_at": self.schedule.at, "missed": self.missed, "created_by": self.created_by,
            "grants": list(self.grants), "next_run": self.next_run,
            "last_status": self.last_status, "run_count": self.run_count,
            "battery_floor": self.battery_floor,
        }


@dataclass(slots=True)
class Run:
    id: int
    automation_id: str
    session_id: str | None
    trigger: str
    scheduled_for: float | None
    status: RunStatus
    note: str
    deliverables: list[str]
    seen: bool
    started_at: float
    finished_at: float | None
    owner: str | None = None

    @property
    def status_words(self) -> str:
        return STATUS_WORDS.get(self.status, self.status)


def _automation(row: Any) -> Automation:
    schedule = Schedule(kind=row["kind"], tz=row["tz"], cron=row["cron"], at=row["fire_at"])
    return Automation(
        id=row["id"], name=row["name"], prompt=row["prompt"], schedule=schedule,
        persona=row["persona"], model=row["model"], workspace=row["workspace"],
        enabled=bool(row["enabled"]), missed=row["missed"], created_by=row["created_by"],
        origin_session=row["origin_session"], grants=list(json.loads(row["grants"] or "[]")),
        next_run=row["next_run"], last_run_at=row["last_run_at"], last_status=row["last_status"],
        run_count=int(row["run_count"]), created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]), battery_floor=row["battery_floor"],
        last_error=row["last_error"],
    )


def _run(row: Any) -> Run:
    return Run(
        id=int(row["id"]), automation_id=row["automation_id"], session_id=row["session_id"],
        trigger=row["trigger"], scheduled_for=row["scheduled_for"],
        status=cast(RunStatus, row["status"]), note=row["note"],
        deliverables=list(json.loads(row["deliverables"] or "[]")), seen=bool(row["seen"]),
        started_at=float(row["started_at"]), finished_at=row["finished_at"], owner=row["owner"],
    )


def _pending_ask(conn: Any, run: Run) -> int | None:
    """The inbox item (its number) the waiting ``run`` waits on, if any."""
    if not run.session_id:
        return None
    try:
        row = conn.execute("SELECT MIN(id) FROM inbox WHERE session_id = ? AND status = 'pending'",
                           (run.session_id,)).fetchone()
    except sqlite3.OperationalError:  # no inbox table in this database
        return None
    return None if row is None or row[0] is None else int(row[0])


def make_schedule(
    *, cron: str | None = None, at: float | None = None, tz: str, now: float
) -> Schedule:
    """A checked schedule: exactly one of ``cron`` / ``at``; a one-off must be in
    the future."""
    zone(tz)
    if cron and at is not None:
        raise ScheduleError("give either a cron schedule or a one-off time, not both")
    if cron:
        return Schedule(kind="cron", tz=tz, cron=parse_cron(cron))
    if at is None:
        raise ScheduleError("a schedule needs a cron expression or a one-off time")
    if at <= now:
        raise ScheduleError("that one-off time is in the past; pick a time still to come")
    return Schedule(kind="once", tz=tz, at=float(at))


def _floor(value: object) -> int | None:
    if value is None or value == "":
        return None
    try:
        floor = int(str(value))
    except (TypeError, ValueError):
        raise AutomationError("the battery level must be a whole percentage") from None
    if not 1 <= floor <= 100:
        raise AutomationError("the battery level must be from 1 to 100 %")
    return floor


class AutomationStore:
    """Automations and runs (see module docstring). Safe across threads and processes."""

    def __init__(
        self, db: Database, *, rules: StandingRuleStore | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.clock = clock
        db.ensure("automations", MIGRATIONS)
        self.rules = rules if rules is not None else StandingRuleStore(db)

    # ------------------------------------------------------------ automations

    def create(
        self,
        *,
        name: str,
        prompt: str,
        tz: str,
        cron: str | None = None,
        at: float | None = None,
        persona: str = "cowork",
        model: str = "",
        workspace: str = "",
        enabled: bool = True,
        missed: MissedPolicy = "run_once",
        created_by: Literal["user", "agent"] = "user",
        origin_session: str | None = None,
        grants: Iterable[str] = (),
        battery_floor: int | None = None,
    ) -> Automation:
        """Save a new automation. Bad input raises :class:`AutomationError` or
        :class:`ScheduleError` and saves nothing."""
        name = (name or "").strip()
        prompt = (prompt or "").strip()
        if not name:
            raise AutomationError("an automation needs a name")
        if not prompt:
            raise AutomationError("an automation needs instructions (its prompt)")
        if missed not in ("run_once", "skip"):
            raise AutomationError("missed runs: choose run_once or skip")
        battery_floor = _floor(battery_floor)
        now = self.clock()
        schedule = make_schedule(cron=cron, at=at, tz=tz, now=now)
        parsed = [parse_entry(g) for g in grants]  # a bad grant: nothing saved
        aid = uuid.uuid4().hex[:10]
        nxt = next_fire(schedule, now) if enabled else None
        entries = [f"{tool} {target}" for tool, target in parsed]
        with self.db.batch():  # the automation and its rules, together or not at all
            self.db.execute(
                "INSERT INTO automations (id, name, prompt, persona, model, workspace, kind, cron,"
                " fire_at, tz, enabled, missed, created_by, origin_session, grants, next_run,"
                " created_at, updated_at, battery_floor)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (aid, name, prompt, persona, model, workspace, schedule.kind, schedule.cron,
                 schedule.at, schedule.tz, int(enabled), missed, created_by, origin_session,
                 json.dumps(entries), nxt, now, now, battery_floor),
            )
            for tool, target in parsed:
                self.rules.add(tool, target, scope="task", scope_id=aid)
        found = self.get(aid)
        assert found is not None
        return found

    def get(self, automation_id: str) -> Automation | None:
        rows = self.db.query("SELECT * FROM automations WHERE id = ?", (automation_id,))
        return _automation(rows[0]) if rows else None

    def find(self, key: str) -> Automation | None:
        """By id, unique id prefix, or exact name (as typed on the command line)."""
        found = self.get(key)
        if found is not None:
            return found
        rows = self.db.query(
            "SELECT * FROM automations WHERE id LIKE ? OR name = ? LIMIT 2", (key + "%", key))
        return _automation(rows[0]) if len(rows) == 1 else None

    def all(self) -> list[Automation]:
        return [_automation(r) for r in self.db.query(
            "SELECT * FROM automations ORDER BY created_at, id")]

    def update(self, automation_id: str, **changes: Any) -> Automation:
        """Change fields (``name``, ``prompt``, ``persona``, ``model``, ``workspace``,
        ``enabled``, ``missed``, ``cron``/``at``/``tz``). A new schedule or enabling
        recomputes the next run; disabling clears it."""
        current = self.get(automation_id)
        if current is None:
            raise AutomationError(f"no automation {automation_id!r} (it may have been deleted)")
        allowed = {"name", "prompt", "persona", "model", "workspace", "enabled", "missed",
                   "cron", "at", "tz", "battery_floor"}
        unknown = set(changes) - allowed
        if unknown:
            raise AutomationError(f"cannot change {', '.join(sorted(unknown))}")
        now = self.clock()
        updated = replace(current)
        for key in ("name", "prompt"):
            if key in changes:
                value = str(changes[key] or "").strip()
                if not value:
                    raise AutomationError(f"an automation needs a {key}")
                setattr(updated, key, value)
        for key in ("persona", "model", "workspace"):
            if key in changes:
                setattr(updated, key, str(changes[key] or ""))
        if "missed" in changes:
            if changes["missed"] not in ("run_once", "skip"):
                raise AutomationError("missed runs: choose run_once or skip")
            updated.missed = changes["missed"]
        if "battery_floor" in changes:
            updated.battery_floor = _floor(changes["battery_floor"])
        rescheduled = bool({"cron", "at", "tz"} & set(changes))
        if rescheduled:
            tz = str(changes.get("tz") or current.schedule.tz)
            cron = changes.get("cron")
            at = changes.get("at")
            if cron is None and at is None:
                cron, at = current.schedule.cron or None, current.schedule.at
            updated.schedule = make_schedule(cron=cron, at=at, tz=tz, now=now)
        if "enabled" in changes:
            updated.enabled = bool(changes["enabled"])
        if not updated.enabled:
            updated.next_run = None
        elif rescheduled or not current.enabled or current.next_run is None:
            updated.next_run = next_fire(updated.schedule, now)
        s = updated.schedule
        self.db.execute(
            "UPDATE automations SET name=?, prompt=?, persona=?, model=?, workspace=?, kind=?,"
            " cron=?, fire_at=?, tz=?, enabled=?, missed=?, next_run=?, updated_at=?,"
            " battery_floor=? WHERE id=?",
            (updated.name, updated.prompt, updated.persona, updated.model, updated.workspace,
             s.kind, s.cron, s.at, s.tz, int(updated.enabled), updated.missed, updated.next_run,
             now, updated.battery_floor, automation_id),
        )
        found = self.get(automation_id)
        assert found is not None
        return found

    # ------------------------------------------------------------------ rules

    def allowed(self, automation_id: str) -> list[StandingRule]:
        """What the task's runs may do without asking: its standing rules (exact
        external targets granted at creation or answered "always", and the exact
        shell commands answered "always for this task")."""
        return self.rules.list_rules(scope="task", scope_id=automation_id)

    def forget_rule(self, automation_id: str, rule_id: int) -> StandingRule:
        """Remove one of the task's rules (its runs ask again); the rule removed, or
        :class:`AutomationError` if the task has no such rule."""
        rule = self.rules.get(rule_id)
        if rule is None or rule.scope != "task" or rule.scope_id != automation_id:
            raise AutomationError(f"this automation has no rule #{rule_id} "
                                  "(see `openworker-qt automations show`)")
        self.rules.revoke(rule_id)
        return rule

    def delete(self, automation_id: str) -> bool:
        with self.db.batch():
            gone = self.db.execute(
                "DELETE FROM automations WHERE id = ?", (automation_id,)).rowcount
            if gone:
                self.rules.clear(scope="task", scope_id=automation_id)
        return bool(gone)

    # ------------------------------------------------------------------ pause

    @property
    def paused(self) -> bool:
        """Pause all: no scheduled run starts (Run now still works)."""
        rows = self.db.query("SELECT value FROM automation_flags WHERE key = 'paused'")
        return bool(rows) and rows[0][0] == "1"

    def set_paused(self, paused: bool) -> None:
        self.db.execute(
            "INSERT INTO automation_flags (key, value) VALUES ('paused', ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value", ("1" if paused else "0",))

    # ------------------------------------------------------------------- runs

    def due(self, now: float, *, limit: int = 1000, battery: int | None = None) -> list[Automation]:
        """Enabled automations whose next run is at or before ``now``. ``battery``:
        the charge left when on battery — a task whose floor is above it waits."""
        power = "" if battery is None else " AND (battery_floor IS NULL OR battery_floor <= ?)"
        params: tuple[object, ...] = (now,) if battery is None else (now, battery)
        return [_automation(r) for r in self.db.query(
            "SELECT * FROM automations WHERE enabled = 1 AND next_run IS NOT NULL"
            f" AND next_run <= ?{power} ORDER BY next_run LIMIT ?", (*params, limit))]

    def next_due(self) -> float | None:
        rows = self.db.query(
            "SELECT MIN(next_run) FROM automations WHERE enabled = 1 AND next_run IS NOT NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    def claim(
        self, automation_id: str, *, now: float, owner: str,
        still_going: Callable[[Run], bool] = lambda _run: True,
    ) -> tuple[Run, Automation] | None:
        """Take the automation's due fire for ``owner``: one transaction writes
        the run and moves ``next_run`` past ``now`` (missed fires collapse into
        this one: at most one catch-up). ``None`` if it is not due any more
        (another process took it). A previous run still going
        (``still_going(run)``) makes this one ``skipped``."""
        got = self.claim_many([automation_id], now=now, owner=owner, still_going=still_going)
        return got[0] if got else None

    def claim_many(
        self, automation_ids: Iterable[str], *, now: float, owner: str,
        still_going: Callable[[Run], bool] = lambda _run: True,
    ) -> list[tuple[Run, Automation]]:
        """:meth:`claim` for several automations in one transaction (one commit)."""
        out: list[tuple[Run, Automation]] = []
        with self.db.transaction() as conn:
            for automation_id in automation_ids:
                got = self._claim(conn, automation_id, now, owner, still_going)
                if got is not None:
                    out.append(got)
                # From a worker: let the event loop's thread have the GIL between
                # two claims (bench/scheduler.py: the start-up catch-up's stalls).
                time.sleep(0)
        return out

    def _claim(
        self, conn: Any, automation_id: str, now: float, owner: str,
        still_going: Callable[[Run], bool],
    ) -> tuple[Run, Automation] | None:
        row = conn.execute("SELECT * FROM automations WHERE id = ?", (automation_id,)).fetchone()
        if row is None:
            return None
        auto = _automation(row)
        if not auto.enabled or auto.next_run is None or auto.next_run > now:
            return None
        scheduled = auto.next_run
        late = now - scheduled
        trigger: Trigger = "catch_up" if late > CATCH_UP_AFTER else "schedule"
        nxt = next_fire(auto.schedule, now)
        active = [_run(r) for r in conn.execute(
            "SELECT * FROM automation_runs WHERE automation_id = ? AND status IN"
            " ('running', 'waiting')", (automation_id,)).fetchall()]
        busy = [r for r in active if still_going(r)]
        if busy:
            status: RunStatus = "skipped"
            ask = _pending_ask(conn, busy[0]) if busy[0].status == "waiting" else None
            # A run parked on a question or an approval holds the task until it is
            # answered: each fire meanwhile is skipped, saying what it waits for.
            note = (f"waiting for your answer on #{ask}, asked by run {busy[0].id}" if ask is not None
                    else f"the previous run (#{busy[0].id}) was still going")
        elif trigger == "catch_up" and auto.missed == "skip":
            status, note = "skipped", "missed while the app was not running"
        else:
            status, note = "running", ""
        cur = conn.execute(
            "INSERT INTO automation_runs (automation_id, trigger, scheduled_for, status, note,"
            " owner, started_at, finished_at, seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (automation_id, trigger, scheduled, status, note, owner, now,
             now if status == "skipped" else None, 1 if status == "skipped" else 0),
        )
        conn.execute(
            "UPDATE automations SET next_run = ?, enabled = ?, last_run_at = ?,"
            " run_count = run_count + ?, last_status = ?, last_error = NULL WHERE id = ?",
            (nxt, int(auto.schedule.kind == "cron"), now,
             0 if status == "skipped" else 1, status, automation_id),
        )
        run = _run(conn.execute("SELECT * FROM automation_runs WHERE id = ?",
                                (cur.lastrowid,)).fetchone())
        return run, auto

    def note_not_begun(self, run_ids: Iterable[int], note: str) -> None:
        """Set the note of those runs that have not begun (no session yet): a queued
        run's, which its start clears."""
        with self.db.transaction() as conn:
            for run_id in run_ids:
                conn.execute("UPDATE automation_runs SET note = ? WHERE id = ? AND status ="
                             " 'running' AND session_id IS NULL", (note, run_id))

    def set_error(self, automation_id: str, error: str | None) -> None:
        """Why the automation's due run could not be started (None: it could again)."""
        self.db.execute("UPDATE automations SET last_error = ? WHERE id = ?",
                        (error, automation_id))

    def start_manual(self, automation_id: str, *, owner: str, trigger: Trigger = "manual") -> Run:
        """A run started by the user ("Run now"), whatever the schedule."""
        now = self.clock()
        with self.db.transaction() as conn:
            if conn.execute("SELECT 1 FROM automations WHERE id = ?", (automation_id,)).fetchone() is None:
                raise AutomationError(f"no automation {automation_id!r}")
            cur = conn.execute(
                "INSERT INTO automation_runs (automation_id, trigger, status, owner, started_at)"
                " VALUES (?, ?, 'running', ?, ?)", (automation_id, trigger, owner, now))
            conn.execute(
                "UPDATE automations SET last_run_at = ?, run_count = run_count + 1,"
                " last_status = 'running' WHERE id = ?", (now, automation_id))
            run = _run(conn.execute("SELECT * FROM automation_runs WHERE id = ?",
                                    (cur.lastrowid,)).fetchone())
        return run

    def set_session(self, run_id: int, session_id: str) -> None:
        self.db.execute("UPDATE automation_runs SET session_id = ? WHERE id = ?", (session_id, run_id))

    def set_status(
        self, run_id: int, status: RunStatus, *, note: str | None = None,
        deliverables: Iterable[str] | None = None,
    ) -> None:
        finished = self.clock() if status in ("completed", "failed", "skipped") else None
        sets = ["status = ?", "finished_at = ?"]
        params: list[object] = [status, finished]
        if note is not None:
            sets.append("note = ?")
            params.append(note)
        if deliverables is not None:
            sets.append("deliverables = ?")
            params.append(json.dumps(list(deliverables)))
        if status == "failed":
            sets.append("seen = 0")
        with self.db.transaction() as conn:
            conn.execute(f"UPDATE automation_runs SET {', '.join(sets)} WHERE id = ?",
                         (*params, run_id))
            conn.execute(
                "UPDATE automations SET last_status = ? WHERE id ="
                " (SELECT automation_id FROM automation_runs WHERE id = ?)", (status, run_id))

    def add_deliverable(self, run_id: int, path: str) -> None:
        """A file the run produced (kept as it happens: a crash loses none)."""
        with self.db.transaction() as conn:
            row = conn.execute("SELECT deliverables FROM automation_runs WHERE id = ?",
                               (run_id,)).fetchone()
            if row is None:
                return
            files = list(json.loads(row[0] or "[]"))
            if path not in files:
                files.append(path)
                conn.execute("UPDATE automation_runs SET deliverables = ? WHERE id = ?",
                             (json.dumps(files), run_id))

    def run(self, run_id: int) -> Run | None:
        rows = self.db.query("SELECT * FROM automation_runs WHERE id = ?", (run_id,))
        return _run(rows[0]) if rows else None

    def runs(self, automation_id: str | None = None, *, limit: int = 50) -> list[Run]:
        if automation_id is None:
            rows = self.db.query("SELECT * FROM automation_runs ORDER BY id DESC LIMIT ?", (limit,))
        else:
            rows = self.db.query(
                "SELECT * FROM automation_runs WHERE automation_id = ? ORDER BY id DESC LIMIT ?",
                (automation_id, limit))
        return [_run(r) for r in rows]

    def active_runs(self) -> list[Run]:
        return [_run(r) for r in self.db.query(
            "SELECT * FROM automation_runs WHERE status IN ('running', 'waiting') ORDER BY id")]

    def run_for_session(self, session_id: str) -> Run | None:
        rows = self.db.query(
            "SELECT * FROM automation_runs WHERE session_id = ? ORDER BY id DESC LIMIT 1",
            (session_id,))
        return _run(rows[0]) if rows else None

    def unseen_failures(self) -> int:
        """Automations whose newest finished run failed and was not looked at."""
        rows = self.db.query(
            "SELECT COUNT(*) FROM automation_runs r WHERE r.status = 'failed' AND r.seen = 0"
            " AND r.id = (SELECT MAX(id) FROM automation_runs x WHERE x.automation_id ="
            " r.automation_id AND x.status != 'skipped')")
        return int(rows[0][0])

    def mark_seen(self, automation_id: str | None = None) -> None:
        if automation_id is None:
            self.db.execute("UPDATE automation_runs SET seen = 1 WHERE seen = 0")
        else:
            self.db.execute("UPDATE automation_runs SET seen = 1 WHERE automation_id = ?",
                            (automation_id,))


#: A fire claimed more than this many seconds after its time is a catch-up
#: (the app was not running, or the computer slept).
CATCH_UP_AFTER = 120.0
