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
from collections.abc import Mapping
from typing import Any

from openworker_qt.deliverables import docx_file, pdf_file, workbook
from openworker_qt.deliverables.base import (
    MAX_BLOCKS,
    MAX_CELLS,
    MAX_CHART_POINTS,
    MAX_TEXT_CHARS,
    PACKAGE_FONTS,
    DocumentError,
    Options,
    Rendered,
    cells,
    chart_png,
    column_decimals,
    count_blocks,
    font_dirs,
    is_number,
    number_text,
    picture,
    show,
    unicode_font,
)
from openworker_qt.deliverables.inline import runs
from openworker_qt.domain.documents import BLOCK_TYPES, CHART_KINDS, FORMATS

formula_problems = workbook.formula_problems
#: The most rows a table in a document (not a workbook) may have: a reader's pages.
MAX_PAGE_TABLE_ROWS = 2_000
__all__ = ["PACKAGE_FONTS", "DocumentError", "Options", "Rendered", "chart_png", "font_dirs", "formula_problems",
           "render", "unicode_font", "validate"]


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
            if fmt not in ("csv", "xlsx") and len(rows) > MAX_PAGE_TABLE_ROWS:
                raise DocumentError(
                    f"{where}: {len(rows):,} rows are too many for a document to read "
                    f"(the limit is {MAX_PAGE_TABLE_ROWS:,}). Summarise them in the "
                    "document and put the full table in an xlsx or csv deliverable.")
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
        if fmt == "xlsx" and set(strays) - {"chart"}:
            raise DocumentError(
                "An XLSX holds only 'table' blocks (one sheet each) and 'chart' blocks (a "
                "chart sheet each, its data beside it); put headings, text and images in a "
                "docx, pdf, html or md deliverable.")
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


# --------------------------------------------------------------- formats


def render(fmt: str, title: str, blocks: list[dict[str, Any]],
           options: Options | None = None) -> Rendered:
    """The finished file's bytes. Blocks must have passed :func:`validate`; ``options``
    (the author, a cover page, contents) apply to the formats that have them."""
    asked = options or Options()
    if fmt == "xlsx":
        return workbook.xlsx(title, blocks, author=asked.author)
    if fmt == "docx":
        return docx_file.docx(title, blocks, options=asked)
    if fmt == "pdf":
        return pdf_file.pdf(title, blocks, options=asked)
    return {"md": _markdown, "html": _html, "csv": _csv}[fmt](title, blocks)


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
            columns, rows = cells(b)

            def esc(c: Any) -> str:
                return show(c).replace("|", "\\|").replace("\n", " ")

            numeric, decimals = numeric_columns(columns, rows)
            out.append("| " + " | ".join(esc(c) for c in columns) + " |")
            out.append("|" + "".join("---:|" if n else "---|" for n in numeric))
            out += ["| " + " | ".join(esc(number_text(c, decimals[i]) if numeric[i] else c)
                                      for i, c in enumerate(row)) + " |" for row in rows]
            out.append("")
        else:
            data, mime = picture(b)
            alt = str(b.get("title") or b.get("alt") or t)
            out += [f"![{alt}](data:{mime};base64,{base64.b64encode(data).decode()})", ""]
    return Rendered("\n".join(out).encode("utf-8"), count_blocks(blocks))


_CSS = ("body{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;padding:0 1em;"
        "line-height:1.5;color:#222}table{border-collapse:collapse;margin:1em 0}"
        "th,td{border:1px solid #bbb;padding:.3em .6em;text-align:left}"
        "th{background:#e8eef7}.num{text-align:right}img{max-width:100%}")


_NUM = ' class="num"'


def numeric_columns(columns: list[str], rows: list[list[Any]]) -> tuple[list[bool], list[int]]:
    """Which columns hold numbers only (right-aligned, thousands separated) and the
    decimals each is shown with."""
    numeric, decimals = [], []
    for c in range(len(columns)):
        values = [r[c] for r in rows if r[c] is not None and r[c] != ""]
        numeric.append(bool(values) and all(is_number(v) for v in values))
        decimals.append(column_decimals(values))
    return numeric, decimals


def _inline_html(text: str) -> str:
    """Inline Markdown as HTML: strong, em, code and links (web and mail links only)."""
    out = []
    for run in runs(text):
        piece = html.escape(run.text)
        if run.code:
            piece = f"<code>{piece}</code>"
        if run.italic:
            piece = f"<em>{piece}</em>"
        if run.bold:
            piece = f"<strong>{piece}</strong>"
        if run.link and run.link.lower().startswith(("http://", "https://", "mailto:")):
            piece = f'<a href="{html.escape(run.link, quote=True)}">{piece}</a>'
        out.append(piece)
    return "".join(out)


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
            out.append(f"<h{level}>{_inline_html(str(b['text']))}</h{level}>")
        elif t == "paragraph":
            out.append(f"<p>{_inline_html(str(b['text']))}</p>")
        elif t == "list":
            tag = "ol" if b.get("ordered") else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{_inline_html(str(i))}</li>" for i in b["items"])
                       + f"</{tag}>")
        elif t == "table":
            columns, rows = cells(b)
            numeric, decimals = numeric_columns(columns, rows)
            out.append("<table><thead><tr>" + "".join(
                f"<th{_NUM * numeric[i]}>{_inline_html(c)}</th>" for i, c in enumerate(columns))
                + "</tr></thead><tbody>")
            out += ["<tr>" + "".join(
                f'<td{_NUM}>{e(number_text(c, decimals[i]))}</td>' if numeric[i]
                else f"<td>{_inline_html(show(c))}</td>" for i, c in enumerate(row)) + "</tr>"
                for row in rows]
            out.append("</tbody></table>")
        else:
            data, mime = picture(b)
            alt = e(str(b.get("title") or b.get("alt") or t))
            out.append(f'<p><img alt="{alt}" src="data:{mime};base64,'
                       f'{base64.b64encode(data).decode()}"></p>')
    out.append("</body></html>")
    return Rendered("\n".join(out).encode("utf-8"), count_blocks(blocks) + ", self-contained")


def _csv(_title: str, blocks: list[dict[str, Any]]) -> Rendered:
    columns, rows = cells(blocks[0])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([[show(c) for c in row] for row in rows])
    return Rendered(buf.getvalue().encode("utf-8"), f"{len(rows)} rows, {len(columns)} columns")
