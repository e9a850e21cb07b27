"""What the gallery showed wrong, fixed: numbers right-aligned and thousands-separated in
Markdown and HTML tables; a link at a PDF line's end moves to the next line whole."""

from __future__ import annotations

import io

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

    words = "ACME renews 120 seats on 31 January and support is rated well by the team;"
    for pad in range(0, 24, 3):  # the link lands at every place near the line's end
        text = words + " x" * pad + " see [tracker](https://example.com/acme) now."
        pdf = documents.render("pdf", "", [{"type": "paragraph", "text": text}]).data
        extracted = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        assert "tracker" in extracted.replace("\n", " "), (pad, extracted)
