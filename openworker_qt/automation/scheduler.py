"""The scheduler: starts due automation runs, on the app's event loop.

A :class:`Scheduler` is a :class:`~openworker_qt.runtime.LifecycleService`. Once
started it looks at the wall clock every :attr:`poll` seconds (no database,
microseconds) and *ticks* every :attr:`interval` seconds (about 30), right away
at start (the catch-up of runs missed while the app was not running) and as
soon as the wall clock jumps ahead of the monotonic one (the computer woke from
sleep).

A tick claims the due fires in a worker thread (the loop never waits on the
database; :meth:`AutomationStore.claim` is one transaction per fire, so two
processes never claim the same one) and *spawns* each claimed run as a task of
its own through ``start_run``: the tick never awaits a run, so a run parked on
an approval in the inbox delays nothing. A fire whose previous run is still
going is recorded as ``skipped``. Missed fires collapse into one catch-up run
per automation (or none, for a task whose missed-run policy is ``skip``).

Clocks and the sleep are injectable, so tests drive it with a controllable
clock. No Qt here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from openworker_qt.automation.power import PowerState, read_power
from openworker_qt.automation.store import Automation, AutomationStore, Run

log = logging.getLogger(__name__)

__all__ = ["Scheduler"]

T = TypeVar("T")
StartRun = Callable[[Run, Automation], Awaitable[object]]

INTERVAL = 30.0
POLL = 5.0
#: The wall clock ran this much further than the monotonic clock: we slept.
WAKE_JUMP = 20.0
#: Claims per worker round trip (the loop spawns each batch before the next).
BATCH = 200
#: Runs spawned between two looks at the rest of the loop.
SPAWN_SLICE = 25


class Scheduler:
    """Due runs, claimed off the loop and spawned (see module docstring)."""

    name = "scheduler"

    def __init__(
        self,
        store: AutomationStore,
        start_run: StartRun,
        *,
        owner: str,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        interval: float = INTERVAL,
        poll: float = POLL,
        still_going: Callable[[Run], bool] | None = None,
        offload: bool = True,
        also: Callable[[float], Awaitable[object]] | None = None,
        power: Callable[[], PowerState | None] | None = read_power,
    ) -> None:
        """``also(now)``: awaited at every tick, paused or not (the self-wakes)."""
        self.store = store
        self.start_run = start_run
        self.owner = owner
        self.clock = clock
        self.monotonic = monotonic
        self.sleep = sleep
        self.interval = interval
        self.poll = poll
        self.offload = offload
        self._still_going = still_going
        self.also = also
        self.power = power
        self.deferred = 0  # due runs left waiting for power at the last tick
        #: Runs started by this scheduler and not finished: run id → task.
        self.active: dict[int, asyncio.Task[object]] = {}
        self.skipped: list[Run] = []
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None
        self._last_wall = 0.0
        self._last_mono = 0.0
        self._last_tick = float("-inf")
        self._ticking: asyncio.Task[list[Run]] | None = None

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        self._last_wall, self._last_mono = self.clock(), self.monotonic()
        self._task = asyncio.create_task(self._loop(), name="scheduler")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        while True:
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:  # one failing tick must not stop the schedule
                log.exception("the scheduler's tick failed")
            await self.sleep(self.poll)

    async def check(self) -> bool:
        """One look at the clocks: tick if the interval passed or we woke from
        sleep (the wall clock jumped). Returns whether it ticked."""
        wall, mono = self.clock(), self.monotonic()
        jumped = (wall - self._last_wall) - (mono - self._last_mono) > WAKE_JUMP
        self._last_wall, self._last_mono = wall, mono
        if jumped:
            log.info("the computer woke up: looking for due automations")
        if jumped or mono - self._last_tick >= self.interval:
            self._last_tick = mono
            await self.tick()
            return True
        return False

    # ------------------------------------------------------------------ ticks

    def still_going(self, run: Run) -> bool:
        """A previous run counts as going while this scheduler drives it, or the
        caller's test says so (its session driven elsewhere, parked in the inbox)."""
        if run.id in self.active:
            return True
        return self._still_going(run) if self._still_going is not None else True

    def _claim(self, now: float) -> tuple[int, list[tuple[Run, Automation]]]:
        """(how many were due, those this process claimed), one transaction."""
        state = self.power() if self.power is not None else None
        battery = state.percent if state is not None and state.on_battery else None
        due = [a.id for a in self.store.due(now, limit=BATCH, battery=battery)]
        if battery is not None:
            waiting = len(self.store.due(now, limit=BATCH)) - len(due)
            if waiting and waiting != self.deferred:
                log.info("%d due automation(s) wait for power (battery at %d%%)", waiting,
                         battery)
            self.deferred = waiting
        else:
            self.deferred = 0
        if not due:
            return 0, []
        try:
            return len(due), self.store.claim_many(due, now=now, owner=self.owner,
                                                   still_going=self.still_going)
        except Exception:  # one bad row: claim the others one by one
            log.exception("claiming %d due runs together failed", len(due))
        claimed: list[tuple[Run, Automation]] = []
        for automation_id in due:
            try:
                got = self.store.claim(automation_id, now=now, owner=self.owner,
                                       still_going=self.still_going)
            except Exception:
                log.exception("could not claim the run of automation %s", automation_id)
                with contextlib.suppress(Exception):  # never due again at this time
                    self.store.update(automation_id, enabled=False)
                continue
            if got is not None:
                claimed.append(got)
        return len(due), claimed

    async def tick(self) -> list[Run]:
        """Claim and spawn every due run (never awaiting one). Returns the runs
        claimed (skipped ones included)."""
        if self._ticking is not None and not self._ticking.done():
            return await asyncio.shield(self._ticking)  # one tick at a time
        self._ticking = asyncio.ensure_future(self._tick())
        return await asyncio.shield(self._ticking)

    async def _tick(self) -> list[Run]:
        self.ticks += 1
        if self.also is not None:
            try:
                await self.also(self.clock())
            except Exception:
                log.exception("the scheduler's wake-ups failed")
        if await self._call(lambda: self.store.paused):
            return []
        now = self.clock()
        out: list[Run] = []
        while True:
            due, batch = await self._call(lambda: self._claim(now))
            for index, (run, auto) in enumerate(batch):
                out.append(run)
                if run.status == "skipped":
                    self.skipped.append(run)
                    log.info("automation %s: %s skipped (%s)", auto.name, run.trigger, run.note)
                else:
                    self.spawn(run, auto)
                if index % SPAWN_SLICE == SPAWN_SLICE - 1:
                    await asyncio.sleep(0)  # let the window paint between slices
            if due < BATCH:
                break
        return out

    async def _call(self, fn: Callable[[], T]) -> T:
        if self.offload:
            return await asyncio.to_thread(fn)
        return fn()

    def spawn(self, run: Run, auto: Automation) -> asyncio.Task[object]:
        """Start ``run`` as a task of its own and forget it (it records its end)."""

        async def go() -> object:
            return await self.start_run(run, auto)

        task: asyncio.Task[object] = asyncio.create_task(go(), name=f"automation-run:{run.id}")
        self.active[run.id] = task

        def done(t: asyncio.Task[object]) -> None:
            self.active.pop(run.id, None)
            if not t.cancelled() and t.exception() is not None:
                log.error("automation run %s died", run.id, exc_info=t.exception())

        task.add_done_callback(done)
        return task
