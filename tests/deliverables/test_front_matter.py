"""A report's cover page and contents (PDF and DOCX, read back with pypdf and
python-docx), the furniture in the document's language, and chart sheets in a workbook
(openpyxl)."""

from __future__ import annotations

import io
import re
from datetime import datetime
from typing import Any

from openworker_qt.deliverables import documents
from openworker_qt.deliverables.base import Options

LONG = "Every renewal this quarter, client by client, with what each one needs from us. " * 12


def report(zh: bool = False) -> list[dict[str, Any]]:
    names = ["概述", "客户", "风险", "下一步"] if zh else ["Overview", "Clients", "Risks",
                                                       "Next steps"]
    blocks: list[dict[str, Any]] = []
    for n, name in enumerate(names):
        blocks.append({"type": "heading", "text": name, "level": 1})
        blocks += [{"type": "paragraph", "text": ("续约" * 200) if zh else LONG}] * (2 + n)
        blocks.append({"type": "heading", "text": f"{name} 2" if zh else f"{name}, in detail",
                       "level": 3})  # level 3 straight after 1 (kept coherent)
        blocks.append({"type": "paragraph", "text": "x"})
    return blocks


OPTIONS = Options(author="Ada Lovelace", cover=True, contents=True, subtitle="Q3 2026")


def pdf_pages(data: bytes) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]


def test_a_pdf_report_with_a_cover_and_contents() -> None:
    from pypdf import PdfReader

    data = documents.render("pdf", "ACME renewal brief", report(), OPTIONS).data
    pages = pdf_pages(data)
    cover, contents = pages[0], pages[1]
    assert "ACME renewal brief" in cover and "Q3 2026" in cover and "Ada Lovelace" in cover
    assert datetime.now().strftime("%Y-%m-%d") in cover
    assert "Page 1 of" not in cover  # no furniture on the cover
    assert "\nContents\n" in contents and f"Page 2 of {len(pages)}" in contents
    # each heading is listed with the page it is on
    for name in ("Overview", "Clients", "Risks", "Next steps"):
        listed = re.search(rf"{name}\s*(\d+)", contents)
        assert listed, (name, contents)
        page = int(listed.group(1))
        assert name in pages[page - 1].split("Contents")[-1], (name, page)
    # and the reader's bookmarks list them, the detail under its heading
    outline = PdfReader(io.BytesIO(data)).outline
    assert [item.title for item in outline if not isinstance(item, list)][:2] == [
        "Overview", "Clients"]
    assert isinstance(outline[1], list) and outline[1][0].title == "Overview, in detail"


def test_without_options_a_pdf_starts_with_its_title() -> None:
    pages = pdf_pages(documents.render("pdf", "Brief", report()).data)
    assert pages[0].startswith("Brief") and "Contents" not in pages[0]


def test_a_chinese_report_says_its_furniture_in_chinese() -> None:
    data = documents.render("pdf", "续约简报", report(zh=True), OPTIONS).data
    pages = [p.replace("\x00", "") for p in pdf_pages(data)]  # (pypdf's CJK extraction)
    assert "\n目录\n" in pages[1]
    assert f"第 2 页，共 {len(pages)} 页" in pages[1].replace("\n", "")
    # the numbers drawn after Chinese text are the right ones (fpdf2 loses the font there)
    listed = re.search(r"风险 (\d+)", pages[1])
    assert listed and "风险" in pages[int(listed.group(1)) - 1].split("目录")[-1]
    docx_data = documents.render("docx", "续约简报", report(zh=True)).data
    import docx

    footer = docx.Document(io.BytesIO(docx_data)).sections[0].footer.paragraphs[0]
    assert [r.text for r in footer.runs if r.text.strip()][0] == "第 "


