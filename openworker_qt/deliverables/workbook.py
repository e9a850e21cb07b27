"""XLSX workbooks (openpyxl): one sheet per table block, formulas checked before writing."""

from __future__ import annotations

import io
import re
from typing import Any

from openworker_qt.deliverables.base import (
    EXCEL_ERRORS,
    DocumentError,
    Rendered,
    cells,
    language,
    show,
)
from openworker_qt.deliverables.formulas import CELL_REF, circular_cells, formula_values


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
        columns, rows = cells(b)
        grid: dict[str, Any] = {}
        for r, row in enumerate(rows, 2):
            for c, cell in enumerate(row, 1):
                grid[f"{get_column_letter(c)}{r}"] = cell
        for c, header in enumerate(columns, 1):
            grid[f"{get_column_letter(c)}1"] = header
        grids[name.lower()] = grid
    problems: list[str] = []
    for name, b in zip(names, blocks, strict=True):
        columns, rows = cells(b)
        loop = circular_cells([list(columns), *rows])
        if loop:
            shown = ", ".join(f"{name}!{ref}" for ref in loop[:12])
            problems.append(f"{shown} refer to each other in a circle (a circular "
                            "reference); no value can be worked out for them.")
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


def xlsx(title: str, everything: list[dict[str, Any]], *, author: str = "") -> Rendered:
    """The workbook: a sheet per table block, a chart sheet per chart block (and the
    chart's numbers on a data sheet after the tables; chart_sheets.py)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    from openworker_qt.deliverables.chart_sheets import add_chart_sheets

    blocks = [b for b in everything if b["type"] == "table"]
    charts = [b for b in everything if b["type"] == "chart"]
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
        columns, rows = cells(b)
        ws.append(columns)
        for cell in ws[1]:
            cell.font, cell.fill = bold, fill
            cell.alignment = Alignment(vertical="center")
        for row in rows:
            ws.append([_typed(v) for v in row])
        _number_formats(ws, rows, columns)
        ws.freeze_panes = "A2"
        widths = b.get("widths")
        for c, header in enumerate(columns, 1):
            if isinstance(widths, list) and c <= len(widths) and isinstance(
                    widths[c - 1], int | float) and not isinstance(widths[c - 1], bool):
                width = float(widths[c - 1])
            else:
                longest = max([len(header)] + [
                    len(show(r[c - 1])) for r in rows[:1000]
                    if not (isinstance(r[c - 1], str) and r[c - 1].startswith("="))])
                width = min(max(longest + 2, 8), 60)
            ws.column_dimensions[get_column_letter(c)].width = width
    chart_names = add_chart_sheets(wb, charts, names)
    _properties(wb, title, author)
    buf = io.BytesIO()
    wb.save(buf)
    data = _with_cached_values(buf.getvalue(), names, blocks)
    formulas = sum(1 for b in blocks for r in cells(b)[1]
                   for c in r if isinstance(c, str) and c.startswith("="))
    charted = (f", {len(chart_names)} chart sheet{'s' * (len(chart_names) != 1)} "
               f"({', '.join(chart_names)})") if chart_names else ""
    return Rendered(data, f"{len(names)} sheet{'s' * (len(names) != 1)} "
                    f"({', '.join(names)}){charted}, {formulas} formulas")


_PERCENT = re.compile(r"^(-?\d+(?:\.\d+)?)\s*%$")
_MONEY = re.compile(r"^(-?)([$€£¥])\s*(\d{1,3}(?:,\d{3})*|\d+)(\.\d+)?$")
_MONEY_FORMAT = {"$": '"$"#,##0', "€": '"€"#,##0', "£": '"£"#,##0', "¥": '"¥"#,##0'}


def _typed(value: Any) -> Any:
    """A cell as the sheet stores it: ``12.5%`` and ``$1,200`` typed as text become
    numbers (0.125 shown as a percentage, 1200 as money), so formulas can use them."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if m := _PERCENT.match(text):
        return _Formatted(float(m.group(1)) / 100, "0.0%" if "." in m.group(1) else "0%")
    if m := _MONEY.match(text):
        number = float(m.group(3).replace(",", "") + (m.group(4) or ""))
        fmt = _MONEY_FORMAT[m.group(2)] + (".00" if m.group(4) else "")
        return _Formatted(-number if m.group(1) else number, fmt)
    return value


class _Formatted(float):
    """A number with the format it was typed in (``0.0%``, ``"$"#,##0``)."""

    fmt: str

    def __new__(cls, value: float, fmt: str) -> _Formatted:
        self = super().__new__(cls, value)
        self.fmt = fmt
        return self


