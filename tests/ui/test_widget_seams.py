"""Windows built alone, from their narrow collaborators, without a DesktopApp.

Each window takes the services it uses (the bridges, the session manager, a
SettingsStore, a ModelCatalog) and the protocols of ``ui/ports.py``; these
tests build them from real ones — a SQLite inbox and store, the session
manager running the scripted provider, a runtime's config — and check that
what the app would do arrives as signals.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openworker_qt.core.inbox import (
    SUPERSEDED,
    SUPERSEDED_BY,
    WITHDRAWN,
    Inbox,
    InboxItem,
    closed_by_app,
)
from openworker_qt.core.session_fields import SessionControl
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.inbox_bridge import InboxBridge
from openworker_qt.qt.model_catalog import ModelCatalog
from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.storage.db import Database
from openworker_qt.ui.inbox_window import InboxWindow
from openworker_qt.ui.late_answers import closed_text
from openworker_qt.ui.main_window import MainWindow
from openworker_qt.ui.quick_ask import QuickAsk
from openworker_qt.ui.settings import SettingsWindow
from openworker_qt.ui.tray import Tray
from tests.qt.helpers import World
from tests.ui.conftest import run, until

NEVER_POLL = 3_600_000  # ms: the bridge notices only this process's changes


def _ask(inbox: Inbox, session_id: str, call_id: str) -> InboxItem:
    return inbox.add("approval", session_id, tool_call_id=call_id, tool="write_file",
                     arguments={"path": "a.txt"}, title="write_file wants to run",
                     reason="writes a file", risk="write_local", target="a.txt")


@pytest.fixture
def world(tmp_path: Path):
    w = World(tmp_path, [{"text": "Four."}])
    yield w
    w.close()


@pytest.fixture
def runtime():
    from openworker_qt.runtime import open_runtime

    rt = open_runtime()
    yield rt
    rt.close()


# ------------------------------------------------------------------ inbox window


def test_inbox_window_answers_through_its_answers_alone(qtbot, qloop, world: World, tmp_path: Path) -> None:
    sid = world.session(title="Report")
    item = _ask(world.inbox, sid, "c1")
    bridge = InboxBridge(world.inbox, poll_ms=NEVER_POLL)
    window = InboxWindow(bridge, world.store, bridge, state_dir=tmp_path)
    qtbot.addWidget(window)
    opened: list[str] = []
    window.open_session_requested.connect(opened.append)
    window.show()
    assert window.model.rowCount() == 1
    assert window.filter.itemText(1) == "Report"  # the title, from the session lookup
    assert window.session_label.text() == "Report"
    qtbot.mouseClick(window.open_session, Qt.MouseButton.LeftButton)
    assert opened == [sid]
    qtbot.mouseClick(window.once, Qt.MouseButton.LeftButton)
    answered = world.inbox.get(item.id)
    assert answered is not None and (answered.resolution, answered.resolved_by) == ("once", "inbox")
    assert window.model.rowCount() == 0 and not window.late.isVisible()
    bridge.detach()


def test_inbox_window_alone_says_why_a_late_answer_changed_nothing(qtbot, qloop, world: World, tmp_path: Path) -> None:
    sid = world.session()
    item = _ask(world.inbox, sid, "c1")
    bridge = InboxBridge(world.inbox, poll_ms=NEVER_POLL)
    window = InboxWindow(bridge, world.store, bridge)
    qtbot.addWidget(window)
    window.show()
    other = Database(tmp_path / "state.sqlite3")  # another process moved the conversation on
    assert Inbox(other).resolve(item.id, SUPERSEDED, by=SUPERSEDED_BY)
    other.close()
    assert window.model.rowCount() == 1  # not noticed yet
    qtbot.mouseClick(window.once, Qt.MouseButton.LeftButton)
    assert window.late.isVisible()
    assert window.late.text().startswith(f"#{item.id} was closed because the conversation moved on")
    assert window.model.rowCount() == 0  # the answer's refresh caught up
    bridge.detach()


def test_late_answer_texts_match_the_core_in_english(world: World) -> None:
    sid = world.session()
    moved = _ask(world.inbox, sid, "c1")
    stopped = _ask(world.inbox, sid, "c2")
    answered = _ask(world.inbox, sid, "c3")
    world.inbox.resolve(moved.id, SUPERSEDED, by=SUPERSEDED_BY)
    world.inbox.resolve(stopped.id, WITHDRAWN, by="stop")
    world.inbox.resolve(answered.id, "once", by="card")
    for item_id in (moved.id, stopped.id):
        item = world.inbox.get(item_id)
        assert item is not None and closed_text(item) == closed_by_app(item) is not None
    late = world.inbox.get(answered.id)
    assert late is not None and closed_text(late) is None


# ---------------------------------------------------------------------- quick ask


class QuickAskSessionsOnAManager:
    """The quick-ask popup's QuickAskSessions over a real session manager (no window)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.shown: list[tuple[str, str]] = []

    def new_session_model(self) -> str:
        return "scripted"

    def new_session_folder(self) -> Path:
        return self.world.workspace

    def create_session(self, *, model: str, workspace: str, meta: dict[str, Any],
                       title: str = "", persona: str = "", mode: str = "") -> str:
        return self.world.manager.create_session(model=model, workspace=workspace, meta=meta,
                                                 persona=persona or "cowork").id

    def grant_folder(self, session_id: str, folder: str, *, writable: bool) -> None:
        SessionControl(self.world.store, session_id).grant_directory(folder, writable)

    def send(self, session_id: str, content: Any) -> None:
        self.world.manager.send(session_id, content)

    def show_session(self, session_id: str, *, message: str = "") -> None:
        self.shown.append((session_id, message))


