"""Session lease costs on the loop thread: prints figures, asserts nothing.

* one heartbeat (the single UPDATE the timer runs every 10 s for all held leases),
  with 1 and 8 sessions held;
* taking and giving back a lease (once per turn each);
* the busy check ``resumable()`` does (one query over the lease table).

SQLite file in a temporary folder, WAL journal, as the app opens it.
Run: ``.venv/bin/python bench/lease.py``
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openworker_qt.storage.db import Database
from openworker_qt.storage.leases import SessionLeases

RUNS = 2000


def timed(label: str, action: Callable[[], object], runs: int = RUNS) -> None:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()
    p99 = samples[int(len(samples) * 0.99)]
    print(f"{label}: median {statistics.median(samples):.1f} µs, p99 {p99:.1f} µs, "
          f"max {samples[-1]:.1f} µs ({runs} runs)")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(Path(tmp) / "bench.sqlite3")
        leases = SessionLeases(db)
        other = SessionLeases(db)
        for i in range(20):
            other.acquire(f"elsewhere{i}")
        leases.acquire("s0")
        timed("heartbeat, 1 lease held", lambda: leases.beat({"s0"}))
        held = {f"s{i}" for i in range(8)}
        for sid in held:
            leases.acquire(sid)
        timed("heartbeat, 8 leases held", lambda: leases.beat(held))

        def take_and_give() -> None:
            leases.acquire("turn")
            leases.release("turn")

        timed("acquire + release (one turn)", take_and_give)
        timed("busy_elsewhere (20 foreign leases)", leases.busy_elsewhere, runs=500)
        db.close()


if __name__ == "__main__":
    main()
