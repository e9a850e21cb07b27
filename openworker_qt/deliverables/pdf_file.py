"""PDF documents (fpdf2) from content blocks, with fonts that hold every character."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from openworker_qt.deliverables import charts
from openworker_qt.deliverables.base import (
    DocumentError,
    Rendered,
    cells,
    fraction,
    picture,
    show,
    unicode_font,
)


def _pdf_words(title: str, blocks: list[dict[str, Any]]) -> str:
    """Every piece of text the PDF prints (to choose its fonts)."""
    parts = [title]
    for b in blocks:
        if b["type"] in ("heading", "paragraph"):
            parts.append(str(b.get("text", "")))
        elif b["type"] == "list":
            parts += [str(item) for item in b.get("items") or []]
        elif b["type"] == "table":
            columns, rows = cells(b)
            parts += [str(c) for c in columns] + [show(v) for r in rows for v in r]
    return "\n".join(parts)


def _add_fallback_font(pdf: Any, font: tuple[Path, Path], words: str) -> None:
    """Characters the main font lacks (Chinese, Japanese, Korean…) are drawn with a
    system font that has them; when none has them the PDF is refused, rather than
    written with the words silently left out."""
    missing = charts.missing_glyphs(font[0], words)
    if not missing:
        return
    pair = charts.pick_fonts(missing, font)
    if pair is None or pair == font:
        raise DocumentError(
            f"This PDF cannot show some of its characters ({missing[:12]}): no font on "
            "this computer has them. Write a .docx or .html instead (they use the "
            "reader's fonts), or leave these characters out.")
    pdf.add_font("DocFallback", "", str(pair[0]))
    pdf.add_font("DocFallback", "B", str(pair[1]))
    pdf.set_fallback_fonts(["DocFallback"])


def pdf(title: str, blocks: list[dict[str, Any]]) -> Rendered:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    try:
        return _pdf_pages(pdf, title, blocks)
    finally:  # fpdf2 reads each TrueType font lazily and keeps its file open until closed
        for entry in pdf.fonts.values():
            ttfont = getattr(entry, "ttfont", None)  # core (built-in) fonts have none
            if ttfont is not None:
                ttfont.close()


def _pdf_pages(pdf: Any, title: str, blocks: list[dict[str, Any]]) -> Rendered:
    from fpdf.fonts import FontFace

    pdf.set_auto_page_break(auto=True, margin=15)
    font = unicode_font()
    family = "Helvetica"
    if font is not None:
        family = "DocSans"
        pdf.add_font(family, "", str(font[0]))
        pdf.add_font(family, "B", str(font[1]))
        _add_fallback_font(pdf, font, _pdf_words(title, blocks))

    def clean(text: str) -> str:
        return text if font is not None else text.encode("latin-1", "replace").decode("latin-1")

    pdf.set_title(title or "Document")
    pdf.add_page()
    width = pdf.epw
    if title:
        pdf.set_font(family, "B", 20)
        pdf.multi_cell(width, 10, clean(title), new_x="LMARGIN", new_y="NEXT", align="L")
        pdf.ln(4)
    for b in blocks:
        t = b["type"]
        if t == "heading":
            size = {1: 16, 2: 13, 3: 11}[int(b.get("level", 1))]
            pdf.set_font(family, "B", size)
            pdf.ln(2)
            pdf.multi_cell(width, size * 0.5, clean(str(b["text"])), new_x="LMARGIN",
                           new_y="NEXT", align="L")
            pdf.ln(1)
        elif t == "paragraph":
            pdf.set_font(family, "", 11)
            pdf.multi_cell(width, 5.5, clean(str(b["text"])), new_x="LMARGIN", new_y="NEXT",
                           align="L")
            pdf.ln(2)
        elif t == "list":
            pdf.set_font(family, "", 11)
            bullet = "•" if font is not None else "-"
            for n, item in enumerate(b["items"], 1):
                mark = f"{n}." if b.get("ordered") else bullet
                pdf.set_x(pdf.l_margin + 2)
                pdf.cell(7, 5.5, mark)
                pdf.multi_cell(width - 9, 5.5, clean(str(item)), new_x="LMARGIN",
                               new_y="NEXT", align="L")
            pdf.ln(2)
        elif t == "table":
            columns, rows = cells(b)
            pdf.set_font(family, "", 9)
            head = FontFace(emphasis="BOLD", fill_color=(232, 238, 247))
            with pdf.table(headings_style=head, line_height=5) as table:
                row = table.row()
                for c in columns:
                    row.cell(clean(c))
                for values in rows:
                    row = table.row()
                    for v in values:
                        row.cell(clean(show(v)))
            pdf.ln(3)
        else:
            data, _mime = picture(b)
            try:
                pdf.image(io.BytesIO(data), w=width * fraction(b.get("width")))
            except Exception as exc:  # fpdf2/Pillow raise many kinds for a bad image
                raise DocumentError(f"An image could not be placed in the PDF: {exc}.") from None
            pdf.ln(3)
    data = bytes(pdf.output())
    pages = pdf.pages_count
    return Rendered(data, f"{pages} page{'s' * (pages != 1)}")
