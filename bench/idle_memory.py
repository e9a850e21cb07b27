#!/usr/bin/env python3
"""Where the idle desktop app's memory goes (issue 26: <= 80 MiB after 10 s, <= 6 threads).

Starts the app as a user does (``python -m openworker_qt app``'s own ``main``, in a
fresh process with a fresh state dir and a default model configured, offscreen
unless DISPLAY is set), lets it idle, then prints what its resident memory is made
of, so the next regression is found by reading it:

* the process: RSS, its anonymous and file-backed parts (``/proc/self/smaps``);
* file-backed pages by owner: Qt's libraries, PySide/shiboken, Python and its
  extension modules, the other shared libraries, fonts and other files;
* anonymous memory: the C heap in use (glibc ``mallinfo2``), Python's object
  arenas (``sys._debugmallocstats``) and the blocks Python holds, SQLite's own
  allocations (``sqlite3_memory_used``), the thread stacks (their resident pages),
  and what is left (Qt's C++ objects and buffers mostly);
* what the process carries: modules imported (by top package), threads (by name).

Beside it, in the same run, a bare PySide6 window idling as long (the floor).

    .venv/bin/python bench/idle_memory.py [--idle 10] [--runs 3] [--session-rows 0]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import temp_home

ROOT = Path(__file__).resolve().parents[1]

#: Runs in the measured process, ``idle`` seconds after the window's first paint.
PROBE = r'''
import collections, ctypes, ctypes.util, gc, io, json, os, re, sys, threading

def smaps():
    parts = collections.Counter()
    stacks = 0
    current = None
    anon_sizes = []
    for line in open("/proc/self/smaps"):
        head = line.split()
        if not head:
            continue
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            start, end = (int(x, 16) for x in head[0].split("-"))
            path = head[5] if len(head) > 5 else ""
            current = [path, end - start]
            continue
        if head[0] == "Rss:" and current is not None:
            kib = int(head[1])
            path, size = current
            if not path or path.startswith("["):
                kind = {"[heap]": "anon: C heap (brk)", "[stack]": "anon: main stack"}.get(
                    path, "anon: mappings")
                if not path and size in (8 << 20, (8 << 20) + 4096, 8392704):
                    kind = "anon: thread stacks"
                    stacks += kib
            elif "Qt6" in path or "/Qt/" in path:
                kind = "file: Qt libraries"
            elif "PySide6" in path or "shiboken6" in path:
                kind = "file: PySide/shiboken"
            elif "python3" in path or path.endswith((".pyc", ".py")) or "site-packages" in path:
                kind = "file: Python and its extensions"
            elif ".so" in path:
                kind = "file: other shared libraries"
            else:
                kind = "file: fonts, icons, other files"
            parts[kind] += kib
    return parts

def mallinfo():
    class Info(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]
    libc = ctypes.CDLL(None)
    try:
        fn = libc.mallinfo2
    except AttributeError:
        return {}
    fn.restype = Info
    info = fn()
    return {"C heap in use (malloc)": info.uordblks / 1024 / 1024,
            "C heap free, kept": info.fordblks / 1024 / 1024,
            "C mmapped blocks": info.hblkhd / 1024 / 1024}

def pymalloc():
    err = io.StringIO()
    fd = os.dup(2)
    r, w = os.pipe()
    os.dup2(w, 2)
    os.close(w)
    sys._debugmallocstats()
    os.dup2(fd, 2)
    os.close(fd)
    text = os.read(r, 1 << 20).decode(errors="replace")
    os.close(r)
    arenas = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", text)
    return int(arenas.group(1).replace(",", "")) * 1024 * 1024 / 1024 / 1024 if arenas else float("nan")

def sqlite_used():
    import _sqlite3
    lib = ctypes.CDLL(_sqlite3.__file__)
    try:
        fn = lib.sqlite3_memory_used
    except AttributeError:
        for line in open("/proc/self/maps"):
            if "libsqlite3" in line:
                fn = ctypes.CDLL(line.split()[-1]).sqlite3_memory_used
                break
        else:
            return float("nan")
    fn.restype = ctypes.c_int64
    return fn() / 1024 / 1024

def report():
    status = {l.split(":")[0]: l.split(":", 1)[1].strip() for l in open("/proc/self/status")}
    tops = collections.Counter(m.split(".")[0] for m in sys.modules)
    ours = collections.Counter(".".join(m.split(".")[:2]) for m in sys.modules
                               if m.startswith("openworker_qt."))
    out = {
        "rss": int(status["VmRSS"].split()[0]) / 1024,
        "threads": int(status["Threads"]),
        "thread_names": sorted(t.name for t in threading.enumerate()),
        "smaps": {k: v / 1024 for k, v in smaps().items()},
        "malloc": mallinfo(),
        "pymalloc_arenas": pymalloc(),
        "python_blocks": sys.getallocatedblocks(),
        "gc_objects": len(gc.get_objects()),
        "sqlite": sqlite_used(),
        "modules": len(sys.modules),
        "top_packages": tops.most_common(14),
        "our_packages": ours.most_common(10),
    }
    sys.__stdout__.write("IDLE " + json.dumps(out) + "\n")
    sys.__stdout__.flush()
    os._exit(0)
'''

APP = PROBE + r'''
from PySide6.QtCore import QTimer
from openworker_qt import launch
from openworker_qt.ui import first_paint

IDLE = float(os.environ["OW_IDLE"])
_original = first_paint.after_first_paint

def watch(window, callback):
    _original(window, callback)
    if not getattr(watch, "armed", False) and type(window).__name__ == "MainWindow":
        watch.armed = True
        _original(window, lambda: QTimer.singleShot(int(IDLE * 1000), report))

first_paint.after_first_paint = watch
launch.after_first_paint = watch
sys.exit(launch.main(["--new-instance"]))
'''

BARE = PROBE + r'''
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

app = QApplication(sys.argv)
window = QMainWindow()
window.setCentralWidget(QLabel("hello"))
window.resize(1000, 700)
window.show()
QTimer.singleShot(int(float(os.environ["OW_IDLE"]) * 1000), report)
app.exec()
'''


def measure(code: str, idle: float, pycache: str, home: Path | None) -> dict:
    env = dict(os.environ, OW_IDLE=str(idle), PYTHONPYCACHEPREFIX=pycache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if home is not None:
        env["OPENWORKER_HOME"] = str(home)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120 + idle, stdin=subprocess.DEVNULL)
    lines = [line for line in done.stdout.splitlines() if line.startswith("IDLE ")]
    if not lines:
        raise RuntimeError(f"no figures (exit {done.returncode}): {done.stderr[-2000:]}")
    return json.loads(lines[-1].removeprefix("IDLE "))


def fresh_home() -> Path:
    home = temp_home()
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(
        '[general]\ndefault_model = "scripted:hello"\n', encoding="utf-8")
    return home


def print_breakdown(label: str, runs: list[dict]) -> None:
    med = runs[len(runs) // 2] if len(runs) % 2 else sorted(runs, key=lambda r: r["rss"])[len(runs) // 2]
    rss = [r["rss"] for r in runs]
    print(f"idle: {label}: RSS median {statistics.median(rss):.1f} MiB "
          f"(min {min(rss):.1f}, max {max(rss):.1f}, n={len(runs)}); threads {med['threads']}: "
          f"{', '.join(med['thread_names'])}")
    for kind, mib in sorted(med["smaps"].items(), key=lambda kv: -kv[1]):
        print(f"idle:   {kind:<36} {mib:6.1f} MiB")
    for name, mib in med["malloc"].items():
        print(f"idle:   {name:<36} {mib:6.1f} MiB")
    print(f"idle:   {'Python object arenas (pymalloc)':<36} {med['pymalloc_arenas']:6.1f} MiB "
          f"({med['python_blocks']:,} blocks, {med['gc_objects']:,} tracked objects)")
    print(f"idle:   {'SQLite (sqlite3_memory_used)':<36} {med['sqlite']:6.1f} MiB")
    print(f"idle:   modules {med['modules']}; by package: "
          + ", ".join(f"{n} {c}" for n, c in med["top_packages"]))
    if med["our_packages"]:
        print("idle:   ours by package: " + ", ".join(f"{n.removeprefix('openworker_qt.')} {c}"
                                                      for n, c in med["our_packages"]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"idle: load average at the start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="ow-pyc-") as pycache:
        measure(APP, 0.5, pycache, fresh_home())  # writes the bytecode cache
        ours: list[dict] = []
        bare: list[dict] = []
        for _ in range(args.runs):  # interleaved: both see the same load
            ours.append(measure(APP, args.idle, pycache, fresh_home()))
            bare.append(measure(BARE, args.idle, pycache, None))
    print_breakdown(f"the app after {args.idle:.0f} s, no session open (target <= 80 MiB, "
                    "<= 6 threads)", ours)
    print_breakdown("a bare PySide6 window, same idle", bare)
    print(f"idle: load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
