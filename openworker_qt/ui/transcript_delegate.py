"""Painting transcript rows: the delegate, its document and height caches.

:class:`TranscriptDelegate` renders a row with a cached ``QTextDocument``
(Markdown for the assistant) and reports its height; rows never painted get a
cheap font-metrics estimate, corrected when first painted. What each row says,
and the :class:`~openworker_qt.ui.transcript_text.StreamingDocument` a streaming
reply grows in, are in :mod:`~openworker_qt.ui.transcript_text` (see
``transcript_view.py`` for the measurements behind both).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QIcon,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from openworker_qt.qt.transcript_items import TranscriptItem, first_line
from openworker_qt.qt.transcript_model import ITEM_ROLE, TranscriptModel
from openworker_qt.ui import design, motion
from openworker_qt.ui.design import READING_WIDTH
from openworker_qt.ui.icons import icon, tool_icon_name
from openworker_qt.ui.markdown_style import (
    HAS_CODE,
    CodeRuns,
    highlighter_loaded,
    paint_decorations,
)
from openworker_qt.ui.transcript_text import (
    StreamingDocument,
    collapsible,
    details_text,
    message_time,
    plain_body,
    style_code,
    user_html,
)
from openworker_qt.ui.transcript_work import RowRendering

if TYPE_CHECKING:
    from openworker_qt.ui import file_chip

PAD = design.SPACE["m"]
GAP = design.SPACE["m"]
TOOL_GAP = design.SPACE["s"]  # tool cards of one step sit closer together
CARD_RADIUS = design.RADIUS["medium"]
TOOL_ICON = design.ICON_SIZE["small"]
TOOL_INDENT = TOOL_ICON + design.SPACE["s"]  # a tool card's text starts after its icon
ACTION_H = 26  # the strip under a message where its hover actions and time show
ACTION_BUTTON = 24


def has_actions(item: TranscriptItem) -> bool:
    """Messages get hover actions (copy, ask again, edit) and their time."""
    return (item.kind == "user" or (item.kind == "assistant" and bool(item.text))) and not item.streaming


MEASURE_ALWAYS_BELOW = 400  # rows: small sessions are measured exactly up front
MEASURE_TAIL = 6  # in big sessions the last rows (shown first) are exact too (the rest: when painted)
#: Seconds of text layout one paint may spend on rows never rendered; the rest paint
#: as a faint skeleton, rendered in the next frame (a jump into a long session shows).
PAINT_BUDGET = 0.006
FULL_RENDER_LIMIT = 8_000  # chars: a finished reply up to this is re-rendered as a whole (~4 ms)
# A font style's first layout costs 10-17 ms: done a style per loop turn after the paint.
WARM_UP_MARKDOWN = ("plain text …", "**bold**", "*italic*", "`code`", "# heading", "📎 ✓ ◐")
FETCH_MARGIN_PX = 48  # scrolled this close to an edge of the window: move it

STATUS_GLYPH = {
    "pending": "○", "awaiting": "◐", "asking": "?", "running": "◌",
    "ok": "✓", "error": "✗", "denied": "⊘", "interrupted": "■",
}


is_dark = design.is_dark
mix = design.mix


class TranscriptDelegate(QStyledItemDelegate):
    """Paints transcript rows; caches documents and heights (see module docstring)."""

    def __init__(
        self, view: QListView, card_for: Callable[[str], QWidget | None] = lambda _: None,
    ) -> None:
        """``card_for(call_id)``: the live card widget covering a tool row, if any."""
        super().__init__(view)
        self.view = view
        self.card_for = card_for
        self._docs: OrderedDict[tuple[int, int, int, str], QTextDocument] = OrderedDict()
        # (uid, rev, width) -> size (a QSize per call was ~7 us, a third of a sizeHint)
        self._heights: dict[tuple[int, int, int], QSize] = {}
        self._measured_rev: dict[int, int] = {}  # uid -> the rev its cached heights are of
        self._estimated: set[tuple[int, int, int]] = set()
        self._relayout = QTimer(self)
        self._relayout.setSingleShot(True)
        self._relayout.setInterval(0)
        self._relayout.timeout.connect(self._emit_relayout)
        self._dirty_rows: set[int] = set()
        self._metrics: tuple[int, int] | None = None
        self._column: int | None = None
        self._plain_code: set[int] = set()  # answers with code rendered before Pygments
        #: Code colours, the rest of a large arrival, a finished reply's whole render, a
        #: slice at a time (transcript_work); streamed replies' growing documents (by uid).
        self.rendering = RowRendering(self, lambda: self.view.viewport().update(),
                                      self._regrown, self._install)
        self._streams = self.rendering.streams
        self._icons: dict[tuple[str, str, bool], QIcon] = {}
        self._dark = is_dark(view.palette())  # code colours depend on it
        self._frame_start = 0.0  # when the view's current paint began
        self._frame_rendered = 0  # rows rendered for the first time in it
        self._more = QTimer(self)  # rows painted as skeletons: render them next frame
        self._more.setSingleShot(True)
        self._more.setInterval(0)
        self._more.timeout.connect(lambda: self.view.viewport().update())
        self.skeletons = 0  # rows painted as skeletons (tests, benches)
        self.hover_row = -1  # the row under the pointer: its actions show
        self.hover_action = ""
        self.last_user_uid = 0  # "edit and resend" is offered on this message only
        self.last_reply_uid = 0  # "ask again" on this one

    # --------------------------------------------------------------- geometry

    def _width(self) -> int:
        """The viewport's width capped at ``READING_WIDTH`` (kept until invalidate)."""
        if self._column is None:
            self._column = max(200, min(READING_WIDTH, self.view.viewport().width() - 2 * PAD))
        return self._column

    def column_left(self, row_rect: QRect) -> int:
        """Where the centred reading column starts in a row."""
        return row_rect.left() + max(PAD, (row_rect.width() - self._width()) // 2)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: QModelIndex | QPersistentModelIndex) -> None:
        """Approval and question cards sit in the reading column too."""
        rect = option.rect
        left = self.column_left(rect) - PAD
        editor.setGeometry(QRect(left, rect.top(), self._width() + 2 * PAD, rect.height()))

    @staticmethod
    def _gap(item: TranscriptItem) -> int:
        if has_actions(item):
            return ACTION_H
        return TOOL_GAP if item.kind == "tool" else GAP

    def _icon(self, name: str, role: str) -> QIcon:
        key = (name, role, self._dark)
        found = self._icons.get(key)
        if found is None:
            found = self._icons[key] = icon(name, role, sizes=(TOOL_ICON,))
        return found

    def _doc(self, item: TranscriptItem, part: str, width: int) -> QTextDocument:
        key = (item.uid, item.rev, width, part)
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
            return doc
        font = QFont(self.view.font())
        if part == "body" and item.kind in ("assistant", "user"):
            font = design.reading_font(font)  # 15 px text to read, as the best chat apps
        if part == "body" and item.kind == "assistant" and item.text:
            stream = self._streams.get(item.uid)
            if item.streaming or stream is not None:
                if stream is None:
                    stream = self._streams[item.uid] = StreamingDocument(font, width, self._dark)
                stream.set_width(width)
                self.rendering.grow(item, stream)
                if not item.streaming and len(item.text) <= FULL_RENDER_LIMIT:
                    self.rendering.render_later(item, key, font, self._dark)  # shown when ready
                return stream.doc  # not cached by rev: the same document grows
        # A row seen before at another width (the window was resized) gets its code
        # colours at once: shown without them for a frame, code would flicker.
        seen = any(k[0] == item.uid and k[1] == item.rev and k[3] == part for k in self._docs)
        doc = self._render(item, part, font, seen)
        doc.setTextWidth(width)
        self._docs[key] = doc
        while len(self._docs) > 400:
            self._docs.popitem(last=False)
        return doc

    def _render(self, item: TranscriptItem, part: str, font: QFont, colour_now: bool = False
                ) -> QTextDocument:
        """A fresh document of one part of a row (code colours follow a slice later,
        unless ``colour_now``)."""
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        if part == "body" and item.kind == "assistant":
            doc.setDefaultFont(font)
            doc.setMarkdown(item.text or ("…" if item.streaming else ""))
            runs: CodeRuns | None = None if colour_now else []
            style_code(doc, 0, self._dark, runs)
            if runs:
                self.rendering.colour_later(doc, runs, self._dark)
            if not highlighter_loaded() and ("```" in item.text or "~~~" in item.text):
                self._plain_code.add(item.uid)  # rendered again once the highlighter is in
        elif part == "reasoning":
            font.setItalic(True)
            doc.setDefaultFont(font)
            text = item.reasoning if item.expanded or not item.text else first_line(item.reasoning, 120)
            thinking = QCoreApplication.translate("Transcript", "Thinking: ")
            doc.setPlainText(("" if item.expanded else thinking) + text)
        elif part == "more":
            small = design.font("small", font)
            doc.setDefaultFont(small)
            lines = item.text.count("\n") + 1
            doc.setPlainText(QCoreApplication.translate("Transcript", "Show less") if item.expanded
                             else QCoreApplication.translate("Transcript", "Show all · {n} lines").format(n=lines))
        elif part == "details":
            mono = QFont("monospace")
            mono.setStyleHint(QFont.StyleHint.Monospace)
            mono.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
            doc.setDefaultFont(mono)
            doc.setPlainText(self._details_text(item))
        elif item.kind == "user" and item.attachments:
            doc.setDefaultFont(font)
            doc.setHtml(user_html(item, self._dark))
        else:
            doc.setDefaultFont(font)
            doc.setPlainText(self._plain_body(item))
        return doc

    def _regrown(self, uid: int) -> None:
        """A row's document changed without a new revision: measured and painted again."""
        for key in [k for k in self._heights if k[0] == uid]:
            del self._heights[key]
            self._estimated.discard(key)
        model = self.view.model()
        if isinstance(model, TranscriptModel):
            row = next((r for r in range(model.rowCount() - 1, -1, -1) if model.item(r).uid == uid), None)
            if row is not None:
                self._dirty_rows.add(row)
                self._relayout.start()
        self.view.viewport().update()

    def _install(self, key: tuple[int, int, int, str], doc: QTextDocument) -> None:
        """A finished reply's whole render takes the place of its growing document."""
        if self._streams.pop(key[0], None) is None:
            return  # (the rows were let go meanwhile)
        if not highlighter_loaded() and doc.property(HAS_CODE):
            self._plain_code.add(key[0])
        self._docs[key] = doc
        self._regrown(key[0])

    def finish_work(self) -> None:
        """Every document as it will end up, now (tests)."""
        self.rendering.work.finish()

    # What a row says (transcript_text), as the delegate renders it.
    _plain_body = staticmethod(plain_body)
    _details_text = staticmethod(details_text)

    def _body_width(self, item: TranscriptItem, width: int) -> int:
        if item.kind == "user":
            return int(width * 0.78) - 2 * PAD
        if item.kind == "tool":
            return width - 2 * PAD - TOOL_INDENT
        if item.kind == "notice":
            return width - 2 * PAD
        return width

    def exact_height(self, item: TranscriptItem, width: int) -> int:
        if item.kind == "tool" and item.status == "awaiting":
            card = self.card_for(item.call_id)
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
        if item.kind == "tool":
            from openworker_qt.ui import file_chip  # (with the first tool row: not at start)

            h += file_chip.extra_height(item, self.view.font())
        if collapsible(item):
            h += int(self._doc(item, "more", bw).size().height()) + design.SPACE["xs"]
        if item.kind in ("user", "tool", "notice"):
            h += 2 * PAD if item.kind != "notice" else PAD
        return h + self._gap(item)

    def estimate_height(self, item: TranscriptItem, width: int) -> int:
        """A cheap guess (no text layout): corrected when the row is first painted."""
        if self._metrics is None:
            fm = QFontMetrics(self.view.font())
            self._metrics = (max(1, fm.averageCharWidth()), fm.lineSpacing())
        char_w, line_h = self._metrics
        per_line = max(10, self._body_width(item, width) // char_w)
        if item.kind == "tool":
            from openworker_qt.ui import file_chip  # (with the first tool row: not at start)

            lines = 2 + (file_chip.produced_file(item) is not None) * 2
        else:
            lines = sum(1 + len(p) // per_line for p in (item.text or " ").split("\n")[:200])
        extra = 2 * PAD if item.kind in ("user", "tool") else 0
        return lines * line_h + extra + self._gap(item)

    @staticmethod
    def _item(index: QModelIndex | QPersistentModelIndex) -> TranscriptItem:
        # Asked for every row on each relayout: index.data() was ~10 us a row (55 ms / 2,700).
        model = index.model()
        if isinstance(model, TranscriptModel):
            return model.item(index.row())
        item: TranscriptItem = index.data(ITEM_ROLE)
        return item

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        item = self._item(index)
        width = self._width()
        key = (item.uid, item.rev, width)
        size = self._heights.get(key)
        if size is None:
            model = index.model()
            rows = model.rowCount()
            # A long session's first page is estimated above its tail (exact: ~40 ms).
            paged = isinstance(model, TranscriptModel) and model.paged()
            small = rows <= MEASURE_ALWAYS_BELOW and not paged
            at_end = not isinstance(model, TranscriptModel) or model.at_end()
            if small or (at_end and index.row() >= rows - MEASURE_TAIL):
                h = self.exact_height(item, width)
            else:
                h = self.estimate_height(item, width)
                self._estimated.add(key)
            size = self._heights[key] = QSize(width, h)
            self._forget_older_rev(item.uid, item.rev)
        return size

    def _forget_older_rev(self, uid: int, rev: int) -> None:
        """A row measured again at a new revision drops its older heights (a live row
        revised turn after turn grew the cache past its bound)."""
        old = self._measured_rev.get(uid)
        self._measured_rev[uid] = rev
        if old is None or old == rev:
            return
        for key in [k for k in self._heights if k[0] == uid and k[1] != rev]:
            del self._heights[key]
            self._estimated.discard(key)

    def column_changed(self) -> None:
        """The viewport was resized: the reading column is measured again."""
        self._column = None

    def invalidate(self) -> None:
        self._metrics = None
        self._column = None
        self._heights.clear()
        self._measured_rev.clear()
        self._estimated.clear()

    def forget_rows(self) -> None:
        """Another session is shown: nothing cached for the rows before is needed."""
        self.invalidate()
        self._docs.clear()
        self.rendering.clear()
        self._plain_code.clear()

    def begin_frame(self) -> None:
        """A paint of the view begins (a long session's rows keep to the budget)."""
        model = self.view.model()
        paged = isinstance(model, TranscriptModel) and model.paged()
        self._frame_start = time.perf_counter() if paged else 0.0
        self._frame_rendered = 0

    def end_frame(self) -> None:
        self._frame_start = 0.0

    def _rendered(self, item: TranscriptItem, width: int) -> bool:
        bw = self._body_width(item, width)
        return ((item.uid, item.rev, bw, "body") in self._docs or item.uid in self._streams
                or (item.kind == "assistant" and not item.text))

    def _paint_skeleton(self, painter: QPainter, option: QStyleOptionViewItem,
                        item: TranscriptItem) -> None:
        """A faint stand-in for a row rendered next frame: a few quiet bars."""
        pal = option.palette
        width = self._width()
        col = self.column_left(option.rect)
        fill = mix(pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Text), 0.05)
        line = QFontMetrics(self.view.font()).lineSpacing()
        height = option.rect.height() - self._gap(item)
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        if item.kind == "user":
            w = int(width * 0.45)
            painter.drawRoundedRect(QRect(col + width - w, option.rect.top(), w, max(line, height)),
                                    CARD_RADIUS + 4, CARD_RADIUS + 4)
        elif item.kind == "tool":
            painter.drawRoundedRect(QRect(col, option.rect.top(), width, max(line, height)),
                                    CARD_RADIUS, CARD_RADIUS)
        else:
            y = option.rect.top() + line // 4
            bars = max(1, min(4, height // line))
            for i in range(bars):
                w = width if i < bars - 1 else width * 3 // 5
                painter.drawRoundedRect(QRect(col, y, w, line // 2), line // 4, line // 4)
                y += line
        painter.restore()

    def keep_only(self, uids: set[int]) -> None:
        """Forget the heights of rows no longer exposed (a long session's window
        moved): the caches stay as small as the window."""
        for key in [k for k in self._heights if k[0] not in uids]:
            del self._heights[key]
        for uid in [u for u in self._measured_rev if u not in uids]:
            del self._measured_rev[uid]
        for dkey in [k for k in self._docs if k[0] not in uids]:
            del self._docs[dkey]
        self._estimated = {k for k in self._estimated if k[0] in uids}
        self._plain_code &= uids
        self.rendering.keep_only(uids)

    def restyle(self) -> bool:
        """Render again the finished answers whose code was shown before the
        highlighter loaded (a streaming one is whole-rendered when it ends anyway);
        False when there were none."""
        plain, self._plain_code = self._plain_code, set()
        for key in [k for k in self._docs if k[0] in plain]:
            del self._docs[key]
        return bool(plain)

    def forget_streams(self) -> None:
        self.rendering.clear()

    def forget(self, item: TranscriptItem) -> None:
        """Drop what is cached for ``item`` (the view's warm-up samples)."""
        self.rendering.drop(item.uid)
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
        if (self._frame_start and not self._rendered(item, width)
                and not (item.kind == "tool" and self.card_for(item.call_id) is not None)):
            # At least one new row a frame, then as many as the budget allows.
            if self._frame_rendered and time.perf_counter() - self._frame_start > PAINT_BUDGET:
                self.skeletons += 1
                self._paint_skeleton(painter, option, item)
                self._more.start()
                return
            self._frame_rendered += 1
        if key in self._estimated:
            self._estimated.discard(key)
            exact = self.exact_height(item, width)
            known = self._heights.get(key)
            if known is None or exact != known.height():
                self._heights[key] = QSize(width, exact)
                self._dirty_rows.add(index.row())
                self._relayout.start()
        if item.kind == "tool" and self.card_for(item.call_id) is not None:
            return  # a live card widget covers this row
        pal = option.palette
        if is_dark(pal) != self._dark:  # the scheme switched: re-render with its colours
            self._dark = not self._dark
            self._docs.clear()
            self.rendering.clear()
        col = self.column_left(option.rect)
        bottom_gap = self._gap(item)
        rect = QRect(col, option.rect.top(), width, option.rect.height() - bottom_gap)
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
            colours = design.colors(pal)
            if collapsible(item):
                more = self._doc(item, "more", bw)
                w = max(w, int(more.idealWidth()) + 1 + 2 * PAD)
                bubble = QRect(rect.right() - w, rect.top(), w, rect.height())
            fill = colours.q("steer_bubble" if item.source in ("steering", "queued") else "user_bubble")
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawRoundedRect(bubble, CARD_RADIUS + 4, CARD_RADIUS + 4)
            self._draw_doc(painter, doc, bubble.left() + PAD, bubble.top() + PAD, text_color)
            if collapsible(item):
                y = bubble.top() + PAD + int(doc.size().height()) + design.SPACE["xs"]
                self._draw_doc(painter, self._doc(item, "more", bw), bubble.left() + PAD, y,
                               colours.q("link"))
        elif item.kind == "assistant":
            y = rect.top()
            if item.reasoning:
                doc = self._doc(item, "reasoning", width)
                self._draw_doc(painter, doc, rect.left(), y, mix(text_color, base, 0.45))
                y += int(doc.size().height()) + 4
            if item.text or not item.reasoning:
                colours = design.colors(pal)
                body = self._doc(item, "body", width)
                self._draw_doc(painter, body, rect.left(), y, text_color, colours)
                if item.streaming and item.text:  # the words still coming: a caret after them
                    motion.paint_caret(painter, body, rect.left(), y, colours.q("accent"))
        elif item.kind == "tool":
            from openworker_qt.ui import file_chip  # (with the first tool row: not at start)

            colours = design.colors(pal)
            role = {"awaiting": "warning", "asking": "warning", "error": "danger",
                    "denied": "warning", "running": "accent"}.get(item.status, "")
            border = colours.q(role) if role else colours.q("border")
            painter.setPen(border)
            painter.setBrush(colours.q("raised") if not dark else mix(base, text_color, 0.05))
            card = rect.adjusted(0, 0, 0, -file_chip.extra_height(item, self.view.font()))
            painter.drawRoundedRect(QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5), CARD_RADIUS, CARD_RADIUS)
            if item.status == "running":
                motion.paint_progress(painter, card, colours.q("accent"))
            if chip := self.chip_at(item, option.rect):
                file_chip.paint(painter, chip[0], chip[1], self.view.font(), colours,
                                self._icon("file", "accent"),
                                index.row() == self.hover_row and self.hover_action == "open-file")
            bw = self._body_width(item, width)
            doc = self._doc(item, "body", bw)
            x = rect.left() + PAD + TOOL_INDENT
            line = QFontMetrics(self.view.font()).lineSpacing()
            icon_top = rect.top() + PAD + (line - TOOL_ICON) // 2
            self._icon(tool_icon_name(item.name), role or "muted").paint(
                painter, QRect(rect.left() + PAD, icon_top, TOOL_ICON, TOOL_ICON))
            chevron = "chevron-down" if item.expanded else "chevron-right"
            self._icon(chevron, "muted").paint(
                painter, QRect(rect.right() - PAD - TOOL_ICON + 4, icon_top, TOOL_ICON - 4, TOOL_ICON - 4))
            self._draw_tool_doc(painter, doc, x, rect.top() + PAD, text_color,
                                colours.q("danger" if item.status == "error" else "muted"))
            if item.expanded:
                y = rect.top() + PAD + int(doc.size().height()) + 6
                self._draw_doc(painter, self._doc(item, "details", bw), x, y,
                               mix(text_color, base, 0.2))
        else:
            colours = design.colors(pal)
            color = colours.q("danger") if item.notice_kind == "error" else colours.q("muted")
            bw = self._body_width(item, width)
            doc = self._doc(item, "body", bw)
            x = rect.left() + max(PAD, (rect.width() - int(doc.idealWidth())) // 2)
            self._draw_doc(painter, doc, x, rect.top() + PAD // 2, color)
        if has_actions(item) and (index.row() == self.hover_row or selected):
            self._paint_actions(painter, item, option.rect, design.colors(pal))
        if selected:
            painter.setPen(accent)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRect(col - 4, option.rect.top(), width + 8,
                                          option.rect.height() - bottom_gap + 2), 6, 6)
        painter.restore()

    # ----------------------------------------------------------- hover actions

    def actions_for(self, item: TranscriptItem) -> list[str]:
        names = ["copy"]
        if item.kind == "user" and item.uid == self.last_user_uid:
            names.append("edit")
        if item.kind == "assistant" and item.uid == self.last_reply_uid:
            names.append("retry")
        return names

    def action_rects(self, item: TranscriptItem, row_rect: QRect) -> list[tuple[str, QRect]]:
        """The hover buttons under a message (view coordinates), in order."""
        names = self.actions_for(item)
        top = row_rect.bottom() + 1 - ACTION_H + (ACTION_H - ACTION_BUTTON) // 2
        left = self.column_left(row_rect)
        step = ACTION_BUTTON + 2
        if item.kind == "user":  # under the bubble, flush right
            x0 = left + self._width() - len(names) * step
        else:
            x0 = left - 4
        return [(name, QRect(x0 + i * step, top, ACTION_BUTTON, ACTION_BUTTON)) for i, name in enumerate(names)]

    def tool_card_rect(self, item: TranscriptItem, row_rect: QRect) -> QRect:
        """Where a tool row's card is drawn (view coordinates; its file chip below it)."""
        rect = QRect(self.column_left(row_rect), row_rect.top(), self._width(),
                     row_rect.height() - self._gap(item))
        from openworker_qt.ui import file_chip  # (with the first tool row: not at start)

        return rect.adjusted(0, 0, 0, -file_chip.extra_height(item, self.view.font()))

    def chip_at(self, item: TranscriptItem,
                row_rect: QRect) -> tuple[file_chip.ProducedFile, QRect] | None:
        """The file a tool row's call produced and where its chip is (view coordinates)."""
        from openworker_qt.ui import file_chip  # (with the first tool row: not at start)

        made = file_chip.produced_file(item)
        if made is None:
            return None
        rect = QRect(self.column_left(row_rect), row_rect.top(), self._width(),
                     row_rect.height() - self._gap(item))
        return made, file_chip.chip_rect(made, rect, self.view.font())

    def action_at(self, item: TranscriptItem, row_rect: QRect, pos: QPoint) -> str:
        if not has_actions(item):
            return ""
        return next((name for name, r in self.action_rects(item, row_rect) if r.contains(pos)), "")

    def _paint_actions(self, painter: QPainter, item: TranscriptItem, row_rect: QRect,
                       colours: design.Colors) -> None:
        rects = self.action_rects(item, row_rect)
        glyph = {"copy": "copy", "edit": "edit", "retry": "retry"}
        for name, r in rects:
            if name == self.hover_action:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(colours.q("sunken"))
                painter.drawRoundedRect(r, 6, 6)
            self._icon(glyph[name], "muted").paint(painter, r.adjusted(4, 4, -4, -4))
        when = message_time(item.ts)
        if when:
            painter.setPen(colours.q("muted"))
            painter.setFont(design.font("small", self.view.font()))
            fm = painter.fontMetrics()
            w = fm.horizontalAdvance(when) + 4
            if item.kind == "user":
                box = QRect(rects[0][1].left() - w - 6, rects[0][1].top(), w, ACTION_BUTTON)
            else:
                box = QRect(rects[-1][1].right() + 8, rects[-1][1].top(), w, ACTION_BUTTON)
            painter.drawText(box, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, when)

    def _draw_tool_doc(self, painter: QPainter, doc: QTextDocument, x: int, y: int,
                       title: QColor, rest: QColor) -> None:
        """A tool card's text: its title line in the text colour, the rest muted."""
        first = doc.begin()
        split = doc.documentLayout().blockBoundingRect(first).bottom()
        painter.save()
        painter.setClipRect(QRectF(x, y, doc.textWidth() + 2, split), Qt.ClipOperation.IntersectClip)
        self._draw_doc(painter, doc, x, y, title)
        painter.restore()
        painter.save()
        painter.setClipRect(QRectF(x, y + split, doc.textWidth() + 2, doc.size().height() - split + 2),
                            Qt.ClipOperation.IntersectClip)
        self._draw_doc(painter, doc, x, y, rest)
        painter.restore()

    def body_origin(self, item: TranscriptItem, row_rect: QRect) -> QPoint:
        """Where an assistant row's Markdown document starts (view coordinates)."""
        y = row_rect.top()
        if item.reasoning:
            y += int(self._doc(item, "reasoning", self._width()).size().height()) + 4
        return QPoint(self.column_left(row_rect), y)

    def body_doc(self, item: TranscriptItem) -> QTextDocument:
        return self._doc(item, "body", self._width())

    def _draw_doc(self, painter: QPainter, doc: QTextDocument, x: int, y: int,
                  color: QColor, colours: design.Colors | None = None) -> None:
        painter.save()
        painter.translate(x, y)
        # Only the blocks inside the viewport are drawn: a long reply is one tall row.
        visible = self.view.viewport().rect()
        clip = QRectF(0, visible.top() - y, doc.size().width() + 1, visible.height())
        if colours is not None:
            paint_decorations(painter, doc, colours.q("sunken"), colours.q("border"), colours.q("muted"),
                              QCoreApplication.translate("Transcript", "Copy"), clip)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        ctx.palette.setColor(QPalette.ColorRole.Text, color)
        if colours is not None:
            ctx.palette.setColor(QPalette.ColorRole.Link, colours.q("link"))
        ctx.clip = clip
        doc.documentLayout().draw(painter, ctx)
        painter.restore()
