"""Markdown done right in the transcript: code, tables, quotes, links.

Qt's Markdown importer gives the structure; this module gives it the look of
the design system, on the document after each (partial) import:

* fenced code blocks: the system's fixed-width font, room around them, a
  shaded rounded box (painted by :func:`paint_decorations`), syntax colours
  from Pygments for the common languages and a "Copy" button (painted here,
  hit-tested with :func:`copy_button_at`);
* inline code: the fixed-width font on a shaded box;
* tables: cell padding, thin collapsed borders, header cells bold and aligned
  like their column (Qt left-aligns a header above a right-aligned column);
* block quotes: a narrower indent and a bar on their left;
* links: :func:`anchor_at` finds the link under the pointer (the view opens it
  in the browser).

Pygments is imported by :func:`preload_highlighter` in a worker thread after
the first paint (its first lexer costs ~50 ms); until then code is shown
without colours, never with a stall.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontDatabase,
    QPainter,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QTextTable,
)

from openworker_qt.ui.design import LINE_HEIGHT

HAS_CODE = "hasCode"
CODE_INLINE = int(QTextCharFormat.Property.UserProperty) + 1
CODE_PAD = 8  # px around a code block's text, inside its shaded box
QUOTE_INDENT = 18  # px a block quote is indented per level; its bar sits in it
COPY_W, COPY_H = 52, 20  # the code block's Copy button

_LEXERS: dict[str, Any] = {}
_PRELOAD = ("python", "bash", "json", "javascript", "typescript", "yaml", "toml", "sql",
            "html", "css", "diff", "rust", "go", "java", "c", "cpp")
_loading: list[threading.Thread] = []

# Token colours (own picks): (light, dark), each ≥ 4.5:1 on its code background.
_TOKEN_COLOURS: dict[str, tuple[str, str]] = {
    "Keyword": ("#a0246a", "#ff8fc8"),
    "Name.Builtin": ("#7a4a00", "#f0c060"),
    "Name.Function": ("#1f56c6", "#8ab4ff"),
    "Name.Class": ("#1f56c6", "#8ab4ff"),
    "Name.Decorator": ("#7a4a00", "#f0c060"),
    "Literal.String": ("#1f6f38", "#8fe0a6"),
    "Literal.Number": ("#8a3b00", "#ffb070"),
    "Comment": ("#5f6368", "#9aa0a6"),
    "Operator.Word": ("#a0246a", "#ff8fc8"),
    "Generic.Inserted": ("#1f6f38", "#8fe0a6"),
    "Generic.Deleted": ("#a1160e", "#ffaaa3"),
    "Generic.Heading": ("#1f56c6", "#8ab4ff"),
    "Generic.Subheading": ("#1f56c6", "#8ab4ff"),
}


def preload_highlighter() -> None:
    """Import Pygments and the common lexers in a worker thread (once)."""
    if _loading:
        return

    def load() -> None:
        try:
            from pygments.lexers import get_lexer_by_name
            from pygments.util import ClassNotFound
        except ImportError:  # highlighting is a nicety: without Pygments code stays plain
            return
        for name in _PRELOAD:
            try:
                lexer = get_lexer_by_name(name, stripnl=False, ensurenl=False)
            except ClassNotFound:
                continue
            for alias in (name, *lexer.aliases):
                _LEXERS.setdefault(alias.lower(), lexer)

    thread = threading.Thread(target=load, name="pygments-preload", daemon=True)
    _loading.append(thread)
    thread.start()


def highlighter_ready() -> bool:
    return bool(_LEXERS)


def highlighter_loaded() -> bool:
    """The preload has finished (with or without Pygments)."""
    return bool(_loading) and not _loading[0].is_alive()


def _token_colour(token: Any, dark: bool) -> str | None:
    t = token
    while t is not None and len(t):
        key = ".".join(t)
        if key in _TOKEN_COLOURS:
            return _TOKEN_COLOURS[key][1 if dark else 0]
        t = t.parent
    return None


def is_code(block: QTextBlock) -> bool:
    return bool(block.isValid() and block.blockFormat().nonBreakableLines())


def _fixed_families() -> list[str]:
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    return [fixed.family(), "monospace"]


def code_chars(block: QTextBlock) -> QTextCharFormat:
    """The characters' format of a code block's line, without syntax colours."""
    chars = block.begin().fragment().charFormat() if block.length() > 1 else block.charFormat()
    chars.setFontFamilies(_fixed_families())
    chars.clearForeground()
    return chars


PROPORTIONAL = QTextBlockFormat.LineHeightTypes.ProportionalHeight.value
HEADING_TOP, HEADING_BOTTOM = 14, 4  # px around a heading (tight on its paragraph, apart above)


def style_markdown(doc: QTextDocument, start: int = 0, dark: bool = False) -> None:
    """Style the blocks from ``start`` on (see module docstring)."""
    families = _fixed_families()
    block = doc.findBlock(start)
    found = False
    group: list[QTextBlock] = []
    while block.isValid():
        cursor = QTextCursor(block)
        fmt = block.blockFormat()
        if is_code(block):
            found = True
            group.append(block)
            fmt.setLeftMargin(CODE_PAD)
            fmt.setRightMargin(CODE_PAD)
            fmt.setTopMargin(0 if is_code(block.previous()) else 2 * CODE_PAD + (COPY_H - CODE_PAD))
            fmt.setBottomMargin(0 if is_code(block.next()) else 2 * CODE_PAD)
            cursor.setBlockFormat(fmt)
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            chars = QTextCharFormat()
            chars.setFontFamilies(families)
            cursor.mergeCharFormat(chars)
            if not is_code(block.next()):
                highlight_code(doc, group, dark)
                group = []
        else:
            level = fmt.property(QTextFormat.Property.BlockQuoteLevel)
            changed = False
            if isinstance(level, int) and level > 0 and fmt.leftMargin() != QUOTE_INDENT * level:
                fmt.setLeftMargin(QUOTE_INDENT * level)
                fmt.setTopMargin(8)
                fmt.setBottomMargin(8)
                changed = True
            if fmt.lineHeightType() != PROPORTIONAL and block.textList() is None \
                    and not fmt.headingLevel() and cursor.currentTable() is None:
                # Room to read: paragraphs at ~1.6 line height (lists and headings keep
                # Qt's spacing, which already sets them apart).
                fmt.setLineHeight(LINE_HEIGHT, PROPORTIONAL)
                changed = True
            if fmt.headingLevel() and fmt.topMargin() != HEADING_TOP and block.position() > 0:
                fmt.setTopMargin(HEADING_TOP)  # a heading belongs to what follows it
                fmt.setBottomMargin(HEADING_BOTTOM)
                changed = True
            if changed:
                cursor.setBlockFormat(fmt)
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                if frag.charFormat().fontFixedPitch() and not frag.charFormat().hasProperty(CODE_INLINE):
                    sel = QTextCursor(doc)
                    sel.setPosition(frag.position())
                    sel.setPosition(frag.position() + frag.length(), QTextCursor.MoveMode.KeepAnchor)
                    chars = QTextCharFormat()
                    chars.setFontFamilies(families)
                    chars.setProperty(CODE_INLINE, True)
                    sel.mergeCharFormat(chars)
                    found = True
                it += 1
        block = block.next()
    _style_tables(doc, start, dark)
    if found:
        doc.setProperty(HAS_CODE, True)  # painting looks for boxes only then


def highlight_code(doc: QTextDocument, blocks: list[QTextBlock], dark: bool) -> None:
    """Syntax colours on the lines ``blocks`` of a code block (its language is the
    first one's)."""
    language = blocks[0].blockFormat().stringProperty(QTextFormat.Property.BlockCodeLanguage)
    lexer = _LEXERS.get(language.strip().lower()) if language else None
    if lexer is None:
        return
    lines = [b.text() for b in blocks]
    try:
        tokens = list(lexer.get_tokens("\n".join(lines)))
    except Exception:  # a lexer bug must never cost the reply
        return
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()  # (one change for the layout, not one per token)
    try:
        _colour_tokens(cursor, blocks, tokens, dark)
    finally:
        cursor.endEditBlock()


def _colour_tokens(cursor: QTextCursor, blocks: list[QTextBlock], tokens: list[Any],
                   dark: bool) -> None:
    formats: dict[str, QTextCharFormat] = {}
    row, col = 0, 0
    for token, value in tokens:
        colour = _token_colour(token, dark)
        for i, piece in enumerate(value.split("\n")):
            if i:
                row, col = row + 1, 0
            if row >= len(blocks):
                return
            if piece and colour:
                pos = blocks[row].position() + col
                cursor.setPosition(pos)
                cursor.setPosition(pos + len(piece), QTextCursor.MoveMode.KeepAnchor)
                chars = formats.get(colour)
                if chars is None:
                    chars = formats[colour] = QTextCharFormat()
                    chars.setForeground(QColor(colour))
                cursor.mergeCharFormat(chars)
            col += len(piece)


def _style_tables(doc: QTextDocument, start: int, dark: bool) -> None:
    border = QColor("#3d3f45" if dark else "#d0d0cc")
    for frame in doc.rootFrame().childFrames():
        if not isinstance(frame, QTextTable) or frame.lastPosition() < start:
            continue
        fmt = frame.format()
        fmt.setCellPadding(6)
        fmt.setCellSpacing(0)
        fmt.setBorder(1)
        fmt.setBorderBrush(QBrush(border))
        fmt.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        fmt.setBorderCollapse(True)
        fmt.setTopMargin(12)
        fmt.setBottomMargin(12)
        frame.setFormat(fmt)
        if frame.rows() < 1:
            continue
        for row in range(frame.rows()):  # the first cell inherits a paragraph's spacing
            for col in range(frame.columns()):
                cell = frame.cellAt(row, col)
                first = cell.firstCursorPosition().block()
                if first.length() == 1 and first.next().isValid() \
                        and first.next().position() <= cell.lastPosition():
                    # (after a quote Qt's importer opens the first cell with an empty
                    # paragraph: the header row would be two lines tall)
                    cut = QTextCursor(first)
                    cut.movePosition(QTextCursor.MoveOperation.NextBlock, QTextCursor.MoveMode.KeepAnchor)
                    cut.removeSelectedText()
                    cell = frame.cellAt(row, col)
                block = cell.firstCursorPosition().block()
                end = cell.lastCursorPosition().position()
                while block.isValid() and block.position() <= end:
                    spacing = block.blockFormat()
                    if spacing.topMargin() or spacing.bottomMargin():
                        spacing.setTopMargin(0)
                        spacing.setBottomMargin(0)
                        QTextCursor(block).setBlockFormat(spacing)
                    block = block.next()
        for col in range(frame.columns()):
            head = frame.cellAt(0, col)
            cursor = head.firstCursorPosition()
            cursor.setPosition(head.lastCursorPosition().position(), QTextCursor.MoveMode.KeepAnchor)
            bold = QTextCharFormat()
            bold.setFontWeight(700)
            cursor.mergeCharFormat(bold)
            if frame.rows() > 1:  # a header sits above its column's alignment
                body = frame.cellAt(1, col).firstCursorPosition().blockFormat().alignment()
                block_fmt = cursor.blockFormat()
                if block_fmt.alignment() != body:
                    block_fmt.setAlignment(body)
                    cursor.setBlockFormat(block_fmt)


def _blocks_near(doc: QTextDocument, clip: QRectF | None) -> Iterator[QTextBlock]:
    """The blocks whose boxes may meet ``clip`` (document coordinates; every block
    when None), in order: from the start of the code group or table the first one
    belongs to, up to the first block below ``clip`` outside a table (a table row's
    cells sit side by side, so their tops do not grow block after block). A long
    reply is one row: painting it walked all its blocks on every frame."""
    if clip is None:
        block = doc.begin()
        while block.isValid():
            yield block
            block = block.next()
        return
    layout = doc.documentLayout()
    tables = [(f.firstPosition(), f.lastPosition()) for f in doc.rootFrame().childFrames()]
    # (a code box reaches CODE_PAD below its last line and COPY_H above its first)
    pos = layout.hitTest(QPointF(0, max(0.0, clip.top() - CODE_PAD - 1)), Qt.HitTestAccuracy.FuzzyHit)
    block = doc.findBlock(max(0, pos))
    for first, last in tables:
        if first <= block.position() <= last:
            block = doc.findBlock(first)
    while is_code(block.previous()):
        block = block.previous()
    bottom = clip.bottom() + COPY_H + 1
    while block.isValid():
        if layout.blockBoundingRect(block).top() > bottom and not is_code(block.previous()) \
                and not any(a <= block.position() <= b for a, b in tables):
            return
        yield block
        block = block.next()


def _code_runs(doc: QTextDocument, clip: QRectF | None = None) -> Iterator[list[QTextBlock]]:
    """The blocks of each fenced code block near ``clip`` (see :func:`_blocks_near`)."""
    run: list[QTextBlock] = []
    for block in _blocks_near(doc, clip):
        if is_code(block):
            run.append(block)
            if not is_code(block.next()):
                yield run
                run = []
        elif run:  # (the walk stopped inside a run: it never does, kept safe)
            yield run
            run = []
    if run:
        yield run


def _code_box(doc: QTextDocument, run: list[QTextBlock]) -> QRectF:
    layout = doc.documentLayout()
    top = layout.blockBoundingRect(run[0])
    bottom = layout.blockBoundingRect(run[-1])
    y0 = top.top() - CODE_PAD - (COPY_H - CODE_PAD)
    y1 = bottom.bottom() + CODE_PAD
    return QRectF(0, y0, doc.textWidth(), y1 - y0)


def code_groups(doc: QTextDocument, clip: QRectF | None = None) -> list[tuple[QRectF, str]]:
    """Each fenced code block's box (document coordinates) and its text (near ``clip``
    when given)."""
    return [(_code_box(doc, run), "\n".join(b.text() for b in run)) for run in _code_runs(doc, clip)]


def code_languages(doc: QTextDocument) -> list[str]:
    """Each fenced code block's language ("python"; '' when the fence names none), in
    the order of :func:`code_groups`."""
    return [_language(run[0]) for run in _code_runs(doc)]


def _language(block: QTextBlock) -> str:
    return block.blockFormat().stringProperty(QTextFormat.Property.BlockCodeLanguage).strip()


def copy_button_rect(box: QRectF) -> QRectF:
    return QRectF(box.right() - COPY_W - 4, box.top() + 3, COPY_W, COPY_H - 4)


def copy_button_at(doc: QTextDocument, point: QPointF) -> str | None:
    """The code under a code block's Copy button at ``point`` (document coordinates)."""
    if not doc.property(HAS_CODE):
        return None
    for box, text in code_groups(doc, QRectF(point.x(), point.y() - COPY_H, 1, 2 * COPY_H)):
        if copy_button_rect(box).adjusted(-4, -4, 4, 4).contains(point):
            return text
    return None


def anchor_at(doc: QTextDocument, point: QPointF) -> str:
    return doc.documentLayout().anchorAt(point)


def paint_decorations(painter: QPainter, doc: QTextDocument, fill: QColor,
                      bar: QColor | None = None, label: QColor | None = None,
                      copy_text: str = "Copy", clip: QRectF | None = None) -> None:
    """Code boxes (with their Copy button), inline code boxes and quote bars
    (``painter`` is translated to the document's origin); only those near ``clip``
    (document coordinates) when given."""
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(fill)
    has_code = bool(doc.property(HAS_CODE))
    if has_code:
        for run in _code_runs(doc, clip):
            box = _code_box(doc, run)
            painter.drawRoundedRect(box, 6, 6)
            if label is not None:
                _copy_button(painter, box, _language(run[0]), bar, label, copy_text)
    layout = doc.documentLayout()
    for block in _blocks_near(doc, clip):
        if is_code(block):
            continue
        fmt = block.blockFormat()
        level = fmt.property(QTextFormat.Property.BlockQuoteLevel)
        if bar is not None and isinstance(level, int) and level > 0:
            rect = layout.blockBoundingRect(block)
            painter.save()
            painter.setBrush(bar)
            for n in range(level):
                x = QUOTE_INDENT * n + 2
                painter.drawRoundedRect(QRectF(x, rect.top(), 3, rect.height()), 1.5, 1.5)
            painter.restore()
        if has_code:
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                if frag.charFormat().hasProperty(CODE_INLINE):
                    _inline_box(painter, block, frag.position(), frag.length(), layout)
                it += 1
    painter.restore()


def _copy_button(painter: QPainter, box: QRectF, language: str, bar: QColor | None,
                 label: QColor, copy_text: str) -> None:
    """A code box's Copy button, and its language at the top left."""
    painter.save()
    font = painter.font()
    font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
    painter.setFont(font)
    button = copy_button_rect(box)
    if bar is not None:  # a real button: a hairline round it
        painter.setPen(bar)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(button, 4, 4)
    painter.setPen(label)
    painter.drawText(button, Qt.AlignmentFlag.AlignCenter, copy_text)
    if language:
        head = QRectF(box.left() + CODE_PAD, button.top(), button.left() - box.left()
                      - 2 * CODE_PAD, button.height())
        painter.drawText(head, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), language)
    painter.restore()


def _inline_box(painter: QPainter, block: QTextBlock, pos: int, length: int, layout: Any) -> None:
    origin = layout.blockBoundingRect(block).topLeft()
    lines: Any = block.layout()
    rel = pos - block.position()
    for i in range(lines.lineCount()):
        line = lines.lineAt(i)
        a, b = max(rel, line.textStart()), min(rel + length, line.textStart() + line.textLength())
        if a >= b:
            continue
        x0, _ = line.cursorToX(a)
        x1, _ = line.cursorToX(b)
        painter.drawRoundedRect(QRectF(origin.x() + x0 - 2, origin.y() + line.y(),
                                       x1 - x0 + 4, line.height()), 3, 3)
