#!/usr/bin/env python3
"""The frozen Linux build: unpacked size (and what takes it) and first paint.

Reads a PyInstaller onedir (``dist/openworker-qt`` from installer/build-linux.sh),
prints its size in MiB against the 150 MiB target, the largest parts of
``_internal`` (top-level entries and the biggest files), then starts the frozen
executable N times offscreen with a fresh state dir and prints the time from
process start to the main window's first paint (the smoke switch's own figure,
``smoke: window shown in X s``), the wall time to exit and the CPU time it used
(steadier than wall time on a loaded machine; the load average is printed beside
it). Figures, not a test.

    .venv/bin/python bench/bundle.py [dist/openworker-qt] [--runs 5] [--top 15]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MIB = 150
MiB = 1 << 20


def tree_bytes(path: Path) -> int:
    if path.is_symlink():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def first_paint(exe: Path) -> tuple[float, float, float]:
    home = Path(tempfile.mkdtemp(prefix="ow-bundle-"))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "OPENWORKER_SMOKE_TEST": "1",
           "OPENWORKER_HOME": str(home)}
    env.pop("PYTHONPATH", None)
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([str(exe)], env=env, capture_output=True, text=True, timeout=120)
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu1.ru_utime - cpu0.ru_utime + cpu1.ru_stime - cpu0.ru_stime
    shutil.rmtree(home, ignore_errors=True)
    match = re.search(r"smoke: window shown in ([\d.]+) s", done.stdout)
    if done.returncode != 0 or match is None:
        raise SystemExit(f"the frozen app did not start cleanly (exit {done.returncode}):\n"
                         f"{done.stdout}\n{done.stderr}")
    return float(match.group(1)), wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("onedir", nargs="?", type=Path, default=ROOT / "dist" / "openworker-qt")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    onedir: Path = args.onedir
    exe = onedir / "openworker-qt"
    if not exe.exists():
        raise SystemExit(f"{exe} is missing: run installer/build-linux.sh first")
    total = tree_bytes(onedir)
    verdict = "within" if total <= TARGET_MIB * MiB else "OVER"
    print(f"bundle: {onedir}")
    print(f"unpacked size: {total / MiB:.1f} MiB ({verdict} the {TARGET_MIB} MiB target)")
    internal = onedir / "_internal"
    parts = sorted(((tree_bytes(p), p.name) for p in internal.iterdir()), reverse=True)
    print(f"largest parts of _internal ({len(parts)} entries):")
    for size, name in parts[:args.top]:
        print(f"  {size / MiB:7.1f} MiB  {name}")
    files = sorted(((p.stat().st_size, p.relative_to(internal)) for p in internal.rglob("*")
                    if p.is_file() and not p.is_symlink()), reverse=True)
    print("largest files:")
    for size, rel in files[:args.top]:
        print(f"  {size / MiB:7.1f} MiB  {rel}")
    paints, walls, cpus = [], [], []
    load = os.getloadavg()[0]
    for _ in range(args.runs):
        paint, wall, cpu = first_paint(exe)
        paints.append(paint)
        walls.append(wall)
        cpus.append(cpu)
    print(f"first paint (frozen, offscreen, {args.runs} runs): median "
          f"{statistics.median(paints):.2f} s (min {min(paints):.2f}, max {max(paints):.2f}); "
          f"start to exit median {statistics.median(walls):.2f} s, CPU (user+sys) median "
          f"{statistics.median(cpus):.2f} s; load average {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
