"""The GUI-thread collector and bursts of allocation (an SDK imported by a worker):
the burst is set aside instead of scanned on the GUI thread, and a Qt object left
in a garbage cycle meanwhile is still destroyed later, on the GUI thread."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QObject, Qt

from openworker_qt.qt import gc_guard


class Holder:
    def __init__(self) -> None:
        self.me = self
        self.qobject = QObject()


kept: list[object] = []


@pytest.fixture
def collector(qapp, monkeypatch: pytest.MonkeyPatch) -> Iterator[gc_guard.GuiThreadCollector]:
    guard = gc_guard.collect_on_gui_thread()
    guard._timer.stop()  # ticks are driven by the test
    yield guard
    guard._timer.start()
    gc.unfreeze()
    kept.clear()


def burst() -> None:
    """What an SDK import does: tens of thousands of objects that stay."""
    kept.append([[] for _ in range(gc_guard.BURST + 5000)])


def test_a_burst_is_set_aside_not_scanned_on_the_gui_thread(
    collector: gc_guard.GuiThreadCollector,
) -> None:
    gc.collect()
    worker = threading.Thread(target=burst)
    worker.start()
    worker.join()
    assert gc.get_count()[0] > gc_guard.BURST
    assert collector.collect() == gc_guard.SET_ASIDE
    assert gc.get_freeze_count() > gc_guard.BURST
    assert gc.get_count()[0] < gc.get_threshold()[0]  # nothing left for the next tick


def test_a_cycle_made_during_a_burst_dies_later_on_the_gui_thread(
    collector: gc_guard.GuiThreadCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    died_in: list[str] = []
    holder = Holder()
    holder.qobject.destroyed.connect(
        lambda: died_in.append(threading.current_thread().name),
        Qt.ConnectionType.DirectConnection,
    )
    del holder  # garbage, reachable only through its own cycle
    worker = threading.Thread(target=burst, name="worker")
    worker.start()
    worker.join()
    assert collector.collect() == gc_guard.SET_ASIDE
    assert died_in == []  # set aside with the burst, not destroyed (nor on the worker)
    # The next full collection looks at what was set aside.
    monkeypatch.setattr(gc_guard, "FULL_EVERY_S", 0.0)
    monkeypatch.setattr(gc_guard, "FULL_GROWTH", 0.0)
    for _ in range(400):
        kept.append([[] for _ in range(gc.get_threshold()[0] + 10)])
        if collector.collect() == 2:
            break
    assert died_in == [threading.main_thread().name]
