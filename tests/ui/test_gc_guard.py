"""Qt objects left in garbage cycles are destroyed on the GUI thread, never on a worker
that happens to allocate (the runtime's workers import SDKs and read keys)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Qt

from openworker_qt.qt.gc_guard import collect_on_gui_thread
from tests.ui.conftest import wait_for


class Holder:
    """A plain object in a reference cycle with a Qt object."""

    def __init__(self) -> None:
        self.me = self
        self.qobject = QObject()


kept: list[object] = []


def churn() -> None:
    """Allocate like an SDK import does: far past every collection threshold."""
    for _ in range(20):
        junk = [[] for _ in range(5000)]
        del junk
    kept.append([[] for _ in range(5000)])  # and keep some, as a module import does


def test_cycles_with_qt_objects_die_on_the_gui_thread(qapp, qloop) -> None:
    collect_on_gui_thread()
    died_in: list[str] = []
    holder = Holder()
    holder.qobject.destroyed.connect(
        lambda: died_in.append(threading.current_thread().name),
        Qt.ConnectionType.DirectConnection,
    )
    del holder  # garbage now, reachable only through its own cycle
    worker = threading.Thread(target=churn, name="worker")
    worker.start()
    worker.join()
    assert died_in == []  # the worker's allocations did not collect it
    wait_for(qloop, lambda: died_in, what="the GUI-thread collection")
    assert died_in == [threading.main_thread().name]
    kept.clear()
