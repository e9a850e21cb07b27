"""The first start after an update: the database is brought up to date in a
worker thread while a small window says so.

A schema step over a year of sessions (a million messages counted and indexed)
takes seconds; run on the GUI thread it froze the start with nothing on screen.
:func:`prepare_database` — called by ``launch.main`` before the stores open — asks
whether the database needs it (one small read) and, only then, runs
:func:`~openworker_qt.qt.updates.upgrade_database` in a thread while Qt's event
loop runs this window (it paints, moves, answers the system). The main window
opens when the database is ready, its sessions all there.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QEventLoop, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget

from openworker_qt.qt.updates import upgrade_database, upgrade_pending
from openworker_qt.ui import design


class UpgradeWindow(QWidget):
    """"Updating your sessions…" with a busy bar; it cannot be closed meanwhile."""

    #: The upgrade ended (the error it raised, or None); emitted by the worker.
    finished = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("databaseUpgrade")
        self.setWindowTitle("OpenWorker Qt")
        lay = QVBoxLayout(self)
        m = design.SPACE["l"]
        lay.setContentsMargins(m, m, m, m)
        lay.setSpacing(design.SPACE["s"])
        self.label = QLabel(self.tr("Updating your sessions for this version…"))
        self.label.setWordWrap(True)
        self.detail = QLabel(self.tr(
            "This happens once after an update; with many sessions it can take a minute."))
        self.detail.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: the steps do not say how far they are
        self.bar.setTextVisible(False)
        self.bar.setAccessibleName(self.tr("Updating your sessions"))
        for widget in (self.label, self.detail, self.bar):
            lay.addWidget(widget)
        self.setMinimumWidth(360)
        self.error: BaseException | None = None
        self.done = False
        self._loop = QEventLoop(self)
        self.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)

    def _on_finished(self, error: object) -> None:
        self.error = error if isinstance(error, BaseException) else None
        self.done = True
        self._loop.quit()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.done:  # the update must finish: stopping it halfway helps nobody
            event.ignore()
            return
        super().closeEvent(event)

    def run(self, path: Path) -> None:
        """Upgrade ``path`` in a worker thread, showing this window until it ends;
        raises what the upgrade raised."""
        window = self

        def work() -> None:
            error: BaseException | None = None
            try:
                upgrade_database(path)
            except BaseException as exc:  # handed to the GUI thread, raised there
                error = exc
            window.finished.emit(error)

        self.show()
        thread = threading.Thread(target=work, name="database-upgrade")
        thread.start()
        if not self.done:
            self._loop.exec()
        thread.join()
        self.close()
        if self.error is not None:
            raise self.error


def prepare_database(path: Path) -> None:
    """Bring the database at ``path`` up to this version before the app opens its
    stores: at once when nothing is pending, else off the GUI thread with
    :class:`UpgradeWindow` on screen. Raises what the upgrade raised (the caller
    says the app cannot start, as for any database it cannot open)."""
    if not upgrade_pending(path):
        return
    window = UpgradeWindow()
    try:
        window.run(path)
    finally:
        window.deleteLater()
