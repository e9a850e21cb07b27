"""A report's front matter, asked for with :class:`base.Options`: a cover page (title,
subtitle, author, date) and a table of contents from the headings, in DOCX and PDF; and
the words the page furniture says in the document's language ("Page 2 of 5",
"第 2 页，共 5 页"). No Qt.

In a PDF the contents carry the page of each heading and link to it (fpdf2's outline,
so the reader's bookmarks list them too). A DOCX cannot know its pages before a word
processor lays it out: its contents are a real TOC field whose entries are already
written (each heading's text, linked to it), so they read right when opened and get
their page numbers when the field is updated (F9 in Word, Tools → Update in LibreOffice).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from openworker_qt.deliverables.base import THEME, Options
from openworker_qt.deliverables.inline import plain

_WORDS = {
    "en": {"page": "Page {n} of {total}", "contents": "Contents", "by": "{author}"},
    "zh": {"page": "第 {n} 页，共 {total} 页", "contents": "目录", "by": "{author}"},
}
_CONTENTS_LINES_A_PAGE = 32


def words(lang: str) -> dict[str, str]:
    """The furniture's words for a language tag (English unless it is Chinese)."""
    return _WORDS["zh" if lang.startswith("zh") else "en"]


def headings(blocks: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """(level 1-3, plain text) of every heading block, in order."""
    return [(int(b.get("level", 1)), plain(str(b["text"]))) for b in blocks
            if b["type"] == "heading"]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[0:2], 16), int(hex_colour[2:4], 16), int(hex_colour[4:6], 16)


# ------------------------------------------------------------------ PDF


def pdf_cover(doc: Any, title: str, options: Options, family: str,
              clean: Callable[[str], str]) -> None:
    """The cover: the title large a third of the way down, an accent rule, the subtitle,
    then the author and the date; the page carries no header or footer."""
    doc.set_y(doc.h * 0.32)
    doc.set_font(family, "B", 28)
    doc.multi_cell(doc.epw, 13, clean(plain(title) or options.subtitle), new_x="LMARGIN",
                   new_y="NEXT")
    doc.set_draw_color(*_rgb(THEME["accent"]))
    doc.set_line_width(1.2)
    y = doc.get_y() + 4
    doc.line(doc.l_margin, y, doc.l_margin + 30, y)
    doc.set_y(y + 6)
    if options.subtitle and plain(title):
        doc.set_font(family, "", 14)
        doc.set_text_color(*_rgb(THEME["muted"]))
        doc.multi_cell(doc.epw, 7, clean(plain(options.subtitle)), new_x="LMARGIN",
                       new_y="NEXT")
    doc.set_y(doc.h * 0.78)
    doc.set_font(family, "", 11)
    doc.set_text_color(*_rgb(THEME["muted"]))
    for line in (options.author, datetime.now().strftime("%Y-%m-%d")):
        if line:
            doc.cell(doc.epw, 6, clean(line), new_x="LMARGIN", new_y="NEXT")
    doc.set_text_color(0, 0, 0)
    doc.set_draw_color(0, 0, 0)
    doc.set_line_width(0.2)
    doc.add_page()


