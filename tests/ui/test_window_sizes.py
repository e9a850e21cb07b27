"""Secondary windows open at the size their content needs and whole on the screen,
over the main window (Settings opened at 788×520, the MCP dialog at 249×192, and
Automations in the bottom-right corner with its bottom edge off-screen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QWidget

from openworker_qt.automation.store import AutomationStore
from openworker_qt.storage.db import Database
from openworker_qt.ui.automations import AutomationEditor, AutomationsWindow
from openworker_qt.ui.settings_mcp import AddServerDialog
from tests.ui.conftest import act, run, until


def _whole_on_screen(widget: QWidget) -> bool:
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry().contains(widget.frameGeometry())


def _not_cut(widget: QWidget) -> bool:
    """At least what its layout needs (or nine tenths of a small screen)."""
    area = (widget.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    need = widget.minimumSizeHint()
    return (widget.width() >= min(need.width(), int(area.width() * 0.9))
            and widget.height() >= min(need.height(), int(area.height() * 0.9)))


def test_settings_opens_big_enough_and_on_screen(qloop, make_desktop) -> None:
    desktop = make_desktop()
    desktop.window.resize(900, 560)
    desktop.window.move(300, 200)  # towards the bottom-right of the screen
    act(qloop, desktop.window.findChild(QAction, "settings").trigger)
    settings = desktop.settings_window
    run(qloop, lambda: until(lambda: not settings.providers.busy(), what="keyring read"))
    area = (settings.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    assert _whole_on_screen(settings) and _not_cut(settings)
    assert settings.width() >= min(880, int(area.width() * 0.9))  # wider than 760 × 520


def test_dialogs_and_automations_fit_their_content(qtbot: Any, tmp_path: Path) -> None:
    owner = QWidget()
    qtbot.addWidget(owner)
    owner.resize(600, 400)
    area = QGuiApplication.primaryScreen().availableGeometry()
    owner.move(area.right() - 300, area.bottom() - 200)  # mostly off the bottom-right
    owner.show()
    dialog = AddServerDialog(owner)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.command.width() > 200)  # laid out (a posted event)
    placeholder = dialog.command.fontMetrics().horizontalAdvance(dialog.command.placeholderText())
    assert dialog.command.width() >= min(placeholder, int(area.width() * 0.6))  # not 249 px
    assert _whole_on_screen(dialog) and _not_cut(dialog)
    store = AutomationStore(Database(tmp_path / "a.db"))
    window = AutomationsWindow(store, run_now=lambda _id: None, parent=owner)
    qtbot.addWidget(window)
    window.show()
    assert _whole_on_screen(window) and _not_cut(window)
    editor = AutomationEditor(store, workspace=str(tmp_path), parent=window)
    qtbot.addWidget(editor)
    editor.show()
    assert _whole_on_screen(editor) and _not_cut(editor)


def test_the_deliverables_panel_gives_back_the_width_it_took(qloop, make_desktop) -> None:
    from tests.ui.conftest import wait_for

    window = make_desktop().window
    narrow = window.minimumSizeHint().width()  # (no room for the panel without growing)
    window.resize(narrow, 700)
    wait_for(qloop, lambda: window.width() == narrow, what="the window's width")
    act(qloop, window.artifacts_dock.show)
    wait_for(qloop, lambda: window.artifacts_dock.width() > 0 and window.width() > narrow,
             what="the window to make room")
    act(qloop, window.artifacts_dock.hide)
    wait_for(qloop, lambda: window.width() == narrow, what="the width given back")
    # resized by hand while the panel shows: that width is the user's
    act(qloop, window.artifacts_dock.show)
    wait_for(qloop, lambda: window.width() > narrow, what="room again")
    window.resize(1300, 700)
    wait_for(qloop, lambda: window.width() == 1300, what="the user's width")
    act(qloop, window.artifacts_dock.hide)
    wait_for(qloop, lambda: not window.artifacts_dock.isVisible(), what="the panel hidden")
    assert window.width() == 1300
