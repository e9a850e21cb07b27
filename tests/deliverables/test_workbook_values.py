"""Workbooks read back with openpyxl: formulas keep their text, and their values are
stored too (a reader that does not recalculate sees numbers, not blanks), numbers carry
formats, the properties are the document's; circular references, oversized document
tables and unknown scripts are refused through the tool with nothing left in outputs/."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from openworker_qt.deliverables import documents
from openworker_qt.deliverables.formulas import circular_cells
from openworker_qt.tools.deliverables import create_deliverable
from tests.tools.test_deliverables import ctx

SALES = {"type": "table", "sheet": "Sales", "columns": ["Item", "Qty", "Price", "Total", "Share"],
         "rows": [["a", 3, "$1,200", "=B2*C2", "12.5%"],
                  ["b", 4, "$30.50", "=B3*C3", "7%"],
                  ["Sum", "=SUM(B2:B3)", None, "=SUM(D2:D3)", "=E2+E3"],
                  ["Odd", 1234.5, None, "=ISBLANK(C5)", None]]}


def _xlsx(blocks: list[dict], title: str = "Q3 plan") -> bytes:
    return documents.render("xlsx", title, documents.validate("xlsx", blocks)).data


def test_formulas_store_their_values_and_numbers_carry_formats() -> None:
    from openpyxl import load_workbook

    data = _xlsx([SALES])
    values = load_workbook(io.BytesIO(data), data_only=True)["Sales"]
    formulas = load_workbook(io.BytesIO(data))["Sales"]
    assert [c.value for c in values["D"]][1:4] == [3600, 122, 3722]
    assert values["B4"].value == 7 and abs(values["E4"].value - 0.195) < 1e-9
    assert formulas["D2"].value == "=B2*C2" and formulas["B4"].value == "=SUM(B2:B3)"
    # A formula the evaluator does not work out keeps an empty value, and the file asks
    # to be recalculated on opening.
    assert values["D5"].value is None and formulas["D5"].value == "=ISBLANK(C5)"
    book = zipfile.ZipFile(io.BytesIO(data)).read("xl/workbook.xml").decode()
    assert 'fullCalcOnLoad="1"' in book
    assert values["C2"].value == 1200 and values["C2"].number_format == '"$"#,##0'
    assert values["C3"].value == 30.5 and values["C3"].number_format == '"$"#,##0.00'
    assert values["E2"].value == 0.125 and values["E2"].number_format == "0.0%"
    assert values["E4"].number_format == "0.0%"  # the column's format for its formula
    assert values["B2"].number_format == "#,##0.00"  # the column has 1234.5
    assert values["D4"].number_format == "#,##0"
    props = load_workbook(io.BytesIO(data)).properties
    assert props.title == "Q3 plan" and not props.creator and props.language == "en-US"
    assert props.created is not None and props.created.year >= 2026


def test_circular_references_are_found_and_refused_naming_the_cells() -> None:
    rows = [["A", "B"], [1, "=B3"], [2, "=B2+1"], [3, "=SUM(A2:A3)"], [4, "=B5"]]
    assert circular_cells(rows) == ["B2", "B3", "B5"]
    table = {"type": "table", "sheet": "Plan", "columns": ["A", "B"], "rows": rows[1:]}
    with pytest.raises(documents.DocumentError, match=r"Plan!B2, Plan!B3, Plan!B5 .*circular"):
        _xlsx([table])


async def _tool(ws: Path, fmt: str, content: list[dict]) -> object:
    args = {"format": fmt, "path": f"outputs/big.{fmt}", "title": "Big", "content": content}
    return await create_deliverable(args, ctx(ws))


async def test_bad_input_is_refused_and_nothing_is_left_in_outputs(tmp_path: Path) -> None:
    big = {"type": "table", "columns": ["N", "Square"], "rows": [[i, i * i] for i in range(10_000)]}
    result = await _tool(tmp_path, "pdf", [big])
    assert result.is_error and "10,000 rows" in result.content and "xlsx" in result.content
    result = await _tool(tmp_path, "docx", [{"type": "paragraph", "text": "Linear B \U00010000"}])
    assert not result.is_error  # a DOCX uses the reader's fonts
    (tmp_path / "outputs" / "big.docx").unlink()
    result = await _tool(tmp_path, "pdf", [{"type": "paragraph", "text": "Linear B \U00010000"}])
    assert result.is_error and "U+10000" in result.content
    loop = {"type": "table", "columns": ["A"], "rows": [["=A2"]]}
    result = await _tool(tmp_path, "xlsx", [loop])
    assert result.is_error and "Sheet1!A2" in result.content
    outputs = tmp_path / "outputs"
    # (the DOCX written and deleted is still kept as a version, in .versions/)
    assert not outputs.exists() or [p.name for p in outputs.iterdir()] == [".versions"]
    # The same 10,000 rows are fine in a workbook: every value is there.
    result = await _tool(tmp_path, "xlsx", [big])
    assert not result.is_error, result.content
    from openpyxl import load_workbook

    ws = load_workbook(outputs / "big.xlsx", read_only=True).active
    assert ws.max_row == 10_001
    assert sorted(p.name for p in outputs.iterdir()) == [".versions", "big.xlsx"]
    assert sorted(p.name for p in (outputs / ".versions").rglob("*") if p.is_file()) == [
        "v1.docx", "v1.xlsx"]  # no temporary file left
