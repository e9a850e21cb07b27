"""What the deliverable viewer shows, read from disk in a worker thread (never on the loop).

:func:`load` returns a :class:`Content`: Markdown, HTML or text to render; a DOCX as a
faithful outline (headings, paragraphs with their bold, italic, code and links, lists,
tables and pictures, in document order); workbook sheets (cached values shown, formulas
kept for tooltips); PDF pages and deck slides as pictures (deliverables/pages.py); a
DOCX or deck as the pages LibreOffice makes of it, when a converter is given and can
(deliverables/office_pdf.py; else the outline or the drawn slides, with a note); an
image; or an error sentence. Only QImage is made here (QPixmap belongs to the GUI thread).
"""

from __future__ import annotations

import csv
import html
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QImage

from openworker_qt.deliverables import office_pdf

MAX_ROWS = 500  # rows of a sheet shown
MAX_COLUMNS = 60
MAX_TEXT = 400_000
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".svg"}


def _t(text: str) -> str:
    return QCoreApplication.translate("DeliverableViewer", text)


@dataclass
class Sheet:
    name: str
    rows: list[list[str]]
    #: (row, column) → the formula the cell's value comes from.
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)
    #: a chart sheet's chart, drawn (its ``rows`` are then empty)
    picture: QImage | None = None


@dataclass
class Content:
    kind: str  # "markdown", "html", "text", "document", "sheets", "pages", "error"
    text: str = ""
    sheets: list[Sheet] = field(default_factory=list)
    pages: list[QImage] = field(default_factory=list)
    #: how many pages the file has (more than ``pages`` when only the first are drawn)
    total: int = 0
    #: resources a ``document``'s HTML names: ``docx-image:N`` → the picture
    images: dict[str, QImage] = field(default_factory=dict)
    #: a sentence for the status line: how the pages were made (an outline instead of
    #: LibreOffice's pages, and why)
    note: str = ""


def qimage(picture: Any) -> QImage:
    """A Pillow image as a QImage (a copy, owning its pixels)."""
    rgb = picture.convert("RGB")
    data = rgb.tobytes()
    image = QImage(data, rgb.width, rgb.height, 3 * rgb.width, QImage.Format.Format_RGB888)
    return image.copy()


