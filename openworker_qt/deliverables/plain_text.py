"""The text of a deliverable, read back for copying and for comparing two versions (no Qt).

Markdown, HTML and CSV are their own text; an SVG chart the words it shows (its title and
each label, one a line: its text is drawn as outlines), another SVG its source; a DOCX its paragraphs and table rows
(cells joined by a tab), in document order; a workbook each sheet's rows (tab-separated,
formulas as written); a deck each slide's text; a PDF its extracted text. Pictures have
none (None). Bounded: at most :data:`MAX_CHARS` characters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

MAX_CHARS = 400_000
TEXT_SUFFIXES = {".md", ".markdown", ".html", ".htm", ".csv", ".svg", ".txt", ".json"}


def text_of(path: Path) -> str | None:
    """The file's text (see module docstring); None for a kind without text."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        source = path.read_text(encoding="utf-8", errors="replace")
        return (_svg_words(source) or source)[:MAX_CHARS]
    if suffix in TEXT_SUFFIXES:
        return path.read_text(encoding="utf-8", errors="replace")[:MAX_CHARS]
    reader = {".docx": _docx, ".xlsx": _xlsx, ".pptx": _pptx, ".pdf": _pdf}.get(suffix)
    return None if reader is None else reader(path)[:MAX_CHARS]


def _svg_words(source: str) -> str:
    """The words an SVG shows: its title, each text's label or text ("" for none, or
    for a file that is not XML)."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(source.encode("utf-8"), parser)
    except etree.XMLSyntaxError:
        return ""
    words: list[str] = []
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag in ("title", "text") and element.text:
            words.append(element.text)
        elif tag == "path" and element.get("aria-label"):
            words.append(str(element.get("aria-label")))
    return "\n".join(words)


def docx_blocks(document: Any) -> list[Any]:
    """The document's paragraphs and tables in the order they appear."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    blocks: list[Any] = []
    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            blocks.append(Paragraph(child, document))
        elif tag == "tbl":
            blocks.append(Table(child, document))
    return blocks


def _docx(path: Path) -> str:
    import docx
    from docx.table import Table

    lines: list[str] = []
    for block in docx_blocks(docx.Document(str(path))):
        if isinstance(block, Table):
            lines += ["\t".join(c.text for c in row.cells) for row in block.rows]
        else:
            lines.append(block.text)
    return "\n".join(lines)


def _xlsx(path: Path) -> str:
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True)
    lines: list[str] = []
    try:
        for sheet in wb.worksheets:
            lines.append(f"# {sheet.title}")
            for row in sheet.iter_rows(max_row=5000, values_only=True):
                lines.append("\t".join("" if v is None else str(v) for v in row))
    finally:
        wb.close()
    return "\n".join(lines)


def _pptx(path: Path) -> str:
    from pptx import Presentation

    lines: list[str] = []
    for n, slide in enumerate(Presentation(str(path)).slides, 1):
        lines.append(f"# {n}")
        for shape in slide.shapes:
            if shape.name == "Slide Number":
                continue
            if shape.has_text_frame:
                lines += [p.text for p in shape.text_frame.paragraphs if p.text]
            elif getattr(shape, "has_table", False):
                lines += ["\t".join(c.text for c in row.cells) for row in shape.table.rows]
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            lines.append(slide.notes_slide.notes_text_frame.text)
    return "\n".join(lines)


def _pdf(path: Path) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages[:200])
