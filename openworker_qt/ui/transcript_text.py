"""What transcript rows say, and the Markdown documents they are drawn from.

The texts of each row kind (a user message folded when long, a tool card's title,
status and details, a notice), and :class:`StreamingDocument`, which appends a
streamed reply's finished Markdown blocks once and re-renders only its unfinished
tail (see ``transcript_view.py`` for the measurements behind it). The delegate
(``transcript_delegate.py``) lays these out and paints them.
"""

from __future__ import annotations

import html
import json

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QLocale
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)

from openworker_qt.qt.transcript_items import TranscriptItem, first_line
from openworker_qt.qt.wording import arguments_text, notice_text, rule_text, status_text, tool_title
from openworker_qt.ui import design
from openworker_qt.ui.markdown_style import (
    CODE_PAD,
    CodeRuns,
    code_chars,
    colour_steps,
    is_code,
    paint_decorations,
    style_markdown,
)

# A long pasted message is shown folded: its first lines and "Show all".
COLLAPSE_LINES = 14
COLLAPSE_CHARS = 1_600
FOLDED_LINES = 8
FOLDED_CHARS = 700
RESULT_LINES = 30
PROGRESS_LINES = 6  # of a running call's output, under its card's status


def collapsible(item: TranscriptItem) -> bool:
    """A user message long enough to be folded (a paste, a log, a document)."""
    return item.kind == "user" and (
        len(item.text) > COLLAPSE_CHARS or item.text.count("\n") >= COLLAPSE_LINES)


def folded_text(text: str) -> str:
    head = "\n".join(text.splitlines()[:FOLDED_LINES])
    if len(head) > FOLDED_CHARS:
        head = head[:FOLDED_CHARS]
    return head.rstrip() + " …"


#: Characters of finished Markdown one :meth:`StreamingDocument.update` renders at
#: most (~2-4 ms with code): a frame that brings more (the window was busy, a fast
#: model) renders the rest in the next ones.
UPDATE_BUDGET = 2_500


