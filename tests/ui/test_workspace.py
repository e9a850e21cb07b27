"""The workspace folder: asked at first start, remembered, changeable per session.

Files used to land in the folder the app was launched from (the source checkout
under ``scripts/dev app``). HOME points into the test's tmp dir, so the default
``~/OpenWorker`` is created there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shiboken6
from PySide6.QtWidgets import QApplication, QFileDialog

from openworker_qt.storage.config import load_config, update_global
from openworker_qt.ui.onboarding import OnboardingDialog
from openworker_qt.ui.workspace import (
    WorkspaceDialog,
    needs_workspace,
    startup_workspace,
)
from tests.ui.conftest import act, run, until


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def closed(dialog: WorkspaceDialog) -> bool:
    return not shiboken6.isValid(dialog) or not dialog.isVisible()


def onboarding_shown() -> OnboardingDialog | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, OnboardingDialog) and widget.isVisible():
            return widget
    return None


def test_new_sessions_do_not_use_the_launch_folder(home: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    monkeypatch.chdir(checkout)  # `scripts/dev app` runs from the source checkout
    assert startup_workspace(load_config()) == home / "OpenWorker"


def test_first_run_asks_for_the_workspace_and_remembers_it(qtbot, qloop, make_desktop, home: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    # a model is set up (in the config file too): no onboarding after the folder
    update_global({"general": {"default_model": desktop.manager.default_model}})
    assert needs_workspace(desktop.runtime.config)
    dialog = act(qloop, lambda: desktop.start_first_run())
    assert isinstance(dialog, WorkspaceDialog) and dialog.isVisible()
    default = home / "OpenWorker"
    assert dialog.path_edit.text() == str(default)
    assert not default.exists()  # created on accept, not before
    act(qloop, dialog.use_button.click)
    assert closed(dialog)
    assert default.is_dir()
    assert load_config().get("general.workspace") == str(default)
    assert desktop.workspace == default
    assert desktop.window.folder_button.text() == "Folder: OpenWorker"
    assert not needs_workspace(desktop.runtime.config)
    assert onboarding_shown() is None

    async def scenario() -> None:
        desktop.window.composer.edit.setPlainText("hello")
        desktop.window.composer.submit()
        await until(lambda: desktop.window.session_id
                    and not desktop.manager.is_running(desktop.window.session_id), what="turn end")

    run(qloop, scenario)
    info = desktop.runtime.conversations.get_session(desktop.window.session_id)
    assert info.workspace == str(default)
    # the next start asks nothing and starts there
    again = make_desktop()
    assert not needs_workspace(again.runtime.config)
    assert startup_workspace(again.runtime.config) == default
    assert act(qloop, lambda: again.start_first_run()) is None


def test_first_run_then_onboarding_when_no_model_is_set_up(qtbot, qloop, make_desktop, home: Path) -> None:
    desktop = make_desktop()
    dialog = act(qloop, lambda: desktop.start_first_run())
    assert onboarding_shown() is None  # one question at a time
    other = home / "Work" / "AI"
    dialog.path_edit.setText(str(other))
    act(qloop, dialog.use_button.click)
    assert other.is_dir() and load_config().get("general.workspace") == str(other)
    assert onboarding_shown() is not None


def test_not_now_remembers_nothing_and_still_avoids_the_launch_folder(qtbot, qloop, make_desktop, home: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    desktop.workspace = startup_workspace(desktop.runtime.config)  # what main() passes
    dialog = act(qloop, lambda: desktop.start_first_run())
    act(qloop, dialog.later_button.click)
    assert closed(dialog)
    assert load_config().get("general.workspace") == ""
    assert needs_workspace(desktop.runtime.config)  # asked again next start
    sid = desktop.window.ensure_session()
    assert desktop.runtime.conversations.get_session(sid).workspace == str(home / "OpenWorker")
    assert (home / "OpenWorker").is_dir()  # created when first used


def test_a_bad_folder_is_explained_and_nothing_is_saved(qtbot, qloop, make_desktop, home: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    dialog = act(qloop, lambda: desktop.start_first_run())
    (home / "notes.txt").write_text("x", encoding="utf-8")
    for text, says in (("relative/folder", "full path"), (str(home / "notes.txt"), "not a folder"),
                       ("", "Enter a folder")):
        dialog.path_edit.setText(text)
        act(qloop, dialog.use_button.click)
        assert dialog.isVisible()
        assert says in dialog.status.text()
        assert dialog.path_edit.text() == text  # what the user typed stays
    assert load_config().get("general.workspace") == ""


def test_each_session_can_change_its_folder(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window
    first = window.ensure_session()
    engine = desktop.manager.engine(first)
    assert engine.workspace == desktop.workspace
    elsewhere = tmp_path / "project"
    elsewhere.mkdir()
    picker = act(qloop, window.change_folder)
    assert isinstance(picker, QFileDialog) and picker.isVisible()
    picker.setDirectory(str(elsewhere))  # "Choose" in the folder the user opened
    act(qloop, picker.accept)
    store = desktop.runtime.conversations
    assert store.get_session(first).workspace == str(elsewhere)
    assert desktop.manager.engine(first).workspace == elsewhere  # rebuilt with the new folder
    assert window.folder_button.text() == "Folder: project"
    assert str(elsewhere) in window.folder_button.toolTip()
    # the model is told with the next message
    assert any(str(elsewhere) in a.part["text"] for a in window.composer.attachments)
    # another session keeps its own folder; the default is unchanged
    window.new_session()
    assert window.folder_button.text() == f"Folder: {desktop.workspace.name}"
    second = window.ensure_session()
    assert store.get_session(second).workspace == str(desktop.workspace)
    async def reopen() -> None:
        window.open_session(first)
        await until(window.loaded, what="session loaded")

    run(qloop, reopen)
    assert window.folder_button.text() == "Folder: project"
    assert load_config().get("general.workspace") == ""


def test_a_new_session_can_start_in_another_folder(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    assert window.set_session_folder(str(elsewhere))
    assert window.session_id is None and window.folder_button.text() == "Folder: other"
    sid = window.ensure_session()
    assert desktop.runtime.conversations.get_session(sid).workspace == str(elsewhere)


def test_the_folder_does_not_change_mid_turn(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"chunks": ["a "] * 200, "delay": 0.01}])
    window = desktop.window
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()

    async def scenario() -> bool:
        window.composer.edit.setPlainText("long answer")
        window.composer.submit()
        await until(lambda: window.session_id and desktop.manager.is_running(window.session_id),
                    what="turn start")
        changed = window.set_session_folder(str(elsewhere))
        window.stop()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="stop")
        return changed

    assert run(qloop, scenario) is False
    assert "once the current turn has ended" in window.banner.label.text()
    assert desktop.runtime.conversations.get_session(window.session_id).workspace == str(desktop.workspace)


def test_the_default_folder_can_change_later(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window
    first = window.ensure_session()
    action = window.findChild(type(window.new_action), "defaultFolder")
    act(qloop, action.trigger)
    dialog = next(w for w in QApplication.topLevelWidgets()
                  if isinstance(w, WorkspaceDialog) and w.isVisible())
    target = tmp_path / "new-default"
    dialog.path_edit.setText(str(target))
    act(qloop, dialog.use_button.click)
    assert load_config().get("general.workspace") == str(target)
    assert desktop.runtime.conversations.get_session(first).workspace != str(target)
    window.new_session()
    assert desktop.runtime.conversations.get_session(window.ensure_session()).workspace == str(target)


@pytest.mark.parametrize("which", ["home", "root", "above home"])
def test_the_home_folder_as_workspace_is_warned_about_and_can_still_be_chosen(
        qtbot, qloop, make_desktop, home: Path, which: str) -> None:
    desktop = make_desktop([{"text": "ok"}])
    dialog = act(qloop, lambda: desktop.start_first_run())
    folder = {"home": home, "root": Path("/"), "above home": home.parent}[which]
    dialog.path_edit.setText(str(folder))
    act(qloop, dialog.use_button.click)
    assert dialog.isVisible()  # warned first, nothing saved
    assert load_config().get("general.workspace") == ""
    text = dialog.status.text()
    assert {"home": "whole home folder", "root": "top of the whole disk",
            "above home": "holds your whole home folder"}[which] in text
    assert "without asking" in text and dialog.status.isVisible()
    assert dialog.use_button.text().replace("&", "") == "Use it anyway"
    # changing the folder takes the warning back; an ordinary folder is not warned about
    dialog.path_edit.setText(str(home / "Work"))
    assert dialog.use_button.text().replace("&", "") == "Use this folder"
    dialog.path_edit.setText(str(folder))
    act(qloop, dialog.use_button.click)
    assert dialog.isVisible()
    act(qloop, dialog.use_button.click)  # "Use it anyway"
    assert closed(dialog)
    assert load_config().get("general.workspace") == str(folder.resolve())


def test_changing_a_sessions_folder_to_home_warns_first(qtbot, qloop, make_desktop, home: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    window = desktop.window
    first = window.ensure_session()
    assert window.set_session_folder(str(home)) is False
    assert "whole home folder" in window.banner.label.text()
    assert window.banner.action.text() == "Use it anyway"
    store = desktop.runtime.conversations
    assert store.get_session(first).workspace == str(desktop.workspace)
    act(qloop, window.banner.action.click)
    assert store.get_session(first).workspace == str(home.resolve())
    assert not window.banner.isVisible()
    # an ordinary folder moves at once, with no warning
    work = home / "Work"
    work.mkdir()
    assert window.set_session_folder(str(work))
