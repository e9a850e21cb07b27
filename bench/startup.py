#!/usr/bin/env python3
"""Cold start of the desktop app: process start → main window shown, and idle RSS.

Starts ``python -m openworker_qt`` (offscreen unless DISPLAY is set) with a fresh
state dir, times until the app reports its window exposed, then samples the
resident memory after 10 s idle. Median of N runs.

    .venv/bin/python bench/startup.py [--runs 5] [--idle 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import rss_mib, temp_home  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def one_run(idle: float) -> tuple[float, float | None]:
    temp_home()
    env = dict(os.environ, OPENWORKER_BENCH_STARTUP="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "openworker_qt", "app", "--new-instance"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    try:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("the app exited before showing its window: " + (proc.stderr.read() if proc.stderr else ""))
            if line.startswith("window-exposed"):
                break
        shown = time.perf_counter() - t0
        rss = None
        if idle:
            time.sleep(idle)
            rss = rss_mib(proc.pid)
        return shown, rss
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle", type=float, default=10.0)
    args = parser.parse_args()
    times = []
    rss = None
    for i in range(args.runs):
        shown, sampled = one_run(args.idle if i == 0 else 0)
        times.append(shown)
        rss = sampled if sampled is not None else rss
    print(f"startup: process start -> window shown: median {statistics.median(times) * 1000:.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, n={len(times)}; target < 500 ms)")
    if rss is not None:
        print(f"startup: idle RSS after {args.idle:.0f} s: {rss:.0f} MiB (target < 150 MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
