"""The transcript: a virtualised QListView over TranscriptModel, painted by a delegate.

Why a list view and not a QTextBrowser: a 10,000-message session must open in
well under 300 ms and scroll smoothly, so only visible rows may cost anything.
The delegate renders a row with a cached ``QTextDocument`` (Markdown for the
assistant) and reports its height; rows that were never painted get a cheap
font-metrics *estimate*, corrected when they are first painted (the correction
is coalesced into one relayout per frame).

Pending approvals are real widgets (:class:`ApprovalCard`) placed on their row
with ``setIndexWidget``, so they are keyboard- and screen-reader-accessible.

Signals:
    retry_requested(): the user activated an error notice's Retry.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QKeyEvent, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from openworker_qt.qt.transcript_items import (
    TranscriptItem,
    arguments_preview,
    first_line,
    status_label,
)
from openworker_qt.qt.transcript_model import ITEM_ROLE, TranscriptModel

PAD = 10
GAP = 6
CARD_RADIUS = 8
MEASURE_ALWAYS_BELOW = 400  # rows: small sessions are measured exactly up front
MEASURE_TAIL = 60  # in big sessions the last rows (shown first) are exact too
RESULT_LINES = 30

STATUS_GLYPH = {
    "pending": "○", "awaiting": "◐", "asking": "?", "running": "◌",
    "ok": "✓", "error": "✗", "denied": "⊘", "interrupted": "■",
}


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def mix(a: QColor, b: QColor, t: float) -> QColor:
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


class TranscriptDelegate(QStyledItemDelegate):
    """Paints transcript rows; caches documents and heights (see module docstring)."""

    def __init__(self, view: TranscriptView) -> None:
        super().__init__(view)
        self.view = view
        self._docs: OrderedDict[tuple[int, int, int, str], QTextDocument] = OrderedDict()
        self._heights: dict[tuple[int, int, int], int] = {}
        self._estimated: set[tuple[int, int, int]] = set()
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(0)
        self._relayout.timeout.connect(self._emit_relayout)
        self._dirty_rows: set[int] = set()
        self._metrics: tuple[int, int] | None = None

    # --------------------------------------------------------------- geometry

    def _width(self) -> int:
        return max(200, self.view.viewport().width() - 2 * PAD)

    def _doc(self, item: TranscriptItem, part: str, width: int) -> QTextDocument:
        key = (item.uid, item.rev, width, part)
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
            return doc
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        font = QFont(self.view.font())
        if part == "body" and item.kind == "assistant":
            doc.setDefaultFont(font)
            doc.setMarkdown(item.text or ("…" if item.streaming else ""))
        elif part == "reasoning":
            font.setItalic(True)
            doc.setDefaultFont(font)
            text = item.reasoning if item.expanded or not item.text else first_line(item.reasoning, 120)
            doc.setPlainText(("Thinking: " if not item.expanded else "") + text)
        elif part == "details":
            mono = QFont("monospace")
            mono.setStyleHint(QFont.StyleHint.Monospace)
            mono.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
            doc.setDefaultFont(mono)
            doc.setPlainText(self._details_text(item))
        else:
            doc.setDefaultFont(font)
            doc.setPlainText(self._plain_body(item))
        doc.setTextWidth(width)
        self._docs[key] = doc
        while len(self._docs) > 400:
            self._docs.popitem(last=False)
        return doc

    def _plain_body(self, item: TranscriptItem) -> str:
        if item.kind == "user":
            text = item.text
            if item.attachments:
                text += "\n📎 " + ", ".join(item.attachments)
            return text
        if item.kind == "tool":
            head = f"{STATUS_GLYPH.get(item.status, '•')}  {item.name}"
            preview = arguments_preview(item.arguments)
            if preview:
                head += f"  —  {preview}"
            head += f"\n{status_label(item.status)}"
            if item.rule and item.status in ("ok", "error"):
                head += f" · allowed by {item.rule}"
            if item.result and not item.expanded:
                head += f" · {first_line(item.result, 100)}"
            return head
        return item.text

    def _details_text(self, item: TranscriptItem) -> str:
        args = json.dumps(item.arguments, indent=2, ensure_ascii=False)
        lines = item.result.splitlines()
        if len(lines) > RESULT_LINES:
            lines = [*lines[:RESULT_LINES], f"… {len(lines) - RESULT_LINES} more lines"]
        return f"arguments:\n{args}\n\nresult:\n" + "\n".join(lines)

    def _body_width(self, item: TranscriptItem, width: int) -> int:
        if item.kind == "user":
            return int(width * 0.78) - 2 * PAD
        if item.kind in ("tool", "notice"):
            return width - 2 * PAD
        return width

    def exact_height(self, item: TranscriptItem, width: int) -> int:
        if item.kind == "tool" and item.status == "awaiting":
            card = self.view.card_for(item.call_id)
            if card is not None:
                return card.heightForWidth(width + 2 * PAD)
        bw = self._body_width(item, width)
        h = 0
        if item.kind == "assistant" and item.reasoning:
            h += int(self._doc(item, "reasoning", bw).size().height()) + 4
        if item.kind != "assistant" or item.text or not item.reasoning:
            h += int(self._doc(item, "body", bw).size().height())
        if item.kind == "tool" and item.expanded:
            h += int(self._doc(item, "details", bw).size().height()) + 6
        if item.kind in ("user", "tool", "notice"):
            h += 2 * PAD if item.kind != "notice" else PAD
        return h + GAP

    def estimate_height(self, item: TranscriptItem, width: int) -> int:
        """A cheap guess (no text layout): corrected when the row is first painted."""
        if self._metrics is None:
            fm = QFontMetrics(self.view.font())
            self._metrics = (max(1, fm.averageCharWidth()), fm.lineSpacing())
        char_w, line_h = self._metrics
        per_line = max(10, self._body_width(item, width) // char_w)
        if item.kind == "tool":
            lines = 2
        else:
            lines = sum(1 + len(p) // per_line for p in (item.text or " ").split("\n")[:200])
        extra = 2 * PAD if item.kind in ("user", "tool") else 0
        return lines * line_h + extra + GAP

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        item: TranscriptItem = index.data(ITEM_ROLE)
        width = self._width()
        key = (item.uid, item.rev, width)
        h = self._heights.get(key)
        if h is None:
            rows = index.model().rowCount()
            if rows <= MEASURE_ALWAYS_BELOW or index.row() >= rows - MEASURE_TAIL:
                h = self.exact_height(item, width)
            else:
                h = self.estimate_height(item, width)
                self._estimated.add(key)
            self._heights[key] = h
        return QSize(width, h)

    def invalidate(self) -> None:
        self._metrics = None
        self._heights.clear()
        self._estimated.clear()

    def _emit_relayout(self) -> None:
        rows, self._dirty_rows = self._dirty_rows, set()
        model = self.view.model()
        for row in sorted(rows)[:1]:  # one signal is enough: QListView relayouts everything
            self.sizeHintChanged.emit(model.index(row, 0))

    # ------------------------------------------------------------------ paint

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        item: TranscriptItem = index.data(ITEM_ROLE)
        width = self._width()
        key = (item.uid, item.rev, width)
        if key in self._estimated:
            self._estimated.discard(key)
            exact = self.exact_height(item, width)
            if exact != self._heights.get(key):
                self._heights[key] = exact
                self._dirty_rows.add(index.row())
                self._relayout.start()
        if item.kind == "tool" and self.view.card_for(item.call_id) is not None:
            return  # a live card widget covers this row
        pal = option.palette
        rect: QRect = option.rect.adjusted(PAD, 0, -PAD, -GAP)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        dark = is_dark(pal)
        base = pal.color(QPalette.ColorRole.Base)
        text_color = pal.color(QPalette.ColorRole.Text)
        accent = pal.color(QPalette.ColorRole.Highlight)
        selected = bool(option.state & QStyle.StateFlag.State_HasFocus)
        if item.kind == "user":
            bw = self._body_width(item, width)
            doc = self._doc(item, "body", bw)
            w = min(bw, int(doc.idealWidth()) + 1) + 2 * PAD
            bubble = QRect(rect.right() - w, rect.top(), w, rect.height())
            fill = mix(base, accent, 0.22 if dark else 0.12)
            if item.source == "steering":
                fill = mix(base, QColor("#d9a400"), 0.18)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawRoundedRect(bubble, CARD_RADIUS, CARD_RADIUS)
            self._draw_doc(painter, doc, bubble.left() + PAD, bubble.top() + PAD, text_color)
        elif item.kind == "assistant":
            y = rect.top()
            if item.reasoning:
                doc = self._doc(item, "reasoning", width)
                self._draw_doc(painter, doc, rect.left(), y, mix(text_color, base, 0.45))
                y += int(doc.size().height()) + 4
            if item.text or not item.reasoning:
                self._draw_doc(painter, self._doc(item, "body", width), rect.left(), y, text_color)
        elif item.kind == "tool":
            border = {
                "awaiting": QColor("#d9a400"), "error": QColor("#d0453b"),
                "denied": QColor("#9a6b00"), "running": accent,
            }.get(item.status, mix(base, text_color, 0.25))
            painter.setPen(border)
            painter.setBrush(mix(base, text_color, 0.04 if not dark else 0.07))
            painter.drawRoundedRect(rect.adjusted(0, 0, -1, -1), CARD_RADIUS, CARD_RADIUS)
            bw = self._body_width(item, width)
            doc = self._doc(item, "body", bw)
            self._draw_doc(painter, doc, rect.left() + PAD, rect.top() + PAD, text_color)
            if item.expanded:
                y = rect.top() + PAD + int(doc.size().height()) + 6
                self._draw_doc(painter, self._doc(item, "details", bw), rect.left() + PAD, y,
                               mix(text_color, base, 0.2))
        else:
            color = QColor("#d0453b") if item.notice_kind == "error" else mix(text_color, base, 0.4)
            bw = self._body_width(item, width)
            doc = self._doc(item, "body", bw)
            x = rect.left() + max(PAD, (rect.width() - int(doc.idealWidth())) // 2)
            self._draw_doc(painter, doc, x, rect.top() + PAD // 2, color)
        if selected:
            painter.setPen(accent)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(option.rect.adjusted(2, 0, -3, -GAP + 1), 4, 4)
        painter.restore()

    @staticmethod
    def _draw_doc(painter: QPainter, doc: QTextDocument, x: int, y: int, color: QColor) -> None:
        from PySide6.QtGui import QAbstractTextDocumentLayout

        painter.save()
        painter.translate(x, y)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette.setColor(QPalette.ColorRole.Text, color)
        doc.documentLayout().draw(painter, ctx)
        painter.restore()


class TranscriptView(QListView):
    """The virtualised transcript (see module docstring)."""

    retry_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setAccessibleName(self.tr("Transcript"))
        self.setAccessibleDescription(self.tr("The conversation: messages, tool cards and approvals"))
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.setSpacing(0)
        self.verticalScrollBar().setSingleStep(24)
        self.delegate = TranscriptDelegate(self)
        self.setItemDelegate(self.delegate)
        self._cards: dict[str, QWidget] = {}
        self._stick_to_bottom = True
        self.clicked.connect(self._on_clicked)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.verticalScrollBar().rangeChanged.connect(self._on_range_changed)

    def setModel(self, model: QAbstractItemModel | None) -> None:  # noqa: N802
        super().setModel(model)
        if model is not None:
            model.modelReset.connect(self._on_model_reset)
            model.rowsInserted.connect(self._on_rows_inserted)

    def transcript(self) -> TranscriptModel:
        model = self.model()
        assert isinstance(model, TranscriptModel)
        return model

    # ---------------------------------------------------------- approval cards

    def card_for(self, call_id: str) -> QWidget | None:
        return self._cards.get(call_id)

    def set_card(self, call_id: str, card: QWidget | None) -> None:
        row = self.transcript().tool_row(call_id)
        old = self._cards.pop(call_id, None)
        if card is not None:
            self._cards[call_id] = card
        if row is None:
            return
        index = self.model().index(row, 0)
        if old is not None and card is None:
            self.setIndexWidget(index, None)  # type: ignore[arg-type]
        if card is not None:
            self.setIndexWidget(index, card)
        self.transcript().changed(row)

    def _on_model_reset(self) -> None:
        for call_id in list(self._cards):
            self._cards.pop(call_id).deleteLater()
        self.delegate.invalidate()
        self._stick_to_bottom = True
        QTimer.singleShot(0, self.scrollToBottom)

    # ------------------------------------------------------------- scrolling

    def _on_scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._stick_to_bottom = value >= bar.maximum() - 4

    def _on_range_changed(self, _lo: int, hi: int) -> None:
        if self._stick_to_bottom:
            self.verticalScrollBar().setValue(hi)

    def _on_rows_inserted(self, *_args: Any) -> None:
        if self._stick_to_bottom:
            QTimer.singleShot(0, self.scrollToBottom)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.delegate.invalidate()

    # ------------------------------------------------------------ interaction

    def _on_clicked(self, index: QModelIndex) -> None:
        item: TranscriptItem = index.data(ITEM_ROLE)
        if item.kind == "notice" and item.notice_kind == "error":
            self.retry_requested.emit()
            return
        if item.kind == "tool" and item.status == "awaiting":
            return
        if item.kind == "tool" or (item.kind == "assistant" and item.reasoning):
            self.transcript().toggle_expanded(index.row())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            index = self.currentIndex()
            if index.isValid():
                self._on_clicked(index)
                return
        super().keyPressEvent(event)
