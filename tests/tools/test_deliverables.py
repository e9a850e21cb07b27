"""create_deliverable: each format read back with its own library; bad input refused."""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.deliverables import documents
from openworker_qt.runtime_tools import default_tools
from openworker_qt.tools.deliverables import CREATE_DELIVERABLE, create_deliverable

CHART = {"type": "chart", "kind": "bar", "title": "Revenue by quarter",
         "labels": ["Q1", "Q2", "Q3"], "series": [{"name": "2026", "values": [10, 14, 9]}]}
TABLE = {"type": "table", "columns": ["Client", "Seats", "Price"],
         "rows": [["Acme", 12, 30.5], ["Globex", 40, 25], ["Initech", None, 19]]}
DOC_BLOCKS: list[dict[str, Any]] = [
    {"type": "heading", "text": "Renewal summary", "level": 1},
    {"type": "paragraph", "text": "Three clients renew this quarter — één naïve café."},
    {"type": "list", "items": ["Acme renews", "Globex asks for a discount"]},
    {"type": "list", "items": ["Call Acme", "Send quote"], "ordered": True},
    TABLE,
    CHART,
]


def ctx(ws: Path) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws)


async def make(ws: Path, fmt: str, content: Any, path: str | None = None,
               title: str = "Renewal brief") -> ToolResult:
    args = {"format": fmt, "path": path or f"outputs/brief.{fmt}", "title": title,
            "content": content}
    return await create_deliverable(args, ctx(ws))


def png(ws: Path, name: str = "logo.png") -> Path:
    data = documents.chart_png(CHART)
    (ws / name).write_bytes(data)
    return ws / name


def test_registered_as_a_checked_local_write() -> None:
    from openworker_qt.core.risk import RiskClass

    assert CREATE_DELIVERABLE.risk is RiskClass.WRITE_LOCAL
    assert CREATE_DELIVERABLE.target_arg == "path"
    assert not CREATE_DELIVERABLE.concurrency_safe
    names = {t.name for t in default_tools(None)}
    assert "create_deliverable" in names


