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
        suffix = " 数据" if any("\u4e00" <= c <= "\u9fff" for c in name) else " data"
        data_name = _name(f"{name}{suffix}", taken + made + [name], f"Chart{n} data")
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


def _title(chart: Any) -> str:
    try:
        paragraphs = chart.title.tx.rich.paragraphs
    except AttributeError:
        return ""
    return "".join(str(r.t) for p in paragraphs for r in (p.r or []))


def _values(wb: Any, ref: str) -> list[Any]:
    from openpyxl.utils.cell import range_boundaries

    sheet, _, cells = ref.rpartition("!")
    ws = wb[sheet.strip("'").replace("''", "'")]
    min_col, min_row, max_col, max_row = range_boundaries(cells.replace("$", ""))
    return [ws.cell(row=r, column=c).value for r in range(min_row, max_row + 1)
            for c in range(min_col, max_col + 1)]


def chart_block(wb: Any, chart: Any) -> dict[str, Any]:
    """A chart sheet's chart as a chart block of :mod:`charts`, its numbers read from the
    cells its series name."""
    kind = {"LineChart": "line", "PieChart": "pie"}.get(type(chart).__name__, "bar")
    labels: list[str] = []
    series = []
    for k, plotted in enumerate(chart.series, 1):
        values = [float(v) if isinstance(v, int | float) else 0.0
                  for v in _values(wb, plotted.val.numRef.f)]
        if not labels and plotted.cat is not None:
            ref = plotted.cat.strRef or plotted.cat.numRef
            labels = [str(v) for v in _values(wb, ref.f)] if ref is not None else []
        name = f"Series {k}"
        if plotted.tx is not None and plotted.tx.strRef is not None:
            name = str(_values(wb, plotted.tx.strRef.f)[0] or name)
        series.append({"name": name, "values": values})
    count = max((len(s["values"]) for s in series), default=0)
    labels = (labels + [str(n) for n in range(len(labels) + 1, count + 1)])[:count]
    return {"type": "chart", "kind": kind, "title": _title(chart), "labels": labels,
            "series": series}


def chart_sheet_pictures(path: Any) -> dict[str, Any]:
    """Each chart sheet of the workbook drawn (a Pillow image, by its name); a chart that
    cannot be read is left out."""
    import io

    from openpyxl import load_workbook
    from PIL import Image

    from openworker_qt.deliverables import base, charts

    wb = load_workbook(path)
    drawn: dict[str, Any] = {}
    for sheet in wb.chartsheets:
        try:
            block = chart_block(wb, sheet._charts[0])
            charts.check_chart(block)
            font = charts.pick_fonts(block["title"] + "".join(block["labels"]),
                                     base.unicode_font())
            drawn[sheet.title] = Image.open(io.BytesIO(charts.chart_png(block, font)))
        except (IndexError, KeyError, ValueError, AttributeError, TypeError):
            continue
    return drawn
