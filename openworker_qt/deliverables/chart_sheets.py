"""Chart sheets in a workbook: a chart block of an XLSX becomes a sheet that is the
chart (openpyxl's chartsheet, a native bar, line or pie chart a spreadsheet draws
and lets the reader restyle), its numbers on a data sheet of their own after it, which
the chart reads (edit a number there and the chart follows). No Qt."""

from __future__ import annotations

import re
from typing import Any

from openworker_qt.deliverables import theme

_BAD = re.compile(r"[\[\]:*?/\\]")


def _name(wanted: str, taken: list[str], fallback: str) -> str:
    name = _BAD.sub(" ", wanted).strip()[:25] or fallback
    base, n = name, 2
    while name.lower() in (t.lower() for t in taken):
        name = f"{base} {n}"
        n += 1
    return name


def add_chart_sheets(wb: Any, charts: list[dict[str, Any]], taken: list[str]) -> list[str]:
    """One chart sheet (and its data sheet) per chart block; the chart sheets' names."""
    from openpyxl.chart import BarChart, LineChart, PieChart, Reference

    made: list[str] = []
    for n, block in enumerate(charts, 1):
        name = _name(str(block.get("sheet") or block.get("title") or ""), taken + made,
                     f"Chart{n}")
        data_name = _name(f"{name} data", taken + made + [name], f"Chart{n} data")
        data = wb.create_sheet(data_name)
        series = block["series"]
        data.append(["", *[str(s.get("name") or f"Series {k}") for k, s in
                           enumerate(series, 1)]])
        for i, label in enumerate(block["labels"]):
            data.append([str(label), *[s["values"][i] for s in series]])
        kind = block.get("kind", "bar")
        chart = {"line": LineChart, "pie": PieChart}.get(kind, BarChart)()
        chart.title = str(block.get("title") or "") or None
        values = Reference(data, min_col=2, max_col=1 + len(series), min_row=1,
                           max_row=1 + len(block["labels"]))
        chart.add_data(values, titles_from_data=True)
        chart.set_categories(Reference(data, min_col=1, min_row=2,
                                       max_row=1 + len(block["labels"])))
        if kind != "pie":
            for k, plotted in enumerate(chart.series):
                colour = theme.PALETTE[k % len(theme.PALETTE)][1:]
                plotted.graphicalProperties.line.solidFill = colour
                if kind == "bar":
                    plotted.graphicalProperties.solidFill = colour
        sheet = wb.create_chartsheet(name, wb.sheetnames.index(data_name))
        sheet.add_chart(chart)
        made.append(name)
        taken = [*taken, data_name]
    return made
