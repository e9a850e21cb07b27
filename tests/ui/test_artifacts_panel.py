"""The deliverables panel, through the real window and a scripted model writing real files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor, QImage

from openworker_qt.ui.artifacts_panel import ArtifactsPanel, read_preview
from tests.ui.conftest import run, until

TABLE = {"type": "table", "columns": ["Client", "Seats", "Price"],
         "rows": [["Acme", 12, 30.5], ["Globex", 40, 25]]}
DOC = [{"type": "heading", "text": "Renewal brief", "level": 1},
       {"type": "paragraph", "text": "Acme renews for twelve seats."},
       TABLE]


def deliverable(cid: str, path: str, fmt: str, content: list[dict[str, Any]]) -> dict[str, Any]:
    return {"tool_calls": [{"id": cid, "name": "create_deliverable",
                            "arguments": {"path": path, "format": fmt, "title": "Renewal",
                                          "content": content}}]}


TURNS = [
    deliverable("d1", "outputs/brief.docx", "docx", DOC),
    deliverable("d2", "outputs/seats.xlsx", "xlsx", [TABLE]),
    deliverable("d3", "outputs/report.pdf", "pdf", DOC),
    {"text": "The brief, the sheet and the report are in outputs/."},
]


def non_white(image: QImage) -> int:
    count = 0
    step = max(1, image.width() // 200)
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            if QColor(image.pixel(x, y)).lightness() < 200:
                count += 1
    return count


async def select(panel: ArtifactsPanel, name: str) -> None:
    row = [Path(p).name for p in panel.paths()].index(name)
    panel.list.setCurrentRow(row)
    await until(lambda: panel.loaded() and panel.preview_kind not in {"", "message"},
                what=f"the preview of {name}")


def test_the_panel_lists_and_previews_a_docx_an_xlsx_and_a_pdf(
        qtbot, qloop, make_desktop, tmp_path) -> None:
    desktop = make_desktop(TURNS)
    window = desktop.window
    window.composer.mode.setCurrentText("auto")  # writes inside the workspace run without asking
    panel = window.artifacts
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        assert not window.artifacts_dock.isVisible()
        window.findChild(type(window.stop_action), "deliverables").trigger()
        assert window.artifacts_dock.isVisible()
        window.submit_message("Write the renewal brief, the sheet and the report")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id),
                    what="turn end", timeout=30)
        await until(lambda: len(panel.paths()) == 3, what="three deliverables")
        seen["live"] = [Path(p).name for p in panel.paths()]
        await select(panel, "brief.docx")
        seen["docx"] = (panel.preview_kind, panel.browser.toPlainText())
        await select(panel, "seats.xlsx")
        header = [panel.table.horizontalHeaderItem(c).text() for c in range(panel.table.columnCount())]
        cells = [[panel.table.item(r, c).text() for c in range(panel.table.columnCount())]
                 for r in range(panel.table.rowCount())]
        seen["xlsx"] = (panel.preview_kind, header, cells)
        await select(panel, "report.pdf")
        pixmap = panel.image.pixmap()
        seen["pdf"] = (panel.preview_kind, non_white(pixmap.toImage()))
        # dragging the row out hands other applications the file itself
        seen["drag"] = [u.toLocalFile() for u in panel.list.mimeData([panel.list.currentItem()]).urls()]
        # a reopened session reads its deliverables back from the store
        sid = window.session_id
        window.new_session()
        assert panel.paths() == []
        window.sidebar.select(sid)
        await until(lambda: window.loaded() and len(panel.paths()) == 3, what="the reopened list")
        seen["reopened"] = [Path(p).name for p in panel.paths()]

    run(qloop, scenario)
    assert seen["live"] == ["brief.docx", "seats.xlsx", "report.pdf"]
    assert seen["reopened"] == seen["live"]
    kind, text = seen["docx"]
    assert kind == "text" and "Renewal brief" in text and "Acme renews for twelve seats." in text
    kind, header, cells = seen["xlsx"]
    assert kind == "table" and header == ["Client", "Seats", "Price"]
    assert cells[0][0] == "Acme" and cells[1][:2] == ["Globex", "40"]
    kind, dark = seen["pdf"]
    assert kind == "image" and dark > 0

    # Each file read back with its own library.
    out = tmp_path / "ws" / "outputs"
    assert seen["drag"] == [str((out / "report.pdf").resolve())]
    import docx
    from openpyxl import load_workbook
    from pypdf import PdfReader
    paragraphs = [p.text for p in docx.Document(str(out / "brief.docx")).paragraphs]
    assert "Renewal brief" in paragraphs and "Acme renews for twelve seats." in paragraphs
    sheet = load_workbook(out / "seats.xlsx").worksheets[0]
    assert [c.value for c in sheet[1]][:3] == ["Client", "Seats", "Price"]
    assert sheet["A2"].value == "Acme" and sheet["B3"].value == 40
    pdf_text = PdfReader(str(out / "report.pdf")).pages[0].extract_text()
    assert "Renewal brief" in pdf_text and "Acme" in pdf_text


def test_previews_of_text_formats_and_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("name,seats\nAcme,12\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# Title\n\nBody", encoding="utf-8")
    (tmp_path / "a.html").write_text("<h1>Hi</h1><img src='http://example.com/x.png'>",
                                     encoding="utf-8")
    assert read_preview(str(tmp_path / "a.csv")).rows == [["name", "seats"], ["Acme", "12"]]
    assert read_preview(str(tmp_path / "a.md")).kind == "markdown"
    assert read_preview(str(tmp_path / "a.html")).kind == "html"
    gone = read_preview(str(tmp_path / "gone.pdf"))
    assert gone.kind == "error" and "no longer there" in gone.text
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"not a zip")
    assert read_preview(str(broken)).kind == "error"


def test_html_preview_loads_nothing_remote(qtbot) -> None:
    panel = ArtifactsPanel()
    qtbot.addWidget(panel)
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument
    assert panel.browser.loadResource(QTextDocument.ResourceType.ImageResource.value,
                                      QUrl("http://example.com/x.png")) is None


def test_the_panel_in_chinese(qapp, qtbot, tmp_path: Path) -> None:
    from PySide6.QtCore import QCoreApplication

    from openworker_qt.ui.theme import install_translator

    # (no desktop here: building one in Chinese would leave Chinese text cached for later tests)
    install_translator(qapp, "zh_CN")
    try:
        assert QCoreApplication.translate("MainWindow", "&Deliverables") == "成果文件(&D)"
        assert QCoreApplication.translate("MainWindow", "Deliverables") == "成果文件"
        panel = ArtifactsPanel()
        qtbot.addWidget(panel)
        assert panel.open_button.text() == "打开"
        assert panel.reveal_button.text() == "在文件夹中显示"
        assert read_preview(str(tmp_path / "gone.pdf")).text == "此文件已不存在。"
    finally:
        install_translator(qapp, "en")


async def test_a_deck_previews_as_an_outline_and_an_svg_chart_as_a_picture(
        tmp_path: Path) -> None:
    from openworker_qt.core.tool_api import ToolContext
    from openworker_qt.tools.deliverables import create_deliverable

    ctx = ToolContext(session_id="s", workspace=tmp_path)
    chart = {"kind": "bar", "labels": ["Q1", "Q2"], "series": [{"name": "Seats",
                                                                "values": [3, 4]}]}
    slides = [{"layout": "title", "title": "Renewal", "subtitle": "Q3", "notes": "Hi all."},
              {"layout": "bullets", "title": "Points", "bullets": [
                  {"text": "Signed", "bullets": ["Three years"]}]},
              {"layout": "table", "title": "Seats", "columns": ["Team", "Seats"],
               "rows": [["Sales", 12]]},
              {"layout": "chart", "title": "Growth", "chart": chart}]
    for fmt, content in (("pptx", slides), ("svg", [{"type": "chart", **chart}])):
        done = await create_deliverable({"format": fmt, "path": f"outputs/x.{fmt}",
                                         "content": content}, ctx)
        assert not done.is_error, done.content
    outline = read_preview(str(tmp_path / "outputs" / "x.pptx"))
    assert outline.kind == "text"
    assert outline.text.splitlines()[:4] == ["Slide 1 — Renewal", "  Q3", "  Notes: Hi all.", ""]
    assert "Slide 2 — Points\n  Signed\n      Three years" in outline.text
    assert "  Team | Seats\n  Sales | 12" in outline.text and "[Chart: Seats]" in outline.text
    picture = read_preview(str(tmp_path / "outputs" / "x.svg"))
    assert picture.kind == "image" and picture.image is not None
    assert (picture.image.width(), picture.image.height()) == (1280, 720)
    assert non_white(picture.image) > 100
