#!/usr/bin/env python3
"""Does the desktop app always exit after SIGTERM? Counts the hangs.

Starts the real app (``python -m openworker_qt app``, offscreen, a fresh state
dir, an in-memory keyring) many times and sends it SIGTERM at a chosen moment:

``before``  a random moment between the start and the first paint;
``paint``   as soon as the app says its window has painted;
``after``   a random moment up to 2 s after the first paint;
``turn``    during a turn of the offline scripted model (sent right after the paint).

A run *leaves tasks* when its stderr says "Task was destroyed but it is
pending!": the interpreter's exit destroyed them, and reporting that (the loop's
exception handler, logging) at that moment is what hung once. A run *hangs* when the process has not exited ``--limit`` seconds (default 20)
after the signal; its threads' stacks are then saved (``py-spy dump`` if it is
installed, and Python's own ``faulthandler`` on SIGUSR1) before it is killed.
``--load N`` runs N busy loops beside it (the hang was seen at load ~5 on 2
cores). ``--log-storm`` widens the hang's window: two daemon threads log a
traceback over and over (as the warm-up thread does once when a model cannot be
prepared), so one of them is likely to hold the log handler's lock when the
interpreter stops it. Prints one line per mode: runs, hangs, exit codes, the slowest exit.

    .venv/bin/python bench/shutdown.py [--runs 20] [--modes before,paint,after,turn] [--load 2]
                                       [--first-run] [--log-storm]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUPPORT = ROOT / "tests" / "support"

# The real entry point, plus: faulthandler on SIGUSR1 (the stacks of a hung run) and,
# for the ``turn`` mode, a message sent once the window has painted.
CHILD = textwrap.dedent("""
    import faulthandler, os, signal, sys
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    if os.environ.get("OW_BENCH_TURN"):
        import openworker_qt.app as app
        start = app.DesktopApp.start
        def started(self):
            start(self)
            def send():
                self.window.composer.edit.setPlainText("count slowly")
                self.window.composer.submit()
                print("turn-sent", flush=True)
            app.after_first_paint(self.window, send)
        app.DesktopApp.start = started
    if os.environ.get("OW_BENCH_LOG_STORM"):
        import logging, threading
        import openworker_qt.app as app
        log = logging.getLogger("openworker_qt.runtime")
        def storm():  # as the warm-up thread logs a failed preparation, over and over
            while True:
                try:
                    raise ValueError("preparing failed")
                except ValueError:
                    log.warning("preparing %s failed", "x", exc_info=True)
        start_storm = app.DesktopApp.start
        def storming(self):
            start_storm(self)
            for _ in range(2):
                threading.Thread(target=storm, name="log-storm", daemon=True).start()
        app.DesktopApp.start = storming
    from openworker_qt.__main__ import main
    sys.exit(main(["app", "--new-instance"]))
""")

# A turn of the scripted model that streams for ~6 s.
SCRIPT = {"advance": "history",
          "turns": [{"chunks": [f"{i} " for i in range(30)], "delay": 0.2}]}


def _home(first_run: bool, turn: bool) -> Path:
    home = Path(tempfile.mkdtemp(prefix="ow-shutdown-"))
    (home / "config").mkdir()
    script = home / "slow.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    # (the start-up bench's model, "scripted:hello", has no script here: the warm-up
    # thread logs its failure, a traceback, as with a model that cannot be prepared)
    model = f"scripted:{script}" if turn else "scripted:hello"
    if not first_run:  # (a first run asks for a folder, then offers onboarding)
        (home / "config" / "config.toml").write_text(
            f'[general]\ndefault_model = "{model}"\n', encoding="utf-8")
    return home


def _dump(proc: subprocess.Popen[str], out: Path) -> None:
    """The stacks of a hung process: py-spy (native too) and faulthandler."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if Path(spy).exists():
        try:
            res = subprocess.run([spy, "dump", "--pid", str(proc.pid)], capture_output=True,
                                 text=True, timeout=60)
            out.with_suffix(".pyspy.txt").write_text(res.stdout + res.stderr, encoding="utf-8")
        except (OSError, subprocess.TimeoutExpired) as exc:
            out.with_suffix(".pyspy.txt").write_text(f"py-spy failed: {exc}", encoding="utf-8")
    try:
        os.kill(proc.pid, signal.SIGUSR1)  # faulthandler writes to the child's stderr
        time.sleep(1.0)
    except ProcessLookupError:
        pass