async def test_xlsx_has_formulas_widths_and_a_styled_header(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    sales = {"type": "table", "sheet": "Sales", "columns": ["Client", "Seats", "Price", "Total"],
             "rows": [["Acme", 12, 30.5, "=B2*C2"], ["Globex", 40, 25, "=B3*C3"],
                      ["Sum", None, None, "=SUM(D2:D3)"]],
             "widths": [24, 10, 10, 14]}
    notes = {"type": "table", "sheet": "Notes", "columns": ["Note", "Share"],
             "rows": [["Acme share", "=Sales!D2/Sales!D4"]]}
    result = await make(tmp_path, "xlsx", [sales, notes])
    assert not result.is_error, result.content
    out = tmp_path / "outputs" / "brief.xlsx"
    assert str(out) in result.content and "2 sheets (Sales, Notes)" in result.content
    assert result.display is not None and result.display["bytes"] == out.stat().st_size
    wb = load_workbook(out)  # formulas, not cached values
    assert wb.sheetnames == ["Sales", "Notes"]
    ws = wb["Sales"]
    assert ws["D2"].value == "=B2*C2" and ws["D4"].value == "=SUM(D2:D3)"
    assert ws["B2"].value == 12 and ws["C2"].value == 30.5 and ws["B4"].value is None
    assert ws.column_dimensions["A"].width == 24 and ws.column_dimensions["D"].width == 14
    assert ws["A1"].font.b and ws["A1"].fill.fgColor.rgb.endswith("305496")
    assert ws.freeze_panes == "A2"
    assert wb["Notes"]["B2"].value == "=Sales!D2/Sales!D4"
    # widths default to the content's
    auto = await make(tmp_path, "xlsx", [TABLE], path="outputs/auto.xlsx")
    assert not auto.is_error, auto.content
    auto_ws = load_workbook(tmp_path / "outputs" / "auto.xlsx").active
    assert auto_ws.column_dimensions["A"].width == 9  # "Initech" + 2


@pytest.mark.parametrize(("formula", "says"), [
    ("=B2/0", "#DIV/0!"),
    ("=B2/C2", "#DIV/0!"),  # C2 is empty
    ("=SUMM(B2:B3)", "SUMM"),
    ("=Missing!A1", "#REF!"),
    ("=(B2+1", "cannot be parsed"),
    ("#DIV/0!", "error value"),
])
async def test_xlsx_formula_errors_are_refused_and_nothing_is_written(
        tmp_path: Path, formula: str, says: str) -> None:
    table = {"type": "table", "columns": ["A", "B", "C", "D"],
             "rows": [["x", 5, None, formula], ["y", 6, 2, "=B3/C3"]]}
    result = await make(tmp_path, "xlsx", [table])
    assert result.is_error and says in result.content and "Sheet1!D2" in result.content
    assert "nothing was written" in result.content
    assert not (tmp_path / "outputs" / "brief.xlsx").exists()


async def test_docx_has_headings_lists_tables_and_pictures(tmp_path: Path) -> None:
    from docx import Document

    logo = png(tmp_path)
    result = await make(tmp_path, "docx", [*DOC_BLOCKS, {"type": "image", "path": "logo.png",
                                                         "width": 0.5}])
    assert not result.is_error, result.content
    doc = Document(str(tmp_path / "outputs" / "brief.docx"))
    styled = [(p.style.name, p.text) for p in doc.paragraphs if p.text]
    assert ("Title", "Renewal brief") in styled
    assert ("Heading 1", "Renewal summary") in styled
    assert ("List Bullet", "Globex asks for a discount") in styled
    assert ("List Number", "Send quote") in styled
    assert any("één naïve café" in t for _s, t in styled)
    (table,) = doc.tables
    assert [c.text for c in table.rows[0].cells] == ["Client", "Seats", "Price"]
    assert [c.text for c in table.rows[3].cells] == ["Initech", "", "19.0"]  # the column's decimals
    assert len(doc.inline_shapes) == 2  # the chart and the image
    assert logo.exists()


async def test_pdf_has_real_text_tables_and_pictures(tmp_path: Path) -> None:
    from pypdf import PdfReader

    png(tmp_path)
    long = [{"type": "paragraph", "text": f"Line {n} of the appendix."} for n in range(60)]
    result = await make(tmp_path, "pdf", [*DOC_BLOCKS, {"type": "image", "path": "logo.png"},
                                          *long])
    assert not result.is_error, result.content
    out = tmp_path / "outputs" / "brief.pdf"
    reader = PdfReader(out)
    pages = len(reader.pages)
    assert pages >= 2 and f"{pages} pages" in result.content
    text = "\n".join(p.extract_text() for p in reader.pages)
    for word in ("Renewal brief", "Renewal summary", "één naïve café", "Globex asks",
                 "Initech", "30.5", "Line 59 of the appendix."):
        assert word in text, word
    images = sum(len(p.images) for p in reader.pages)
    assert images == 2
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm is not None, "poppler-utils (scripts/dev installs it)"
    subprocess.run([pdftoppm, "-png", "-r", "60", "-f", "1", "-l", "1", str(out),
                    str(tmp_path / "page")], check=True)
    page = next(tmp_path.glob("page*.png"))
    assert page.read_bytes().startswith(b"\x89PNG") and page.stat().st_size > 5_000


async def test_csv_reads_back(tmp_path: Path) -> None:
    result = await make(tmp_path, "csv", [{"type": "table", "columns": ["name", "note"],
                                            "rows": [["Acme", "says \"hi\", twice"], ["B", None]]}])
    assert not result.is_error and "2 rows, 2 columns" in result.content
    with (tmp_path / "outputs" / "brief.csv").open(newline="", encoding="utf-8") as f:
        assert list(csv.reader(f)) == [["name", "note"], ["Acme", 'says "hi", twice'], ["B", ""]]


async def test_markdown_and_html_are_self_contained(tmp_path: Path) -> None:
    md = await make(tmp_path, "md", DOC_BLOCKS)
    assert not md.is_error, md.content
    text = (tmp_path / "outputs" / "brief.md").read_text(encoding="utf-8")
    assert text.startswith("# Renewal brief\n") and "## Renewal summary" in text
    assert "| Client | Seats | Price |" in text and "| Initech |  | 19.0 |" in text  # the column's decimals
    assert "- Acme renews" in text and "2. Send quote" in text
    assert "](data:image/png;base64," in text
    page = await make(tmp_path, "html", [*DOC_BLOCKS,
                                         {"type": "paragraph", "text": "<script>x</script>"}])
    assert not page.is_error
    body = (tmp_path / "outputs" / "brief.html").read_text(encoding="utf-8")
    assert "<th>Client</th>" in body and "<li>Send quote</li>" in body
    assert 'src="data:image/png;base64,' in body
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert "http" not in body  # nothing fetched from elsewhere


@pytest.mark.parametrize("path", ["brief.pdf", "../brief.pdf", "/tmp/brief.pdf", "outputs",
                                  "outputs/../brief.pdf", "file:///tmp/x.pdf"])
async def test_a_path_outside_the_output_folder_is_refused(tmp_path: Path, path: str) -> None:
    result = await make(tmp_path, "pdf", DOC_BLOCKS[:1], path=path)
    assert result.is_error
    assert "output folder" in result.content or "not a path" in result.content
    assert not list(tmp_path.rglob("*.pdf"))


async def test_a_symlinked_output_folder_leading_out_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    ws = tmp_path / "ws"
    elsewhere.mkdir()
    ws.mkdir()
    (ws / "outputs").symlink_to(elsewhere)
    result = await make(ws, "md", DOC_BLOCKS[:1], path="outputs/x.md")
    assert result.is_error and "output folder" in result.content
    assert not (elsewhere / "x.md").exists()


async def test_unknown_format_and_wrong_extension(tmp_path: Path) -> None:
    unknown = await make(tmp_path, "odp", DOC_BLOCKS, path="outputs/x.odp")
    assert unknown.is_error and "unknown format 'odp'" in unknown.content
    assert "md, html, csv, xlsx, docx, pdf, pptx, png, svg" in unknown.content
    wrong = await make(tmp_path, "pdf", DOC_BLOCKS, path="outputs/x.docx")
    assert wrong.is_error and "ends in .pdf" in wrong.content


@pytest.mark.parametrize(("content", "says"), [
    ([], "non-empty list"),
    ([{"type": "video"}], "type 'video'"),
    ([{"type": "heading", "text": "x", "level": 7}], "'level'"),
    ([{"type": "table", "columns": ["a"], "rows": [[1, 2]]}], "only 1 columns"),
    ([{"type": "chart", "labels": ["a", "b"], "series": [{"values": [1]}]}], "2 numbers"),
])
async def test_malformed_content_is_explained(tmp_path: Path, content: Any, says: str) -> None:
    result = await make(tmp_path, "docx", content)
    assert result.is_error and says in result.content
    assert not (tmp_path / "outputs").exists()


async def test_csv_takes_one_table_and_xlsx_tables_and_charts(tmp_path: Path) -> None:
    both = await make(tmp_path, "csv", [TABLE, TABLE])
    assert both.is_error and "exactly one block" in both.content
    text = await make(tmp_path, "xlsx", [TABLE, {"type": "paragraph", "text": "x"}])
    assert text.is_error and "only 'table' blocks" in text.content
    assert not (tmp_path / "outputs" / "brief.xlsx").exists()
    charted = await make(tmp_path, "xlsx", [TABLE, CHART])  # a chart sheet
    assert not charted.is_error and "1 chart sheet" in charted.content


async def test_image_missing_or_outside_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    missing = await make(ws, "pdf", [{"type": "image", "path": "nope.png"}])
    assert missing.is_error and "does not exist" in missing.content
    outside = png(tmp_path, "secret.png")
    for raw in (str(outside), "../secret.png"):
        result = await make(ws, "docx", [{"type": "image", "path": raw}])
        assert result.is_error and "outside the workspace" in result.content
    (ws / "notes.txt").write_text("hello")
    not_image = await make(ws, "html", [{"type": "image", "path": "notes.txt"}])
    assert not_image.is_error and "not a PNG or JPEG" in not_image.content
    assert not (ws / "outputs").exists()


async def test_oversized_content_is_refused(tmp_path: Path) -> None:
    many = [{"type": "paragraph", "text": "x"}] * (documents.MAX_BLOCKS + 1)
    assert "Too many blocks" in (await make(tmp_path, "md", many)).content
    huge = [{"type": "paragraph", "text": "x" * (documents.MAX_TEXT_CHARS + 1)}]
    assert "characters" in (await make(tmp_path, "md", huge)).content
    rows = [[n, n] for n in range(documents.MAX_CELLS // 2 + 1)]
    big = await make(tmp_path, "xlsx", [{"type": "table", "columns": ["a", "b"], "rows": rows}])
    assert big.is_error and "cells" in big.content
    assert not (tmp_path / "outputs").exists()


async def test_overwrite_is_atomic_and_reported(tmp_path: Path) -> None:
    first = await make(tmp_path, "md", DOC_BLOCKS[:1])
    second = await make(tmp_path, "md", DOC_BLOCKS[:2])
    assert first.content.startswith("Created") and second.content.startswith("Overwrote")
    # the file and its kept versions, no temporary file
    assert sorted(p.name for p in (tmp_path / "outputs").iterdir()) == [".versions", "brief.md"]
    assert sorted(p.name for p in (tmp_path / "outputs" / ".versions" / "brief.md").iterdir()
                  ) == ["v1.md", "v2.md"]
    assert "Three clients" in (tmp_path / "outputs" / "brief.md").read_text(encoding="utf-8")


async def test_without_the_imaging_library_a_chart_is_a_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    for name in [m for m in sys.modules if m == "PIL" or m.startswith("PIL.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "PIL", None)  # as in an install without it
    result = await make(tmp_path, "md", DOC_BLOCKS)
    assert result.is_error and "Pillow" in result.content and "as a table" in result.content
    assert not (tmp_path / "outputs" / "brief.md").exists()
    table_only = await make(tmp_path, "md", DOC_BLOCKS[:-1])
    assert not table_only.is_error, table_only.content


def test_the_permission_engine_checks_the_deliverable_path(tmp_path: Path) -> None:
    from openworker_qt.core.approvals import ToolCallInfo
    from openworker_qt.core.permissions import PermissionEngine

    def decide(mode: str, path: str) -> tuple[bool, bool]:
        args = {"path": path, "format": "md", "content": DOC_BLOCKS[:1]}
        call = ToolCallInfo(session_id="s1", call_id="c1", name=CREATE_DELIVERABLE.name,
                            arguments=args, risk=CREATE_DELIVERABLE.risk,
                            target=args[CREATE_DELIVERABLE.target_arg or ""])
        d = PermissionEngine(workspace=tmp_path, mode=mode).evaluate(call)
        return d.allowed, d.needs_user

    assert decide("auto", "outputs/brief.md") == (True, False)
    assert decide("plan", "outputs/brief.md")[0] is False  # read-only modes never write
    assert decide("interactive", "outputs/brief.md") == (False, True)  # asked first
