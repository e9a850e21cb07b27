"""Finished documents from a list of content blocks (no Qt): Markdown, HTML, CSV, XLSX, DOCX, PDF.

A document is a title and a list of blocks, each a dict with a ``type``:

- ``heading``: ``text``, ``level`` (1–3);
- ``paragraph``: ``text``;
- ``list``: ``items`` (strings), ``ordered`` (bool);
- ``table``: ``columns`` (header strings), ``rows`` (lists of cells), optional
  ``sheet`` (XLSX sheet name) and ``widths`` (XLSX column widths, in characters).
  In XLSX a string cell starting with ``=`` is a formula;
- ``image``: ``path`` (a PNG or JPEG file, already resolved by the caller), ``width``
  (fraction of the page width, default 1);
- ``chart``: ``kind`` (bar, line or pie), ``title``, ``labels`` and ``series``
  (``[{"name": ..., "values": [...]}]``), rendered to PNG with Pillow (deliverables/charts.py).

Everything here is CPU and disk work: callers run it in a worker thread.
:class:`DocumentError` carries a message meant for the model (what is wrong, how to
fix it); nothing is written when it is raised (the caller writes the returned bytes).
"""

from __future__ import annotations

import base64
import csv
import html
import io
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openworker_qt.deliverables import charts
from openworker_qt.deliverables.formulas import CELL_REF
from openworker_qt.domain.documents import BLOCK_TYPES, CHART_KINDS, FORMATS

MAX_BLOCKS = 1_000
MAX_CELLS = 200_000
MAX_TEXT_CHARS = 2_000_000
MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_CHART_POINTS = 10_000
EXCEL_ERRORS = ("#DIV/0!", "#NAME?", "#REF!", "#VALUE!", "#N/A", "#NUM!", "#NULL!")


class DocumentError(ValueError):
    """The content cannot make the document (the message says why, for the model)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    data: bytes
    #: A short account for the result: "3 pages", "2 sheets (Sales, Costs)".
    summary: str


# --------------------------------------------------------------- validation


def _text(block: Mapping[str, Any], key: str, where: str) -> str:
    value = block.get(key)
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise DocumentError(f"{where}: '{key}' must be a string.")
    return str(value)


def validate(fmt: str, blocks: Any) -> list[dict[str, Any]]:
    """The blocks, checked: types, shapes and size caps (:class:`DocumentError` if not)."""
    if fmt not in FORMATS:
        raise DocumentError(f"Unknown format {fmt!r}; use one of: {', '.join(FORMATS)}.")
    if not isinstance(blocks, list) or not blocks:
        raise DocumentError("'content' must be a non-empty list of blocks.")
    if len(blocks) > MAX_BLOCKS:
        raise DocumentError(f"Too many blocks ({len(blocks)}); the limit is {MAX_BLOCKS}.")
    cells = chars = 0
    out: list[dict[str, Any]] = []
    for i, block in enumerate(blocks, 1):
        where = f"Block {i}"
        if not isinstance(block, dict):
            raise DocumentError(f"{where} must be an object with a 'type'.")
        kind = block.get("type")
        if kind not in BLOCK_TYPES:
            raise DocumentError(
                f"{where} has type {kind!r}; use one of: {', '.join(BLOCK_TYPES)}.")
        where = f"Block {i} ({kind})"
        if kind in ("heading", "paragraph"):
            chars += len(_text(block, "text", where))
            level = block.get("level", 1)
            if kind == "heading" and (not isinstance(level, int) or not 1 <= level <= 3):
                raise DocumentError(f"{where}: 'level' must be 1, 2 or 3.")
        elif kind == "list":
            items = block.get("items")
            if not isinstance(items, list) or not items:
                raise DocumentError(f"{where}: 'items' must be a non-empty list of strings.")
            for item in items:
                chars += len(_text({"item": item}, "item", where))
        elif kind == "table":
            columns, rows = block.get("columns"), block.get("rows", [])
            if not isinstance(columns, list) or not columns:
                raise DocumentError(f"{where}: 'columns' must be a non-empty list of headers.")
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise DocumentError(f"{where}: 'rows' must be a list of lists of cells.")
            for n, row in enumerate(rows, 1):
                if len(row) > len(columns):
                    raise DocumentError(
                        f"{where}: row {n} has {len(row)} cells but there are only "
                        f"{len(columns)} columns.")
                for cell in row:
                    if cell is not None and not isinstance(cell, str | int | float):
                        raise DocumentError(
                            f"{where}: row {n} holds {cell!r}; cells are strings, numbers "
                            "or null.")
                    chars += len(str(cell)) if isinstance(cell, str) else 0
            cells += len(columns) * (len(rows) + 1)
        elif kind == "image":
            _text(block, "path", where)
        else:
            _check_chart(block, where)
        if cells > MAX_CELLS:
            raise DocumentError(f"The tables hold more than {MAX_CELLS:,} cells; split them up.")
        if chars > MAX_TEXT_CHARS:
            raise DocumentError(
                f"The content holds more than {MAX_TEXT_CHARS:,} characters; split it up.")
        out.append(block)
    if fmt in ("csv", "xlsx"):
        strays = [b["type"] for b in out if b["type"] != "table"]
        if fmt == "csv" and (strays or len(out) != 1):
            raise DocumentError("A CSV holds exactly one block, of type 'table'.")
        if fmt == "xlsx" and strays:
            raise DocumentError(
                "An XLSX holds only 'table' blocks (one sheet each); put headings, text, "
                "images and charts in a docx, pdf, html or md deliverable.")
    return out


def _check_chart(block: Mapping[str, Any], where: str) -> None:
    if block.get("kind", "bar") not in CHART_KINDS:
        raise DocumentError(f"{where}: 'kind' must be one of: {', '.join(CHART_KINDS)}.")
    labels, series = block.get("labels"), block.get("series")
    if not isinstance(labels, list) or not labels:
        raise DocumentError(f"{where}: 'labels' must be a non-empty list.")
    if not isinstance(series, list) or not series:
        raise DocumentError(f"{where}: 'series' must be a list of {{name, values}}.")
    for s in series:
        values = s.get("values") if isinstance(s, dict) else None
        if not isinstance(values, list) or len(values) != len(labels) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values
        ):
            raise DocumentError(
                f"{where}: each series needs 'values', {len(labels)} numbers (one per label).")
    if len(labels) * len(series) > MAX_CHART_POINTS:
        raise DocumentError(f"{where}: more than {MAX_CHART_POINTS} points.")


# --------------------------------------------------------------- pieces


def chart_png(block: Mapping[str, Any]) -> bytes:
    """The chart as PNG bytes (Pillow, in :mod:`openworker_qt.deliverables.charts`; called in
    the worker), drawn with the PDF's font."""
    try:
        return charts.chart_png(block, unicode_font())
    except ImportError:
        raise DocumentError(
            "Charts cannot be drawn here (the imaging library, Pillow, is not "
            "installed). Leave the chart out or give its numbers as a table.") from None
    except charts.ChartError as exc:
        raise DocumentError(f"The chart {str(block.get('title') or '')!r} cannot be drawn: "
                            f"{exc}") from None


