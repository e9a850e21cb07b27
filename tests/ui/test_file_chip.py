"""A file chip under the card of a call that produced a file (issue 27, C18): its
title, kind and size; a click opens it in the deliverables panel (or the desktop's
application for a kind the panel does not preview); a right click offers the folder
and the path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import QContextMenuEvent, QDesktopServices, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.ui import file_chip
from tests.ui.conftest import act, run, until, wait_for

TURNS = [
    {"tool_calls": [{"id": "w1", "name": "write_file",
                     "arguments": {"path": "notes/summary.md", "content": "# Summary\n\nSeats: 150.\n"}}]},
    {"tool_calls": [{"id": "w2", "name": "write_file",
                     "arguments": {"path": "data.bin", "content": "x" * 3000}}]},
    {"text": "Both files are written."},
]


class Opened(QObject):
    """What the desktop was asked to open (file:// URLs), instead of opening it."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toLocalFile())


def _chip_centre(window: Any, call_id: str) -> QPoint:
    view = window.view
    row = window.transcript.tool_row(call_id)
    index = window.transcript.index(row, 0)
    view.scrollTo(index)
    item = window.transcript.item(row)
    made = view.delegate.chip_at(item, view.visualRect(index))
    assert made is not None
    return made[1].center()


def test_a_written_file_gets_a_chip_that_opens_it(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(TURNS)
    window = desktop.window
    window.resize(1100, 800)
    window.composer.mode.setCurrentText("auto")  # writes inside the folder run without asking
    opened = Opened()
    QDesktopServices.setUrlHandler("file", opened, "open")
    try:
        async def scenario() -> None:
            window.submit_message("Write the summary")
            await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id),
                        what="turn end")

        run(qloop, scenario)
        md = window.transcript.item(window.transcript.tool_row("w1"))
        made = file_chip.produced_file(md)
        assert made is not None and made.title == "summary.md"
        assert made.kind == "Markdown document" and made.size.endswith("bytes")
        assert Path(made.path) == (tmp_path / "ws" / "notes" / "summary.md").resolve()
        binary = file_chip.produced_file(window.transcript.item(window.transcript.tool_row("w2")))
        assert binary is not None and binary.kind == "BIN file" and binary.size == "3 KB"
        # the card is taller by the chip, and the chip is inside its row
        index = window.transcript.index(window.transcript.tool_row("w1"), 0)
        row_rect = window.view.visualRect(index)
        chip = window.view.delegate.chip_at(md, row_rect)
        assert chip is not None and row_rect.contains(chip[1])
        assert window.view.delegate.exact_height(md, 700) > window.view.delegate.exact_height(
            TranscriptItem(kind="tool", name="write_file", status="error", arguments=md.arguments), 700)
        # a click on it shows the file in the deliverables panel
        assert not window.artifacts_dock.isVisible()
        at = _chip_centre(window, "w1")
        act(qloop, lambda: QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=at))
        assert window.artifacts_dock.isVisible()
        assert window.artifacts.selected_path() == made.path
        wait_for(qloop, window.artifacts.loaded, what="the preview")
        assert window.artifacts.preview_kind == "markdown"
        assert opened.urls == []
        # a kind the panel cannot show goes to the desktop's application
        at = _chip_centre(window, "w2")
        act(qloop, lambda: QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=at))
        assert opened.urls == [binary.path]
        # right click: show in folder, copy path
        at = _chip_centre(window, "w1")
        act(qloop, lambda: QApplication.sendEvent(window.view.viewport(), QContextMenuEvent(
            QContextMenuEvent.Reason.Mouse, at, window.view.viewport().mapToGlobal(at))))
        menu = window.view.file_menu
        assert isinstance(menu, QMenu)
        names = [a.text() for a in menu.actions()]
        assert names == ["Open", "Show in folder", "Copy path"]
        menu.actions()[2].trigger()
        assert QGuiApplication.clipboard().text() == made.path
        menu.actions()[1].trigger()
        assert opened.urls[-1] == str(Path(made.path).parent)
        menu.close()
        # from the keyboard: the menu key on the card's row opens the same menu
        window.view.setCurrentIndex(window.transcript.index(window.transcript.tool_row("w1"), 0))
        act(qloop, lambda: QApplication.sendEvent(window.view.viewport(), QContextMenuEvent(
            QContextMenuEvent.Reason.Keyboard, QPoint(1, 1),
            window.view.viewport().mapToGlobal(QPoint(1, 1)))))
        assert window.view.file_menu is not menu and window.view.file_menu.isVisible()
        window.view.file_menu.actions()[0].trigger()  # Open
        assert window.artifacts.selected_path() == made.path
        window.view.file_menu.close()
    finally:
        QDesktopServices.unsetUrlHandler("file")


