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
thresholds (generation 0 when its count is over the threshold, and so on).

Two things would hold the GUI thread for tens of milliseconds (bench/ui_stall.py):

* a burst of allocations between two ticks — an SDK imported by a worker, tens
  of thousands of mostly long-lived objects: scanning it took 20-45 ms. A burst
  is moved aside unscanned (``gc.freeze()``: its objects still die by reference
  counting) and given back to the oldest generation before the next full
  collection, which then looks at it once — so a cycle made during a burst is
  collected later, on this thread, never lost;
* a full collection over a heap grown by SDKs (55-130 ms): like CPython, one
  runs only when the oldest generation grew by a quarter since the last one,
  and at most once a minute.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

INTERVAL_MS = 250
FULL_EVERY_S = 60.0
#: Objects allocated since the last tick beyond which they are a burst (see above).
BURST = 20_000
#: A full collection waits until the oldest generation grew by this share (CPython's 25 %).
FULL_GROWTH = 0.25
#: ``collect()``'s answer when it set a burst aside instead of collecting.
SET_ASIDE = 3

_collector: GuiThreadCollector | None = None


class GuiThreadCollector(QObject):
    """Runs :func:`gc.collect` for the generations due, from a GUI-thread timer."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._last_full = time.monotonic()
        # The oldest generation's size, counted at the first tick rather than here:
        # listing its objects took ~4 ms before the window's first paint.
        self._old_after_full = -1
        self._set_aside = False  # a burst waits in the permanent generation
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect)
        self._timer.start()
        gc.disable()

    def collect(self) -> int:
        """Collect the oldest generation due; returns it (-1: none was due,
        :data:`SET_ASIDE`: a burst was set aside)."""
        if self._old_after_full < 0:
            self._old_after_full = len(gc.get_objects(2))
        counts = gc.get_count()
        thresholds = gc.get_threshold()
        if counts[0] <= thresholds[0]:
            return -1
        if counts[0] > BURST:
            gc.freeze()  # (resets the counts; the objects come back before a full collection)
            self._set_aside = True
            return SET_ASIDE
        generation = 0
        if counts[1] > thresholds[1]:
            generation = 1
            if counts[2] > thresholds[2] and self._full_due():
                generation = 2
        if generation == 2:
            self._last_full = time.monotonic()
        gc.collect(generation)
        if generation == 2:
            self._old_after_full = len(gc.get_objects(2))
        return generation

    def _full_due(self) -> bool:
        if time.monotonic() - self._last_full < FULL_EVERY_S:
            return False
        if self._set_aside:  # what a burst set aside is looked at by the next full one
            gc.unfreeze()
            self._set_aside = False
        grown = len(gc.get_objects(2)) - self._old_after_full
        if grown <= self._old_after_full * FULL_GROWTH:
            self._last_full = time.monotonic()  # not worth it yet: ask again in a while
            return False
        return True


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
