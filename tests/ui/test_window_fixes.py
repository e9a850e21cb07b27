"""Bugs seen in the window by a first-time user (issue 8, D4), each driven for real.

F2 renames from the session list; the model picker shows the model the session
really uses and a blank model is never sent; window geometry is remembered and
every window opens on a screen.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import act, run, until


def test_f2_in_the_session_list_renames(qtbot, qloop, make_desktop) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window
    info = desktop.manager.create_session(title="Old title", workspace=str(desktop.workspace))
    window.refresh_sessions()
    window.sidebar.select(info.id)
    # one binding for F2 in the whole window (two made the key ambiguous: neither fired)
    bound = [a for a in window.findChildren(type(window.new_action))
             if a.shortcut().toString() == "F2"]
    assert bound == [window.sidebar.rename_action]

    async def scenario() -> None:
        window.activateWindow()
        await until(lambda: QApplication.activeWindow() is window, what="active window")
        window.sidebar.list.setFocus()
        qtbot.keyClick(window.sidebar.list, Qt.Key.Key_F2)
        await until(lambda: window.sidebar.rename_dialog is not None
                    and window.sidebar.rename_dialog.isVisible(), what="rename dialog")

    run(qloop, scenario)
    dialog = window.sidebar.rename_dialog
    assert dialog.textValue() == "Old title"
    dialog.setTextValue("New title")
    act(qloop, dialog.accept)
    assert desktop.runtime.conversations.get_session(info.id).title == "New title"
    assert window.sessions.index(0, 0).data() == "New title"
