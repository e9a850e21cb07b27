"""What the gallery showed wrong, fixed: numbers right-aligned and thousands-separated in
Markdown and HTML tables; a link at a PDF line's end moves to the next line whole."""

from __future__ import annotations

import io
import re

from openworker_qt.deliverables import documents

TABLE = {"type": "table", "columns": ["Client", "Seats", "Price"],
         "rows": [["ACME", 1200, 30.5], ["Globex", 40, 25], ["Initech", None, "$1,200"]]}


def test_markdown_tables_align_and_format_numbers() -> None:
    text = documents.render("md", "", [TABLE]).data.decode()
    lines = text.splitlines()
    assert lines[1] == "|---|---:|---:|"
    assert lines[2] == "| ACME | 1,200 | 30.5 |"
    assert lines[3] == "| Globex | 40 | 25.0 |"  # the column's decimals
    assert lines[4] == "| Initech |  | $1,200 |"  # text typed as money stays as typed


def test_html_tables_align_and_format_numbers() -> None:
    page = documents.render("html", "", [TABLE]).data.decode()
    assert '<th class="num">Seats</th>' in page and "<th>Client</th>" in page
    assert '<td class="num">1,200</td>' in page and "<td>ACME</td>" in page
    assert ".num{text-align:right}" in page


def test_a_link_is_not_broken_between_two_letters_at_a_pdf_line_end() -> None:
    from pypdf import PdfReader

    words = "ACME renews 120 seats on 31 January and support is rated well by the team"
    for pad in range(0, 24):  # the link lands at every place near the line's end
        text = words + " x" * pad + " ([tracker](https://example.com/acme)) now."
        pdf = documents.render("pdf", "", [{"type": "paragraph", "text": text}]).data
        extracted = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        assert "tracker" in extracted.replace("\n", " "), (pad, extracted)
        assert not re.search(r"\(\s*\n", extracted), extracted  # no "(" left at a line end


def test_chinese_chart_text_uses_the_sc_face_and_its_bold() -> None:
    from pathlib import Path

    import pytest
    from fontTools.ttLib import TTCollection

    from openworker_qt.deliverables import base, charts

    regular = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
    if not regular.is_file() or not regular.with_name("NotoSansCJK-Bold.ttc").is_file():
        pytest.skip("fonts-noto-cjk is not installed")
    pair = charts.pick_fonts("各客户席位", base.unicode_font())
    assert pair is not None and pair[0] == regular
    assert pair[1].name == "NotoSansCJK-Bold.ttc"  # the title in a bold face
    for path in pair:
        with TTCollection(str(path), lazy=True) as coll:
            family = str(coll.fonts[charts.face_index(path)]["name"].getDebugName(1))
        assert family.endswith(" SC") and "Mono" not in family  # not the Japanese style
    assert charts.face_index(Path(base.PACKAGE_FONTS / "DejaVuSans.ttf")) == 0
    png = charts.chart_png({"kind": "bar", "title": "各客户席位", "labels": ["环球"],
                            "series": [{"name": "席位", "values": [3]}]}, base.unicode_font())
    assert png.startswith(b"\x89PNG")
