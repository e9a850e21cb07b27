"""The deliverable viewer: every kind the tool writes, shown whole in its window (files
made by the real tool), drawn in a worker while a placeholder shows; its actions; versions."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication, QPalette

from openworker_qt.core.tool_api import ToolContext
from openworker_qt.deliverables import office_pdf, pages
from openworker_qt.deliverables import versions as kept
from openworker_qt.tools.deliverables import create_deliverable
from openworker_qt.ui.deliverable_viewer import DeliverableViewer, open_viewer, open_viewers
from tests.ui.conftest import run, until
from tests.ui.test_artifacts_panel import non_white

TABLE = {"type": "table", "columns": ["Client", "Seats", "Price", "Total"],
         "rows": [["Acme", 12, 30.5, "=B2*C2"], ["Globex", 40, 25, "=B3*C3"]]}
CHART = {"kind": "bar", "labels": ["Q1", "Q2"], "series": [{"name": "Seats", "values": [3, 4]}]}
DOC = [{"type": "heading", "text": "Renewal brief", "level": 1},
       {"type": "paragraph", "text": "Acme **renews** for [twelve](https://example.com) seats."},
       {"type": "list", "items": ["Offer two years", "Close the tickets"]},
       {"type": "chart", **CHART, "title": "Seats"},
       {"type": "table", "columns": ["Client", "Seats"], "rows": [["Acme", 12]]}]


@pytest.fixture(autouse=True)
def keep_running(qapp) -> Any:
    """As in the app (launch.py): closing the last viewer window does not quit."""
    before = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    yield
    qapp.setQuitOnLastWindowClosed(before)


async def make(tmp: Path, name: str, fmt: str, content: list[dict[str, Any]]) -> Path:
    ctx = ToolContext(session_id="s", workspace=tmp)
    done = await create_deliverable({"path": f"outputs/{name}", "format": fmt, "title": "Brief",
                                     "content": content}, ctx)
    assert not done.is_error, done.content
    return tmp / "outputs" / name


async def shown(path: Path | str) -> DeliverableViewer:
    viewer = open_viewer(path)
    await until(viewer.loaded, what=f"the viewer of {path}")
    return viewer


def dark_base() -> str:
    from openworker_qt.ui.theme import dark_palette

    return dark_palette().color(QPalette.ColorRole.Base).name()


def close_all() -> None:
    for viewer in open_viewers():
        viewer.close()


def test_every_kind_is_shown_in_the_viewer(qtbot, qloop, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(office_pdf, "program", lambda: None)  # the outline (see test_viewer_office)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        pdf = await make(tmp_path, "r.pdf", "pdf", DOC * 8)
        viewer = await shown(pdf)
        seen["pdf"] = (viewer.content.kind, len(viewer.page_labels()), viewer.status.text(),
                       non_white(viewer.page_labels()[0].pixmap().toImage()))
        seen["pdf_total"] = pages.page_count(pdf)
        deck = await make(tmp_path, "d.pptx", "pptx", [
            {"layout": "title", "title": "Renewal"},
            {"layout": "chart", "title": "Growth", "chart": CHART}])
        viewer = await shown(deck)
        seen["pptx"] = (viewer.content.kind, len(viewer.page_labels()), viewer.status.text())
        docx = await make(tmp_path, "b.docx", "docx", DOC)
        viewer = await shown(docx)
        seen["docx"] = (viewer.content.kind, viewer.browser.toPlainText(),
                        viewer.browser.toHtml(), len(viewer.content.images))
        xlsx = await make(tmp_path, "s.xlsx", "xlsx", [TABLE, {"type": "chart", **CHART,
                                                              "title": "Seats"}])
        viewer = await shown(xlsx)
        grid = viewer.sheets.widget(0)
        seen["tabs"] = [viewer.sheets.tabText(n) for n in range(viewer.sheets.count())]
        chart_label = viewer.sheets.widget(1).widget()
        seen["chart_sheet"] = non_white(chart_label.pixmap().toImage())
        seen["xlsx"] = ([grid.horizontalHeaderItem(c).text() for c in range(4)],
                        grid.item(0, 3).text(), grid.item(0, 3).toolTip(),
                        [grid.item(r, 2).text() for r in range(2)])
        csv = await make(tmp_path, "s.csv", "csv", [TABLE])
        viewer = await shown(csv)
        seen["csv"] = (viewer.content.kind, viewer.sheets.widget(0).item(1, 0).text())
        md = await make(tmp_path, "b.md", "md", DOC[:3])
        viewer = await shown(md)
        seen["md"] = (viewer.content.kind, viewer.browser.toPlainText())
        chart_md = await make(tmp_path, "c.md", "md", [{"type": "chart", **CHART}])
        viewer = await shown(chart_md)
        document = viewer.browser.document()
        seen["md_fits"] = (document.size().width(), viewer.browser.viewport().width())
        svg = await make(tmp_path, "c.svg", "svg", [{"type": "chart", **CHART}])
        viewer = await shown(svg)
        seen["svg"] = non_white(viewer.page_labels()[0].pixmap().toImage())
        close_all()

    run(qloop, scenario)
    kind, count, status, dark = seen["pdf"]
    assert kind == "pages" and count == seen["pdf_total"] > 1 and dark > 0
    assert status == f"{count} pages"
    assert seen["pptx"][:2] == ("pages", 2) and seen["pptx"][2].startswith("2 slides · ")
    kind, text, markup, images = seen["docx"]
    assert kind == "document" and "Renewal brief" in text and "Offer two years" in text
    assert "Acme renews for twelve seats." in text and images == 1  # the chart's picture
    assert "font-weight:700" in markup and 'href="https://example.com"' in markup
    header, total, formula, prices = seen["xlsx"]
    assert header == ["Client", "Seats", "Price", "Total"]
    assert prices == ["30.50", "25.00"]  # the cells' number format
    assert seen["tabs"] == ["Sheet1", "Seats", "Seats data"]
    assert seen["chart_sheet"] > 100  # the chart sheet drawn from its data sheet
    assert (total, formula) == ("366", "=B2*C2")  # the cached value, the formula on hover
    assert seen["csv"] == ("sheets", "Globex")
    assert seen["md"][0] == "markdown" and "Acme renews for twelve seats." in seen["md"][1]
    assert seen["svg"] > 100
    wide, room = seen["md_fits"]
    assert wide <= room  # the chart picture (1,600 pixels) shown at the window's width


def test_heavy_pages_are_drawn_in_a_worker_behind_a_placeholder(
        qtbot, qloop, tmp_path: Path, monkeypatch) -> None:
    threads: list[int] = []
    real = pages.pdf_pages

    def drawing(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(pages, "pdf_pages", drawing)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        pdf = await make(tmp_path, "r.pdf", "pdf", DOC)
        viewer = open_viewer(pdf)
        seen["first"] = (viewer.state, viewer.stack.currentWidget() is viewer.placeholder,
                         viewer.placeholder.text())
        await until(viewer.loaded, what="the pages")
        seen["after"] = viewer.stack.currentWidget() is viewer.page_area
        seen["again"] = open_viewer(pdf) is viewer  # one window per file
        close_all()

    run(qloop, scenario)
    assert seen["first"] == ("loading", True, "Preparing the preview…")
    assert seen["after"] and seen["again"]
    assert threads and threading.get_ident() not in threads


def test_html_is_sandboxed_and_actions_copy(qtbot, qloop, tmp_path: Path) -> None:
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument

    page = tmp_path / "outputs" / "p.html"
    page.parent.mkdir(parents=True)
    page.write_text("<h1>Hi</h1><script>document.write('ran')</script>"
                    "<img src='http://example.com/x.png'><img src='/etc/passwd'>",
                    encoding="utf-8")
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        from openworker_qt.ui.theme import dark_palette

        viewer = open_viewer(page)
        viewer.setPalette(dark_palette())  # the dark scheme
        await until(viewer.loaded, what="the page")
        seen["text"] = viewer.browser.toPlainText()
        image = QTextDocument.ResourceType.ImageResource.value
        seen["loads"] = [viewer.browser.loadResource(image, QUrl(u)) for u in
                         ("http://example.com/x.png", "file:///etc/passwd")]
        seen["browser_button"] = not viewer.browser_button.isHidden()
        seen["paper"] = viewer.browser.palette().color(QPalette.ColorRole.Base).name()
        viewer.copy_path()
        seen["path"] = QGuiApplication.clipboard().text()
        viewer.copy_contents()
        seen["contents"] = QGuiApplication.clipboard().mimeData().text()
        close_all()
        table = await make(tmp_path, "t.csv", "csv", [TABLE])
        viewer = await shown(table)
        viewer.copy_contents()
        seen["tsv"] = QGuiApplication.clipboard().text()
        seen["csv_browser_button"] = not viewer.browser_button.isHidden()
        close_all()
        notes = tmp_path / "outputs" / "n.md"
        notes.write_text("# Notes", encoding="utf-8")
        viewer = open_viewer(notes)
        viewer.setPalette(dark_palette())
        await until(viewer.loaded, what="the notes")
        seen["markdown_base"] = viewer.browser.palette().color(QPalette.ColorRole.Base).name()
        close_all()

    run(qloop, scenario)
    assert "Hi" in seen["text"] and "ran" not in seen["text"]
    assert seen["loads"] == [None, None]
    assert seen["browser_button"] and not seen["csv_browser_button"]
    assert seen["paper"] == "#ffffff"  # a web page on white, in the dark scheme too
    assert seen["markdown_base"] == dark_base()  # Markdown follows the scheme
    assert seen["path"] == str(page)
    assert seen["contents"].startswith("<h1>Hi</h1>")
    assert seen["tsv"].splitlines()[:2] == ["Client\tSeats\tPrice\tTotal", "Acme\t12\t30.5\t=B2*C2"]


def test_versions_are_listed_compared_and_restored(qtbot, qloop, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        brief = await make(tmp_path, "b.md", "md", [{"type": "paragraph", "text": "First."}])
        await make(tmp_path, "b.md", "md", [{"type": "paragraph", "text": "Second."}])
        viewer = await shown(brief)
        seen["listed"] = viewer.version_paths()
        seen["labels"] = [viewer.version_box.itemText(n) for n in range(2)]
        seen["restore_enabled_on_current"] = viewer.restore_button.isEnabled()
        viewer.compare_button.click()
        await until(lambda: viewer.state == "compare", what="the comparison")
        seen["diff"] = viewer.browser.toPlainText()
        older = viewer.version_paths()[1]
        viewer.show_version(older)
        await until(viewer.loaded, what="the old version")
        seen["old"] = viewer.browser.toPlainText()
        restored: list[str] = []
        viewer.restored.connect(restored.append)
        viewer.restore_button.click()
        await until(lambda: restored and viewer.loaded(), what="the restore")
        seen["restored"] = (restored, brief.read_text(encoding="utf-8"),
                            viewer.browser.toPlainText(), len(viewer.version_paths()))
        close_all()
        # a kept version's own path (the transcript's link to it) opens on that version
        viewer = await shown(kept.versions(brief)[1].path)
        seen["linked"] = (viewer.version_box.currentText(), viewer.browser.toPlainText())
        close_all()

    run(qloop, scenario)
    out = tmp_path / "outputs"
    assert seen["listed"] == [str(out / "b.md"), str(out / ".versions" / "b.md" / "v1.md")]
    assert seen["labels"][0].startswith("Version 2 (current) · ")
    assert seen["labels"][1].startswith("Version 1 · ")
    assert not seen["restore_enabled_on_current"]
    assert "-First." in seen["diff"] and "+Second." in seen["diff"]
    assert seen["old"].split() == ["Brief", "First."]
    paths, text, shown_text, count = seen["restored"]
    assert paths == [str(out / "b.md")] and "First." in text and shown_text.split() == ["Brief", "First."]
    assert count == 3
    label, text = seen["linked"]
    assert label.startswith("Version 2 · ") and text.split() == ["Brief", "Second."]


@pytest.fixture
def chinese_from_source(qapp, tmp_path: Path) -> Any:
    """The zh_CN translation compiled from the .ts source (the shipped .qm is rebuilt
    when a release is made), installed for the test."""
    import subprocess
    import sys

    from PySide6.QtCore import QTranslator

    source = Path(__file__).resolve().parents[2] / "resources/translations/openworker_qt_zh_CN.ts"
    compiled = tmp_path / "zh.qm"
    lrelease = Path(sys.executable).parent / "pyside6-lrelease"
    subprocess.run([str(lrelease), str(source), "-qm", str(compiled)], check=True,
                   capture_output=True, timeout=120)
    translator = QTranslator()
    assert translator.load(str(compiled))
    qapp.installTranslator(translator)
    yield
    qapp.removeTranslator(translator)


def test_the_viewer_in_chinese(chinese_from_source, qtbot, qloop, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        brief = await make(tmp_path, "b.md", "md", [{"type": "paragraph", "text": "一"}])
        await make(tmp_path, "b.md", "md", [{"type": "paragraph", "text": "二"}])
        viewer = open_viewer(tmp_path / "gone.html")
        seen["placeholder"] = viewer.placeholder.text()
        await until(viewer.loaded, what="the missing file")
        seen["message"] = viewer.placeholder.text()
        seen["buttons"] = [viewer.copy_button.text(), viewer.browser_button.text()]
        viewer = await shown(brief)
        seen["versions"] = [viewer.version_box.itemText(n).split("·")[0].strip()
                            for n in range(viewer.version_box.count())]
        seen["restore"] = viewer.restore_button.text()
        close_all()

    run(qloop, scenario)
    assert seen["placeholder"] == "正在准备预览…"
    assert seen["message"] == "此文件已不存在。"
    assert seen["buttons"] == ["复制内容", "在浏览器中打开"]
    assert seen["versions"] == ["版本 2（当前）", "版本 1"]
    assert seen["restore"] == "恢复此版本"


def test_the_panel_opens_the_viewer_and_names_the_versions(qtbot, qloop, tmp_path: Path) -> None:
    from openworker_qt.ui.artifacts_panel import ArtifactsPanel

    panel = ArtifactsPanel()
    qtbot.addWidget(panel)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        brief = await make(tmp_path, "b.md", "md", [{"type": "paragraph", "text": "One."}])
        sheet = await make(tmp_path, "s.csv", "csv", [TABLE])
        panel.set_paths([str(brief), str(sheet)])
        seen["disabled"] = panel.view_button.isEnabled()
        panel.list.setCurrentRow(0)
        await until(lambda: panel.loaded() and panel.preview_kind == "markdown", what="preview")
        seen["single"] = panel.list.item(0).text()
        await make(tmp_path, "b.md", "md", [{"type": "paragraph", "text": "Two."}])
        panel.add_path(str(brief))  # the revision arrives as the tool's result does
        await until(lambda: panel.loaded() and panel.preview_kind == "markdown", what="again")
        seen["revised"] = panel.list.currentItem().text()
        panel.view_button.click()
        viewer = open_viewers()[0]
        await until(viewer.loaded, what="the viewer")
        seen["viewer"] = (viewer.main, len(viewer.version_paths()))
        viewer.show_version(viewer.version_paths()[1])
        await until(viewer.loaded, what="the old version")
        viewer.restore_button.click()
        await until(lambda: panel.loaded() and "One." in panel.browser.toPlainText()
                    and viewer.loaded(), what="the panel's preview of the restored file")
        seen["after_restore"] = panel.list.currentItem().text()
        close_all()

    run(qloop, scenario)
    assert seen["disabled"] is False
    assert seen["single"] == "b.md"
    assert seen["revised"] == "b.md · 2 versions"
    assert seen["viewer"] == (tmp_path / "outputs" / "b.md", 2)
    assert seen["after_restore"] == "b.md · 3 versions"
