"""Spreadsheet formulas worked out for previews; what is not worked out stays as written."""

from __future__ import annotations

from typing import Any

from openworker_qt.deliverables.formulas import formula_values


def test_formula_values_for_previews() -> None:
    rows: list[list[Any]] = [
        ["Item", "Qty", "Price", "Total"],
        ["A", 2, 1.5, "=B2*C2"],
        ["B", 3, None, "=B3*C3"],  # an empty cell counts as 0
        ["Sum", "=SUM(B2:B3)", "=AVERAGE(C2:C3)", "=ROUND(D2+D3/3, 1)"],
        ["Odd", "=-B2^2+10%", "=(B2+B3)*2", "=ABS(-B3)"],
        ["Kept", "=B2/0", "=VLOOKUP(A2,A2:D3,2)", "=A2+1"],
        ["Loop", "=B7", "=Other!A1", "=MAX(B2:B3)-MIN(B2:B3)+COUNT(B2:D3)"],
    ]
    out = formula_values(rows)
    assert out[1][3] == 3.0 and out[2][3] == 0.0
    assert out[3][1:] == [5.0, 1.5, 3.0]
    assert out[4][1:] == [4.1, 10.0, 3.0]  # as in Excel: -B2^2 is (-B2)^2
    # What it does not work out stays as written: a division by zero, an unknown
    # function, text in arithmetic, a circular reference, another sheet.
    assert out[5][1:] == ["=B2/0", "=VLOOKUP(A2,A2:D3,2)", "=A2+1"]
    assert out[6][1:3] == ["=B7", "=Other!A1"]
    assert out[6][3] == 1.0 + 5.0
    assert rows[1][3] == "=B2*C2"  # the input is left alone
