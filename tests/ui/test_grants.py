"""Dropped folders: the read-only / writable question and the per-session grant."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from openworker_qt.core.session_fields import granted_roots
from openworker_qt.ui.grant_dialog import GrantDialog
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter
from tests.ui.test_tray_notify_dnd import _drop


def test_grant_dialog_answers(qtbot) -> None:
    answers: list[bool] = []
    for button in ("read_button", "write_button", "cancel_button"):
        dialog = GrantDialog("/data/project")
        qtbot.addWidget(dialog)
        dialog.chosen.connect(answers.append)
        dialog.open()
        assert dialog.isVisible()
        assert dialog.read_button.isDefault()  # Enter gives the least access
        assert "project" in dialog.question.text()
        qtbot.mouseClick(getattr(dialog, button), Qt.MouseButton.LeftButton)
        assert not dialog.isVisible()
    assert answers == [False, True]  # cancel answers nothing


def test_grant_dialog_is_accessible(qtbot) -> None:
    dialog = GrantDialog("/data/project")
    qtbot.addWidget(dialog)
    assert dialog.windowModality() == Qt.WindowModality.WindowModal
    for widget in (dialog, dialog.read_button, dialog.write_button, dialog.cancel_button):
        assert widget.accessibleName()


def _write_into(folder: Path) -> list[dict[str, object]]:
    return [
        {"tool_calls": [{"name": "write_file",
                         "arguments": {"path": str(folder / "out.txt"), "content": "hi\n"}}]},
        {"text": "Done."},
    ]


@pytest.mark.parametrize("writable", [True, False])
def test_dropped_folder_is_granted_to_this_session_only(
        qtbot, qloop, make_desktop, tmp_path: Path, writable: bool) -> None:
    folder = (tmp_path / "project").resolve()
    folder.mkdir()
    desktop = make_desktop(_write_into(folder))
    window = desktop.window
    window.cards.show_dialogs = False
    window.composer.mode.setCurrentText("auto")  # writes inside a root run without asking

    async def scenario() -> None:
        _drop(window, [folder])
        dialog = desktop.grant_dialog
        assert isinstance(dialog, GrantDialog) and dialog.isVisible()
        button = dialog.write_button if writable else dialog.read_button
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert window.session_id is not None
        chips = [a for a in window.composer.attachments if a.kind == "folder"]
        assert len(chips) == 1 and chips[0].path == str(folder)
        type_and_enter(qtbot, window, "save it there")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    store = desktop.manager.store
    info = store.get_session(window.session_id)
    assert info.meta["granted_roots"] == [{"path": str(folder), "writable": writable}]
    assert granted_roots(info) == ([str(folder)] if writable else [])
    # the model is told about the folder with the message
    sent = store.load(window.session_id)[0]["content"]
    note = next(p["text"] for p in sent if "Folder granted" in p.get("text", ""))
    assert str(folder) in note and ("read and write" if writable else "read only") in note
    # auto mode: inside a writable root the write ran; outside every root it is refused
    assert (folder / "out.txt").exists() is writable
    # the grant is this session's, never the global config's
    from openworker_qt.storage.config import load_config

    assert str(folder) not in (load_config().get("permissions.writable_roots") or [])
    other = desktop.manager.create_session(workspace=str(tmp_path / "ws"), mode="auto")
    assert not desktop.runtime.decider_for(other).is_writable(str(folder / "x.txt"))
    assert desktop.runtime.decider_for(info).is_writable(str(folder / "x.txt")) is writable


def test_cancelled_grant_grants_nothing(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    folder = tmp_path / "private"
    folder.mkdir()
    desktop = make_desktop([{"text": "ok"}])
    _drop(desktop.window, [folder])
    qtbot.mouseClick(desktop.grant_dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert desktop.window.composer.attachments == []
    assert desktop.window.session_id is None


def test_folder_dropped_on_quick_ask_is_granted_to_its_session(
        qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    folder = (tmp_path / "notes").resolve()
    folder.mkdir()
    desktop = make_desktop([{"text": "ok"}])
    popup = desktop.show_quick_ask()

    async def scenario() -> None:
        _drop(popup, [folder])
        await until(lambda: desktop.grant_dialog is not None, what="grant dialog")
        qtbot.mouseClick(desktop.grant_dialog.read_button, Qt.MouseButton.LeftButton)
        assert "notes/ (read only)" in popup.chips.text()
        qtbot.keyClicks(popup.edit, "what is in there?")
        qtbot.keyClick(popup.edit, Qt.Key.Key_Return)
        await until(lambda: popup.status.text() == "Done", what="answer")

    run(qloop, scenario)
    info = desktop.manager.store.get_session(popup.session_id)
    assert info.meta["granted_roots"] == [{"path": str(folder), "writable": False}]
    sent = desktop.manager.store.load(popup.session_id)[0]["content"]
    assert any("read only" in p.get("text", "") and str(folder) in p.get("text", "") for p in sent)
