"""Python's cyclic garbage collector, run on the GUI thread only.

CPython collects reference cycles on whichever thread happens to allocate when
a generation's threshold is crossed. Worker threads allocate plenty here (the
runtime resolves providers, imports SDKs and reads the keyring off the loop),
and a cycle holding a Qt object (a window whose slots capture it, a listener
bound to it) that is collected on a worker destroys that object on the wrong
thread: its timers cannot be stopped there, and the GUI thread later crashes
delivering a timer event to the freed object.

:func:`collect_on_gui_thread` turns automatic collection off for the process
and runs it from a timer on the GUI thread instead, following CPython's own
thresholds (generation 0 when its count is over the threshold, and so on); a
full collection runs at most once a minute, as CPython also defers full
collections until enough long-lived objects accumulated.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

INTERVAL_MS = 250
FULL_EVERY_S = 60.0

_collector: GuiThreadCollector | None = None


class GuiThreadCollector(QObject):
    """Runs :func:`gc.collect` for the generations due, from a GUI-thread timer."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._last_full = time.monotonic()
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect)
        self._timer.start()
        gc.disable()

    def collect(self) -> int:
        """Collect the oldest generation due; returns it (-1: none was due)."""
        counts = gc.get_count()
        thresholds = gc.get_threshold()
        if counts[0] <= thresholds[0]:
            return -1
        generation = 0
        if counts[1] > thresholds[1]:
            generation = 1
            if counts[2] > thresholds[2] and time.monotonic() - self._last_full >= FULL_EVERY_S:
                generation = 2
        if generation == 2:
            self._last_full = time.monotonic()
        gc.collect(generation)
        return generation


def collect_on_gui_thread() -> GuiThreadCollector:
    """Install (once per application) the collector on the application object."""
    global _collector
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("create the QApplication first")
    if _collector is None or _collector.parent() is not app:
        _collector = GuiThreadCollector(app)
    gc.disable()
    return _collector
