"""The viewer's DOCX and PPTX pages: LibreOffice's true pages when it is installed (files
made by the real tool, converted by the real ``soffice``); the outline or the drawn
slides, said so in words, when it is absent, fails or hangs; a conversion running when
the window closes is killed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.deliverables import office_pdf
from openworker_qt.ui.deliverable_viewer import open_viewer
from tests.deliverables.test_office_pdf import BRIEF, DECK, NO_SOFFICE, fake_soffice, gone
from tests.ui.conftest import run, until
from tests.ui.test_artifacts_panel import non_white
from tests.ui.test_deliverable_viewer import close_all, keep_running, make, shown

__all__ = ["keep_running"]  # the fixture: closing the last viewer does not quit


@NO_SOFFICE
def test_a_docx_and_a_deck_are_shown_as_libreoffice_prints_them(
        qtbot, qloop, tmp_path: Path) -> None:
    from pypdf import PdfReader

    seen: dict[str, Any] = {}

    async def scenario() -> None:
        from PySide6.QtGui import QGuiApplication

        brief = await make(tmp_path, "brief.docx", "docx", BRIEF)
        viewer = await shown(brief)
        labels = viewer.page_labels()
        seen["docx"] = (viewer.content.kind, len(labels), viewer.status.text(),
                        non_white(labels[0].pixmap().toImage()))
        viewer.copy_contents()
        seen["copied"] = QGuiApplication.clipboard().text()
        pdfs = list((office_pdf.cache_dir()).glob("*.pdf"))
        seen["pdf_pages"] = [len(PdfReader(p).pages) for p in pdfs]
        deck = await make(tmp_path, "deck.pptx", "pptx", DECK)
        viewer = await shown(deck)
        seen["pptx"] = (viewer.content.kind, len(viewer.page_labels()), viewer.status.text())
        close_all()

    run(qloop, scenario)
    kind, count, status, ink = seen["docx"]
    assert (kind, count, status) == ("pages", 3, "3 pages") and ink > 1000
    assert seen["pdf_pages"] == [3]  # the pages shown are the converted PDF's
    assert "Renewal brief" in seen["copied"] and "Close the tickets" in seen["copied"]
    assert seen["pptx"] == ("pages", 3, "3 slides")


def test_without_libreoffice_the_viewer_says_it_shows_an_outline(
        qtbot, qloop, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(office_pdf, "program", lambda: None)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        viewer = await shown(await make(tmp_path, "brief.docx", "docx", BRIEF))
        seen["docx"] = (viewer.content.kind, viewer.status.text(),
                        "Next steps" in viewer.browser.toPlainText())
        viewer = await shown(await make(tmp_path, "deck.pptx", "pptx", DECK))
        seen["pptx"] = (viewer.content.kind, viewer.status.text())
        close_all()

    run(qloop, scenario)
    assert seen["docx"] == ("document", "An outline of the text and pictures. Install "
                                        "LibreOffice to see the real pages.", True)
    assert seen["pptx"] == ("pages", "3 slides · Slides drawn from their shapes (line breaks "
                                     "may differ). Install LibreOffice to see the real slides.")


def test_a_conversion_that_hangs_falls_back_and_closing_kills_it(
        qtbot, qloop, tmp_path: Path, monkeypatch) -> None:
    pid_file = tmp_path / "pid"
    program = fake_soffice(tmp_path, f'echo $$ > "{pid_file}"; exec sleep 600')
    monkeypatch.setattr(office_pdf, "program", lambda: str(program))
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        brief = await make(tmp_path, "brief.docx", "docx", BRIEF)
        monkeypatch.setattr(office_pdf, "TIMEOUT", 1.0)
        viewer = await shown(brief)
        seen["hung"] = (viewer.content.kind, viewer.status.text(),
                        "Renewal brief" in viewer.browser.toPlainText(),
                        gone(int(pid_file.read_text())))
        close_all()
        pid_file.unlink()
        monkeypatch.setattr(office_pdf, "TIMEOUT", 600.0)
        viewer = open_viewer(await make(tmp_path, "deck.pptx", "pptx", DECK))
        await until(lambda: pid_file.is_file() and pid_file.read_text().strip(),
                    what="the conversion to start")
        seen["loading"] = viewer.state
        pid = int(pid_file.read_text())
        viewer.close()
        await until(lambda: gone(pid), what="the conversion to be killed")

    run(qloop, scenario)
    assert seen["hung"] == ("document", "LibreOffice did not finish in time, so this is an "
                                        "outline of the text and pictures.", True, True)
    assert seen["loading"] == "loading"


def test_a_failed_conversion_shows_the_drawn_slides(qtbot, qloop, tmp_path: Path,
                                                    monkeypatch) -> None:
    program = fake_soffice(tmp_path, "exit 77")
    monkeypatch.setattr(office_pdf, "program", lambda: str(program))
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        viewer = await shown(await make(tmp_path, "deck.pptx", "pptx", DECK))
        seen["pptx"] = (viewer.content.kind, len(viewer.page_labels()), viewer.status.text())
        close_all()

    run(qloop, scenario)
    assert seen["pptx"] == ("pages", 3, "3 slides · LibreOffice could not convert the file, "
                                        "so the slides are drawn from their shapes (line "
                                        "breaks may differ).")
    assert not list(office_pdf.cache_dir().glob("*.pdf"))
