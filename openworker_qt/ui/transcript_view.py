"""The transcript: a virtualised QListView over TranscriptModel, painted by a delegate.

Why a list view and not a QTextBrowser: a 10,000-message session must open in
well under 300 ms and scroll smoothly, so only visible rows may cost anything.
The delegate renders a row with a cached ``QTextDocument`` (Markdown for the
assistant) and reports its height; rows that were never painted get a cheap
font-metrics *estimate*, corrected when they are first painted (the correction
is coalesced into one relayout per frame).

While an assistant row streams, its Markdown is rendered incrementally
(:class:`StreamingDocument`): finished blocks are appended to one document once,
only the unfinished tail is re-rendered per frame, and painting is clipped to
the viewport. Re-rendering the whole reply on every frame cost ~13 ms per frame
at 11,500 characters (bench/ui_stall.py); the tail costs well under 1 ms. When
the stream ends the reply is rendered once more as a whole (up to
``FULL_RENDER_LIMIT`` characters) so the final Markdown is exactly what a
reopened session shows.

Long sessions arrive newest-first (see :class:`TranscriptModel`): scrolling to
the top prepends the next chunk of older rows and keeps the visible rows still.

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
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QImage,
    QKeyEvent,
    QPainter,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
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
MEASURE_TAIL = 40  # in big sessions the last rows (shown first) are exact too
RESULT_LINES = 30
FULL_RENDER_LIMIT = 8_000  # chars: a finished reply up to this is re-rendered as a whole (~4 ms)
# The first layout of each font style costs 10-17 ms (font loading, measured); doing it
# once, a style per event-loop turn, after the first paint keeps it off the first reply.
WARM_UP_MARKDOWN = ("plain text …", "**bold**", "*italic*", "`code`", "# heading", "📎 ✓ ◐")
FETCH_MARGIN_PX = 48  # scrolled this close to the top: prepend older rows

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


def stable_prefix(text: str, start: int = 0) -> int:
    """End of the last blank line at or after ``start`` that is outside a code fence.

    Markdown before that point can no longer change as more text arrives (a
    paragraph, list or fence is closed), so it is rendered once. ``start`` must
    itself be outside a fence (it is always a previous result).
    """
    fence = ""
    last = start
    i = start
    while True:
        j = text.find("\n", i)
        if j < 0:
            return last
        line = text[i:j].strip()
        if fence:
            if line.startswith(fence):
                fence = ""
        elif line.startswith(("```", "~~~")):
            fence = line[:3]
        elif not line:
            last = j + 1
        i = j + 1


class StreamingDocument:
    """A Markdown document that grows with a streamed reply (see module docstring)."""

    def __init__(self, font: QFont, width: int) -> None:
        self.doc = QTextDocument()
        self.doc.setDocumentMargin(0)
        self.doc.setDefaultFont(font)
        self.doc.setTextWidth(width)
        self.text = ""
        self._stable = 0  # chars of ``text`` rendered as finished blocks
        self._tail_pos = 0  # document position where the tail's blocks begin

    def set_width(self, width: int) -> None:
        if self.doc.textWidth() != width:
            self.doc.setTextWidth(width)

    def update(self, text: str) -> None:
        if text == self.text:
            return
        if not text.startswith(self.text[: self._stable]):  # not an append: start over
            self.doc.clear()
            self._stable = self._tail_pos = 0
        cursor = QTextCursor(self.doc)
        cursor.setPosition(self._tail_pos)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        boundary = stable_prefix(text, self._stable)
        if boundary > self._stable:
            self._insert(cursor, text[self._stable:boundary])
            self._stable = boundary
            self._tail_pos = cursor.position()
        if len(text) > boundary:
            self._insert(cursor, text[boundary:])
        self.text = text

    def _insert(self, cursor: QTextCursor, markdown: str) -> None:
        if cursor.position() == 0:
            cursor.insertMarkdown(markdown)
            return
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        fresh = cursor.block()
        if fresh.textList() is not None:  # a block inserted after a list item joins the list
            fresh.textList().remove(fresh)
            cursor.setBlockFormat(QTextBlockFormat())
        start = cursor.position()
        cursor.insertMarkdown(markdown)
        # A fragment that opens with a list or a code block arrives as a block of its
        # own after the one just inserted: drop the empty one so spacing matches a
        # whole render.
        block = self.doc.findBlock(start)
        following = block.next()
        if block.length() == 1 and following.isValid():
            fix = QTextCursor(following)
            fmt, chars, in_list = following.blockFormat(), following.charFormat(), following.textList()
            fix.deletePreviousChar()
            merged = fix.block()
            if merged.textList() is not None and merged.textList() is not in_list:
                merged.textList().remove(merged)
            fix.setBlockFormat(fmt)
            fix.setBlockCharFormat(chars)
            if in_list is not None and merged.textList() is None:
                in_list.add(merged)


class TranscriptDelegate(QStyledItemDelegate):
    """Paints transcript rows; caches documents and heights (see module docstring)."""

    def __init__(self, view: TranscriptView) -> None:
        super().__init__(view)
        self.view = view
        self._docs: OrderedDict[tuple[int, int, int, str], QTextDocument] = OrderedDict()
        # (uid, rev, width) -> size; QSize objects are kept because building one per
        # call was ~7 us, a third of a cached sizeHint.
        self._heights: dict[tuple[int, int, int], QSize] = {}
        self._estimated: set[tuple[int, int, int]] = set()
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(0)
        self._relayout.timeout.connect(self._emit_relayout)
        self._dirty_rows: set[int] = set()
        self._metrics: tuple[int, int] | None = None
        self._streams: dict[int, StreamingDocument] = {}  # item uid -> growing document

    # --------------------------------------------------------------- geometry

    def _width(self) -> int:
        return max(200, self.view.viewport().width() - 2 * PAD)

    def _doc(self, item: TranscriptItem, part: str, width: int) -> QTextDocument:
        key = (item.uid, item.rev, width, part)
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
            return doc
        font = QFont(self.view.font())
        if part == "body" and item.kind == "assistant" and item.text:
            stream = self._streams.get(item.uid)
            if item.streaming or (stream is not None and len(item.text) > FULL_RENDER_LIMIT):
                if stream is None:
                    stream = self._streams[item.uid] = StreamingDocument(font, width)
                stream.set_width(width)
                stream.update(item.text)
                return stream.doc  # not cached by rev: the same document grows
            self._streams.pop(item.uid, None)
        doc = QTextDocument()
        doc.setDocumentMargin(0)
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

    @staticmethod
    def _item(index: QModelIndex | QPersistentModelIndex) -> TranscriptItem:
        # QListView asks every row on each relayout; going through index.data() and the
        # role dispatch was ~10 us a row, most of a 2,700-row relayout (55 ms).
        model = index.model()
        if isinstance(model, TranscriptModel):
            return model.item(index.row())
        item: TranscriptItem = index.data(ITEM_ROLE)
        return item

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        item = self._item(index)
        width = self._width()
        key = (item.uid, item.rev, width)
        size = self._heights.get(key)
        if size is None:
            model = index.model()
            rows = model.rowCount()
            # A long session's first page is estimated above its tail like a big session
            # (exact heights for its ~180 rows cost ~40 ms of the first paint).
            small = rows <= MEASURE_ALWAYS_BELOW and not (
                isinstance(model, TranscriptModel) and model.has_older())
            if small or index.row() >= rows - MEASURE_TAIL:
                h = self.exact_height(item, width)
            else:
                h = self.estimate_height(item, width)
                self._estimated.add(key)
            size = self._heights[key] = QSize(width, h)
        return size

    def invalidate(self) -> None:
        self._metrics = None
        self._heights.clear()
        self._estimated.clear()

    def forget_streams(self) -> None:
        self._streams.clear()

    def forget(self, item: TranscriptItem) -> None:
        """Drop what is cached for ``item`` (the view's warm-up samples)."""
        self._streams.pop(item.uid, None)
        for key in [k for k in self._docs if k[0] == item.uid]:
            del self._docs[key]
        for hkey in [k for k in self._heights if k[0] == item.uid]:
            del self._heights[hkey]

    def _emit_relayout(self) -> None:
        rows, self._dirty_rows = self._dirty_rows, set()
        model = self.view.model()
        for row in sorted(rows)[:1]:  # one signal is enough: QListView relayouts everything
            self.sizeHintChanged.emit(model.index(row, 0))

    # ------------------------------------------------------------------ paint

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        item = self._item(index)
        width = self._width()
        key = (item.uid, item.rev, width)
        if key in self._estimated:
            self._estimated.discard(key)
            exact = self.exact_height(item, width)
            known = self._heights.get(key)
            if known is None or exact != known.height():
                self._heights[key] = QSize(width, exact)
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

    def _draw_doc(self, painter: QPainter, doc: QTextDocument, x: int, y: int,
                  color: QColor) -> None:
        painter.save()
        painter.translate(x, y)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette.setColor(QPalette.ColorRole.Text, color)
        # Only the blocks inside the viewport are drawn: a long reply is one tall row.
        visible = self.view.viewport().rect()
        ctx.clip = QRectF(0, visible.top() - y, doc.size().width() + 1, visible.height())
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
        # Batched: a relayout (a prepend of older rows, a height correction) is spread
        # over event-loop turns of 200 rows; in one go it stalled 70-85 ms at 2,700
        # rows (bench/transcript.py).
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(200)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.setSpacing(0)
        self.verticalScrollBar().setSingleStep(24)
        self.delegate = TranscriptDelegate(self)
        self.setItemDelegate(self.delegate)
        self._cards: dict[str, QWidget] = {}
        self._stick_to_bottom = True
        self._anchor: tuple[int, int] | None = None  # (row, top) to keep still after a prepend
        self._anchor_timer = QTimer(self)
        self._anchor_timer.setSingleShot(True)
        self._anchor_timer.setInterval(80)
        self._anchor_timer.timeout.connect(self._release_anchor)
        self._warm_up = list(WARM_UP_MARKDOWN)
        self._warming = False
        self.clicked.connect(self._on_clicked)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.verticalScrollBar().rangeChanged.connect(self._on_range_changed)

    def setModel(self, model: QAbstractItemModel | None) -> None:  # noqa: N802
        super().setModel(model)
        if model is not None:
            model.modelReset.connect(self._on_model_reset)
            model.rowsInserted.connect(self._on_rows_inserted)
            if isinstance(model, TranscriptModel):
                model.older_changed.connect(self._fetch_older_if_at_top)

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
        self.delegate.forget_streams()
        self._stick_to_bottom = True
        self._anchor = None
        self._anchor_timer.stop()
        QTimer.singleShot(0, self.scrollToBottom)

    # ------------------------------------------------------------- scrolling

    def _on_scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._stick_to_bottom = value >= bar.maximum() - 4
        if value <= FETCH_MARGIN_PX:
            self._fetch_older_if_at_top()

    def _fetch_older_if_at_top(self) -> None:
        """Prepend the next chunk of older rows when the top is (nearly) in view."""
        model = self.model()
        if not isinstance(model, TranscriptModel) or self._anchor is not None:
            return
        if self.verticalScrollBar().value() > FETCH_MARGIN_PX:
            return
        top = self.indexAt(QPoint(1, 1))
        row = top.row() if top.isValid() else 0
        offset = self.visualRect(top).top() if top.isValid() else 0
        added = model.fetch_older()
        if added:
            # Keep the row the user was reading where it was; the batched layout
            # reaches it over a few event-loop turns, so the anchor lives a moment.
            self._anchor = (row + added, offset)
            self._anchor_timer.start()

    def _restore_anchor(self) -> None:
        if self._anchor is None:
            return
        row, offset = self._anchor
        rect = self.visualRect(self.model().index(row, 0))
        if rect.height() > 0 and rect.top() != offset:
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() + rect.top() - offset)

    def _release_anchor(self) -> None:
        self._restore_anchor()
        self._anchor = None
        self._fetch_older_if_at_top()  # still at the top (a short chunk): keep going

    def _on_range_changed(self, _lo: int, hi: int) -> None:
        if self._anchor is not None:
            self._restore_anchor()
            self._anchor_timer.start()
            return
        if self._stick_to_bottom:
            self.verticalScrollBar().setValue(hi)

    def _on_rows_inserted(self, *_args: Any) -> None:
        if self._stick_to_bottom:
            QTimer.singleShot(0, self.scrollToBottom)

    def paintEvent(self, event: Any) -> None:  # noqa: N802
        super().paintEvent(event)
        if self._warm_up and not self._warming:
            # After the first paint, so the warm-up never delays the window itself.
            self._warming = True
            QTimer.singleShot(0, self._warm_up_step)

    def _warm_up_step(self) -> None:
        """Render one sample row through the delegate, off-screen (see WARM_UP_MARKDOWN).

        Besides font loading, the first ``viewport()`` call from Python built 43
        enum types lazily (18 ms, cProfile in bench/ui_stall.py); one sample per
        event-loop turn keeps each step short.
        """
        if not self._warm_up:
            return
        text = self._warm_up.pop(0)
        model = TranscriptModel()
        # Alternate the streaming (incremental) and the finished (whole) Markdown paths.
        streaming = len(self._warm_up) % 2 == 0
        model.reset("", [TranscriptItem("assistant", text=text, streaming=streaming),
                         TranscriptItem("user", text=text), TranscriptItem("notice", text=text)])
        image = QImage(320, 240, QImage.Format.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        option = QStyleOptionViewItem()
        option.initFrom(self.viewport())
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            option.rect = QRect(QPoint(0, 0), self.delegate.sizeHint(option, index))
            self.delegate.paint(painter, option, index)
            self.delegate.forget(model.item(row))
        painter.end()
        if self._warm_up:
            QTimer.singleShot(0, self._warm_up_step)

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
