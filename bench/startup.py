#!/usr/bin/env python3
"""Cold start of the desktop app: process start → main window shown, and idle RSS.

Starts ``python -m openworker_qt`` (offscreen unless DISPLAY is set) with a fresh
state dir, times until the app reports its window's first paint, then samples
the resident memory after 10 s idle. Median of N runs.

The headline is a regular start (a default model is configured). A first start
also opens the onboarding dialog right after the window paints; it is timed
separately (``--first-runs``). This venv runs with ``PYTHONDONTWRITEBYTECODE``, so
every project module is compiled on every start; an installed app has bytecode,
so the figure with a bytecode cache (``PYTHONPYCACHEPREFIX`` in a temp dir, warmed
by one untimed start) is printed too, with the CPU time of importing the app's
module alone (``import openworker_qt.app``: most of what precedes the paint).
"app CPU" is the process's CPU time at the first paint, all threads: the machine
is shared, and CPU time moves less than wall time with the load (it still moves).

    .venv/bin/python bench/startup.py [--runs 5] [--first-runs 3] [--idle 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import rss_mib, temp_home

ROOT = Path(__file__).resolve().parents[1]


def one_run(idle: float, *, first: bool = False, pycache: str = "") -> tuple[float, float | None]:
    home = temp_home()
    if not first:
        (home / "config").mkdir(parents=True, exist_ok=True)
        (home / "config" / "config.toml").write_text(
            '[general]\ndefault_model = "scripted:hello"\n', encoding="utf-8")
    env = dict(os.environ, OPENWORKER_BENCH_STARTUP="1")
    if pycache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
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
        CPU.append(float(line.split()[3]) if " cpu " in line else float("nan"))
        rss = None
        if idle:
            time.sleep(idle)
            rss = rss_mib(proc.pid)
        return shown, rss
    finally:
        proc.terminate()
        proc.wait(10)


CPU: list[float] = []  # the app's own CPU time at its first paint, per run


def _report(label: str, times: list[float]) -> None:
    cpu = statistics.median(CPU[-len(times):]) * 1000
    CPU.clear()
    print(f"startup: {label}: median {statistics.median(times) * 1000:.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, n={len(times)}; "
          f"app CPU {cpu:.0f} ms; target < 500 ms)")


def import_cpu(pycache: str, runs: int) -> list[float]:
    """CPU seconds of ``import openworker_qt.app`` in a fresh interpreter, per run."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=pycache, QT_QPA_PLATFORM="offscreen")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    code = ("import time; t = time.process_time(); import openworker_qt.app; "
            "print(time.process_time() - t)")
    return [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                                 capture_output=True, text=True).stdout.split()[-1])
            for _ in range(runs)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--first-runs", type=int, default=3)
    parser.add_argument("--idle", type=float, default=10.0)
    args = parser.parse_args()
    times = []
    rss = None
    for i in range(args.runs):
        shown, sampled = one_run(args.idle if i == 0 else 0)
        times.append(shown)
        rss = sampled if sampled is not None else rss
    _report("process start -> window painted", times)
    if args.first_runs:
        _report("first start (onboarding opens after the paint)",
                [one_run(0, first=True)[0] for _ in range(args.first_runs)])
    with tempfile.TemporaryDirectory(prefix="ow-pyc-") as pycache:
        one_run(0, pycache=pycache)  # writes the cache
        CPU.clear()
        _report("with a bytecode cache, as installed",
                [one_run(0, pycache=pycache)[0] for _ in range(args.runs)])
        imports = import_cpu(pycache, args.runs)
        print(f"startup: import openworker_qt.app (bytecode cache): median CPU "
              f"{statistics.median(imports) * 1000:.0f} ms (min {min(imports) * 1000:.0f}, "
              f"max {max(imports) * 1000:.0f})")
    print(f"startup: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(other processes inflate every figure; compare runs at a similar load)")
    if rss is not None:
        print(f"startup: idle RSS after {args.idle:.0f} s: {rss:.0f} MiB (target < 150 MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
