"""Starting due runs when things go wrong or pile up (issue 24, items 17 and 20), on a
controllable clock and a real SQLite database: a run that cannot be claimed leaves
its task enabled, is tried again with a growing wait and tells the user why; and no
more than the configured number of runs work at once, the rest queued in due order."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.automation.scheduler import RETRY_FIRST, Scheduler
from openworker_qt.automation.store import Automation, AutomationStore, Run
from openworker_qt.cli.automations import _list
from openworker_qt.storage.db import Database
from tests.automation.test_scheduler import Clock


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    d = Database(tmp_path / "a.db")
    yield d
    d.close()


def utc(*args: int) -> float:
    return dt.datetime(*args, tzinfo=dt.UTC).timestamp()


class Runs:
    """The runs the scheduler starts: each works until the test lets it end."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}

    async def __call__(self, run: Run, auto: Automation) -> None:
        self.started.append(auto.name)
        gate = self.gates.setdefault(auto.name, asyncio.Event())
        await gate.wait()

    def end(self, name: str) -> None:
        self.gates.setdefault(name, asyncio.Event()).set()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_run_that_cannot_be_claimed_is_tried_again_and_said(
    db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock(utc(2026, 3, 2, 7, 59))
    store = AutomationStore(db, clock=clock)
    good = store.create(name="Good", prompt="p", cron="0 8 * * *", tz="UTC")
    bad = store.create(name="Broken", prompt="p", cron="0 8 * * *", tz="UTC")
    # The broken one's row cannot be scheduled any more (its next fire cannot be
    # worked out): claiming it raises, whatever the exception.
    con = sqlite3.connect(tmp_path / "a.db")
    con.execute("UPDATE automations SET cron = '0 8 * * 8' WHERE id = ?", (bad.id,))
    con.commit()
    con.close()
    runs = Runs()
    sched = Scheduler(store, runs, owner="me", clock=clock, monotonic=clock.monotonic,
                      offload=False, power=None)
    clock.advance(90)
    claimed = await sched.tick()
    assert [r.automation_id for r in claimed] == [good.id]
    broken = store.get(bad.id)
    assert broken is not None and broken.enabled  # not paused for good
    assert broken.last_error and "its run could not be started" in broken.last_error
    assert store.runs(bad.id) == []
    _list(store)
    listing = capsys.readouterr().out
    assert "[paused]" not in listing
    assert "problem: its run could not be started" in listing

    # Tried again only after a wait, which grows.
    await sched.tick()
    assert sched.retrying[bad.id][0] == 1
    clock.advance(RETRY_FIRST)
    await sched.tick()
    assert sched.retrying[bad.id][0] == 2
    clock.advance(RETRY_FIRST)
    await sched.tick()
    assert sched.retrying[bad.id][0] == 2  # the second wait is twice as long
    # Mended: the next try claims it, and the problem is gone.
    con = sqlite3.connect(tmp_path / "a.db")
    con.execute("UPDATE automations SET cron = '0 8 * * *' WHERE id = ?", (bad.id,))
    con.commit()
    con.close()
    clock.advance(RETRY_FIRST)
    assert [r.automation_id for r in await sched.tick()] == [bad.id]
    mended = store.get(bad.id)
    assert mended is not None and mended.last_error is None and bad.id not in sched.retrying
    for name in ("Good", "Broken"):
        runs.end(name)
    await settle()


async def test_no_more_than_the_cap_work_at_once_the_rest_in_due_order(db: Database) -> None:
    clock = Clock(utc(2026, 3, 2, 7, 0))
    store = AutomationStore(db, clock=clock)
    names = [f"task {n:02d}" for n in range(12)]
    for n, name in reversed(list(enumerate(names))):  # created out of order
        store.create(name=name, prompt="p", cron=f"{n} 8 * * *", tz="UTC")
    runs = Runs()
    parked: set[int] = set()
    sched = Scheduler(store, runs, owner="me", clock=clock, monotonic=clock.monotonic,
                      offload=False, power=None, max_running=lambda: 3,
                      parked=parked.__contains__)
    clock.advance(2 * 3600)  # 09:00: all twelve are due (missed at 08:00 … 08:11)
    claimed = await sched.tick()
    await settle()
    assert len(claimed) == 12
    assert runs.started == names[:3]
    queued = [store.run(run.id) for run, _auto in sched.queue]
    assert [r.note for r in queued if r] == [queued[0].note] * 9
    assert queued[0] is not None and queued[0].note.startswith("queued: 3 runs")
    runs.end("task 01")
    await settle()
    assert runs.started == names[:4]  # the next one due took its place
    # A run parked on the user takes no place.
    running = {auto.name: run.id for run, auto in [(r, store.get(r.automation_id))
                                                   for r in store.active_runs()] if auto}
    parked.add(running["task 00"])
    sched.drain()
    await settle()
    assert runs.started == names[:5]
    # A tick meanwhile starts nothing more: all were claimed; the cap holds.
    clock.advance(60)
    await sched.tick()
    await settle()
    assert runs.started == names[:5]
    for name in names:
        runs.end(name)
        await settle()
    assert runs.started == names
    assert sched.working() == 0 and not sched.queue


def test_the_cap_comes_from_the_settings() -> None:
    from openworker_qt.automation.service import MAX_RUNNING, AutomationService
    from openworker_qt.runtime import open_runtime
    from openworker_qt.storage.config import load_config

    rt = open_runtime()
    try:
        assert load_config().get("automation.max_concurrent_runs") == MAX_RUNNING == 3
        service = AutomationService(rt)
        assert service.scheduler._cap() == 3
        rt.config.data["automation"]["max_concurrent_runs"] = 7
        assert service.scheduler._cap() == 7
    finally:
        rt.close()


async def test_a_run_queued_when_the_app_stopped_starts_at_the_next_start(
    tmp_path: Path,
) -> None:
    import json
    import os
    import socket

    from openworker_qt.automation.service import AutomationService
    from openworker_qt.runtime import open_runtime

    script = tmp_path / "done.json"
    script.write_text(json.dumps([{"text": "Done."}] * 2), encoding="utf-8")
    rt = open_runtime()
    try:
        store = AutomationStore(rt.db)
        auto = store.create(name="Queued", prompt="p", cron="0 8 * * *", tz="UTC",
                            model=f"scripted:{script}", workspace=str(tmp_path))
        host = socket.gethostname()
        # Claimed by a process that is gone (queued there, never begun) …
        dead = store.start_manual(auto.id, owner=f"4194303@{host}:dead.beef")
        # … and by one still running (its parent, here): that one starts it itself.
        alive = store.start_manual(auto.id, owner=f"{os.getppid()}@{host}:live.cafe")
        service = AutomationService(rt)
        rt.add_service(service)
        assert await rt.start() == []
        for _ in range(500):
            if (r := store.run(dead.id)) is not None and r.status == "completed":
                break
            await asyncio.sleep(0.02)
        await rt.stop()
        finished = store.run(dead.id)
        assert finished is not None and finished.status == "completed", finished
        left = store.run(alive.id)
        assert left is not None and (left.status, left.session_id) == ("running", None)
    finally:
        rt.close()


def test_the_automations_window_says_a_run_could_not_be_started(
    qtbot: Any, tmp_path: Path
) -> None:
    from openworker_qt.ui.automations import AutomationsWindow

    store = AutomationStore(Database(tmp_path / "w.db"))
    auto = store.create(name="Broken", prompt="p", cron="0 8 * * *", tz="UTC")
    store.set_error(auto.id, "its run could not be started: database is locked "
                    "(tried 2 time(s); trying again)")
    window = AutomationsWindow(store, lambda _id: None)
    qtbot.addWidget(window)
    window.show()
    row = window.list.topLevelItem(0)
    assert row.text(2) != "paused"  # still scheduled
    assert row.text(3) == "never ran — could not start a run"
    assert "database is locked" in row.toolTip(3)
