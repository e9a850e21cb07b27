"""DOCX documents (python-docx) from content blocks."""

from __future__ import annotations

import io
from typing import Any

from openworker_qt.deliverables.base import Rendered, cells, count_blocks, fraction, picture, show


def docx(title: str, blocks: list[dict[str, Any]]) -> Rendered:
    from docx import Document
    from docx.shared import Inches

    doc = Document()
    if title:
        doc.add_heading(title, level=0)
    for b in blocks:
        t = b["type"]
        if t == "heading":
            doc.add_heading(str(b["text"]), level=int(b.get("level", 1)))
        elif t == "paragraph":
            doc.add_paragraph(str(b["text"]))
        elif t == "list":
            style = "List Number" if b.get("ordered") else "List Bullet"
            for item in b["items"]:
                doc.add_paragraph(str(item), style=style)
        elif t == "table":
            columns, rows = cells(b)
            table = doc.add_table(rows=1, cols=len(columns))
            table.style = "Table Grid"
            for cell, text in zip(table.rows[0].cells, columns, strict=True):
                cell.text = text
                for run in cell.paragraphs[0].runs:
                    run.bold = True
            for row in rows:
                for cell, value in zip(table.add_row().cells, row, strict=True):
                    cell.text = show(value)
        else:
            data, _mime = picture(b)
            frac = fraction(b.get("width"))
            doc.add_picture(io.BytesIO(data), width=Inches(6.0 * frac))
    buf = io.BytesIO()
    doc.save(buf)
    return Rendered(buf.getvalue(), count_blocks(blocks))
