"""A long answer's decorations (code boxes, Copy buttons, inline code, quote bars) are
painted for the part of it on screen only, and look the same there as when the whole
document is painted; the Copy button of a code block far down is still found."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QTextDocument

from openworker_qt.ui import design
from openworker_qt.ui.markdown_style import (
    code_groups,
    copy_button_at,
    copy_button_rect,
    paint_decorations,
    style_markdown,
)

PART = ("Some `inline` words and `more code` in a paragraph that wraps over a few lines "
        "of the column, then the end.\n\n> A quote with `code` in it.\n\n"
        "```python\nfor i in range(3):\n    print(i)\n```\n\n"
        "| a | b |\n|---|---|\n| `x` | a cell that is long enough to wrap in its column |\n\n")


def _doc(parts: int = 40) -> QTextDocument:
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(design.reading_font(QFont()))
    doc.setTextWidth(420)
    doc.setMarkdown("".join(f"## Part {n}\n\n{PART}" for n in range(parts)))
    style_markdown(doc)
    return doc


def _paint(doc: QTextDocument, top: int, height: int, clip: QRectF | None) -> QImage:
    image = QImage(440, height, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.translate(0, -top)
    paint_decorations(painter, doc, QColor("#e0e4ea"), QColor("#888888"), QColor("#333333"),
                      clip=clip)
    painter.end()
    return image


def test_decorations_painted_for_the_visible_part_match_the_whole_document(qapp) -> None:
    doc = _doc(4)
    total = int(doc.size().height())
    shown = 0
    for top in range(-20, total, 13):  # windows of 30 px slid over the whole answer
        clip = QRectF(0, top, 440, 30)
        whole = _paint(doc, top, 30, None)
        visible = _paint(doc, top, 30, clip)
        assert visible == whole, f"the decorations differ at y={top}"
        shown += sum(1 for y in range(0, 30, 3) for x in (2, 30, 300)
                     if visible.pixelColor(x, y) != QColor("white"))
    assert shown > 0  # (boxes were painted in those windows)


def test_a_view_inside_a_long_code_block_or_a_table_still_gets_its_box(qapp) -> None:
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setTextWidth(420)
    lines = "\n".join(f"line_{i} = {i}" for i in range(400))
    doc.setMarkdown(f"Intro.\n\n```python\n{lines}\n```\n\n| `a` | b |\n|---|---|\n"
                    + "".join(f"| `{i}` | {'word ' * (i % 9)} |\n" for i in range(60)) + "\nEnd.\n")
    style_markdown(doc)
    total = int(doc.size().height())
    for top in (*range(0, 120, 4), total // 3, *range(total - 1400, total, 17)):
        clip = QRectF(0, top, 440, 40)
        assert _paint(doc, top, 40, clip) == _paint(doc, top, 40, None), f"at y={top}"


def test_the_copy_button_of_a_code_block_far_down_is_found(qapp) -> None:
    doc = _doc()
    groups = code_groups(doc)
    assert len(groups) == 40
    box, text = groups[-3]
    assert text == "for i in range(3):\n    print(i)"
    assert copy_button_at(doc, copy_button_rect(box).center()) == text
    assert copy_button_at(doc, QPointF(box.center().x(), box.bottom() + 40)) is None
    visible = code_groups(doc, QRectF(0, box.top(), 440, 10))
    assert [t for _b, t in visible] == [text] and visible[0][0] == box
