"""Settings v1: each page writes the global config and takes effect at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication

from openworker_qt.core.permissions import PermissionMode
from openworker_qt.storage import secrets
from openworker_qt.storage.config import load_config
from tests.ui.conftest import act, run, until


def open_settings(make_desktop, qloop) -> tuple[Any, Any]:
    desktop = make_desktop()
    action = desktop.window.findChild(QAction, "settings")
    assert action.shortcut() == QKeySequence("Ctrl+,")
    act(qloop, action.trigger)
    window = desktop.settings_window
    assert window is not None and window.isVisible()
    run(qloop, lambda: until(lambda: not window.providers.busy(), what="keyring read"))
    return desktop, window


def engine(desktop: Any) -> Any:
    info = desktop.runtime.conversations.create_session(title="t", mode="", workspace=str(desktop.workspace))
    return desktop.runtime.decider_for(info)


def test_keys_are_set_replaced_removed_and_never_shown(qtbot, qloop, make_desktop) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    page = window.providers
    page.select("anthropic")
    row = page.tree.currentItem()
    assert row.text(1) == "Not set"
    invalidated: list[str | None] = []
    real = desktop.runtime.router.invalidate
    desktop.runtime.router.invalidate = lambda p=None: (invalidated.append(p), real(p))
    qtbot.keyClicks(page.key_edit, "sk-ant-first-value-1")

    async def save() -> None:
        qtbot.mouseClick(page.save_key, Qt.MouseButton.LeftButton)
        await until(lambda: not page.busy())

    run(qloop, save)
    assert secrets.get_secret("ANTHROPIC_API_KEY") == "sk-ant-first-value-1"
    assert row.text(1) == "Stored" and page.key_edit.text() == ""
    assert invalidated == ["anthropic"]
    assert "sk-ant" not in page.status.text()
    # the picker now offers Anthropic's models
    assert any(m.startswith("anthropic:") for m in desktop.known_models())
    page.key_edit.setText("sk-ant-second-value-2")
    run(qloop, save)
    assert secrets.get_secret("ANTHROPIC_API_KEY") == "sk-ant-second-value-2"

    async def remove() -> None:
        qtbot.mouseClick(page.remove_key, Qt.MouseButton.LeftButton)
        await until(lambda: not page.busy())

    run(qloop, remove)
    assert secrets.get_secret("ANTHROPIC_API_KEY") is None
    assert row.text(1) == "Not set"
    assert invalidated == ["anthropic", "anthropic", "anthropic"]
    for i in range(page.tree.topLevelItemCount()):
        assert "sk-" not in page.tree.topLevelItem(i).text(1)


def test_ollama_url_saved_normalised_and_router_rebuilt(qtbot, qloop, make_desktop) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    page = window.providers
    page.select("ollama")
    assert page.address.text() == "http://localhost:11434/v1" and not page.key_edit.isEnabled()
    page.address.setText("gpu-box:11434")
    qtbot.keyClick(page.address, Qt.Key.Key_Return)
    run(qloop, lambda: until(lambda: not page.busy()))
    assert load_config().get("providers.ollama.base_url") == "http://gpu-box:11434/v1"
    provider, _ = desktop.runtime.router.resolve("ollama:llama3.2")
    assert provider._base_url == "http://gpu-box:11434/v1"


def test_a_keyless_custom_server_says_no_key_and_its_address_can_be_changed(
        qtbot, qloop, make_desktop) -> None:
    from openworker_qt.storage.config import update_global

    update_global({"providers": {"custom": {"base_url": "http://127.0.0.1:9/v1",
                                            "models": ["stub-1"]},
                                 "lmstudio": {"base_url": "http://localhost:1234/v1",
                                              "models": []}}})
    desktop, window = open_settings(make_desktop, qloop)
    page = window.providers
    run(qloop, lambda: until(lambda: not page.busy()))
    rows = {page.tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole):
            page.tree.topLevelItem(i) for i in range(page.tree.topLevelItemCount())}
    assert rows["custom"].text(1) == "No key needed"  # it said "Stored" with no key entered
    assert rows["custom"].text(2) == "http://127.0.0.1:9/v1"
    assert rows["lmstudio"].text(1) == "No key needed"  # a set-up local server is listed
    page.select("custom")
    assert page.address.isEnabled() and page.address.text() == "http://127.0.0.1:9/v1"
    page.address.setText("not an address at all")
    qtbot.keyClick(page.address, Qt.Key.Key_Return)
    assert "not a server address" in page.status.text()
    assert load_config().get("providers.custom.base_url") == "http://127.0.0.1:9/v1"
    page.address.setText("gpu-box:8080/v1/")
    qtbot.keyClick(page.address, Qt.Key.Key_Return)
    run(qloop, lambda: until(lambda: not page.busy()))
    assert load_config().get("providers.custom.base_url") == "http://gpu-box:8080/v1"
    assert load_config().get("providers.custom.models") == ["stub-1"]  # the rest is kept
    assert rows["custom"].text(2) == "http://gpu-box:8080/v1"
    page.select("openai")
    assert not page.address.isEnabled() and page.key_edit.isEnabled()


def test_default_model_applies_to_new_sessions(qtbot, qloop, make_desktop) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    window.show_page(1)
    page = window.model
    page.model.setCurrentText("anthropic:claude-haiku-4-5")
    qtbot.keyClick(page.model.lineEdit(), Qt.Key.Key_Return)
    assert load_config().get("general.default_model") == "anthropic:claude-haiku-4-5"
    assert desktop.manager.default_model == "anthropic:claude-haiku-4-5"
    assert desktop.window.composer.current_model() == "anthropic:claude-haiku-4-5"
    assert desktop.window.composer.model.currentText() == "claude-haiku-4-5 · Anthropic"


def test_permission_mode_is_live(qtbot, qloop, make_desktop) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    decider = engine(desktop)
    assert decider.mode == PermissionMode.INTERACTIVE
    page = window.permissions
    page.mode.setCurrentIndex(page.mode.findData("auto"))
    page.mode.activated.emit(page.mode.currentIndex())
    assert load_config().get("permissions.mode") == "auto"
    assert decider.mode == PermissionMode.AUTO  # same engine, re-reads config on every check
    assert desktop.window.composer.mode.currentText() == "auto"


def test_shell_allowlist_add_remove(qtbot, qloop, make_desktop) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    decider = engine(desktop)
    page = window.permissions
    for cmd in ("git status", "ls -la", "git status"):
        page.command.setText(cmd)
        qtbot.mouseClick(page.add_command, Qt.MouseButton.LeftButton)
    assert load_config().get("permissions.shell_allowlist") == ["git status", "ls -la"]
    assert {"git status", "ls -la"} <= set(decider.shell_allowlist())  # beside the built-in safe list
    page.allowlist.list.setCurrentRow(0)
    qtbot.mouseClick(page.allowlist.remove, Qt.MouseButton.LeftButton)
    assert load_config().get("permissions.shell_allowlist") == ["ls -la"]  # replaced, not merged
    assert "git status" not in decider.shell_allowlist() and "ls -la" in decider.shell_allowlist()


def test_writable_roots_add_remove(qtbot, qloop, make_desktop, tmp_path: Path, monkeypatch) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    decider = engine(desktop)
    folder = tmp_path / "reports"
    folder.mkdir()
    from openworker_qt.ui import settings_pages

    monkeypatch.setattr(settings_pages.QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: str(folder)))
    page = window.folders
    qtbot.mouseClick(page.add_folder, Qt.MouseButton.LeftButton)
    assert load_config().get("permissions.writable_roots") == [str(folder)]
    assert folder.resolve() in decider.writable_roots()
    page.roots.list.setCurrentRow(0)
    qtbot.mouseClick(page.roots.remove, Qt.MouseButton.LeftButton)
    assert load_config().get("permissions.writable_roots") == []
    assert folder.resolve() not in decider.writable_roots()


def test_appearance_follows_system_by_default_and_can_be_forced(qtbot, qloop, make_desktop) -> None:
    desktop, window = open_settings(make_desktop, qloop)
    page = window.appearance
    assert page.theme.currentData() == "system"
    qapp = QApplication.instance()
    light_window = qapp.palette().window().color().lightness()
    page.theme.setCurrentIndex(page.theme.findData("dark"))
    page.theme.activated.emit(page.theme.currentIndex())
    assert load_config().get("ui.theme") == "dark"
    assert qapp.palette().window().color().lightness() < 100 < light_window
    page.set_theme("system")
    assert load_config().get("ui.theme") == "system"
    # back to the light scheme (the design system's light colours; offscreen is light)
    from openworker_qt.ui.theme import light_palette

    expected = light_palette(qapp.style().standardPalette()).window().color()
    assert qapp.palette().window().color() == expected and expected.lightness() > 200
    page.set_language("zh_CN")
    assert load_config().get("general.language") == "zh_CN"
    assert desktop.runtime.config.get("general.language") == "zh_CN"


def test_escape_closes_settings(qtbot, qloop, make_desktop) -> None:
    _desktop, window = open_settings(make_desktop, qloop)
    qtbot.keyClick(window.nav, Qt.Key.Key_Escape)
    assert not window.isVisible()


def test_saving_a_setting_keeps_the_users_comments(qtbot, qloop, make_desktop) -> None:
    from openworker_qt.storage.paths import app_paths

    config_file = app_paths().config_file
    config_file.parent.mkdir(parents=True, exist_ok=True)
    written = ("# my settings, by hand\n\n[permissions]\n# ask me first\n"
               'mode = "interactive"  # until I trust it\n\n[ui]\ntheme = "system"\n')
    config_file.write_text(written, encoding="utf-8")
    desktop, window = open_settings(make_desktop, qloop)
    page = window.permissions
    page.mode.setCurrentIndex(page.mode.findData("auto"))
    page.mode.activated.emit(page.mode.currentIndex())
    assert config_file.read_text(encoding="utf-8") == written.replace('"interactive"', '"auto"')
    assert load_config().get("permissions.mode") == "auto"
