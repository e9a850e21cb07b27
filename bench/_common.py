"""Shared bits of the desktop benchmarks (they print figures; they are not tests)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def rss_mib(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def temp_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="ow-bench-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    return home


class LoopGaps:
    """The gaps between 1 ms timer ticks on the Qt loop: a gap well over 1 ms is a
    stall (the loop thread was busy, or the machine gave it no CPU). The one tick
    loop of the desktop benches (``ui_stall``, ``soak``, ``sessions``).

    With ``sample=True`` a :class:`_stacks.StackSampler` watches the threads while
    it ticks, and :meth:`causes` says who had each gap over ``budget`` seconds."""

    def __init__(self, sample: bool = False) -> None:
        import time

        from PySide6.QtCore import QTimer

        self._clock = time.perf_counter
        self._cpu = time.thread_time  # the loop thread's own CPU time
        self.gaps: list[float] = []
        #: the loop thread's CPU time within each gap: a long gap with little CPU is the
        #: machine (or a lock), a long one with as much CPU is the app's own work
        self.cpu_gaps: list[float] = []
        self.ends: list[float] = []  # when each gap ended (perf_counter)
        self._last = self._clock()
        self._last_cpu = self._cpu()
        self._cpu0 = self._last_cpu
        self.sampler = None
        if sample:
            from _stacks import StackSampler

            self.sampler = StackSampler()
        self.timer = QTimer()
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = self._clock(), self._cpu()
        self.gaps.append(now - self._last)
        self.cpu_gaps.append(cpu - self._last_cpu)
        self.ends.append(now)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self._last, self._last_cpu = self._clock(), self._cpu()
        self.timer.start()
        if self.sampler is not None and not self.sampler._running:
            self.sampler.start()

    def stop(self) -> None:
        """Stop ticking; the gap up to now counts too."""
        if self.timer.isActive():
            self.timer.stop()
            self._tick()

    def longest(self) -> float:
        """The longest gap so far, in seconds (0 when none)."""
        return max(self.gaps, default=0.0)

    def longest_cpu(self) -> float:
        """The most CPU time the loop thread spent between two ticks, in seconds."""
        return max(self.cpu_gaps, default=0.0)

    def loop_cpu(self) -> float:
        """The loop thread's CPU time since the last :meth:`reset`, in seconds."""
        return self._last_cpu - self._cpu0

    def over(self, budget: float = 0.016) -> int:
        return sum(g > budget for g in self.gaps)

    def causes(self, budget: float = 0.016, cpu_budget: float | None = None) -> list:
        """Who had each gap over ``budget`` (see ``_stacks``; empty without a sampler),
        and each in which the loop thread ran over ``cpu_budget`` seconds."""
        if self.sampler is None:
            return []
        cpu_over = cpu_budget if cpu_budget is not None else float("inf")
        return [self.sampler.cause(end - gap, end)
                for gap, cpu, end in zip(self.gaps, self.cpu_gaps, self.ends, strict=True)
                if gap > budget or cpu > cpu_over]

    def summary(self) -> dict:
        """The longest gap, p99, ticks, loop CPU (ms) and the three largest CPU gaps."""
        ms = sorted(g * 1000 for g in self.gaps) or [0.0]
        t0 = self.ends[0] - self.gaps[0] if self.ends else 0.0
        top = sorted(range(len(self.cpu_gaps)), key=self.cpu_gaps.__getitem__)[-3:]
        return {"worst": ms[-1], "p99": ms[max(0, int(len(ms) * 0.99) - 1)],
                "ticks": len(self.gaps), "over": self.over(),
                # (ms after the start, loop-thread CPU ms) of the three largest
                "cpu_top": [(round((self.ends[j] - t0) * 1000), round(self.cpu_gaps[j] * 1000, 1))
                            for j in top],
                "worst_cpu": self.longest_cpu() * 1000, "loop_cpu": self.loop_cpu() * 1000}

    def reset(self) -> float:
        """The longest gap so far; then start counting afresh."""
        out = self.longest()
        self.gaps.clear()
        self.cpu_gaps.clear()
        self.ends.clear()
        self._last, self._last_cpu = self._clock(), self._cpu()
        self._cpu0 = self._last_cpu
        if self.sampler is not None:
            self.sampler.forget_before(self._last - 1.0)
        return out


def code_chunks(deltas: int) -> list[str]:
    """Deltas of a reply alternating a paragraph and a 40-line fenced Python block."""
    out: list[str] = []
    n = 0
    while len(out) < deltas:
        out += ["Here ", "is ", "the ", "`next` ", "part:\n\n", "```python\n"]
        for i in range(40):
            out += [f"value_{n}_{i} ", f"= compute({i}, ", '"text")', "\n"]
        out += ["```\n\n"]
        n += 1
    return out[:deltas]


def run_fresh(cmd: list[str], env: dict[str, str] | None = None) -> tuple[dict | None, str]:
    """Run a bench's child process; its ``RESULT {json}`` line, and its stderr."""
    import json
    import subprocess

    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    if proc.returncode != 0 or line is None:
        return None, proc.stderr
    return json.loads(line[len("RESULT "):]), proc.stderr
