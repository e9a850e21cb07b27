"""Motion where it tells something, and only there (issue 27, C21):

* a caret at the end of an answer while its words stream in (painted with the row:
  no timer, it moves because the text grows);
* a thin bar sweeping along the bottom of a running tool card
  (:class:`ToolProgress` repaints that 2 px strip of the visible running cards,
  ~30 times a second, only while one is on screen — tools run between model
  replies, never while an answer streams);
* a shimmer over the status line's words while the model is thought about
  (:class:`Shimmer`: the label alone is repainted).

Every phase is read from the clock when painted, so nothing keeps state per row.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QPoint, QRect, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QLinearGradient, QPainter, QPen, QTextDocument
from PySide6.QtWidgets import QLabel, QListView

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel

FRAME_MS = 33  # ~30 frames a second: smooth enough for a thin bar, half the work of 60
SWEEP_S = 1.4  # one pass of the bar along a card
STRIP = 2  # px: the bar's height
SHIMMER_S = 1.8  # one pass of the shimmer over the status words


def phase(period: float, now: float | None = None) -> float:
    """Where a repeating motion of ``period`` seconds is now, 0 … 1."""
    t = time.monotonic() if now is None else now
    return (t % period) / period


def paint_caret(painter: QPainter, doc: QTextDocument, x: int, y: int, color: QColor) -> None:
    """A caret after the last character of ``doc`` drawn at (``x``, ``y``)."""
    doc.size()  # laid out (it is, once drawn)
    block = doc.lastBlock()
    while block.isValid() and (block.layout() is None or block.layout().lineCount() == 0
                               or not block.text().strip()):
        block = block.previous()
    if not block.isValid():
        return
    layout = block.layout()
    line = layout.lineAt(layout.lineCount() - 1)
    origin = layout.position()  # (in the document's coordinates)
    left = x + origin.x() + line.x() + line.naturalTextWidth()
    top = y + origin.y() + line.y()
    height = line.height()
    width = max(2.0, height * 0.45)
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawRoundedRect(QRectF(left + 2, top + height * 0.15, width, height * 0.7), 2, 2)
    painter.restore()


def progress_strip(card: QRect) -> QRect:
    """The strip along a card's bottom edge the sweeping bar runs in."""
    return QRect(card.left() + 1, card.bottom() - STRIP - 1, max(0, card.width() - 2), STRIP + 1)


def paint_progress(painter: QPainter, card: QRect, color: QColor, now: float | None = None) -> None:
    """The sweeping bar of a running tool card (``card``: the card's rectangle)."""
    strip = progress_strip(card)
    if strip.width() <= 0:
        return
    length = max(24, strip.width() // 4)
    start = strip.left() - length + int((strip.width() + length) * phase(SWEEP_S, now))
    bar = QRect(max(start, strip.left()), strip.top(), 0, STRIP)
    bar.setRight(min(start + length, strip.right()))
    if bar.width() <= 0:
        return
    gradient = QLinearGradient(start, 0, start + length, 0)
    clear = QColor(color)
    clear.setAlpha(0)
    gradient.setColorAt(0.0, clear)
    gradient.setColorAt(0.5, color)
    gradient.setColorAt(1.0, clear)
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(gradient)
    painter.drawRect(bar)
    painter.restore()


class ToolProgress(QObject):
    """Repaints the progress strips of the running tool cards on screen while there
    are any; ``card_rect(item, row_rect)`` is where the delegate draws a card."""

    def __init__(self, view: QListView, card_rect: Callable[[TranscriptItem, QRect], QRect]) -> None:
        super().__init__(view)
        self.view = view
        self._card_rect = card_rect
        self.frames = 0  # strips repainted (tests, benches)
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._tick)

    def watch(self, model: TranscriptModel) -> None:
        """Start when the rows change (a tool may have started), stop by itself."""
        model.dataChanged.connect(self.check)
        model.rowsInserted.connect(self.check)
        model.modelReset.connect(self.check)

    def running_strips(self) -> list[QRect]:
        """The strips of the running tool cards visible now (viewport coordinates)."""
        model = self.view.model()
        if not isinstance(model, TranscriptModel) or model.rowCount() == 0:
            return []
        viewport = self.view.viewport().rect()
        first = self.view.indexAt(QPoint(1, 1)).row()
        last = self.view.indexAt(QPoint(1, viewport.bottom() - 1)).row()
        if first < 0:
            return []
        if last < 0:
            last = model.rowCount() - 1
        strips = []
        for row in range(first, min(last, model.rowCount() - 1) + 1):
            item = model.item(row)
            if item.kind == "tool" and item.status == "running":
                rect = self.view.visualRect(model.index(row, 0))
                strips.append(progress_strip(self._card_rect(item, rect)))
        return strips

    def check(self, *_args: object) -> None:
        if not self.timer.isActive() and self.running_strips():
            self.timer.start()

    def _tick(self) -> None:
        strips = self.running_strips()
        if not strips:
            self.timer.stop()
            return
        for strip in strips:
            self.view.viewport().update(strip)
            self.frames += 1


class Shimmer(QObject):
    """A light sweeping over a label's words while ``on``; the label paints through
    :meth:`paint` (call it from its ``paintEvent``)."""

    def __init__(self, label: QLabel) -> None:
        super().__init__(label)
        self.label = label
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS * 2)  # a label's words: 15 frames a second do
        self.timer.timeout.connect(label.update)

    @property
    def on(self) -> bool:
        return self.timer.isActive()

    def set_on(self, on: bool) -> None:
        if on and not self.timer.isActive():
            self.timer.start()
        elif not on and self.timer.isActive():
            self.timer.stop()
            self.label.update()

    def paint(self, painter: QPainter, rect: QRect, text: str, base: QColor, light: QColor) -> None:
        """The label's text with the sweep at its phase now."""
        width = max(1, painter.fontMetrics().horizontalAdvance(text))
        x = rect.left() - width // 2 + int(width * 2 * phase(SHIMMER_S))
        gradient = QLinearGradient(x - width // 4, 0, x + width // 4, 0)
        gradient.setColorAt(0.0, base)
        gradient.setColorAt(0.5, light)
        gradient.setColorAt(1.0, base)
        painter.setPen(QPen(gradient, 1))
        painter.drawText(rect, int(self.label.alignment()) | int(Qt.TextFlag.TextSingleLine), text)