def _cell(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{round(value, 10):.10g}"
    return "" if value is None else str(value)


def formatted(value: Any, fmt: str) -> str:
    """A number as the cell's number format shows it, for the common formats a workbook
    uses (``#,##0.00``, ``0.0%``, ``"€"#,##0``, ``[$$-409]#,##0``); anything else as
    :func:`_cell` writes it."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not fmt \
            or fmt == "General" or any(ch in fmt for ch in "dmyhs@"):
        return _cell(value)
    section = fmt.split(";")[0]
    if section.startswith("[$"):  # [$€-407]#,##0.00: the symbol
        symbol, _, section = section[2:].partition("]")
        section = symbol.split("-")[0] + section
    digits = section.replace('"', "").replace("\\", "")
    start = next((i for i, ch in enumerate(digits) if ch in "#0"), len(digits))
    end = max((i for i, ch in enumerate(digits) if ch in "#0%"), default=start - 1) + 1
    prefix, body, suffix = digits[:start], digits[start:end], digits[end:]
    decimals = len(body.split(".")[1].rstrip("%")) if "." in body else 0
    number = value * 100 if "%" in body else value
    text = f"{number:,.{decimals}f}" if "," in body else f"{number:.{decimals}f}"
    return f"{prefix}{text}{'%' if '%' in body else ''}{suffix}"


def load(path_text: str, office: office_pdf.Converter | None = None) -> Content:
    """Everything the viewer shows of the file (worker thread). With ``office``, a DOCX
    or PPTX is shown as the pages LibreOffice makes of it when it can."""
    path = Path(path_text)
    if not path.is_file():
        return Content("error", _t("This file is no longer there."))
    suffix = path.suffix.lower()
    try:
        if office is not None and suffix in office_pdf.SUFFIXES:
            return _office(path, office)
        return _READERS.get(suffix, _text)(path)
    except Exception as exc:
        return Content("error", _t("This file could not be read: {error}").format(error=exc))


def _office(path: Path, office: office_pdf.Converter) -> Content:
    """The file's true pages from LibreOffice; else the outline (a DOCX) or the slides
    drawn from their shapes (a deck), with a note saying so and why."""
    from openworker_qt.deliverables import pages

    deck = path.suffix.lower() == ".pptx"
    if not office.available:
        shown = (_t("Slides drawn from their shapes (line breaks may differ). Install "
                    "LibreOffice to see the real slides.") if deck else
                 _t("An outline of the text and pictures. Install LibreOffice to see the "
                    "real pages."))
        return _with_note(_READERS[path.suffix.lower()](path), shown)
    try:
        pdf = office.pdf_for(path)
        drawn = pages.pdf_pages(pdf)
    except (office_pdf.ConversionError, ValueError) as exc:
        timed_out = getattr(exc, "timed_out", False)
        why = (_t("LibreOffice did not finish in time") if timed_out else
               _t("LibreOffice could not convert the file"))
        shown = (_t("{why}, so the slides are drawn from their shapes (line breaks may "
                    "differ).") if deck else
                 _t("{why}, so this is an outline of the text and pictures."))
        return _with_note(_READERS[path.suffix.lower()](path), shown.format(why=why))
    return Content("pages", pages=[qimage(p) for p in drawn], total=pages.page_count(pdf))


def _with_note(content: Content, note: str) -> Content:
    content.note = note
    return content


def _text(path: Path) -> Content:
    text = path.read_text(encoding="utf-8", errors="replace")[:MAX_TEXT]
    suffix = path.suffix.lower()
    kind = "markdown" if suffix in {".md", ".markdown"} else (
        "html" if suffix in {".html", ".htm"} else "text")
    return Content(kind, text)


def _image(path: Path) -> Content:
    image = QImage(str(path))
    if image.isNull():
        return Content("error", _t("This image could not be read."))
    return Content("pages", pages=[image], total=1)


def _pdf(path: Path) -> Content:
    from openworker_qt.deliverables import pages

    try:
        drawn = pages.pdf_pages(path)
    except ValueError:
        return Content("error", _t("This PDF could not be read."))
    return Content("pages", pages=[qimage(p) for p in drawn], total=pages.page_count(path))


def _pptx(path: Path) -> Content:
    from openworker_qt.deliverables import pages

    drawn, total = pages.slide_pictures(path)
    return Content("pages", pages=[qimage(p) for p in drawn], total=total)


def _csv(path: Path) -> Content:
    with path.open(newline="", encoding="utf-8-sig", errors="replace") as fh:
        rows = [list(r)[:MAX_COLUMNS] for r in itertools.islice(csv.reader(fh), MAX_ROWS + 1)]
    return Content("sheets", sheets=[Sheet(path.stem, rows)])


def _xlsx(path: Path) -> Content:
    from openpyxl import load_workbook

    from openworker_qt.deliverables.formulas import formula_values

    written = load_workbook(path, read_only=True)
    cached = load_workbook(path, read_only=True, data_only=True)
    sheets: list[Sheet] = []
    try:
        for sheet, values in zip(written.worksheets, cached.worksheets, strict=True):
            raw = [list(r)[:MAX_COLUMNS] for r in sheet.iter_rows(max_row=MAX_ROWS + 1,
                                                                  values_only=True)]
            stored = [[(c.value, getattr(c, "number_format", "General")) for c in r][:MAX_COLUMNS]
                      for r in values.iter_rows(max_row=MAX_ROWS + 1)]
            worked = formula_values(raw)  # for files written without cached values
            rows: list[list[str]] = []
            formulas: dict[tuple[int, int], str] = {}
            for r, row in enumerate(raw):
                shown: list[str] = []
                for c, value in enumerate(row):
                    cache, fmt = stored[r][c] if r < len(stored) and c < len(stored[r]) else (
                        None, "General")
                    if isinstance(value, str) and value.startswith("="):
                        formulas[(r, c)] = value
                        value = cache if cache is not None else worked[r][c]
                    shown.append(formatted(value, fmt))
                rows.append(shown)
            sheets.append(Sheet(sheet.title, rows, formulas))
        charts = [c.title for c in getattr(written, "chartsheets", [])]
        order = list(written.sheetnames)
    finally:
        written.close()
        cached.close()
    if charts:
        from openworker_qt.deliverables.chart_sheets import chart_sheet_pictures

        drawn = chart_sheet_pictures(path)
        for title in charts:
            if title in drawn:
                sheets.append(Sheet(title, [], picture=qimage(drawn[title])))
            else:
                sheets.append(Sheet(title, [[_t(
                    "This sheet is a chart; open the workbook to see it.")]]))
        sheets.sort(key=lambda sheet: order.index(sheet.name))  # as the workbook has them
    return Content("sheets", sheets=sheets)


# ------------------------------------------------------------------ docx outline


def _docx(path: Path) -> Content:
    import docx
    from docx.table import Table

    from openworker_qt.deliverables.plain_text import docx_blocks

    document = docx.Document(str(path))
    images: dict[str, QImage] = {}
    out: list[str] = []
    open_list = ""
    for block in docx_blocks(document):
        kind = _list_kind(block) if not isinstance(block, Table) else ""
        if open_list and kind != open_list:
            out.append(f"</{open_list}>")
            open_list = ""
        if kind and not open_list:
            out.append(f"<{kind}>")
            open_list = kind
        if isinstance(block, Table):
            out.append(_table_html(block))
        else:
            out.append(_paragraph_html(block, document, images, kind))
    if open_list:
        out.append(f"</{open_list}>")
    return Content("document", "\n".join(out)[:MAX_TEXT], images=images)


def _list_kind(paragraph: Any) -> str:
    style = (paragraph.style.name or "") if paragraph.style is not None else ""
    if style.startswith("List Number"):
        return "ol"
    if style.startswith("List"):
        return "ul"
    return ""


def _run_html(run: Any) -> str:
    text = html.escape(run.text)
    if not text:
        return ""
    font = run.font
    if font.name and any(m in font.name for m in ("Mono", "Courier", "Consolas")):
        text = f"<code>{text}</code>"
    if run.bold:
        text = f"<b>{text}</b>"
    if run.italic:
        text = f"<i>{text}</i>"
    return text


def _pictures(run: Any, document: Any, images: dict[str, QImage]) -> str:
    shown = []
    for blip in run._r.xpath(".//a:blip"):
        rid = blip.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed")
        part = document.part.related_parts.get(rid) if rid else None
        if part is None:
            continue
        image = QImage.fromData(part.blob)
        if image.isNull():
            continue
        name = f"docx-image:{len(images)}"
        images[name] = image
        width = min(image.width(), 640)
        shown.append(f'<img src="{name}" width="{width}">')
    return "".join(shown)


def _paragraph_html(paragraph: Any, document: Any, images: dict[str, QImage],
                    list_kind: str) -> str:
    from docx.text.hyperlink import Hyperlink

    parts: list[str] = []
    for item in paragraph.iter_inner_content():
        if isinstance(item, Hyperlink):
            label = "".join(_run_html(r) for r in item.runs)
            parts.append(f'<a href="{html.escape(item.address or "")}">{label}</a>')
        else:
            parts.append(_run_html(item) + _pictures(item, document, images))
    body = "".join(parts)
    style = (paragraph.style.name or "") if paragraph.style is not None else ""
    if list_kind:
        return f"<li>{body}</li>"
    if style == "Title":
        return f"<h1>{body}</h1>"
    if style.startswith("Heading ") and style[8:].isdigit():
        level = min(int(style[8:]) + 1, 6)
        return f"<h{level}>{body}</h{level}>"
    return f"<p>{body}</p>" if body else ""


def _table_html(table: Any) -> str:
    """The table as HTML with each cell's fill, text colour, weight and alignment."""
    rows = []
    for n, row in enumerate(table.rows):
        tag = "th" if n == 0 else "td"
        rows.append("<tr>" + "".join(_cell_html(tag, c) for c in row.cells) + "</tr>")
    return '<table border="1" cellspacing="0" cellpadding="4">' + "".join(rows) + "</table>"


def _cell_html(tag: str, cell: Any) -> str:
    from docx.enum.text import WD_ALIGN_PARAGRAPH

    attrs = ""
    shading = cell._tc.xpath("./w:tcPr/w:shd/@w:fill")
    if shading and shading[0] not in ("auto", ""):
        attrs += f' bgcolor="#{shading[0]}"'
    paragraph = cell.paragraphs[0] if cell.paragraphs else None
    align = paragraph.alignment if paragraph is not None else None
    if align == WD_ALIGN_PARAGRAPH.RIGHT:
        attrs += ' align="right"'
    elif align == WD_ALIGN_PARAGRAPH.CENTER:
        attrs += ' align="center"'
    else:
        attrs += ' align="left"'

    text = html.escape(cell.text)
    runs = paragraph.runs if paragraph is not None else []
    colour = runs[0].font.color.rgb if runs and runs[0].font.color.type is not None else None
    if colour is not None:
        text = f'<span style="color:#{colour}">{text}</span>'
    if runs and runs[0].bold:
        text = f"<b>{text}</b>"
    return f"<{tag}{attrs}>{text}</{tag}>"


_READERS = {".pdf": _pdf, ".pptx": _pptx, ".csv": _csv, ".xlsx": _xlsx, ".docx": _docx,
            **{s: _image for s in IMAGE_SUFFIXES}}
