"""Warming the transcript's painting up after the window's first paint.

:class:`DelegateWarmUp` renders a few sample rows through the view's delegate,
off-screen, one per event-loop turn (fonts, the Markdown paths, the enum types
PySide builds lazily on the first ``viewport()`` call — 18 ms once, cProfile in
``bench/ui_stall.py``), so a first real answer does not pay for them; then it has
Pygments imported in a worker and, once it is in, has the delegate render again
the messages shown before it (their code coloured).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPoint, QRect, QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QAbstractItemView, QStyleOptionViewItem

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui.markdown_style import highlighter_loaded, preload_highlighter
from openworker_qt.ui.transcript_delegate import WARM_UP_MARKDOWN, TranscriptDelegate

__all__ = ["DelegateWarmUp"]

HIGHLIGHTER_DELAY_MS = 1500  # after the warm-up: its import never competes with a first reply
HIGHLIGHTER_POLL_MS = 100  # then: is it in? (the messages shown before it are rendered again)
HIGHLIGHTER_POLLS = 600


class DelegateWarmUp(QObject):
    """The warm-up of one view (see module docstring); :meth:`start` after its first paint."""

    def __init__(self, view: QAbstractItemView, delegate: TranscriptDelegate) -> None:
        super().__init__(view)
        self.view = view
        self.delegate = delegate
        self.pending = list(WARM_UP_MARKDOWN)
        self.started = False
        self._polls = 0

    def start(self) -> None:
        """Begin (once; later calls do nothing)."""
        if self.pending and not self.started:
            self.started = True
            QTimer.singleShot(0, self, self._step)

    def _step(self) -> None:
        """Render one sample row through the delegate, off-screen."""
        if not self.pending:
            return
        text = self.pending.pop(0)
        delegate = self.delegate
        model = TranscriptModel()
        # Alternate the streaming (incremental) and the finished (whole) Markdown paths.
        streaming = len(self.pending) % 2 == 0
        model.reset("", [TranscriptItem("assistant", text=text, streaming=streaming),
                         TranscriptItem("user", text=text), TranscriptItem("notice", text=text)])
        image = QImage(320, 240, QImage.Format.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        option = QStyleOptionViewItem()
        option.initFrom(self.view.viewport())
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            option.rect = QRect(QPoint(0, 0), delegate.sizeHint(option, index))
            delegate.paint(painter, option, index)
            delegate.forget(model.item(row))
        painter.end()
        if self.pending:
            QTimer.singleShot(0, self, self._step)
        else:  # Pygments, in a worker thread, once the window has settled
            QTimer.singleShot(HIGHLIGHTER_DELAY_MS, self, self._start_highlighter)

    def _start_highlighter(self) -> None:
        preload_highlighter()
        self._polls = 0
        self._await_highlighter()

    def _await_highlighter(self) -> None:
        if highlighter_loaded():
            if self.delegate.restyle():
                self.view.viewport().update()
            return
        self._polls += 1
        if self._polls < HIGHLIGHTER_POLLS:
            QTimer.singleShot(HIGHLIGHTER_POLL_MS, self, self._await_highlighter)
