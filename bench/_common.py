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
    stall (the loop thread was busy, or the machine gave it no CPU)."""

    def __init__(self) -> None:
        import time

        from PySide6.QtCore import QTimer

        self._clock = time.perf_counter
        self._cpu = time.thread_time  # the loop thread's own CPU time
        self.gaps: list[float] = []
        #: the loop thread's CPU time within each gap: a long gap with little CPU is the
        #: machine (or a lock), a long one with as much CPU is the app's own work
        self.cpu_gaps: list[float] = []
        self._last = self._clock()
        self._last_cpu = self._cpu()
        self.timer = QTimer()
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = self._clock(), self._cpu()
        self.gaps.append(now - self._last)
        self.cpu_gaps.append(cpu - self._last_cpu)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self._last, self._last_cpu = self._clock(), self._cpu()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def longest(self) -> float:
        """The longest gap so far, in seconds (0 when none)."""
        return max(self.gaps, default=0.0)

    def longest_cpu(self) -> float:
        """The most CPU time the loop thread spent between two ticks, in seconds."""
        return max(self.cpu_gaps, default=0.0)

    def reset(self) -> float:
        """The longest gap so far; then start counting afresh."""
        out = self.longest()
        self.gaps.clear()
        self.cpu_gaps.clear()
        self._last, self._last_cpu = self._clock(), self._cpu()
        return out