def test_quick_ask_alone_starts_a_session_and_streams_the_answer(qtbot, qloop, world: World, tmp_path: Path) -> None:
    sessions = QuickAskSessionsOnAManager(world)
    bridge = EngineBridge(world.manager)
    popup = QuickAsk(sessions, bridge)
    qtbot.addWidget(popup)
    folder = (tmp_path / "notes").resolve()
    folder.mkdir()
    dropped: list[str] = []
    popup.folder_dropped.connect(dropped.append)
    popup.add_grant(str(folder), False)  # what the app hands back after the grant question
    assert "notes/ (read only)" in popup.chips.text()

    async def scenario() -> None:
        popup.popup()
        qtbot.keyClicks(popup.edit, "what is 2+2?")
        qtbot.keyClick(popup.edit, Qt.Key.Key_Return)
        await until(lambda: popup.status.text() == "Done", what="the answer")

    run(qloop, scenario)
    assert "Four." in popup.answer.text()
    info = world.store.get_session(popup.session_id or "")
    assert info is not None and info.meta["origin"] == "quick_ask"
    assert info.meta["granted_roots"] == [{"path": str(folder), "writable": False}]
    qtbot.mouseClick(popup.open_button, Qt.MouseButton.LeftButton)
    assert sessions.shown == [(info.id, "")] and not popup.isVisible()
    assert dropped == []
    bridge.detach()


# ------------------------------------------------------------------------- tray


def test_tray_alone_answers_from_its_menu_and_asks_for_windows(qtbot, qloop, world: World, runtime) -> None:
    sid = world.session()
    item = _ask(world.inbox, sid, "c1")
    inbox = InboxBridge(world.inbox, poll_ms=NEVER_POLL)
    bridge = EngineBridge(world.manager)
    tray = Tray(inbox, bridge, inbox, SettingsStore(runtime), available=False)
    asked: list[str] = []
    tray.inbox_requested.connect(lambda: asked.append("inbox"))
    tray.quit_requested.connect(lambda: asked.append("quit"))
    assert tray.state == "attention"
    [entry] = tray.pending_menu.actions()
    approve = next(a for a in entry.menu().actions() if a.text() == "Approve once")
    approve.trigger()
    answered = world.inbox.get(item.id)
    assert answered is not None and (answered.resolution, answered.resolved_by) == ("once", "tray")
    assert tray.state == "idle"
    tray.inbox_action.trigger()
    tray.quit_action.trigger()
    assert asked == ["inbox", "quit"]
    inbox.detach()
    bridge.detach()


# --------------------------------------------------------------------- settings


def _settings_window(runtime: Any) -> tuple[SettingsWindow, ModelCatalog, Any]:
    defaults = runtime.session_manager()
    models = ModelCatalog(runtime.list_models)
    return SettingsWindow(SettingsStore(runtime), models, defaults), models, defaults


def test_settings_window_alone_saves_and_announces_defaults(qtbot, qloop, runtime) -> None:
    window, _models, defaults = _settings_window(runtime)
    qtbot.addWidget(window)
    chosen: list[str] = []
    modes: list[str] = []
    window.model.default_model_changed.connect(chosen.append)
    window.permissions.default_mode_changed.connect(modes.append)
    window.show()
    run(qloop, lambda: until(lambda: not window.providers.busy(), what="keyring read"))
    window.model.set_default_model("anthropic:claude-sonnet-4-5")
    window.permissions.set_mode("auto")
    window.folders.roots.add("/tmp/shared")
    assert chosen == ["anthropic:claude-sonnet-4-5"] and modes == ["auto"]
    config = runtime.config  # reloaded from the file each change wrote
    assert config.get("general.default_model") == "anthropic:claude-sonnet-4-5"
    assert config.get("permissions.mode") == "auto"
    assert config.get("permissions.writable_roots") == ["/tmp/shared"]
    assert defaults.default_model == ""  # making it live is the app's part
    guided: list[bool] = []
    window.providers.guided_setup_requested.connect(lambda: guided.append(True))
    qtbot.mouseClick(window.providers.guided, Qt.MouseButton.LeftButton)
    assert guided == [True]


