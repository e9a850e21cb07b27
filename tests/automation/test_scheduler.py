"""The schedule, the automation store and the scheduler, on a controllable clock
and a real SQLite database."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from openworker_qt.automation.schedule import (
    Schedule,
    ScheduleError,
    describe,
    next_fire,
    next_fires,
    parse_cron,
)
from openworker_qt.automation.scheduler import Scheduler
from openworker_qt.automation.store import Automation, AutomationError, AutomationStore, Run
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.storage.db import Database

PARIS = ZoneInfo("Europe/Paris")
NY = ZoneInfo("America/New_York")


def at(tz: ZoneInfo, *args: int, fold: int = 0) -> float:
    return dt.datetime(*args, tzinfo=tz, fold=fold).timestamp()


def local(ts: float, tz: ZoneInfo) -> str:
    return dt.datetime.fromtimestamp(ts, tz).isoformat()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now
        self.mono = 1000.0

    def __call__(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float, *, asleep: bool = False) -> None:
        self.now += seconds
        if not asleep:  # the monotonic clock stands still while the computer sleeps
            self.mono += seconds


@pytest.fixture
def db(tmp_path: Path) -> Database:
    d = Database(tmp_path / "a.db")
    yield d
    d.close()


def store_at(db: Database, clock: Clock) -> AutomationStore:
    return AutomationStore(db, clock=clock)


class Recorder:
    """start_run: records the runs started; a run listed in ``park`` waits until
    released (as a run parked on an approval in the inbox does)."""

    def __init__(self) -> None:
        self.started: list[tuple[int, str]] = []
        self.park: set[str] = set()
        self.release = asyncio.Event()

    async def __call__(self, run: Run, auto: Automation) -> None:
        self.started.append((run.id, auto.name))
        if auto.name in self.park:
            await self.release.wait()


# ----------------------------------------------------------------- schedules


def test_dst_spring_forward_fires_once_at_the_shifted_time() -> None:
    # Paris, 29 March 2026: 02:00 → 03:00. "02:30 every day" fires at 03:30 that
    # day (once), then at 02:30 again.
    schedule = Schedule("cron", "Europe/Paris", "30 2 * * *")
    fires = next_fires(schedule, at(PARIS, 2026, 3, 28, 12, 0), 3)
    assert [local(f, PARIS) for f in fires] == [
        "2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00", "2026-03-31T02:30:00+02:00"]
    # Every 30 minutes across the gap: no instant twice, none skipped after the jump.
    half = Schedule("cron", "Europe/Paris", "*/30 * * * *")
    fires = next_fires(half, at(PARIS, 2026, 3, 29, 1, 10), 4)
    assert [local(f, PARIS) for f in fires] == [
        "2026-03-29T01:30:00+01:00", "2026-03-29T03:00:00+02:00",
        "2026-03-29T03:30:00+02:00", "2026-03-29T04:00:00+02:00"]
    assert len(set(fires)) == len(fires)


def test_dst_fall_back_fires_once_on_the_repeated_hour() -> None:
    # New York, 1 November 2026: 02:00 → 01:00, so 01:30 happens twice.
    schedule = Schedule("cron", "America/New_York", "30 1 * * *")
    fires = next_fires(schedule, at(NY, 2026, 10, 31, 12, 0), 3)
    assert [local(f, NY) for f in fires] == [
        "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00", "2026-11-03T01:30:00-05:00"]
    # Asked from inside the second 01:xx hour, it does not go back to the first one.
    second = at(NY, 2026, 11, 1, 1, 40, fold=1)
    assert local(next_fire(schedule, second) or 0, NY) == "2026-11-02T01:30:00-05:00"
    # 08:00 daily keeps its wall-clock time on both sides of the change.
    daily = Schedule("cron", "America/New_York", "0 8 * * *")
    fires = next_fires(daily, at(NY, 2026, 10, 31, 9, 0), 2)
    assert [local(f, NY) for f in fires] == ["2026-11-01T08:00:00-05:00",
                                            "2026-11-02T08:00:00-05:00"]


# Fall-back and spring-forward nights in both zones (2026): Berlin 25 Oct 03:00 CEST
# → 02:00 CET and 29 Mar 02:00 CET → 03:00 CEST; New York 1 Nov 02:00 EDT → 01:00 EST
# and 8 Mar 02:00 EST → 03:00 EDT.
BERLIN = ZoneInfo("Europe/Berlin")


def fire_list(tz: ZoneInfo, cron: str, start: tuple[int, ...], count: int) -> list[str]:
    schedule = Schedule("cron", str(tz), cron)
    return [dt.datetime.fromtimestamp(f, tz).strftime("%H:%M%z")
            for f in next_fires(schedule, at(tz, *start), count)]


def test_fall_back_interval_schedules_fire_through_the_repeated_hour() -> None:
    # Every minute: 02:59 CEST is followed by 02:00 CET, one minute later (it was
    # 03:00 CET, an hour with no runs).
    assert fire_list(BERLIN, "* * * * *", (2026, 10, 25, 2, 57), 5) == [
        "02:58+0200", "02:59+0200", "02:00+0100", "02:01+0100", "02:02+0100"]
    assert fire_list(BERLIN, "*/15 * * * *", (2026, 10, 25, 1, 40), 10) == [
        "01:45+0200", "02:00+0200", "02:15+0200", "02:30+0200", "02:45+0200",
        "02:00+0100", "02:15+0100", "02:30+0100", "02:45+0100", "03:00+0100"]
    assert fire_list(BERLIN, "0 * * * *", (2026, 10, 25, 0, 30), 5) == [
        "01:00+0200", "02:00+0200", "02:00+0100", "03:00+0100", "04:00+0100"]
    assert fire_list(NY, "*/15 * * * *", (2026, 11, 1, 0, 40), 10) == [
        "00:45-0400", "01:00-0400", "01:15-0400", "01:30-0400", "01:45-0400",
        "01:00-0500", "01:15-0500", "01:30-0500", "01:45-0500", "02:00-0500"]
    assert fire_list(NY, "0 * * * *", (2026, 11, 1, 0, 30), 4) == [
        "01:00-0400", "01:00-0500", "02:00-0500", "03:00-0500"]


def test_fall_back_fixed_time_schedules_fire_once() -> None:
    assert fire_list(BERLIN, "30 2 * * *", (2026, 10, 24, 12, 0), 3) == [
        "02:30+0200", "02:30+0100", "02:30+0100"]  # 25, 26 and 27 October
    # Asked from inside the second 02:xx hour, the fixed time is not due again.
    schedule = Schedule("cron", "Europe/Berlin", "30 2 * * *")
    inside = at(BERLIN, 2026, 10, 25, 2, 10, fold=1)
    assert local(next_fire(schedule, inside) or 0, BERLIN) == "2026-10-26T02:30:00+01:00"


def test_spring_forward_interval_schedules_have_no_gap_and_no_double() -> None:
    assert fire_list(BERLIN, "*/15 * * * *", (2026, 3, 29, 1, 20), 6) == [
        "01:30+0100", "01:45+0100", "03:00+0200", "03:15+0200", "03:30+0200", "03:45+0200"]
    assert fire_list(BERLIN, "0 * * * *", (2026, 3, 29, 0, 30), 4) == [
        "01:00+0100", "03:00+0200", "04:00+0200", "05:00+0200"]
    assert fire_list(BERLIN, "* * * * *", (2026, 3, 29, 1, 58), 3) == [
        "01:59+0100", "03:00+0200", "03:01+0200"]
    assert fire_list(NY, "*/20 * * * *", (2026, 3, 8, 1, 20), 5) == [
        "01:40-0500", "03:00-0400", "03:20-0400", "03:40-0400", "04:00-0400"]


def test_spring_forward_a_skipped_fixed_time_fires_once_after_the_jump() -> None:
    # 02:30 does not exist on 29 March: it fires once, at 03:30 (the same 30
    # minutes after the jump), then at 02:30 again.
    assert fire_list(BERLIN, "30 2 * * *", (2026, 3, 28, 12, 0), 3) == [
        "03:30+0200", "02:30+0200", "02:30+0200"]
    assert fire_list(NY, "30 2 * * *", (2026, 3, 7, 12, 0), 2) == ["03:30-0400", "02:30-0400"]
    # A task set up at 03:10, after the jump, still gets that day's 03:30.
    schedule = Schedule("cron", "Europe/Berlin", "30 2 * * *")
    assert local(next_fire(schedule, at(BERLIN, 2026, 3, 29, 3, 10)) or 0, BERLIN) == \
        "2026-03-29T03:30:00+02:00"


@pytest.mark.parametrize("cron", ["* * * * *", "*/15 * * * *", "0 * * * *", "*/7 * * * *"])
@pytest.mark.parametrize(("tz", "night"), [
    (BERLIN, (2026, 10, 25)), (BERLIN, (2026, 3, 29)), (NY, (2026, 11, 1)), (NY, (2026, 3, 8))])
def test_interval_schedules_fire_at_every_instant_whose_clock_matches(
        cron: str, tz: ZoneInfo, night: tuple[int, int, int]) -> None:
    # The fires over five hours around the change, asked from many instants in
    # it (inside the repeated hour too), are exactly the minutes whose wall-clock
    # time matches the schedule.
    from croniter import croniter

    begin = at(tz, *night, 0, 0)
    minutes = [begin + 60 * i for i in range(5 * 60)]
    matching = [m for m in minutes if croniter.match(
        cron, dt.datetime.fromtimestamp(m, tz).replace(tzinfo=None))]
    schedule = Schedule("cron", str(tz), cron)
    fires = next_fires(schedule, begin - 1, len(matching))
    assert fires == matching
    for after in (m + 1 for m in minutes[::7] if m < matching[-1]):
        assert next_fire(schedule, after) == next(m for m in matching if m > after)


@pytest.mark.parametrize("cron", ["30 2 * * *", "15,45 2,3 * * *", "10 1,2 * * *",
                                  "* 2 * * *", "0 */2 * * *"])
@pytest.mark.parametrize(("zone_name", "night"), [
    ("Europe/Berlin", (2026, 10, 25)), ("America/New_York", (2026, 3, 8)),
    ("Australia/Lord_Howe", (2026, 4, 5)), ("Australia/Lord_Howe", (2026, 10, 4))])
def test_next_fire_is_the_earliest_fire_of_the_rule(
        cron: str, zone_name: str, night: tuple[int, int, int]) -> None:
    # The rule, minute by minute over the night (Lord Howe moves its clock by 30
    # minutes): a matching wall-clock time fires at its first occurrence (a skipped
    # one the same minutes after the jump), and at its second too for a schedule by
    # the clock. next_fire, asked from many instants, gives the earliest one after.
    from croniter import croniter

    from openworker_qt.automation.schedule import by_the_clock

    tz = ZoneInfo(zone_name)
    fires: set[float] = set()
    wall = dt.datetime(*night) - dt.timedelta(hours=6)
    for _ in range(36 * 60):
        if croniter.match(cron, wall):
            first, second = wall.replace(tzinfo=tz, fold=0), wall.replace(tzinfo=tz, fold=1)
            fires.add(first.timestamp())
            shown = dt.datetime.fromtimestamp(first.timestamp(), tz).replace(tzinfo=None)
            if by_the_clock(cron) and first.utcoffset() != second.utcoffset() and shown == wall:
                fires.add(second.timestamp())
        wall += dt.timedelta(minutes=1)
    ordered = sorted(fires)
    schedule = Schedule("cron", zone_name, cron)
    begin = dt.datetime(*night, tzinfo=tz).timestamp() - 5 * 3600
    for step in range(0, 24 * 60, 13):
        after = begin + step * 60 + 7
        assert next_fire(schedule, after) == next(f for f in ordered if f > after), (
            local(after, tz))


@pytest.mark.parametrize(("cron", "field"), [
    ("0 25 * * *", "hour"), ("61 8 * * *", "minute"), ("0 8 32 * *", "day of month"),
    ("0 8 * 13 *", "month"), ("0 8 * * funday", "day of week"), ("0 8 * * */0", "day of week"),
])
def test_a_bad_cron_names_the_field(cron: str, field: str) -> None:
    with pytest.raises(ScheduleError, match=f"invalid cron: the {field} field"):
        parse_cron(cron)


def test_a_cron_with_the_wrong_number_of_fields_says_so() -> None:
    with pytest.raises(ScheduleError, match="expected 5 fields"):
        parse_cron("0 8 * *")
    assert parse_cron("  0  8 * * mon-fri ") == "0 8 * * mon-fri"
    assert parse_cron("@daily") == "0 0 * * *"


@pytest.mark.parametrize(("words", "cron"), [
    ("every weekday at 9am", "0 9 * * 1-5"), ("Every day at 18:30", "30 18 * * *"),
    ("daily at noon", "0 12 * * *"), ("weekdays at 5:30 pm", "30 17 * * 1-5"),
    ("every Monday at 8:00", "0 8 * * 1"), ("mondays and thursdays at 8", "0 8 * * 1,4"),
    ("mon, wed, fri at 7:15", "15 7 * * 1,3,5"), ("at 9am every weekday", "0 9 * * 1-5"),
    ("every weekend at 10", "0 10 * * 0,6"), ("every 15 minutes", "*/15 * * * *"),
    ("every hour", "0 * * * *"), ("hourly", "0 * * * *"), ("every 2 hours", "0 */2 * * *"),
    ("every hour at 20 past", "20 * * * *"), ("every minute", "* * * * *"),
    ("on the 1st of every month at 9am", "0 9 1 * *"),
    ("monthly on the 15th at 8:00", "0 8 15 * *"), ("every day at 12am", "0 0 * * *"),
    ("每个工作日 9:00", "0 9 * * 1-5"), ("每天 18:30", "30 18 * * *"),
    ("每周一、三 上午9点", "0 9 * * 1,3"), ("每天下午3点半", "30 15 * * *"),
    ("每月1日 9:00", "0 9 1 * *"), ("每 15 分钟", "*/15 * * * *"), ("每小时", "0 * * * *"),
])
def test_a_schedule_typed_in_words_is_the_cron_it_means(words: str, cron: str) -> None:
    assert parse_cron(words) == cron
    assert next_fire(Schedule("cron", "Europe/Paris", parse_cron(words)), 0.0) is not None


@pytest.mark.parametrize("words", [
    "every blursday at 9", "every weekday at 25pm", "every day at 9:75", "every 0 minutes",
    "every 90 minutes", "at 9am", "9am", "hello there", "every day", "每周八 9:00",
    "on the 32nd of every month at 9", "every weekday at 13pm",
])
def test_words_that_are_not_a_schedule_say_how_to_write_one(words: str) -> None:
    with pytest.raises(ScheduleError, match="every weekday at 9am") as caught:
        parse_cron(words)
    assert repr(words) in str(caught.value)


def test_presets_are_the_schedules_their_words_say() -> None:
    from openworker_qt.automation.schedule_words import PRESETS

    for words, cron in PRESETS:
        assert parse_cron(words) == cron, words


def test_schedules_in_words() -> None:
    words = [describe(Schedule("cron", "Europe/Paris", c)) for c in
             ("0 8 * * 1-5", "30 7 * * *", "0 9 * * 1", "*/15 * * * *", "0 6 1 * *", "5 4 3 2 *")]
    assert words == [
        "Every weekday at 08:00 (Europe/Paris)", "Every day at 07:30 (Europe/Paris)",
        "Every Monday at 09:00 (Europe/Paris)", "Every 15 minutes (Europe/Paris)",
        "On day 1 of every month at 06:00 (Europe/Paris)",
        "On the schedule “5 4 3 2 *” (Europe/Paris)"]


# --------------------------------------------------------------------- store


def test_store_refuses_bad_input_and_saves_nothing(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 0))
    store = store_at(db, clock)
    with pytest.raises(ScheduleError, match="in the past"):
        store.create(name="x", prompt="p", tz="Europe/Paris", at=clock.now - 60)
    with pytest.raises(ScheduleError, match="the hour field"):
        store.create(name="x", prompt="p", tz="Europe/Paris", cron="0 24 * * *")
    with pytest.raises(ScheduleError, match="unknown time zone"):
        store.create(name="x", prompt="p", tz="Mars/Olympus", cron="0 8 * * *")
    with pytest.raises(ScheduleError, match="cron expression or a one-off"):
        store.create(name="x", prompt="p", tz="Europe/Paris")
    with pytest.raises(AutomationError, match="name"):
        store.create(name=" ", prompt="p", tz="Europe/Paris", cron="0 8 * * *")
    with pytest.raises(ValueError, match="target"):
        store.create(name="x", prompt="p", tz="Europe/Paris", cron="0 8 * * *",
                     grants=["send_message"])
    assert store.all() == []
    with pytest.raises(AutomationError, match="deleted"):
        store.update("nope", name="y")


def test_grants_are_task_scoped_standing_rules(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 0))
    store = store_at(db, clock)
    auto = store.create(name="brief", prompt="p", tz="Europe/Paris", cron="0 8 * * 1-5",
                        grants=["send_message slack:C1"])
    rules = StandingRuleStore(db)
    assert rules.match("send_message", "slack:C1", [("task", auto.id)]) is not None
    assert rules.match("send_message", "slack:C1", [("session", "other")]) is None
    assert local(auto.next_run or 0, PARIS) == "2026-12-01T08:00:00+01:00"
    disabled = store.update(auto.id, enabled=False)
    assert disabled.next_run is None
    assert store.delete(auto.id)
    assert rules.list_rules(scope="task", scope_id=auto.id) == []


# ----------------------------------------------------------------- scheduler


def make(db: Database, clock: Clock, recorder: Recorder, **kw: object) -> Scheduler:
    return Scheduler(store_at(db, clock), recorder, owner="test", clock=clock,
                     monotonic=clock.monotonic, **kw)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_due_detection_runs_once_and_moves_next_run(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 59))
    rec = Recorder()
    sched = make(db, clock, rec)
    auto = sched.store.create(name="brief", prompt="p", tz="Europe/Paris", cron="0 8 * * *")
    assert await sched.tick() == []  # 07:59: not yet
    clock.advance(60)
    runs = await sched.tick()
    await settle()
    assert [(r.trigger, r.status) for r in runs] == [("schedule", "running")]
    assert rec.started == [(runs[0].id, "brief")]
    assert await sched.tick() == []  # the same fire never runs twice
    again = sched.store.get(auto.id)
    assert again is not None and again.run_count == 1
    assert local(again.next_run or 0, PARIS) == "2026-12-02T08:00:00+01:00"


async def test_missed_fires_are_caught_up_once(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 0))
    rec = Recorder()
    sched = make(db, clock, rec)
    sched.store.create(name="catch", prompt="p", tz="Europe/Paris", cron="0 * * * *")
    sched.store.create(name="skipper", prompt="p", tz="Europe/Paris", cron="0 * * * *",
                       missed="skip")
    clock.advance(5 * 3600 + 600)  # the app was closed: five fires missed
    runs = await sched.tick()
    await settle()
    assert sorted((r.trigger, r.status) for r in runs) == [
        ("catch_up", "running"), ("catch_up", "skipped")]
    assert [name for _, name in rec.started] == ["catch"]
    assert await sched.tick() == []  # once, not five times


async def test_overlap_is_skipped_and_recorded(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 59, 30))
    rec = Recorder()
    rec.park.add("slow")
    sched = make(db, clock, rec)
    auto = sched.store.create(name="slow", prompt="p", tz="Europe/Paris", cron="* * * * *")
    clock.advance(30)
    first = await sched.tick()
    await settle()
    clock.advance(60)
    second = await sched.tick()
    await settle()
    assert [r.status for r in first] == ["running"]
    assert [r.status for r in second] == ["skipped"]
    assert f"#{first[0].id}" in second[0].note
    assert [r.status for r in sched.store.runs(auto.id)] == ["skipped", "running"]
    rec.release.set()
    await settle()
    assert sched.active == {}


async def test_a_parked_run_does_not_delay_another_due_run(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 59, 30))
    rec = Recorder()
    rec.park.add("waits")
    sched = make(db, clock, rec)
    sched.store.create(name="waits", prompt="p", tz="Europe/Paris", cron="0 8 * * *")
    sched.store.create(name="other", prompt="p", tz="Europe/Paris", cron="1 8 * * *")
    clock.advance(30)
    await asyncio.wait_for(sched.tick(), 5)  # the tick returns although "waits" never ends
    clock.advance(60)
    await asyncio.wait_for(sched.tick(), 5)
    await settle()
    assert [name for _, name in rec.started] == ["waits", "other"]
    assert len(sched.active) == 1  # "waits" still parked
    rec.release.set()


async def test_a_one_off_runs_once_then_is_done(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 0))
    rec = Recorder()
    sched = make(db, clock, rec)
    auto = sched.store.create(name="once", prompt="p", tz="Europe/Paris", at=clock.now + 90)
    clock.advance(100)
    assert [r.status for r in await sched.tick()] == ["running"]
    after = sched.store.get(auto.id)
    assert after is not None and after.next_run is None and not after.enabled
    clock.advance(3600)
    assert await sched.tick() == []


async def test_pause_all_stops_scheduled_runs(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 59))
    rec = Recorder()
    sched = make(db, clock, rec)
    sched.store.create(name="b", prompt="p", tz="Europe/Paris", cron="0 8 * * *")
    sched.store.set_paused(True)
    clock.advance(120)
    assert await sched.tick() == []
    sched.store.set_paused(False)
    assert len(await sched.tick()) == 1


async def test_a_second_start_keeps_the_one_loop_and_stop_ends_it(db: Database) -> None:
    sched = make(db, Clock(at(PARIS, 2026, 12, 1, 7, 0)), Recorder())
    await sched.start()
    loop = sched._task
    await sched.start()  # (a second start must not leave the first loop unowned)
    assert sched._task is loop and loop is not None
    await sched.stop()
    assert loop.done() and sched._task is None
    await sched.start()  # started again after a stop: a new loop
    assert sched._task is not None and sched._task is not loop
    await sched.stop()


async def test_ticks_every_interval_and_at_once_on_wake(db: Database) -> None:
    clock = Clock(at(PARIS, 2026, 12, 1, 7, 0))
    rec = Recorder()
    sched = make(db, clock, rec, interval=30.0, poll=5.0)
    sched.store.create(name="b", prompt="p", tz="Europe/Paris", cron="0 8 * * *")
    await sched.start()
    await sched.stop()  # we drive check() by hand
    assert await sched.check()  # the first look ticks (start-up catch-up)
    clock.advance(5)
    assert not await sched.check()
    clock.advance(25)
    assert await sched.check()  # 30 s later
    clock.advance(5)
    assert not await sched.check()
    # The lid closes at 07:00:35 and opens at 08:10: the monotonic clock barely
    # moved, the wall clock jumped — tick at once, and the 08:00 run starts.
    clock.advance(4165, asleep=True)
    clock.advance(1)
    assert await sched.check()
    await settle()
    assert [name for _, name in rec.started] == ["b"]
    assert sched.store.runs()[0].trigger == "catch_up"  # 10 minutes late


# --------------------------------------------------------------------- power


def test_power_is_read_from_the_linux_power_supply_folder(tmp_path: Path) -> None:
    from openworker_qt.automation.power import PowerState, read_power

    def supply(name: str, **files: str) -> None:
        folder = tmp_path / name
        folder.mkdir()
        for key, value in files.items():
            (folder / key).write_text(value + "\n", encoding="ascii")

    assert read_power(tmp_path) is None  # no battery: mains power
    supply("AC", type="Mains", online="0")
    supply("BAT0", type="Battery", status="Discharging", capacity="14")
    supply("hidpp_battery_0", type="Battery", scope="Device", status="Discharging",
           capacity="3")  # a wireless mouse does not count
    assert read_power(tmp_path) == PowerState(on_battery=True, percent=14)
    (tmp_path / "AC" / "online").write_text("1\n", encoding="ascii")
    assert read_power(tmp_path) == PowerState(on_battery=False, percent=14)


async def test_on_battery_below_its_floor_a_run_waits_for_power(db: Database) -> None:
    from openworker_qt.automation.power import PowerState

    clock = Clock(at(PARIS, 2026, 12, 1, 7, 59))
    rec = Recorder()
    power = [PowerState(on_battery=True, percent=15)]
    sched = make(db, clock, rec, power=lambda: power[0])
    sched.store.create(name="heavy", prompt="p", tz="Europe/Paris", cron="0 8 * * *",
                       battery_floor=20)
    sched.store.create(name="light", prompt="p", tz="Europe/Paris", cron="0 8 * * *")
    with pytest.raises(AutomationError, match="1 to 100"):
        sched.store.create(name="x", prompt="p", tz="UTC", cron="0 8 * * *", battery_floor=0)
    clock.advance(60)
    await sched.tick()
    await settle()
    assert [name for _, name in rec.started] == ["light"]
    assert sched.deferred == 1
    clock.advance(600)
    power[0] = PowerState(on_battery=False, percent=15)  # plugged in
    await sched.tick()
    await settle()
    assert [name for _, name in rec.started] == ["light", "heavy"]
    assert sched.deferred == 0