def image_bytes(block: Mapping[str, Any]) -> tuple[bytes, str]:
    """The image's bytes and MIME type (the path is already resolved and checked)."""
    path = Path(block["path"])
    try:
        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            raise DocumentError(f"The image {path} is larger than 20 MB.")
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"The image {path} cannot be read: {exc.strerror or exc}.") from None
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return data, "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return data, "image/jpeg"
    raise DocumentError(f"The image {path} is not a PNG or JPEG file.")


def _picture(block: Mapping[str, Any]) -> tuple[bytes, str]:
    return (chart_png(block), "image/png") if block["type"] == "chart" else image_bytes(block)


def _cells(block: Mapping[str, Any]) -> tuple[list[str], list[list[Any]]]:
    columns = [str(c) for c in block["columns"]]
    rows = [list(r) + [None] * (len(columns) - len(r)) for r in block.get("rows", [])]
    return columns, rows


def _blocks(blocks: list[dict[str, Any]]) -> str:
    return f"{len(blocks)} block{'s' * (len(blocks) != 1)}"


def _show(cell: Any) -> str:
    return "" if cell is None else str(cell)


# --------------------------------------------------------------- formats


def render(fmt: str, title: str, blocks: list[dict[str, Any]]) -> Rendered:
    """The finished file's bytes. Blocks must have passed :func:`validate`."""
    renderer = {"md": _markdown, "html": _html, "csv": _csv, "xlsx": _xlsx,
                "docx": _docx, "pdf": _pdf}[fmt]
    return renderer(title, blocks)


