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
from collections.abc import Callable, Iterator
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


def preload_highlighter(wait: Callable[[], None] | None = None) -> None:
    """Import Pygments and the common lexers in a worker thread (once). ``wait``
    (called in the worker before the import and before each lexer, ~1-60 ms of
    Python each: the GIL they hold slows the event loop) may hold it back while
    the window is busy."""
    if _loading:
        return
    pause = wait or (lambda: None)

    def load() -> None:
        pause()
        try:
            from pygments.lexers import get_lexer_by_name
            from pygments.util import ClassNotFound
        except ImportError:  # highlighting is a nicety: without Pygments code stays plain
            return
        for name in _PRELOAD:
            pause()
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


#: Code blocks waiting for their colours: (position of the first line, its lines).
CodeRuns = list[tuple[int, list[str]]]


def style_markdown(doc: QTextDocument, start: int = 0, dark: bool = False,
                   later: CodeRuns | None = None) -> None:
    """Style the blocks from ``start`` on (see module docstring). With ``later`` the
    code blocks' colours are not applied but listed there, for :func:`colour_steps`
    to apply a few at a time (the lexer is most of a code block's cost)."""
    families = _fixed_families()
    block = doc.findBlock(start)
    found = False
    group: list[QTextBlock] = []
    while block.isValid():
        if is_code(block):
            found = True
            group.append(block)
            if not is_code(block.next()):
                _style_code_group(doc, group, families)
                if later is None:
                    highlight_code(doc, group, dark)
                else:
                    later.append((group[0].position(), [b.text() for b in group]))
                group = []
        else:
            found = _style_text_block(doc, block, families) or found
        block = block.next()
    _style_tables(doc, start, dark)
    if found:
        doc.setProperty(HAS_CODE, True)  # painting looks for boxes only then


def _style_code_group(doc: QTextDocument, group: list[QTextBlock], families: list[str]) -> None:
    """A fenced code block's lines: room around the box, the fixed-width font. Lines
    of one format (the usual case) are styled with one call for the middle, one for
    each end and one for the characters (a call per line was most of the cost)."""
    first, last = group[0], group[-1]
    base = first.blockFormat()

    def framed(fmt: QTextBlockFormat, top: bool, bottom: bool) -> QTextBlockFormat:
        fmt.setLeftMargin(CODE_PAD)
        fmt.setRightMargin(CODE_PAD)
        fmt.setTopMargin(2 * CODE_PAD + (COPY_H - CODE_PAD) if top else 0)
        fmt.setBottomMargin(2 * CODE_PAD if bottom else 0)
        return fmt

    plain = framed(QTextBlockFormat(base), False, False)
    if all(framed(b.blockFormat(), False, False) == plain for b in group[1:-1]):
        if len(group) > 2:
            middle = QTextCursor(group[1])
            middle.setPosition(group[-2].position(), QTextCursor.MoveMode.KeepAnchor)
            middle.setBlockFormat(plain)
        ends = [first, last] if len(group) > 1 else [first]
    else:
        ends = group
    top = not is_code(first.previous())  # (a walk may begin inside a code block)
    for b in ends:
        QTextCursor(b).setBlockFormat(framed(b.blockFormat(), b == first and top,
                                             b == last and not is_code(last.next())))
    chars = QTextCharFormat()
    chars.setFontFamilies(families)
    span = QTextCursor(doc)
    span.setPosition(first.position())
    span.setPosition(last.position() + last.length() - 1, QTextCursor.MoveMode.KeepAnchor)
    span.mergeCharFormat(chars)


def _style_text_block(doc: QTextDocument, block: QTextBlock, families: list[str]) -> bool:
    """A block that is not code: quotes, line height, headings, inline code (True
    when it has inline code)."""
    cursor = QTextCursor(block)
    fmt = block.blockFormat()
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
    found = False
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
    return found


def highlight_code(doc: QTextDocument, blocks: list[QTextBlock], dark: bool) -> None:
    """Syntax colours on the lines ``blocks`` of a code block (its language is the
    first one's), all at once."""
    for _ in colour_steps(doc, blocks[0].position(), [b.text() for b in blocks], dark):
        pass


TOKENS_PER_STEP = 48  # a step of colour_steps: ~0.2-0.5 ms


def colour_steps(doc: QTextDocument, position: int, lines: list[str], dark: bool) -> Iterator[None]:
    """Syntax colours on the code block whose ``lines`` start at ``position``, a
    few tokens per step (a generator: the caller runs it a step at a time, so a
    long block never holds the event loop). Colours a line had are replaced. It
    stops when the document no longer holds those lines there (rendered again,
    cleared): whoever changed them asked for their colours anew."""
    first = doc.findBlock(position)
    if first.position() != position or not lines:
        return
    lexer = _LEXERS.get(_language(first).lower())
    if lexer is None:
        return
    starts = [position]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    try:
        tokens = lexer.get_tokens("\n".join(lines))
        step = _ColourStep(doc, starts, lines, dark)
        while step.run(tokens):
            yield
    except Exception:  # a lexer bug must never cost the reply
        return


class _ColourStep:
    """The state of one :func:`colour_steps` between its steps."""

    def __init__(self, doc: QTextDocument, starts: list[int], lines: list[str], dark: bool) -> None:
        self.doc, self.starts, self.lines, self.dark = doc, starts, lines, dark
        self.row, self.col = 0, 0
        self.cleared = -1  # the last row whose old colours were cleared
        self.formats: dict[str, QTextCharFormat] = {}

    def _line(self, row: int) -> QTextBlock | None:
        block = self.doc.findBlock(self.starts[row])
        ok = block.position() == self.starts[row] and block.text() == self.lines[row] and is_code(block)
        return block if ok else None

    def run(self, tokens: Iterator[tuple[Any, str]]) -> bool:
        """Colour the next tokens; False when done (or the lines are gone)."""
        block = self._line(self.row)
        if block is None:
            return False
        cursor = QTextCursor(self.doc)
        cursor.beginEditBlock()  # (one change for the layout, not one per token)
        try:
            for n, (token, value) in enumerate(tokens):
                if not self._colour(cursor, token, value):
                    return False
                if n + 1 >= TOKENS_PER_STEP:
                    return True
            return False
        finally:
            cursor.endEditBlock()

    def _colour(self, cursor: QTextCursor, token: Any, value: str) -> bool:
        colour = _token_colour(token, self.dark)
        for i, piece in enumerate(value.split("\n")):
            if i:
                self.row, self.col = self.row + 1, 0
            if self.row >= len(self.lines):
                return False
            if self.cleared < self.row:
                block = self._line(self.row)
                if block is None:
                    return False
                _clear_colours(cursor, block)
                self.cleared = self.row
            if piece and colour:
                pos = self.starts[self.row] + self.col
                cursor.setPosition(pos)
                cursor.setPosition(pos + len(piece), QTextCursor.MoveMode.KeepAnchor)
                chars = self.formats.get(colour)
                if chars is None:
                    chars = self.formats[colour] = QTextCharFormat()
                    chars.setForeground(QColor(colour))
                cursor.mergeCharFormat(chars)
            self.col += len(piece)
        return True


def _clear_colours(cursor: QTextCursor, block: QTextBlock) -> None:
    """A code line's syntax colours go (a line coloured before, as it streamed)."""
    it = block.begin()
    while not it.atEnd():
        if it.fragment().charFormat().hasProperty(QTextFormat.Property.ForegroundBrush):
            cursor.setPosition(block.position())
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(code_chars(block))
            return
        it += 1


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
