"""Charts drawn with Pillow: what is on the picture, read back from its pixels."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from PIL import Image

from openworker_qt.deliverables import charts, documents, svg_canvas

BLUE, ORANGE = charts._rgb(charts.PALETTE[0]), charts._rgb(charts.PALETTE[1])


def draw(block: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(documents.chart_png({"type": "chart", **block}))).convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def column_tops(image: Image.Image, colour: tuple[int, int, int]) -> list[tuple[int, int]]:
    """(x, topmost y) of each run of 30+ columns holding ``colour`` (bars, not the
    legend's swatches)."""
    w, h = image.size
    px = image.load()
    runs: list[tuple[int, int]] = []
    x = 0
    while x < w:
        ys = [y for y in range(h) if near(px[x, y], colour)]
        if len(ys) > 20:
            start = x
            top = min(ys)
            while x < w and sum(near(px[x, y], colour) for y in range(0, h, 2)) > 10:
                x += 1
            if x - start >= 30:
                runs.append(((start + x) // 2, top))
        x += 1
    return runs


def test_bar_heights_follow_the_values() -> None:
    image = draw({"kind": "bar", "title": "Seats", "labels": ["A", "B", "C"],
                  "series": [{"name": "2026", "values": [100, 50, 25]}]})
    assert image.size == (charts.WIDTH, charts.HEIGHT)
    bars = column_tops(image, BLUE)
    assert len(bars) == 3
    # The zero line is where the bars end: the heights are proportional to the values.
    px = image.load()
    x = bars[0][0]
    base = max(y for y in range(image.size[1]) if near(px[x, y], BLUE))
    heights = [base - top for _, top in bars]
    assert heights[0] / heights[1] == pytest.approx(2, rel=0.03)
    assert heights[0] / heights[2] == pytest.approx(4, rel=0.05)


def test_grouped_bars_and_a_legend_for_named_series() -> None:
    image = draw({"kind": "bar", "labels": ["A", "B"],
                  "series": [{"name": "2025", "values": [3, 4]},
                             {"name": "2026", "values": [5, -2]}]})
    blue, orange = column_tops(image, BLUE), column_tops(image, ORANGE)
    assert len(blue) == 2 and len(orange) == 2
    assert blue[0][0] < orange[0][0] < blue[1][0] < orange[1][0]  # side by side per label
    # The legend: a swatch of each colour in the band above the plot.
    band = image.crop((0, 0, charts.WIDTH, 80))
    colours = [c for _, c in band.getcolors(1 << 20)]
    assert any(near(c, BLUE) for c in colours) and any(near(c, ORANGE) for c in colours)


def test_a_line_chart_draws_each_series() -> None:
    image = draw({"kind": "line", "title": "Users", "labels": ["Jan", "Feb", "Mar", "Apr"],
                  "series": [{"name": "Web", "values": [1, 2, 3, 4]},
                             {"name": "Mobile", "values": [4, 3, 2, 1]}]})
    px = image.load()
    w, h = image.size
    # Rising blue line, falling orange one: compare their heights left and right.

    def ys(colour: tuple[int, int, int], x: int) -> list[int]:
        return [y for y in range(120, h - 70) if near(px[x, y], colour, 30)]

    left, right = w // 4, w * 3 // 4  # between the first and last points
    assert min(ys(BLUE, left)) > min(ys(BLUE, right))
    assert min(ys(ORANGE, left)) < min(ys(ORANGE, right))


def test_a_pie_shows_shares_and_refuses_negative_values() -> None:
    image = draw({"kind": "pie", "title": "Share", "labels": ["A", "B"],
                  "series": [{"values": [3, 1]}]})
    counts = dict((c, n) for n, c in image.getcolors(1 << 20))
    blue = sum(n for c, n in counts.items() if near(c, BLUE))
    orange = sum(n for c, n in counts.items() if near(c, ORANGE))
    assert blue / orange == pytest.approx(3, rel=0.12)  # the slices' areas
    with pytest.raises(documents.DocumentError, match="pie chart needs values of zero or more"):
        documents.chart_png({"type": "chart", "kind": "pie", "labels": ["A", "B"],
                             "series": [{"values": [3, -1]}]})


def test_values_that_cannot_be_drawn_are_a_clear_error() -> None:
    with pytest.raises(documents.DocumentError, match="finite numbers"):
        documents.chart_png({"type": "chart", "kind": "bar", "title": "T", "labels": ["A"],
                             "series": [{"values": [float("nan")]}]})


def test_round_ticks_and_short_numbers() -> None:
    assert charts.nice_ticks(0, 97) == [0, 20, 40, 60, 80, 100]
    assert charts.nice_ticks(-20, 150) == [-50, 0, 50, 100, 150]
    assert charts.nice_ticks(5, 5)[0] <= 5 <= charts.nice_ticks(5, 5)[-1]
    assert charts.format_number(1200, 200) == "1,200"
    assert charts.format_number(2_500_000) == "2.5M"
    assert charts.format_number(0.125) == "0.125"
    assert charts.format_number(0.5, 0.1) == "0.5"
    ticks = charts.nice_ticks(0, 9, count=4)
    assert ticks == [0, 2.5, 5, 7.5, 10]
    assert [charts.format_number(t, 2.5) for t in ticks] == ["0", "2.5", "5", "7.5", "10"]


def test_chinese_labels_use_a_font_that_has_them() -> None:
    pair = documents.unicode_font()
    assert pair is not None and pair[0].parent == documents.PACKAGE_FONTS
    chosen = charts.pick_fonts("季度收入", pair)
    assert chosen is not None
    # scripts/dev installs fonts-noto-cjk (the UI's Chinese needs it too).
    assert chosen[0] != pair[0] and charts._covers(chosen[0], "季度收入")
    assert charts.pick_fonts("Revenue", pair) == pair


def test_charts_do_not_need_matplotlib() -> None:
    """The chart is drawn in a process where matplotlib cannot be imported (the
    desktop build does not carry it)."""
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from openworker_qt.deliverables import documents\n"
            "data = documents.chart_png({'type': 'chart', 'kind': 'line', 'labels': ['a', 'b'],"
            " 'series': [{'name': 'x', 'values': [1, 2]}]})\n"
            "assert data.startswith(b'\\x89PNG')\n"
            "assert not any(m.startswith(('matplotlib', 'numpy')) for m in sys.modules if "
            "sys.modules[m] is not None), 'imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr


SVG = "{http://www.w3.org/2000/svg}"


def test_an_svg_shows_the_same_chart_as_the_png() -> None:
    from lxml import etree

    block = {"kind": "bar", "title": "Seats", "labels": ["A", "B", "C"],
             "series": [{"name": "2025", "values": [100, 50, 25]},
                        {"name": "2026", "values": [80, 60, 30]}]}
    root = etree.fromstring(charts.chart_svg(block, documents.unicode_font()))
    assert root.tag == f"{SVG}svg" and root.get("width") == str(charts.WIDTH)
    words = words_of(root)
    assert {"Seats", "2025", "2026", "A", "B", "C"} <= set(words)
    assert root.find(f"{SVG}title").text == "Seats"
    bars = {colour: [float(r.get("height")) for r in root.iter(f"{SVG}rect")
                     if r.get("fill") == colour and r.get("rx") is None]
            for colour in charts.PALETTE[:2]}
    # one bar per label and series, as tall as its value (the same scale for all)
    assert len(bars[charts.PALETTE[0]]) == 3 and len(bars[charts.PALETTE[1]]) == 3
    first = bars[charts.PALETTE[0]]
    assert first[0] / first[1] == pytest.approx(2, rel=0.02)
    assert bars[charts.PALETTE[1]][0] / first[0] == pytest.approx(0.8, rel=0.02)
    # the text is the glyphs' outlines: no font is named, none is needed to show it
    assert not list(root.iter(f"{SVG}text"))
    assert not [e for e in root.iter() if e.get("font-family")]
    title = [p for p in root.iter(f"{SVG}path") if p.get("aria-label") == "Seats"]
    assert len(title) == 1 and title[0].get("d").startswith("M")


def words_of(root: Any) -> list[str]:
    """The words an SVG chart shows (each text's outlines carry them as a label)."""
    return ([p.get("aria-label") for p in root.iter(f"{SVG}path") if p.get("class") == "text"]
            + [t.text for t in root.iter(f"{SVG}text")])  # Pillow's built-in font: text


def ink(image: Any) -> Any:
    import numpy as np

    return np.asarray(image.convert("L")) < 128


def test_an_svg_draws_the_same_pixels_as_the_png_without_its_fonts(qapp) -> None:
    """Rasterised by Qt's SVG renderer (which, with no text elements, uses no font of
    the machine), the SVG covers what Pillow drew in the PNG: Latin and Chinese."""
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    block = {"kind": "bar", "title": "Seats 席位 by quarter", "labels": ["Q1", "第二季度", "Q3"],
             "series": [{"name": "2025", "values": [1200, 2400.5, 3000]}]}
    svg = charts.chart_svg(block, documents.unicode_font())
    assert b"<text" not in svg and b"font-family" not in svg
    image = QImage(charts.WIDTH, charts.HEIGHT, QImage.Format.Format_RGB888)
    image.fill(0xFFFFFF)
    painter = QPainter(image)
    QSvgRenderer(QByteArray(svg)).render(painter)
    painter.end()
    drawn = Image.frombytes("RGB", (image.width(), image.height()),
                            bytes(image.constBits())[:image.sizeInBytes()], "raw", "RGB",
                            image.bytesPerLine())
    png = Image.open(io.BytesIO(charts.chart_png(block, documents.unicode_font())))
    a, b = ink(png), ink(drawn)
    assert a.shape == b.shape
    assert (a & b).sum() / (a | b).sum() > 0.97  # the same marks and words, in place
    top = slice(0, 80)  # the title's band: the words themselves agree
    assert (a[top] & b[top]).sum() / (a[top] | b[top]).sum() > 0.8


def test_an_svg_drawn_with_the_built_in_font_names_generic_families() -> None:
    from lxml import etree

    root = etree.fromstring(charts.chart_svg({"kind": "bar", "title": "Seats",
                                              "labels": ["a"], "series": [{"values": [1]}]}))
    texts = list(root.iter(f"{SVG}text"))
    assert "Seats" in [t.text for t in texts]
    assert {t.get("font-family") for t in texts} == {svg_canvas.GENERIC_FAMILIES}
    assert svg_canvas.GENERIC_FAMILIES.endswith(", sans-serif")


def test_an_svg_pie_has_a_slice_per_label_and_a_line_a_polyline() -> None:
    from lxml import etree

    pie = etree.fromstring(charts.chart_svg({"kind": "pie", "labels": ["x", "y", "z"],
                                             "series": [{"values": [1, 1, 2]}]}))
    slices = [e for e in pie.iter() if e.get("class") == "slice"]
    assert [e.get("fill") for e in slices] == list(charts.PALETTE[:3])
    assert "50%" in words_of(pie)
    whole = etree.fromstring(charts.chart_svg({"kind": "pie", "labels": ["only"],
                                               "series": [{"values": [3]}]}))
    assert [e.tag for e in whole.iter() if e.get("class") == "slice"] == [f"{SVG}circle"]
    line = etree.fromstring(charts.chart_svg({"kind": "line", "labels": ["a", "b", "c"],
                                              "series": [{"name": "n", "values": [1, 3, 2]}]}))
    drawn = [p for p in line.iter(f"{SVG}polyline") if p.get("stroke") == charts.PALETTE[0]]
    assert len(drawn) == 1 and len(drawn[0].get("points").split()) == 3


def test_text_in_an_svg_is_escaped() -> None:
    from lxml import etree

    root = etree.fromstring(charts.chart_svg({"kind": "bar", "title": "R&D <costs>\x07",
                                              "labels": ["a&b"], "series": [{"values": [1]}]},
                                             documents.unicode_font()))
    assert "R&D <costs>" in words_of(root)  # the bell dropped
    assert root.find(f"{SVG}title").text == "R&D <costs>"


@pytest.mark.parametrize(("block", "says"), [
    ({"kind": "bar", "labels": ["a", "b"], "series": [{"values": [1]}]},
     "Series 1 has 1 values but there are 2 labels"),
    ({"kind": "area", "labels": ["a"], "series": [{"values": [1]}]}, "'kind' must be one of"),
    ({"kind": "bar", "labels": [], "series": [{"values": []}]}, "'labels' must be"),
    ({"kind": "bar", "labels": ["a"], "series": [{"values": ["1"]}]}, "a list of numbers"),
    ({"kind": "bar", "labels": ["a"], "series": [{"values": [float("nan")]}]}, "finite"),
    ({"kind": "pie", "labels": ["a", "b"], "series": [{"values": [1, -1]}]}, "zero or more"),
    ({"kind": "bar", "labels": list(range(10_001)), "series": [{"values": [1] * 10_001}]},
     "more than 10,000 points"),
])
def test_check_chart_names_what_is_wrong(block: dict[str, Any], says: str) -> None:
    with pytest.raises(charts.ChartError) as caught:
        charts.check_chart(block)
    assert says in str(caught.value)
