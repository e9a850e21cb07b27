"""A compact Markdown answer rendered like the transcript's (quick ask).

:class:`AnswerView` is a read-only text view whose document is styled by
:mod:`~openworker_qt.ui.markdown_style` — code in shaded boxes with syntax colours
and a Copy button, aligned tables, quote bars, inline code boxes — and grows with
its text up to :attr:`AnswerView.max_height` (then scrolls). Streamed text is
rendered at most every :data:`RENDER_MS`, so a fast stream costs a few renders a
second, not one per delta.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QMouseEvent, QPainter
from PySide6.QtWidgets import QFrame, QTextBrowser, QWidget

from openworker_qt.ui import design
from openworker_qt.ui.markdown_style import copy_button_at, paint_decorations, style_markdown

__all__ = ["RENDER_MS", "AnswerView"]

RENDER_MS = 50


class AnswerView(QTextBrowser):
    """See module docstring.

    Signals:
        copied(str): a code block's Copy button put this text on the clipboard.
        height_changed(int): the view took a new height (its text grew or shrank).
    """

    copied = Signal(str)
    height_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None, max_height: int = 420) -> None:
        super().__init__(parent)
        self.max_height = max_height
        self.setReadOnly(True)
        self.setOpenExternalLinks(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.viewport().setMouseTracking(True)
        self._markdown = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RENDER_MS)
        self._timer.timeout.connect(self._render)
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self._fit())

    # ----------------------------------------------------------------- text

    def text(self) -> str:
        """The answer's Markdown as it came (what is shown once rendered)."""
        return self._markdown

    def set_markdown(self, text: str, *, now: bool = False) -> None:
        """Show ``text`` (rendered within :data:`RENDER_MS`, or at once with ``now``)."""
        self._markdown = text
        if now:
            self._timer.stop()
            self._render()
        elif not self._timer.isActive():
            self._timer.start()

    def _render(self) -> None:
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 4
        doc = self.document()
        doc.setDefaultFont(self.font())
        doc.setMarkdown(self._markdown)
        style_markdown(doc, 0, design.is_dark(self.palette()))
        self._fit()
        if at_end:
            bar.setValue(bar.maximum())
        self.viewport().update()

    def _fit(self) -> None:
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 4
        height = min(max(height, 0), self.max_height) if self._markdown else 0
        if height != self.height() or height != self.minimumHeight():
            self.setFixedHeight(height)
            self.height_changed.emit(height)

    # ------------------------------------------------------------ painting

    def paintEvent(self, event: Any) -> None:
        c = design.colors(self.palette())
        painter = QPainter(self.viewport())
        painter.translate(-self.horizontalScrollBar().value(), -self.verticalScrollBar().value())
        view = self.viewport().rect()
        shown = QRectF(self.horizontalScrollBar().value(), self.verticalScrollBar().value(),
                       view.width(), view.height())
        paint_decorations(painter, self.document(), c.q("sunken"), c.q("border"), c.q("muted"),
                          copy_text=self.tr("Copy"), clip=shown)
        painter.end()
        super().paintEvent(event)

    def _doc_point(self, event: QMouseEvent) -> QPointF:
        pos = event.position()
        return QPointF(pos.x() + self.horizontalScrollBar().value(),
                       pos.y() + self.verticalScrollBar().value())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        over = copy_button_at(self.document(), self._doc_point(event)) is not None
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if over
                                  else Qt.CursorShape.IBeamCursor)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            code = copy_button_at(self.document(), self._doc_point(event))
            if code is not None:
                QGuiApplication.clipboard().setText(code)
                self.copied.emit(code)
                return
        super().mouseReleaseEvent(event)
