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
from collections import deque
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
#: A due run that could not be claimed is tried again after this many seconds,
#: doubled at each failure up to :data:`RETRY_MAX`.
RETRY_FIRST = 30.0
RETRY_MAX = 3600.0


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
        max_running: Callable[[], int] | None = None,
        parked: Callable[[int], bool] | None = None,
    ) -> None:
        """``also(now)``: awaited at every tick, paused or not (the self-wakes).
        ``max_running()``: how many scheduled runs may work at once (None: no cap);
        the others wait in :attr:`queue`, in due order. ``parked(run_id)``: the run
        waits for the user (in the inbox), so it takes no place."""
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
        #: automation id → (failed claims in a row, wall-clock time of the next try)
        self.retrying: dict[str, tuple[int, float]] = {}
        self.max_running = max_running
        self.parked = parked
        #: Claimed runs waiting for a place (oldest due first).
        self.queue: deque[tuple[Run, Automation]] = deque()
        self._stopped = False

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Start the loop (once: a second start while it runs changes nothing)."""
        if self._task is not None and not self._task.done():
            return
        self._stopped = False
        self._last_wall, self._last_mono = self.clock(), self.monotonic()
        self._task = asyncio.create_task(self._loop(), name="scheduler")

    async def stop(self) -> None:
        self._stopped = True  # (the queued runs start at the next start: see recover)
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
        due = [a.id for a in self.store.due(now, limit=BATCH, battery=battery)
               if self.retrying.get(a.id, (0, now))[1] <= now]
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
            got = self.store.claim_many(due, now=now, owner=self.owner,
                                        still_going=self.still_going)
        except Exception:  # one bad row: claim the others one by one
            log.exception("claiming %d due runs together failed", len(due))
        else:
            self._claimed(due)
            return len(due), got
        claimed: list[tuple[Run, Automation]] = []
        for automation_id in due:
            try:
                one = self.store.claim(automation_id, now=now, owner=self.owner,
                                       still_going=self.still_going)
            except Exception as exc:
                self._claim_failed(automation_id, now, exc)
                continue
            self._claimed([automation_id])
            if one is not None:
                claimed.append(one)
        return len(due), claimed

    def _claimed(self, automation_ids: list[str]) -> None:
        for automation_id in automation_ids:
            self.retrying.pop(automation_id, None)

    def _claim_failed(self, automation_id: str, now: float, exc: Exception) -> None:
        """The task stays enabled and due: tried again later (backing off), and
        the reason is kept on it for the user (``automations list``, the window)."""
        failures = self.retrying.get(automation_id, (0, now))[0] + 1
        wait = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
        self.retrying[automation_id] = (failures, now + wait)
        log.exception("could not start the run of automation %s (try %d; again in %g s)",
                      automation_id, failures, wait, exc_info=exc)
        reason = str(exc) or type(exc).__name__
        with contextlib.suppress(Exception):  # (the database itself may be failing)
            self.store.set_error(automation_id, f"its run could not be started: {reason} "
                                 f"(tried {failures} time(s); trying again)")

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
                    self.queue.append((run, auto))
                    self.drain()
                if index % SPAWN_SLICE == SPAWN_SLICE - 1:
                    await asyncio.sleep(0)  # let the window paint between slices
            if due < BATCH:
                break
        if self.queue:  # what waits for a place says so
            waiting = [run.id for run, _auto in self.queue]
            note = (f"queued: {self._cap()} runs are going at once; this one starts when "
                    "one of them ends")
            try:
                await self._call(lambda: self.store.note_not_begun(waiting, note))
            except Exception:
                log.exception("could not record the queued runs")
        return out

    def _cap(self) -> int:
        if self.max_running is None:
            return 0
        try:
            return max(1, int(self.max_running()))
        except Exception:
            log.exception("reading the cap on runs at once failed")
            return 1

    def working(self) -> int:
        """The runs started here that are working (not parked on the user)."""
        parked = self.parked
        return sum(1 for run_id, task in self.active.items()
                   if not task.done() and not (parked is not None and parked(run_id)))

    def drain(self) -> None:
        """Start queued runs, oldest due first, while there is a place."""
        cap = self._cap()
        while self.queue and (not cap or self.working() < cap):
            run, auto = self.queue.popleft()
            self.spawn(run, auto)

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
            if self.queue and not self._stopped:  # a place is free
                self.drain()

        task.add_done_callback(done)
        return task