def test_only_a_call_that_produced_a_file_gets_a_chip() -> None:
    ok = TranscriptItem(kind="tool", name="create_deliverable", status="ok",
                        arguments={"title": "Q3 report", "path": "outputs/q3.pdf"},
                        display={"path": "/w/outputs/q3.pdf", "bytes": 2_400_000})
    made = file_chip.produced_file(ok)
    assert made is not None and made.title == "Q3 report"
    assert made.kind == "PDF document" and made.size == "2.3 MB"
    assert file_chip.produced_file(TranscriptItem(kind="tool", name="read_file", status="ok",
                                                  display={"path": "/w/a.md", "lines": 3})) is None
    assert file_chip.produced_file(TranscriptItem(kind="tool", name="write_file", status="denied",
                                                  arguments={"path": "a.md"})) is None
    assert file_chip.produced_file(TranscriptItem(kind="tool", name="write_file", status="ok")) is None


def test_the_first_deliverable_of_a_session_brings_its_panel_up(qloop, make_desktop) -> None:
    content = [{"type": "heading", "text": "Brief", "level": 1},
               {"type": "paragraph", "text": "Twelve seats."}]
    turns = [
        {"tool_calls": [{"id": "d1", "name": "create_deliverable",
                         "arguments": {"path": "outputs/brief.md", "format": "md",
                                       "title": "Renewal brief", "content": content}}]},
        {"text": "The brief is in outputs/."},
        {"tool_calls": [{"id": "d2", "name": "create_deliverable",
                         "arguments": {"path": "outputs/notes.md", "format": "md",
                                       "title": "Notes", "content": content}}]},
        {"text": "And the notes."},
    ]
    desktop = make_desktop(turns)
    window = desktop.window
    window.composer.mode.setCurrentText("auto")

    async def turn(text: str) -> None:
        window.submit_message(text)
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id),
                    what="turn end")

    assert not window.artifacts_dock.isVisible()
    run(qloop, lambda: turn("Write the brief"))
    assert window.artifacts_dock.isVisible()  # the first deliverable: the panel came up
    row = window.transcript.item(window.transcript.tool_row("d1"))
    made = file_chip.produced_file(row)
    assert made is not None and made.title == "Renewal brief"  # the deliverable's own title
    act(qloop, window.artifacts_dock.hide)  # closed by the user: a second one leaves it closed
    run(qloop, lambda: turn("And the notes"))
    assert not window.artifacts_dock.isVisible()
    assert [Path(p).name for p in window.artifacts.paths()] == ["brief.md", "notes.md"]


def test_a_revised_deliverable_names_and_opens_the_version_each_call_wrote(
        qloop, make_desktop) -> None:
    from openworker_qt.ui.deliverable_viewer import open_viewers

    def brief(text: str) -> dict[str, Any]:
        return {"path": "outputs/brief.md", "format": "md", "title": "Renewal brief",
                "content": [{"type": "paragraph", "text": text}]}

    turns = [{"tool_calls": [{"id": "d1", "name": "create_deliverable",
                              "arguments": brief("Twelve seats.")}]},
             {"text": "Written."},
             {"tool_calls": [{"id": "d2", "name": "create_deliverable",
                              "arguments": brief("Fifteen seats.")}]},
             {"text": "Revised."}]
    desktop = make_desktop(turns)
    window = desktop.window
    window.resize(1100, 800)
    window.composer.mode.setCurrentText("auto")

    async def turn(text: str) -> None:
        window.submit_message(text)
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id),
                    what="turn end")

    run(qloop, lambda: turn("Write the brief"))
    run(qloop, lambda: turn("Make it fifteen"))
    first, second = (file_chip.produced_file(window.transcript.item(window.transcript.tool_row(c)))
                     for c in ("d1", "d2"))
    assert first is not None and second is not None
    assert (first.version, first.badge, second.version, second.badge) == (1, "", 2, "v2")
    assert file_chip.second_line(second).startswith("v2 · ")
    assert not file_chip.second_line(first).startswith("v")
    assert Path(first.opens).name == "v1.md" and Path(first.opens).parent.name == "brief.md"
    assert Path(first.opens).read_text(encoding="utf-8").endswith("Twelve seats.\n")
    # the first call's chip opens what it wrote, in the viewer, not the current file
    at = _chip_centre(window, "d1")
    act(qloop, lambda: QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=at))
    viewers = open_viewers()
    assert [v.shown for v in viewers] == [first.opens]
    wait_for(qloop, viewers[0].loaded, what="the first version")
    assert viewers[0].browser.toPlainText().endswith("Twelve seats.")
    assert viewers[0].version_box.currentText().startswith("Version 1 ·")
    act(qloop, viewers[0].close)
    # the second call's is the current file: the panel shows the file itself
    at = _chip_centre(window, "d2")
    act(qloop, lambda: QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=at))
    assert window.artifacts.selected_path() == second.path and not open_viewers()