def _markdown(title: str, blocks: list[dict[str, Any]]) -> Rendered:
    out: list[str] = [f"# {title}", ""] if title else []
    for b in blocks:
        t = b["type"]
        if t == "heading":
            out += ["#" * (int(b.get("level", 1)) + (1 if title else 0)) + " " + str(b["text"]), ""]
        elif t == "paragraph":
            out += [str(b["text"]), ""]
        elif t == "list":
            out += [(f"{n}. " if b.get("ordered") else "- ") + str(item)
                    for n, item in enumerate(b["items"], 1)] + [""]
        elif t == "table":
            columns, rows = _cells(b)

            def esc(c: Any) -> str:
                return _show(c).replace("|", "\\|").replace("\n", " ")

            out.append("| " + " | ".join(esc(c) for c in columns) + " |")
            out.append("|" + "---|" * len(columns))
            out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
            out.append("")
        else:
            data, mime = _picture(b)
            alt = str(b.get("title") or b.get("alt") or t)
            out += [f"![{alt}](data:{mime};base64,{base64.b64encode(data).decode()})", ""]
    return Rendered("\n".join(out).encode("utf-8"), _blocks(blocks))


_CSS = ("body{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;padding:0 1em;"
        "line-height:1.5;color:#222}table{border-collapse:collapse;margin:1em 0}"
        "th,td{border:1px solid #bbb;padding:.3em .6em;text-align:left}"
        "th{background:#e8eef7}img{max-width:100%}")


def _html(title: str, blocks: list[dict[str, Any]]) -> Rendered:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(title)}</title><style>{_CSS}</style></head><body>"]
    if title:
        out.append(f"<h1>{e(title)}</h1>")
    for b in blocks:
        t = b["type"]
        if t == "heading":
            level = int(b.get("level", 1)) + (1 if title else 0)
            out.append(f"<h{level}>{e(str(b['text']))}</h{level}>")
        elif t == "paragraph":
            out.append(f"<p>{e(str(b['text']))}</p>")
        elif t == "list":
            tag = "ol" if b.get("ordered") else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{e(str(i))}</li>" for i in b["items"])
                       + f"</{tag}>")
        elif t == "table":
            columns, rows = _cells(b)
            out.append("<table><thead><tr>" + "".join(f"<th>{e(c)}</th>" for c in columns)
                       + "</tr></thead><tbody>")
            out += ["<tr>" + "".join(f"<td>{e(_show(c))}</td>" for c in row) + "</tr>"
                    for row in rows]
            out.append("</tbody></table>")
        else:
            data, mime = _picture(b)
            alt = e(str(b.get("title") or b.get("alt") or t))
            out.append(f'<p><img alt="{alt}" src="data:{mime};base64,'
                       f'{base64.b64encode(data).decode()}"></p>')
    out.append("</body></html>")
    return Rendered("\n".join(out).encode("utf-8"), _blocks(blocks) + ", self-contained")


def _csv(_title: str, blocks: list[dict[str, Any]]) -> Rendered:
    columns, rows = _cells(blocks[0])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([[_show(c) for c in row] for row in rows])
    return Rendered(buf.getvalue().encode("utf-8"), f"{len(rows)} rows, {len(columns)} columns")


# ------------------------------------------------------------------ XLSX


def _sheet_names(blocks: list[dict[str, Any]]) -> list[str]:
    names: list[str] = []
    for n, b in enumerate(blocks, 1):
        name = str(b.get("sheet") or f"Sheet{n}")
        if re.search(r"[\[\]:*?/\\]", name) or not 1 <= len(name) <= 31:
            raise DocumentError(
                f"Sheet name {name!r} is not allowed: 1 to 31 characters, none of [ ] : * ? / \\.")
        if name.lower() in (x.lower() for x in names):
            raise DocumentError(f"Two sheets are named {name!r}.")
        names.append(name)
    return names