def one_run(mode: str, limit: float, paint_estimate: float, dumps: Path, n: int,
            first_run: bool = False, log_storm: bool = False
            ) -> tuple[str, int | None, float, float]:
    """Returns (outcome, exit code, seconds from signal to exit, seconds to paint)."""
    home = _home(first_run and mode != "turn", mode == "turn")
    env = dict(os.environ, OPENWORKER_HOME=str(home), OPENWORKER_BENCH_STARTUP="1",
               QT_QPA_PLATFORM="offscreen", QT_API="pyside6",
               PYTHON_KEYRING_BACKEND="memkeyring.MemoryKeyring",
               PYTHONPATH=os.pathsep.join([str(ROOT), str(SUPPORT)]))
    if mode == "turn":
        env["OW_BENCH_TURN"] = "1"
    if log_storm:
        env["OW_BENCH_LOG_STORM"] = "1"
    stderr_path = dumps / f"{mode}-{n}.stderr.txt"
    with stderr_path.open("w") as stderr:
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", CHILD], cwd=home, env=env,
                                stdout=subprocess.PIPE, stderr=stderr, text=True)
        assert proc.stdout is not None
        painted = threading.Event()
        sent = threading.Event()
        paint_at = [float("nan")]

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("window-exposed"):
                    paint_at[0] = time.monotonic() - t0
                    painted.set()
                elif line.startswith("turn-sent"):
                    sent.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        if mode == "before":
            painted.wait(random.uniform(0.05, paint_estimate))
        elif mode == "paint":
            painted.wait(120)
        elif mode == "after":
            painted.wait(120)
            time.sleep(random.uniform(0.0, 2.0))
        elif mode == "turn":
            sent.wait(120)
            time.sleep(random.uniform(0.0, 3.0))
        signalled = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            code: int | None = proc.wait(limit)
            outcome = "ok"
        except subprocess.TimeoutExpired:
            outcome, code = "hang", None
            _dump(proc, dumps / f"{mode}-{n}")
            proc.kill()
            proc.wait(30)
        took = time.monotonic() - signalled
    # The hang's precondition: tasks left for the interpreter's exit to destroy.
    if outcome == "ok" and "Task was destroyed but it is pending" in stderr_path.read_text(
            encoding="utf-8", errors="replace"):
        outcome = "leftover"
    if outcome == "ok":
        stderr_path.unlink(missing_ok=True)
        shutil.rmtree(home, ignore_errors=True)
    elif outcome == "hang":
        print(f"  hang: {mode} run {n}: stacks in {stderr_path} (state {home})", flush=True)
    else:
        shutil.rmtree(home, ignore_errors=True)
    return outcome, code, took, paint_at[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs per mode")
    parser.add_argument("--modes", default="before,paint,after,turn")
    parser.add_argument("--load", type=int, default=2, help="busy loops beside the app")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds before a hang")
    parser.add_argument("--dumps", default="", help="where hung runs' stacks go")
    parser.add_argument("--log-storm", action="store_true",
                        help="two daemon threads log tracebacks all along (see above)")
    parser.add_argument("--first-run", action="store_true",
                        help="no config: the first start (except for the turn mode)")
    args = parser.parse_args()
    dumps = Path(args.dumps or tempfile.mkdtemp(prefix="ow-shutdown-dumps-"))
    dumps.mkdir(parents=True, exist_ok=True)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        print(f"load: {os.getloadavg()[0]:.1f} (+{args.load} busy loops), "
              f"{os.cpu_count()} cores; dumps in {dumps}", flush=True)
        paint_estimate = 3.0
        for mode in args.modes.split(","):
            codes: collections.Counter[str] = collections.Counter()
            hangs, leftovers, slowest, paints = 0, 0, 0.0, []
            for n in range(args.runs):
                outcome, code, took, paint = one_run(mode, args.limit, paint_estimate, dumps, n,
                                                    args.first_run, args.log_storm)
                if paint == paint:  # not NaN
                    paints.append(paint)
                    paint_estimate = max(0.5, sorted(paints)[len(paints) // 2])
                hangs += outcome == "hang"
                leftovers += outcome == "leftover"
                codes[str(code)] += 1
                if outcome != "hang":
                    slowest = max(slowest, took)
            print(f"{mode:>6}: runs {args.runs}, hangs {hangs}, tasks left to the interpreter's "
                  f"exit in {leftovers}, exit codes {dict(codes)}, "
                  f"slowest exit {slowest:.1f} s, load {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        for p in busy:
            p.kill()
            p.wait()


if __name__ == "__main__":
    main()