def pdf_contents(doc: Any, blocks: list[dict[str, Any]], said: dict[str, str], family: str,
                 clean: Callable[[str], str]) -> None:
    """Room for the contents (drawn at the end, when every heading's page is known)."""
    count = len(headings(blocks))
    pages = max(1, math.ceil((count + 3) / _CONTENTS_LINES_A_PAGE))

    def draw(pdf: Any, outline: list[Any]) -> None:
        # Each line's page number first, its name last: fpdf2 loses the font after text
        # drawn partly in the fallback (CJK) font, so what may need it comes last.
        pdf.set_x(pdf.l_margin)
        pdf.set_font(family, "B", 16)
        pdf.cell(pdf.epw, 10, clean(said["contents"]), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
        for section in outline:
            indent = 6 * section.level
            style, size = ("B", 11.0) if section.level == 0 else ("", 10.5)
            link = pdf.add_link(page=section.page_number)
            y = pdf.get_y()
            pdf.set_font(family, style, size)
            pdf.set_xy(pdf.l_margin + pdf.epw - 14, y)
            pdf.cell(14, 7, str(section.page_number), align="R", link=link)
            room = pdf.epw - indent - 16
            name = clean(section.name)
            pdf.set_font(family, style, size)
            while len(name) > 1 and pdf.get_string_width(name) > room:
                name = name[:-2] + "…"
            pdf.set_xy(pdf.l_margin + indent, y)
            pdf.cell(room, 7, name, link=link, new_x="LMARGIN", new_y="NEXT")

    doc.insert_toc_placeholder(draw, pages=pages, allow_extra_pages=True)


class Sections:
    """Each heading of a PDF registered as an outline section (its level kept coherent:
    a level 3 straight after a level 1 becomes level 2, as fpdf2 requires)."""

    def __init__(self) -> None:
        self.last = -1

    def start(self, doc: Any, level: int, text: str) -> None:
        wanted = min(level - 1, self.last + 1)
        self.last = wanted
        doc.start_section(text, level=wanted, strict=False)


# ------------------------------------------------------------------ DOCX


def docx_cover(doc: Any, title: str, options: Options) -> None:
    """The cover page (no header or footer on it), then a page break."""
    from docx.enum.text import WD_BREAK
    from docx.shared import Pt, RGBColor

    doc.sections[0].different_first_page_header_footer = True
    for _ in range(8):
        doc.add_paragraph()
    head = doc.add_paragraph(style="Title")
    head.add_run(plain(title) or options.subtitle)
    if options.subtitle and plain(title):
        sub = doc.add_paragraph(style="Subtitle")
        sub.add_run(plain(options.subtitle))
    for _ in range(10):
        doc.add_paragraph()
    for line in (options.author, datetime.now().strftime("%Y-%m-%d")):
        if line:
            run = doc.add_paragraph().add_run(line)
            run.font.size, run.font.color.rgb = Pt(11), RGBColor.from_string(THEME["muted"])
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)


def docx_contents(doc: Any, blocks: list[dict[str, Any]], said: dict[str, str]) -> None:
    """The contents: a TOC field over heading levels 1-3 whose entries are written
    already (linked to bookmarks set on the headings by :func:`bookmark`)."""
    from docx.enum.text import WD_BREAK
    from docx.shared import Pt

    title = doc.add_paragraph()
    run = title.add_run(said["contents"])
    run.bold, run.font.size = True, Pt(16)
    entries = headings(blocks)
    if not entries:
        entries = [(1, "")]
    for n, (level, text) in enumerate(entries):
        para = doc.add_paragraph()
        para.paragraph_format.left_indent = Pt(14 * (level - 1))
        if n == 0:
            _field_char(para, "begin")
            _instr(para, 'TOC \\o "1-3" \\h \\z \\u')
            _field_char(para, "separate")
        if text:
            _internal_link(para, f"_Toc{n + 1}", text)
        if n == len(entries) - 1:
            _field_char(para, "end")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)


def bookmark(paragraph: Any, n: int) -> None:
    """Bookmark ``_Toc<n>`` around the heading paragraph (the contents link to it)."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    start = OxmlElement("w:bookmarkStart")
    start.set(qn("w:id"), str(n))
    start.set(qn("w:name"), f"_Toc{n}")
    end = OxmlElement("w:bookmarkEnd")
    end.set(qn("w:id"), str(n))
    paragraph._p.insert(1 if paragraph._p.pPr is not None else 0, start)
    paragraph._p.append(end)


def _field_char(paragraph: Any, kind: str) -> None:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    char = OxmlElement("w:fldChar")
    char.set(qn("w:fldCharType"), kind)
    paragraph.add_run()._r.append(char)


def _instr(paragraph: Any, code: str) -> None:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    text = OxmlElement("w:instrText")
    text.set(qn("xml:space"), "preserve")
    text.text = code
    paragraph.add_run()._r.append(text)


def _internal_link(paragraph: Any, anchor: str, text: str) -> None:
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    link = OxmlElement("w:hyperlink")
    link.set(qn("w:anchor"), anchor)
    link.set(qn("w:history"), "1")
    run = paragraph.add_run(text)
    link.append(run._r)
    paragraph._p.append(link)