def stable_prefix(text: str, start: int = 0, limit: int | None = None) -> int:
    """End of the last blank line at or after ``start`` that is outside a code fence.

    Markdown before that point can no longer change as more text arrives (a
    paragraph, list or fence is closed), so it is rendered once. ``start`` must
    itself be outside a fence (it is always a previous result). With ``limit``:
    the last such end at or before ``limit``, or else the first one after it.
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
            if limit is not None and j + 1 > limit and last > start:
                return last
            last = j + 1
        i = j + 1


def style_code(doc: QTextDocument, start: int = 0, dark: bool = False,
               later: CodeRuns | None = None) -> None:
    """Code, tables and quotes in a Markdown document (see :mod:`markdown_style`;
    with ``later`` the code's colours are listed there, not applied)."""
    style_markdown(doc, start, dark, later)


def apply_colours(doc: QTextDocument, runs: CodeRuns, dark: bool) -> None:
    """The colours :func:`style_code` listed in ``runs``, all at once (tests)."""
    for position, lines in runs:
        for _ in colour_steps(doc, position, lines, dark):
            pass


def paint_code_backgrounds(painter: QPainter, doc: QTextDocument, fill: QColor) -> None:
    """The shaded boxes behind code (``painter`` at the document's origin)."""
    paint_decorations(painter, doc, fill)


def message_time(ts: float) -> str:
    """A message's time as the hover shows it: 14:02 today, else the date too."""
    if not ts:
        return ""
    when = QDateTime.fromSecsSinceEpoch(int(ts))
    locale = QLocale()
    if when.date() == QDate.currentDate():
        return locale.toString(when.time(), QLocale.FormatType.ShortFormat)
    return locale.toString(when, QLocale.FormatType.ShortFormat)


class StreamingDocument:
    """A Markdown document that grows with a streamed reply (see module docstring).

    :attr:`text` is what the document shows: the reply's text, or a prefix of it
    while a large arrival is rendered :data:`UPDATE_BUDGET` characters per
    :meth:`update` (call it again, :attr:`behind` until it is all in). Code colours
    are not applied here: :meth:`take_colours` hands the code lines to colour (see
    :func:`~openworker_qt.ui.markdown_style.colour_steps`)."""

    def __init__(self, font: QFont, width: int, dark: bool = False) -> None:
        self.dark = dark
        self.target = ""  # the text last asked for
        self.rev = -1  # the row revision last rendered (the delegate's)
        self._colours: CodeRuns = []
        self.doc = QTextDocument()
        self.doc.setDocumentMargin(0)
        self.doc.setDefaultFont(font)
        self.doc.setTextWidth(width)
        self.text = ""
        self._stable = 0  # chars of ``text`` rendered as finished blocks
        self._tail_pos = 0  # document position where the tail's blocks begin
        # The tail is a code block still open: where its body starts in ``text``, its
        # fence, and how many of its lines are highlighted (see _grow_code).
        self._body_at = -1
        self._fence = ""
        self._lit = 0

    def set_width(self, width: int) -> None:
        if self.doc.textWidth() != width:
            self.doc.setTextWidth(width)

    @property
    def behind(self) -> bool:
        """Part of the text asked for is not rendered yet (call :meth:`update` again)."""
        return self.text != self.target

    def take_colours(self) -> CodeRuns:
        """The code lines rendered since the last call, to be coloured."""
        runs, self._colours = self._colours, []
        return runs

    def update(self, text: str, budget: int = UPDATE_BUDGET) -> None:
        """Show ``text`` (at most ``budget`` more characters of it finished: see the
        class docstring)."""
        self.target = text
        if text == self.text:
            return
        if self._body_at >= 0 and text.startswith(self.text) and self._grow_code(text):
            self.text = text
            return
        self._body_at = -1
        if not text.startswith(self.text[: self._stable]):  # not an append: start over
            self.doc.clear()
            self._stable = self._tail_pos = 0
            self._colours.clear()
        cursor = QTextCursor(self.doc)
        cursor.setPosition(self._tail_pos)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        boundary = stable_prefix(text, self._stable, self._stable + budget)
        if boundary > self._stable:
            self._insert(cursor, text[self._stable:boundary])
            self._stable = boundary
            self._tail_pos = cursor.position()
        if stable_prefix(text, boundary) > boundary:  # more finished text: the next update
            self.text = text[:boundary]
            return
        if len(text) > boundary:
            self._insert(cursor, text[boundary:])
            self._open_code(text, boundary)
        self.text = text

    def _open_code(self, text: str, boundary: int) -> None:
        """The tail just rendered is a fenced code block still open: later deltas
        grow it line by line (:meth:`_grow_code`) instead of rendering it again."""
        tail = text[boundary:]
        lead = len(tail) - len(tail.lstrip("\n"))
        head, sep, body = tail[lead:].partition("\n")
        fence = head.strip()[:3]
        lines = _code_lines(body)
        if not sep or fence not in ("```", "~~~") or not head.lstrip().startswith(fence) \
                or not lines or any(line.strip().startswith(fence) for line in lines):
            return
        block = self.doc.lastBlock()
        for line in reversed(lines):  # the document's last blocks are the body's lines
            if not is_code(block) or block.text() != line:
                return
            block = block.previous()
        self._body_at = boundary + lead + len(head) + 1
        self._fence = fence
        self._lit = len(lines) if body.endswith("\n") else len(lines) - 1

    def _grow_code(self, text: str) -> bool:
        """Append to the open code block what ``text`` adds to it: the last line's
        new characters, then a block per new line, each highlighted once complete
        (the whole block is rendered and highlighted again once its fence closes).
        False, with nothing changed, when the new text might close the block."""
        old = _code_lines(self.text[self._body_at:])
        body = text[self._body_at:]
        new = _code_lines(body)
        k = len(old) - 1
        if any(line.strip().startswith(self._fence) for line in new[k:]):
            return False
        last = self.doc.lastBlock()
        cursor = QTextCursor(last)
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        chars = code_chars(last)
        cursor.insertText(new[k][len(old[k]):], chars)
        if len(new) > len(old):
            fmt = last.blockFormat()
            fmt.setBottomMargin(0)  # (the box's room below moves to the new last line)
            cursor.setBlockFormat(fmt)
            fmt.setTopMargin(0)
            for i, line in enumerate(new[k + 1:]):
                if i == len(new) - k - 2:
                    fmt.setBottomMargin(2 * CODE_PAD)
                cursor.insertBlock(fmt, chars)
                cursor.insertText(line, chars)
        done = len(new) if body.endswith("\n") else len(new) - 1
        if done > self._lit:
            block = self.doc.lastBlock()
            for _ in range(len(new) - 1 - self._lit):
                block = block.previous()
            for _ in range(done - self._lit):
                whole_line = QTextCursor(block)
                whole_line.movePosition(QTextCursor.MoveOperation.EndOfBlock,
                                        QTextCursor.MoveMode.KeepAnchor)
                whole_line.setCharFormat(chars)  # (colours of the line's unfinished words go)
                self._colours.append((block.position(), [block.text()]))
                block = block.next()
            self._lit = done
        return True

    def _insert(self, cursor: QTextCursor, markdown: str) -> None:
        if cursor.position() == 0:
            cursor.insertMarkdown(markdown)
            style_code(self.doc, 0, self.dark, self._colours)
            return
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        fresh = cursor.block()
        if fresh.textList() is not None:  # a block inserted after a list item joins the list
            fresh.textList().remove(fresh)
            cursor.setBlockFormat(QTextBlockFormat())
        start = cursor.position()
        cursor.insertMarkdown(markdown)
        opens_code = markdown.lstrip("\n").startswith(("```", "~~~"))
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
        if opens_code:
            # The fragment's first block is merged into the block the cursor made, and
            # takes its format: a code block's first line came out as a paragraph,
            # above the grey box. Give it the format a whole render gives it.
            whole = QTextDocument()  # (the fence and its first line are enough)
            whole.setMarkdown("\n".join(markdown.lstrip("\n").split("\n", 2)[:2]))
            first = whole.begin()
            if is_code(first):
                QTextCursor(self.doc.findBlock(start)).setBlockFormat(first.blockFormat())
        style_code(self.doc, max(0, start - 1), self.dark, self._colours)


def _code_lines(body: str) -> list[str]:
    """The blocks an open fenced code block's ``body`` is rendered as (a line each;
    the importer makes no block of the empty text after a last newline)."""
    lines = body.split("\n")
    if body.endswith("\n"):
        lines.pop()
    return lines


def user_html(item: TranscriptItem, dark: bool) -> str:
    """A user message with attachments: what the user wrote, then one chip per
    attachment (a file's name; a folder's with its access in words), never what
    the model is told about them."""
    c = design.dark() if dark else design.light()
    text = item.text
    if collapsible(item) and not item.expanded:
        text = folded_text(text)
    body = html.escape(text).replace("\n", "<br>")
    chips = "&nbsp; ".join(
        f'<span style="background-color:{c.raised}; color:{c.text};">&nbsp;{html.escape(name)}&nbsp;</span>'
        for name in item.attachments)
    out = f"<p>{body}</p>" if text else ""
    out += f'<p style="margin-top:4px;">{chips}</p>'
    if item.source == "queued":
        queued = html.escape(QCoreApplication.translate(
            "Transcript", "Queued: goes in after the current step"))
        out += f"<p>{queued}</p>"
    return out

def plain_body(item: TranscriptItem) -> str:
    """A row as plain text: a user message (folded when long), a tool card's title
    and status lines, a notice."""
    if item.kind == "user":
        text = item.text
        if collapsible(item) and not item.expanded:
            text = folded_text(text)
        if item.attachments:
            text += "\n" + QCoreApplication.translate("Transcript", "Attached: {names}").format(
                names=", ".join(item.attachments))
        if item.source == "queued":
            # (plain words: an hourglass is a missing-glyph box in many UI fonts)
            text += "\n" + QCoreApplication.translate(
                "Transcript", "Queued: goes in after the current step")
        return text
    if item.kind == "tool":
        seconds = item.duration if item.duration is not None else (
            (item.finished - item.started) if item.finished and item.started else None)
        head = tool_title(item.name, item.arguments, item.status, item.result, seconds)
        words = [status_text(item.status)]
        if item.rule and item.status in ("ok", "error"):
            words.append(rule_text(item.rule, item.name))
        if item.result and item.status == "error" and not item.expanded:
            words.append(first_line(item.result, 100))
        head += "\n" + " · ".join(w for w in words if w)
        if item.progress and item.status == "running":
            head += "\n" + "\n".join(item.progress.splitlines()[-PROGRESS_LINES:])
        return head
    if item.kind == "notice":
        return notice_text(item.notice_kind, item.text, item.display)
    return item.text

def details_text(item: TranscriptItem) -> str:
    """An open tool card's details: what the call was given and what came back."""
    args = arguments_text(item.arguments)  # fields with real line breaks, not JSON
    result = item.result
    try:  # a command's result: its output as the terminal showed it, not JSON
        data = json.loads(result) if result.startswith("{") else None
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("output"), str):
        result = data["output"].rstrip("\n") or QCoreApplication.translate("Transcript", "(no output)")
    lines = result.splitlines()
    if len(lines) > RESULT_LINES:
        more = QCoreApplication.translate("Transcript", "… {n} more lines").format(
            n=len(lines) - RESULT_LINES)
        lines = [*lines[:RESULT_LINES], more]
    what = QCoreApplication.translate("Transcript", "What it was given:")
    out = QCoreApplication.translate("Transcript", "What came back:")
    return f"{what}\n{args}\n\n{out}\n" + "\n".join(lines)
