"""What held the event loop during its long gaps: a watchdog thread's samples.

:class:`StackSampler` runs a thread that, every ``interval``, records what each
Python thread is doing (``sys._current_frames``: the module being imported, the
innermost frame of the app, the innermost frame) and every thread's CPU time
and time spent waiting for a CPU (``/proc/self/task/*/schedstat``, nanoseconds;
Qt's own threads included). :meth:`StackSampler.causes` then names, for each gap
over the budget, who had it:

* ``loop: <what>`` — the loop thread was running (its own work);
* ``<thread>: <what>`` — another thread was running while the loop thread was
  not (a worker holding the GIL: an import, a SQLite read, a lexer);
* ``machine`` — the loop thread was waiting for a CPU (other processes);

and :func:`top_causes` adds them up over gaps (and processes). The sampler
itself takes the GIL for a few microseconds a sample; its figures are for
reading, not for comparing against runs without it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from types import FrameType

IDLE_CALLS = {"wait", "select", "sleep", "_wait_for_tstate_lock", "acquire", "poll",
              "epoll", "recv", "recv_into", "accept", "readline", "get", "_worker",
              "_run_once", "run_forever", "exec", "processEvents"}


def _task_times() -> dict[int, tuple[int, int]]:
    """Each thread of this process: (ns on a CPU, ns waiting for one)."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                run, wait, _ = f.read().split()
        except (OSError, ValueError):
            continue
        out[int(tid)] = (int(run), int(wait))
    return out


def _task_name(tid: int) -> str:
    try:
        with open(f"/proc/self/task/{tid}/comm") as f:
            return f.read().strip()
    except OSError:
        return str(tid)


def _short(path: str) -> str:
    for marker in ("/site-packages/", "/openworker_qt/", "/lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1].lstrip("/")
    return os.path.basename(path)


def describe(frame: FrameType) -> str:
    """One line for what a thread is doing: the module being imported (the innermost
    module body, when the thread imports), the app's innermost frame, the innermost
    frame. (Only code objects are read: a running frame's locals are not safe to
    touch from another thread.)"""
    importing = ""
    app = ""
    inner = f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_code.co_name}"
    f: FrameType | None = frame
    while f is not None:
        code = f.f_code
        if not importing and code.co_name == "<module>" and f.f_back is not None \
                and "importlib" in f.f_back.f_code.co_filename:
            importing = _short(code.co_filename)
        if not app and "/openworker_qt/" in code.co_filename:
            app = f"{_short(code.co_filename)}:{code.co_name}"
        f = f.f_back
    parts = [f"import {importing}" if importing else "", app, inner if inner != app else ""]
    return " · ".join(p for p in parts if p) or inner


@dataclass
class Cause:
    """Who had the time of one gap."""

    who: str  # "loop", a thread's name, or "machine"
    what: str
    ms: float  # the gap's length
    note: str = ""  # the CPU figures behind the verdict


@dataclass
class StackSampler:
    loop_ident: int = field(default_factory=threading.get_ident)
    interval: float = 0.001
    stacks: list[tuple[float, dict[int, str]]] = field(default_factory=list)
    times: list[tuple[float, dict[int, tuple[int, int]]]] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)  # native id -> name
    idents: dict[int, int] = field(default_factory=dict)  # Python ident -> native id
    _running: bool = False

    def start(self) -> None:
        self._running = True
        self.loop_native = threading.main_thread().native_id if (
            self.loop_ident == threading.main_thread().ident) else threading.get_native_id()
        threading.Thread(target=self._run, name="bench-sampler", daemon=True).start()

    def stop(self) -> None:
        self._running = False

    def forget_before(self, when: float) -> None:
        """Drop the samples before ``when`` (a long run's memory stays bounded)."""
        self.stacks = [x for x in self.stacks if x[0] >= when]
        self.times = [x for x in self.times if x[0] >= when]

    def _run(self) -> None:
        me = threading.get_ident()
        while self._running:
            now = time.perf_counter()
            frames = sys._current_frames()
            self.stacks.append((now, {i: sys.intern(describe(f)) for i, f in frames.items() if i != me}))
            del frames  # (no frame object of another thread is kept past the sample)
            self.times.append((now, _task_times()))
            for thread in threading.enumerate():
                if thread.ident is not None and thread.native_id is not None:
                    self.idents[thread.ident] = thread.native_id
                    self.names[thread.native_id] = thread.name
            time.sleep(self.interval)

    def _cpu(self, a: float, b: float) -> dict[int, tuple[float, float]]:
        """Each thread's (CPU ms, run-queue ms) between the samples around a and b."""
        before = next((t for when, t in reversed(self.times) if when <= a), None)
        after = next((t for when, t in self.times if when >= b), None)
        if before is None or after is None:
            return {}
        return {tid: ((run - before.get(tid, (0, 0))[0]) / 1e6,
                      (wait - before.get(tid, (0, 0))[1]) / 1e6)
                for tid, (run, wait) in after.items()}

    def cause(self, a: float, b: float) -> Cause:
        ms = (b - a) * 1000
        cpu = self._cpu(a, b)
        loop_cpu, loop_wait = cpu.pop(self.loop_native, (0.0, 0.0))
        cpu = {t: c for t, c in cpu.items() if self.names.get(t) != "bench-sampler"}
        busiest = max(cpu, key=lambda t: cpu[t][0], default=None)
        other_cpu = cpu[busiest][0] if busiest is not None else 0.0
        seen = [s for when, s in self.stacks if a <= when <= b]
        if loop_wait > max(loop_cpu, other_cpu):
            return Cause("machine", "the loop thread waited for a CPU", ms,
                         f"waited {loop_wait:.0f} ms, ran {loop_cpu:.0f} ms")
        if loop_cpu >= other_cpu:
            what = Counter(s.get(self.loop_ident, "?") for s in seen).most_common(1)
            return Cause("loop", what[0][0] if what else "(in Qt, no Python frame)", ms,
                         f"loop {loop_cpu:.0f} ms CPU")
        assert busiest is not None
        name = self.names.get(busiest) or _task_name(busiest)
        ident = next((i for i, n in self.idents.items() if n == busiest), None)
        what = Counter(s[ident] for s in seen if ident in s).most_common(1)
        return Cause(name, what[0][0] if what else "(no Python frame: Qt or C)", ms,
                     f"{other_cpu:.0f} ms CPU, loop {loop_cpu:.0f}")


def top_causes(causes: list[Cause], n: int = 3) -> list[tuple[str, int, float, float]]:
    """(cause, gaps, total ms, longest ms), the ``n`` largest by total ms."""
    total: dict[str, list[float]] = defaultdict(list)
    for c in causes:
        total[f"{c.who}: {c.what}"].append(c.ms)
    ranked = sorted(total.items(), key=lambda kv: -sum(kv[1]))[:n]
    return [(k, len(v), sum(v), max(v)) for k, v in ranked]
