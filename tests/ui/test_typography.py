"""The transcript's text is set to be read: 15 px body text, paragraphs at about 1.6
line height, headings apart from what precedes them and close to what follows, code
blocks labelled with their language and a Copy button, tables not stretched."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontInfo, QTextCursor, QTextDocument

from openworker_qt.ui import design
from openworker_qt.ui.markdown_style import PROPORTIONAL, code_languages, style_markdown

TEXT = ("Intro paragraph.\n\n## Numbers\n\nA paragraph under the heading.\n\n- one\n- two\n\n"
        "```python\nprint(1)\n```\n\nThen:\n\n```\nplain\n```\n\n| a | b |\n|---|---:|\n| x | 1 |\n")


def _doc() -> QTextDocument:
    doc = QTextDocument()
    doc.setDefaultFont(design.reading_font(QFont()))
    doc.setMarkdown(TEXT)
    style_markdown(doc)
    return doc


def test_body_text_is_at_least_15_px(qapp) -> None:
    small = QFont()
    small.setPixelSize(12)
    assert QFontInfo(design.reading_font(small)).pixelSize() >= design.READING_PX
    big = QFont()
    big.setPixelSize(20)  # a user's larger system font is kept
    assert QFontInfo(design.reading_font(big)).pixelSize() == 20


def test_paragraphs_breathe_headings_and_tables_do_not_stretch(qapp) -> None:
    doc = _doc()
    kinds: dict[str, list[object]] = {"paragraph": [], "heading": [], "list": [], "cell": []}
    block = doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        if QTextCursor(block).currentTable() is not None:
            kinds["cell"].append(fmt.lineHeightType())
        elif fmt.headingLevel():
            kinds["heading"].append((fmt.topMargin(), fmt.bottomMargin()))
        elif block.textList() is not None:
            kinds["list"].append(fmt.lineHeightType())
        elif block.text() and not fmt.nonBreakableLines():
            kinds["paragraph"].append((fmt.lineHeightType(), fmt.lineHeight()))
        block = block.next()
    assert kinds["paragraph"] == [(PROPORTIONAL, design.LINE_HEIGHT)] * 3
    [(top, bottom)] = kinds["heading"]
    assert top > bottom > 0
    assert PROPORTIONAL not in kinds["cell"] and PROPORTIONAL not in kinds["list"]


def test_code_blocks_are_labelled_with_their_language(qapp) -> None:
    assert code_languages(_doc()) == ["python", ""]