def _key_column(window: SettingsWindow) -> dict[str, str]:
    tree = window.providers.tree
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return {str(i.data(0, Qt.ItemDataRole.UserRole)): i.text(1) for i in items if i is not None}


def test_providers_page_shows_a_key_from_the_environment(qtbot, qloop, runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    from openworker_qt.storage import secrets

    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-0123456789abcdef")
    monkeypatch.setenv("GOOGLE_API_KEY", "AIza-env-0123456789abcdef")  # Gemini's alias
    secrets.set_secret("ANTHROPIC_API_KEY", "sk-ant-stored-0123456789")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-0123456789")  # the keyring wins
    window, models, _defaults = _settings_window(runtime)
    qtbot.addWidget(window)
    window.show()

    async def scenario() -> None:
        await until(lambda: not window.providers.busy(), what="keyring read")
        await models.load_models()

    run(qloop, scenario)
    keys = _key_column(window)
    assert keys["openai"] == "From the environment (OPENAI_API_KEY)"
    assert keys["gemini"] == "From the environment (GOOGLE_API_KEY)"
    assert keys["anthropic"] == "Stored"
    assert keys["deepseek"] == "Not set"
    assert "sk-env" not in " ".join(keys.values())  # never the value
    window.model.refresh()
    listed = [window.model.model.itemText(i) for i in range(window.model.model.count())]
    assert any(m.startswith("gpt-") for m in listed)  # the environment's key counts


def test_providers_page_removing_a_stored_key_falls_back_to_the_environment(qtbot, qloop, runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    from openworker_qt.storage import secrets

    secrets.set_secret("OPENAI_API_KEY", "sk-stored-0123456789abcdef")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-0123456789abcdef")
    window, _models, _defaults = _settings_window(runtime)
    qtbot.addWidget(window)
    window.show()
    page = window.providers

    async def scenario() -> None:
        await until(lambda: not page.busy(), what="keyring read")
        assert _key_column(window)["openai"] == "Stored"
        page.select("openai")
        await page.delete_key()

    run(qloop, scenario)
    assert _key_column(window)["openai"] == "From the environment (OPENAI_API_KEY)"


# ------------------------------------------------------------------ main window


def test_main_window_alone_asks_for_a_folder_grant_and_applies_it(qtbot, qloop, world: World, runtime, tmp_path: Path) -> None:
    inbox = InboxBridge(world.inbox, poll_ms=NEVER_POLL)
    bridge = EngineBridge(world.manager)
    window = MainWindow(world.manager, bridge, inbox, inbox, SettingsStore(runtime),
                        workspace=world.workspace)
    qtbot.addWidget(window)
    window.show()
    folder = tmp_path / "project"
    folder.mkdir()
    asked: list[str] = []
    window.folder_grant_requested.connect(asked.append)

    async def scenario() -> None:
        window.add_paths([str(folder)])
        await asyncio.sleep(0)

    run(qloop, scenario)
    assert asked == [str(folder)] and window.session_id is None
    sid = window.apply_folder_grant(str(folder), writable=True)  # the app's answer
    info = world.store.get_session(sid)
    assert info is not None and info.meta["granted_roots"] == [{"path": str(folder), "writable": True}]
    assert [a.kind for a in window.composer.attachments] == ["folder"]
    window.set_known_models(["scripted", "other"])
    window.new_session()
    window.set_default_model("other")
    assert window.composer.current_model() == "other"
    window.close()
    inbox.detach()
    bridge.detach()


def test_mode_names_match_everywhere_and_each_choice_says_what_it_means(qtbot, runtime) -> None:
    from PySide6.QtWidgets import QStyleOptionViewItem

    from openworker_qt.qt.wording import MODES, mode_description, mode_name
    from openworker_qt.ui.composer import Composer
    from openworker_qt.ui.picker_popup import DESCRIPTION_ROLE

    composer = Composer()
    qtbot.addWidget(composer)
    from openworker_qt.ui.settings_pages import PermissionsPage

    permissions = PermissionsPage(SettingsStore(runtime))
    qtbot.addWidget(permissions)
    chip, page = composer.mode, permissions.mode
    assert [chip.itemText(i) for i in range(chip.count())] == \
        [page.itemText(i) for i in range(page.count())] == [mode_name(m) for m in MODES]
    for combo in (chip, page):
        for i, mode in enumerate(MODES):
            assert combo.itemData(i, DESCRIPTION_ROLE) == mode_description(mode) != ""
    persona = composer.persona
    assert all(persona.itemData(i, DESCRIPTION_ROLE) for i in range(persona.count()))
    # the popup shows the description under the name: each row is two lines tall
    delegate = chip.view().itemDelegate()
    option = QStyleOptionViewItem()
    option.initFrom(chip.view())
    one_line = chip.view().fontMetrics().height()
    assert delegate.sizeHint(option, chip.model().index(2, 0)).height() > 1.6 * one_line
