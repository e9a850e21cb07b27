"""The scheduler with 5,000 automations: prints figures, asserts nothing.

* a tick when nothing is due (the every-30-seconds case): its time, and the
  longest the event loop went without running (a 1 ms timer's worst lateness);
* memory: the process's peak allocations (tracemalloc) during a tick, and what
  the 5,000 rows cost the process;
* start-up catch-up: all 5,000 due at once (the app was closed over a fire),
  each spawned as a run (a trivial one here: the session and the turn are the
  engine's own costs, see bench/engine.py) — how long it takes, and the loop's
  longest stall meanwhile (the window's frame budget is 16 ms).

SQLite file in a temporary folder, WAL journal, as the app opens it.
Run: ``.venv/bin/python bench/scheduler.py``
"""

from __future__ import annotations

import asyncio
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openworker_qt.automation.scheduler import Scheduler
from openworker_qt.automation.store import Automation, AutomationStore, Run
from openworker_qt.storage.db import Database

COUNT = 5000
CRONS = ["0 8 * * 1-5", "30 7 * * *", "*/15 * * * *", "0 9 * * 1", "0 6 1 * *"]
ZONES = ["Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC"]


class Stalls:
    """The loop's worst lateness, seen by a 1 ms timer (and how often it passed 16 ms)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.over_frame = 0
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            late = time.perf_counter() - start - 0.001
            self.worst = max(self.worst, late)
            self.over_frame += late > 0.016

    def __enter__(self) -> Stalls:
        self.worst = 0.0
        self.over_frame = 0
        self._task = asyncio.get_running_loop().create_task(self._watch())
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(Path(tmp) / "bench.sqlite3")
        now = [time.time()]
        store = AutomationStore(db, clock=lambda: now[0])
        before = rss_mb()
        start = time.perf_counter()
        with db.batch():
            for i in range(COUNT):
                store.create(name=f"task {i}", prompt="do the thing", cron=CRONS[i % len(CRONS)],
                             tz=ZONES[i % len(ZONES)])
        print(f"created {COUNT} automations in {time.perf_counter() - start:.2f} s "
              f"(max RSS {before:.0f} → {rss_mb():.0f} MB)")

        started: list[int] = []

        async def start_run(run: Run, _auto: Automation) -> None:
            started.append(run.id)
            await asyncio.sleep(0)

        with Stalls() as stalls:  # the machine's own noise, for comparison
            await asyncio.sleep(2.0)
        print(f"idle loop for 2 s: worst stall {stalls.worst * 1000:.2f} ms (the noise floor)")

        sched = Scheduler(store, start_run, owner="bench", clock=lambda: now[0])
        # 1. Nothing due: the every-30-s tick.
        samples = []
        on_loop = []
        worst = 0.0
        for _ in range(50):
            with Stalls() as stalls:
                t0, c0 = time.perf_counter(), time.thread_time()
                await sched.tick()
                on_loop.append((time.thread_time() - c0) * 1000)
                samples.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(0.002)
            worst = max(worst, stalls.worst)
        print(f"tick, nothing due: median {statistics.median(samples):.2f} ms, "
              f"max {max(samples):.2f} ms (mostly in a worker); the loop thread's CPU per "
              f"tick: median {statistics.median(on_loop):.3f} ms, max {max(on_loop):.3f} ms; "
              f"loop's worst stall {worst * 1000:.2f} ms")

        tracemalloc.start()
        await sched.tick()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"tick, nothing due: peak Python allocations {peak / 1024:.0f} KiB")

        # 2. Start-up catch-up: every automation due.
        db.execute("UPDATE automations SET next_run = ?", (now[0] - 3600,))
        sched = Scheduler(store, start_run, owner="bench", clock=lambda: now[0])
        with Stalls() as stalls:
            t0, c0 = time.perf_counter(), time.thread_time()
            runs = await sched.tick()
            spawned = time.perf_counter() - t0
            await asyncio.gather(*sched.active.values())
            done = time.perf_counter() - t0
            cpu = time.thread_time() - c0
        print(f"catch-up: the loop thread's CPU {cpu * 1000:.0f} ms in all "
              f"({cpu / COUNT * 1e6:.0f} µs per run, the stall monitor's own wake-ups included)")
        print(f"catch-up of {COUNT} due: {len(runs)} runs claimed and spawned in "
              f"{spawned:.2f} s, all ended in {done:.2f} s; loop's worst stall "
              f"{stalls.worst * 1000:.2f} ms, {stalls.over_frame} stall(s) over 16 ms")
        print(f"runs started: {len(started)}; a second tick claims {len(await sched.tick())}")
        print(f"max RSS {rss_mb():.0f} MB")
        db.close()


if __name__ == "__main__":
    asyncio.run(main())