def test_a_docx_report_with_a_cover_and_contents() -> None:
    import docx

    data = documents.render("docx", "ACME renewal brief", report(), OPTIONS).data
    document = docx.Document(io.BytesIO(data))
    styles = [(p.style.name, p.text) for p in document.paragraphs if p.text]
    assert styles[0] == ("Title", "ACME renewal brief")
    assert styles[1] == ("Subtitle", "Q3 2026")
    assert ("Normal", "Ada Lovelace") in styles[:5]
    assert document.sections[0].different_first_page_header_footer
    assert document.core_properties.author == "Ada Lovelace"
    body = document.element.xml
    assert 'TOC \\o "1-3" \\h \\z \\u' in body
    assert body.count('w:anchor="_Toc') == 8  # every heading listed, linked
    assert body.count('w:name="_Toc') == 8  # and bookmarked
    # the entries read as the headings, in order, before any page number is known
    contents = [p.text for p in document.paragraphs]
    start = contents.index("Contents")
    assert contents[start + 1:start + 3] == ["Overview", "Overview, in detail"]
    # the body's headings follow, with no second title
    headings = [p.text for p in document.paragraphs if p.style.name.startswith("Heading")]
    assert headings[:2] == ["Overview", "Overview, in detail"]


def test_a_workbook_with_a_chart_sheet() -> None:
    from openpyxl import load_workbook
    from openpyxl.chart import BarChart, LineChart

    table = {"type": "table", "columns": ["Client", "Seats"], "rows": [["ACME", 120]]}
    bars = {"type": "chart", "kind": "bar", "title": "Seats by quarter",
            "labels": ["Q1", "Q2"], "series": [{"name": "2026", "values": [3, 5]}]}
    line = {"type": "chart", "kind": "line", "title": "Users",
            "labels": ["Jan", "Feb"], "series": [{"name": "Users", "values": [200, 240]}]}
    blocks = documents.validate("xlsx", [table, bars, line])
    rendered = documents.render("xlsx", "Seats", blocks, Options(author="Ada Lovelace"))
    assert "2 chart sheets (Seats by quarter, Users)" in rendered.summary
    wb = load_workbook(io.BytesIO(rendered.data))
    assert wb.sheetnames == ["Sheet1", "Seats by quarter", "Seats by quarter data", "Users",
                             "Users data"]
    assert [s.title for s in wb.chartsheets] == ["Seats by quarter", "Users"]
    assert wb.properties.creator == "Ada Lovelace"
    data = wb["Seats by quarter data"]
    assert [[c.value for c in row] for row in data.iter_rows()] == [
        [None, "2026"], ["Q1", 3], ["Q2", 5]]
    charts = [s._charts[0] for s in wb.chartsheets]
    assert isinstance(charts[0], BarChart) and isinstance(charts[1], LineChart)


def test_a_chart_sheet_reads_back_as_the_chart_it_was(tmp_path) -> None:
    from openpyxl import load_workbook

    from openworker_qt.deliverables.chart_sheets import chart_block, chart_sheet_pictures

    pie = {"type": "chart", "kind": "pie", "title": "Where the seats are",
           "labels": ["Sales", "Support"], "series": [{"name": "Seats", "values": [120, 80]}]}
    path = tmp_path / "w.xlsx"
    path.write_bytes(documents.render("xlsx", "", documents.validate("xlsx", [pie])).data)
    wb = load_workbook(path)
    block = chart_block(wb, wb.chartsheets[0]._charts[0])
    assert block == {**pie, "series": [{"name": "Seats", "values": [120.0, 80.0]}]}
    drawn = chart_sheet_pictures(path)
    assert list(drawn) == ["Where the seats are"] and drawn["Where the seats are"].width == 1280


def test_a_chinese_chart_sheet_names_its_data_sheet_in_chinese() -> None:
    from openpyxl import load_workbook

    chart = {"type": "chart", "kind": "bar", "title": "各客户席位", "labels": ["环球"],
             "series": [{"name": "席位", "values": [3]}]}
    data = documents.render("xlsx", "", documents.validate("xlsx", [chart])).data
    assert load_workbook(io.BytesIO(data)).sheetnames == ["各客户席位", "各客户席位 数据"]
