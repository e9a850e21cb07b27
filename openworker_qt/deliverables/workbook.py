"""XLSX workbooks (openpyxl): one sheet per table block, formulas checked before writing."""

from __future__ import annotations

import io
import re
from typing import Any

from openworker_qt.deliverables.base import EXCEL_ERRORS, DocumentError, Rendered, cells, show
from openworker_qt.deliverables.formulas import CELL_REF


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


def xlsx(_title: str, blocks: list[dict[str, Any]]) -> Rendered:
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
        columns, rows = cells(b)
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
                    len(show(r[c - 1])) for r in rows[:1000]
                    if not (isinstance(r[c - 1], str) and r[c - 1].startswith("="))])
                width = min(max(longest + 2, 8), 60)
            ws.column_dimensions[get_column_letter(c)].width = width
    buf = io.BytesIO()
    wb.save(buf)
    formulas = sum(1 for b in blocks for r in cells(b)[1]
                   for c in r if isinstance(c, str) and c.startswith("="))
    return Rendered(buf.getvalue(), f"{len(names)} sheet{'s' * (len(names) != 1)} "
                    f"({', '.join(names)}), {formulas} formulas")
