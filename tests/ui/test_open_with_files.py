"""``openworker-qt FILE`` (the .desktop file's ``Exec=openworker-qt %F``) and drops
taken as a copy, with a highlight while dragging (issue 27, A6)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from openworker_qt import __main__ as entry
from openworker_qt.qt.single_instance import SingleInstance, server_name
from openworker_qt.storage.paths import app_paths
from tests.ui.conftest import run, until


@pytest.fixture
def app_names(qapp):
    """launch.main names the application: put the test process's names back."""
    names = (QApplication.applicationName(), QApplication.organizationName(),
             QApplication.desktopFileName(), qapp.quitOnLastWindowClosed())
    yield
    QApplication.setApplicationName(names[0])
    QApplication.setOrganizationName(names[1])
    QApplication.setDesktopFileName(names[2])
    qapp.setQuitOnLastWindowClosed(names[3])


def test_a_second_launch_with_a_file_hands_it_to_the_running_app(
        qtbot, app_names, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "report.md").write_text("# hi\n", encoding="utf-8")
    (tmp_path / "photos").mkdir()
    monkeypatch.chdir(tmp_path)
    running = SingleInstance(server_name(str(app_paths().ensure().data)))
    assert running.listen()
    got: list[list[str]] = []
    running.message_received.connect(got.append)
    # relative, as a file manager or a shell passes them
    assert entry.main(["report.md", "photos"]) == 0  # not "invalid choice"
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    assert got == [[str(tmp_path / "report.md"), str(tmp_path / "photos")]]  # absolute
    running.server.close()


def test_commands_and_missing_paths_stay_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sessions").write_text("a file named like a command", encoding="utf-8")
    assert entry._files_to_open(["sessions"]) is None  # the command wins
    assert entry._files_to_open(["missing.txt"]) is None
    assert entry._files_to_open(["--version", "sessions"]) is None
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    assert entry._files_to_open(["--new-instance", "a.txt"]) == [
        "--new-instance", os.path.join(str(tmp_path), "a.txt")]
    with pytest.raises(SystemExit):
        entry.main(["missing.txt"])  # the CLI's error, the file is not invented
    assert "invalid choice" in capsys.readouterr().err


def test_the_running_app_attaches_handed_files(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("remember the milk\n", encoding="utf-8")
    desktop = make_desktop([{"text": "ok"}])

    async def scenario() -> None:
        desktop.handle_args([str(note)])
        await until(lambda: desktop.window.composer.attachments, what="attached")

    run(qloop, scenario)
    assert [a.path for a in desktop.window.composer.attachments] == [str(note)]


def _mime(path: Path) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    return mime


@pytest.mark.parametrize("target", ["window", "quick_ask"])
def test_a_drop_proposed_as_move_is_taken_as_a_copy(
        qtbot, qloop, make_desktop, tmp_path: Path, target: str) -> None:
    note = tmp_path / "note.txt"
    note.write_text("x\n", encoding="utf-8")
    desktop = make_desktop([{"text": "ok"}])
    widget = desktop.window if target == "window" else desktop.show_quick_ask()
    mime = _mime(note)
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    move = Qt.DropAction.MoveAction
    both = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    shift = Qt.KeyboardModifier.ShiftModifier
    seen: dict[str, object] = {}

    async def scenario() -> None:
        # Shift held: Qt proposes Move, as a file manager may
        enter = QDragEnterEvent(pos.toPoint(), both, mime, Qt.MouseButton.LeftButton, shift)
        assert enter.proposedAction() == move
        QApplication.sendEvent(widget, enter)
        seen["enter"] = (enter.isAccepted(), enter.dropAction())
        if target == "window":
            seen["lit"] = desktop.window.intake.drop_highlight().isVisible()
        drop = QDropEvent(pos, both, mime, Qt.MouseButton.LeftButton, shift)
        assert drop.proposedAction() == move
        QApplication.sendEvent(widget, drop)
        seen["drop"] = (drop.isAccepted(), drop.dropAction())
        if target == "window":
            seen["lit_after"] = desktop.window.intake.drop_highlight().isVisible()
        await until(lambda: note.exists(), what="file kept")

    run(qloop, scenario)
    assert seen["enter"] == (True, Qt.DropAction.CopyAction)
    assert seen["drop"] == (True, Qt.DropAction.CopyAction)
    if target == "window":
        assert seen["lit"] is True and seen["lit_after"] is False


def test_the_drop_highlight_goes_when_the_drag_leaves(qtbot, make_desktop, tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("x\n", encoding="utf-8")
    window = make_desktop([{"text": "ok"}]).window
    mime = _mime(note)  # (held: the event does not own it)
    enter = QDragEnterEvent(QPoint(20, 20), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    highlight = window.intake.drop_highlight()
    assert highlight.isVisible() and "Drop" in highlight.text()
    assert highlight.geometry().width() > window.centralWidget().width() / 2
    QApplication.sendEvent(window, QDragLeaveEvent())
    assert not highlight.isVisible()