def _grid(columns: list[str], rows: list[list[Any]]) -> list[list[Any]]:
    """The sheet's cells, row 1 the header, numbers typed as text made numbers."""
    grid: list[list[Any]] = [list(columns)]
    for row in rows:
        grid.append([float(v) if isinstance(v, _Formatted) else v for v in map(_typed, row)])
    return grid


def _number_formats(ws: Any, rows: list[list[Any]], columns: list[str]) -> None:
    """Thousands separators for plain numbers (two decimals where a column has any),
    the typed format for money and percentages, the column's format for its formulas."""
    grid = _grid(columns, rows)
    worked = formula_values(grid)[1:]
    for c in range(len(rows[0]) if rows else 0):
        col = [r[c] for r in rows]
        typed = [_typed(v) for v in col]
        formats = {v.fmt for v in typed if isinstance(v, _Formatted)}
        plain_numbers = [v for v in typed if isinstance(v, int | float)
                         and not isinstance(v, bool | _Formatted)]
        decimals = any(isinstance(v, float) and not v.is_integer() for v in plain_numbers)
        default = "#,##0.00" if decimals else "#,##0"
        column_format = default
        if formats and not plain_numbers:
            if all(f.endswith("%") for f in formats):
                column_format = "0.0%" if "0.0%" in formats else "0%"
            elif len({f.split("#")[0] for f in formats}) == 1:  # one currency
                column_format = max(formats, key=len)
        for r, v in enumerate(typed, 2):
            cell = ws.cell(row=r, column=c + 1)
            if isinstance(v, _Formatted):
                cell.value = float(v)
                cell.number_format = v.fmt
            elif isinstance(v, int | float) and not isinstance(v, bool):
                cell.number_format = default
            elif isinstance(v, str) and v.startswith("="):
                if formats or plain_numbers:
                    cell.number_format = column_format
                elif isinstance(worked[r - 2][c], float):  # a column of formulas alone
                    cell.number_format = ("#,##0" if worked[r - 2][c].is_integer()
                                          else "#,##0.00")


def _properties(wb: Any, title: str, author: str = "") -> None:
    from datetime import UTC, datetime

    from openworker_qt.deliverables.inline import plain

    now = datetime.now(UTC).replace(microsecond=0, tzinfo=None)
    props = wb.properties
    props.title = plain(title) or None
    props.creator = author
    props.lastModifiedBy = author
    props.created = props.modified = now
    props.language = language(title)


_FORMULA_CELL = re.compile(r'<c r="([A-Z]+[0-9]+)"([^>]*)><f>([^<]*)</f><v\s*/?>(?:</v>)?</c>')


def _with_cached_values(data: bytes, names: list[str], blocks: list[dict[str, Any]]) -> bytes:
    """The workbook with each formula's value stored next to it (``<v>``) where the
    formula evaluator works it out, so a reader that does not recalculate shows numbers,
    not blanks; the workbook still asks to be recalculated on opening (fullCalcOnLoad)."""
    import zipfile

    from openpyxl.utils import get_column_letter

    values: dict[str, dict[str, float]] = {}
    for n, b in enumerate(blocks, 1):
        columns, rows = cells(b)
        grid = _grid(columns, rows)
        worked = formula_values(grid)
        found: dict[str, float] = {}
        for r, (row, results) in enumerate(zip(grid, worked, strict=True), 1):
            for c, (before, after) in enumerate(zip(row, results, strict=True), 1):
                if (isinstance(before, str) and before.startswith("=")
                        and isinstance(after, int | float) and not isinstance(after, bool)
                        and after == after and abs(after) != float("inf")):
                    found[f"{get_column_letter(c)}{r}"] = float(after)
        values[f"xl/worksheets/sheet{n}.xml"] = found
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            body = source.read(item.filename)
            sheet_values = values.get(item.filename)
            if sheet_values:
                def fill(m: re.Match[str], found: dict[str, float] = sheet_values) -> str:
                    value = found.get(m.group(1))
                    if value is None:
                        return m.group(0)
                    return (f'<c r="{m.group(1)}"{m.group(2)}><f>{m.group(3)}</f>'
                            f"<v>{repr(value) if not value.is_integer() else int(value)}</v></c>")

                body = _FORMULA_CELL.sub(fill, body.decode("utf-8")).encode("utf-8")
            target.writestr(item, body)
    return out.getvalue()