def formula_problems(blocks: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the formulas: a parse error, an error value, an unknown
    function or sheet, a division by zero or by an empty cell (one line each)."""
    from openpyxl.formula import Tokenizer
    from openpyxl.utils import FORMULAE, get_column_letter

    names = _sheet_names(blocks)
    grids: dict[str, dict[str, Any]] = {}
    for name, b in zip(names, blocks, strict=True):
        columns, rows = _cells(b)
        grid: dict[str, Any] = {}
        for r, row in enumerate(rows, 2):
            for c, cell in enumerate(row, 1):
                grid[f"{get_column_letter(c)}{r}"] = cell
        for c, header in enumerate(columns, 1):
            grid[f"{get_column_letter(c)}1"] = header
        grids[name.lower()] = grid
    problems: list[str] = []
    for name, grid in zip(names, grids.values(), strict=True):
        for ref, cell in grid.items():
            where = f"{name}!{ref}"
            if isinstance(cell, str) and cell.strip().upper() in EXCEL_ERRORS:
                problems.append(f"{where} holds the error value {cell.strip()}.")
            if not (isinstance(cell, str) and cell.startswith("=") and len(cell) > 1):
                continue
            try:
                tokens = Tokenizer(cell).items
            except Exception as exc:  # openpyxl raises a bare TokenizerError
                problems.append(f"{where}: the formula {cell} cannot be parsed ({exc}).")
                continue
            depth = 0
            for tok in tokens:
                if tok.subtype in ("OPEN", "CLOSE") and tok.type in ("FUNC", "PAREN"):
                    depth += 1 if tok.subtype == "OPEN" else -1
                    if depth < 0:
                        break
            if depth != 0:
                problems.append(f"{where}: the formula {cell} cannot be parsed (its "
                                "parentheses do not match).")
                continue
            for i, tok in enumerate(tokens):
                if tok.type == "FUNC" and tok.subtype == "OPEN":
                    fn = tok.value[:-1].upper().removeprefix("_XLFN.")
                    if fn not in FORMULAE:
                        problems.append(f"{where}: {cell} calls {fn}, which Excel does not "
                                        "know (#NAME?).")
                if tok.type == "OPERAND" and tok.subtype == "ERROR":
                    problems.append(f"{where}: {cell} contains the error {tok.value}.")
                if tok.type == "OPERAND" and tok.subtype == "RANGE" and "!" in tok.value:
                    sheet = tok.value.rsplit("!", 1)[0].strip("'").lower()
                    if sheet not in grids:
                        problems.append(f"{where}: {cell} refers to a sheet that does not "
                                        "exist (#REF!).")
                if tok.type == "OPERATOR-INFIX" and tok.value == "/" and i + 1 < len(tokens):
                    nxt = tokens[i + 1]
                    zero = False
                    if nxt.type == "OPERAND" and nxt.subtype == "NUMBER":
                        zero = float(nxt.value) == 0
                    elif nxt.type == "OPERAND" and nxt.subtype == "RANGE":
                        m = CELL_REF.match(nxt.value)
                        if m:
                            target = grid.get(f"{m.group(1).upper()}{m.group(2)}")
                            zero = target in (None, "", 0) or (
                                isinstance(target, float) and target == 0)
                    if zero:
                        problems.append(f"{where}: {cell} divides by zero or by an empty "
                                        "cell (#DIV/0!).")
    return problems


def _xlsx(_title: str, blocks: list[dict[str, Any]]) -> Rendered:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    problems = formula_problems(blocks)
    if problems:
        shown = problems[:20]
        more = f"\n… and {len(problems) - 20} more." if len(problems) > 20 else ""
        raise DocumentError("The workbook has formula errors; nothing was written. Fix them "
                            "and try again:\n- " + "\n- ".join(shown) + more)
    wb = Workbook()
    wb.remove(wb.active)
    names = _sheet_names(blocks)
    bold = Font(bold=True, color="FFFFFF")
    fill = PatternFill("solid", fgColor="305496")
    for name, b in zip(names, blocks, strict=True):
        ws = wb.create_sheet(name)
        columns, rows = _cells(b)
        ws.append(columns)
        for cell in ws[1]:
            cell.font, cell.fill = bold, fill
            cell.alignment = Alignment(vertical="center")
        for row in rows:
            ws.append(row)
        ws.freeze_panes = "A2"
        widths = b.get("widths")
        for c, header in enumerate(columns, 1):
            if isinstance(widths, list) and c <= len(widths) and isinstance(
                    widths[c - 1], int | float) and not isinstance(widths[c - 1], bool):
                width = float(widths[c - 1])
            else:
                longest = max([len(header)] + [
                    len(_show(r[c - 1])) for r in rows[:1000]
                    if not (isinstance(r[c - 1], str) and r[c - 1].startswith("="))])
                width = min(max(longest + 2, 8), 60)
            ws.column_dimensions[get_column_letter(c)].width = width
    buf = io.BytesIO()
    wb.save(buf)
    formulas = sum(1 for b in blocks for r in _cells(b)[1]
                   for c in r if isinstance(c, str) and c.startswith("="))
    return Rendered(buf.getvalue(), f"{len(names)} sheet{'s' * (len(names) != 1)} "
                    f"({', '.join(names)}), {formulas} formulas")


# ------------------------------------------------------------------ DOCX


def _docx(title: str, blocks: list[dict[str, Any]]) -> Rendered:
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
            columns, rows = _cells(b)
            table = doc.add_table(rows=1, cols=len(columns))
            table.style = "Table Grid"
            for cell, text in zip(table.rows[0].cells, columns, strict=True):
                cell.text = text
                for run in cell.paragraphs[0].runs:
                    run.bold = True
            for row in rows:
                for cell, value in zip(table.add_row().cells, row, strict=True):
                    cell.text = _show(value)
        else:
            data, _mime = _picture(b)
            frac = _fraction(b.get("width"))
            doc.add_picture(io.BytesIO(data), width=Inches(6.0 * frac))
    buf = io.BytesIO()
    doc.save(buf)
    return Rendered(buf.getvalue(), _blocks(blocks))


def _fraction(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and 0.1 <= value <= 1:
        return float(value)
    return 1.0


# ------------------------------------------------------------------ PDF


#: TrueType fonts with wide Unicode coverage, (regular, bold), in order of preference.
FONT_FILES = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"),
    ("segoeui.ttf", "segoeuib.ttf"),  # Windows
    ("arial.ttf", "arialbd.ttf"),  # Windows
    ("Arial Unicode.ttf", "Arial Unicode.ttf"),  # macOS
    ("Arial.ttf", "Arial Bold.ttf"),  # macOS
)


#: DejaVu Sans, shipped with the package (and in the frozen app): the same PDFs and
#: charts everywhere, whatever fonts the system has.
PACKAGE_FONTS = Path(__file__).resolve().parent / "fonts"


def font_dirs() -> list[Path]:
    """The folders searched for a PDF font: the package's own (DejaVu Sans), then the
    system's on Windows, macOS or Linux."""
    dirs: list[Path] = [PACKAGE_FONTS]
    home = Path.home()
    if sys.platform == "win32":
        dirs.append(Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts")
        if os.environ.get("LOCALAPPDATA"):
            dirs.append(Path(os.environ["LOCALAPPDATA"]) / "Microsoft" / "Windows" / "Fonts")
    elif sys.platform == "darwin":
        dirs += [Path("/System/Library/Fonts/Supplemental"), Path("/Library/Fonts"),
                 Path("/System/Library/Fonts"), home / "Library" / "Fonts"]
    else:
        share = Path("/usr/share/fonts")
        dirs += [share / "truetype" / "dejavu", share / "dejavu", share / "TTF",
                 share / "truetype" / "noto", share / "noto", share / "truetype" / "liberation",
                 share / "liberation", home / ".local" / "share" / "fonts"]
    return dirs


def unicode_font(dirs: list[Path] | None = None) -> tuple[Path, Path] | None:
    """A (regular, bold) TrueType pair found in ``dirs`` (default :func:`font_dirs`),
    or None: the PDF then uses a built-in font, which holds Latin-1 characters only."""
    folders = font_dirs() if dirs is None else dirs
    for regular, bold in FONT_FILES:
        for folder in folders:
            path = folder / regular
            if path.is_file():
                heavy = folder / bold
                return path, heavy if heavy.is_file() else path
    return None


def _pdf_words(title: str, blocks: list[dict[str, Any]]) -> str:
    """Every piece of text the PDF prints (to choose its fonts)."""
    parts = [title]
    for b in blocks:
        if b["type"] in ("heading", "paragraph"):
            parts.append(str(b.get("text", "")))
        elif b["type"] == "list":
            parts += [str(item) for item in b.get("items") or []]
        elif b["type"] == "table":
            columns, rows = _cells(b)
            parts += [str(c) for c in columns] + [_show(v) for r in rows for v in r]
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


def _pdf(title: str, blocks: list[dict[str, Any]]) -> Rendered:
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
            columns, rows = _cells(b)
            pdf.set_font(family, "", 9)
            head = FontFace(emphasis="BOLD", fill_color=(232, 238, 247))
            with pdf.table(headings_style=head, line_height=5) as table:
                row = table.row()
                for c in columns:
                    row.cell(clean(c))
                for values in rows:
                    row = table.row()
                    for v in values:
                        row.cell(clean(_show(v)))
            pdf.ln(3)
        else:
            data, _mime = _picture(b)
            try:
                pdf.image(io.BytesIO(data), w=width * _fraction(b.get("width")))
            except Exception as exc:  # fpdf2/Pillow raise many kinds for a bad image
                raise DocumentError(f"An image could not be placed in the PDF: {exc}.") from None
            pdf.ln(3)
    data = bytes(pdf.output())
    pages = pdf.pages_count
    return Rendered(data, f"{pages} page{'s' * (pages != 1)}")
