"""Bugs seen in the window by a first-time user (issue 8, D4), each driven for real.

F2 renames from the session list; the model picker shows the model the session
really uses and a blank model is never sent; window geometry is remembered and
every window opens on a screen.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.providers.stubs import Reply, StubServer, sse
from tests.ui.conftest import act, run, until


def test_f2_in_the_session_list_renames(qtbot, qloop, make_desktop) -> None:
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
    assert window.sessions.index(1, 0).data() == "New title"  # (row 0: "Today")


# ------------------------------------------------------------------ model picker

CHAT = "/v1/chat/completions"


@pytest.fixture
def stub(qloop) -> Iterator[StubServer]:
    server = StubServer()
    qloop.run_until_complete(server.start())
    yield server
    qloop.run_until_complete(server.stop())


def reply(text: str) -> Reply:
    chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": "stop"}]}
    return Reply(body=sse(chunk) + "data: [DONE]\n\n", content_type="text/event-stream")


def keyless_server(stub: StubServer) -> None:
    """A local OpenAI-compatible server (no key) offering two models; no default model."""
    from openworker_qt.storage.config import update_global

    update_global({"providers": {"local": {"base_url": stub.url + "/v1", "models": ["m1", "m2"]}}})


def test_picker_shows_the_model_a_new_session_uses(qtbot, qloop, make_desktop, stub) -> None:
    keyless_server(stub)
    stub.add("POST", CHAT, reply("hello"))
    desktop = make_desktop()
    window = desktop.window
    assert desktop.manager.default_model == ""

    async def scenario() -> None:
        await desktop.load_models()
        assert "local:m1" in desktop.known_models()
        shown = window.composer.model.currentText()
        assert shown and window.composer.model.itemText(window.composer.model.currentIndex()) == shown
        window.composer.edit.setPlainText("hi")
        window.composer.submit()
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id)
                    and len(window.transcript.items) >= 2, what="turn end")

    run(qloop, scenario)
    info = desktop.runtime.conversations.get_session(window.session_id)
    assert info.model == window.composer.model.currentText() == "local:m1"
    (seen,) = stub.requests_to(CHAT)
    assert seen.body["model"] == "m1"  # never a blank name
    assert window.transcript.items[-1].text == "hello"


def test_picker_follows_the_open_session(qtbot, qloop, make_desktop, stub) -> None:
    keyless_server(stub)
    stub.add("POST", CHAT, reply("ok"))
    desktop = make_desktop()
    window = desktop.window
    store = desktop.runtime.conversations
    a = store.create_session(model="local:m2", workspace=str(desktop.workspace))
    blank = store.create_session(model="", workspace=str(desktop.workspace))  # an older session
    picker = window.composer.model

    def shown() -> tuple[str, str]:
        return picker.currentText(), picker.itemText(picker.currentIndex())

    async def scenario() -> None:
        await desktop.load_models()
        window.refresh_sessions()
        window.open_session(a.id)
        assert shown() == ("local:m2", "local:m2")
        window.open_session(blank.id)
        # no model stored and no default: the picker shows what Send will use
        assert shown() == ("local:m1", "local:m1")
        window.composer.edit.setPlainText("hello")
        window.composer.submit()
        await until(lambda: not desktop.manager.is_running(blank.id) and len(stub.requests_to(CHAT)) == 1,
                    what="turn end")
        window.open_session(a.id)
        assert shown() == ("local:m2", "local:m2")
        await until(window.loaded, what="session loaded")
        window.new_session()
        assert shown() == ("local:m1", "local:m1")

    run(qloop, scenario)
    assert store.get_session(blank.id).model == "local:m1"
    assert stub.requests_to(CHAT)[0].body["model"] == "m1"


def test_no_model_at_all_asks_for_one_and_keeps_the_text(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop()
    window = desktop.window

    async def scenario() -> None:
        await desktop.load_models()
        assert window.composer.model.currentText() == ""
        window.composer.edit.setPlainText("do something")
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)

    run(qloop, scenario)
    assert window.session_id is None
    assert desktop.runtime.conversations.list_sessions() == []
    assert window.composer.edit.toPlainText() == "do something"
    assert window.banner.isVisibleTo(window) and "Choose a model" in window.banner.label.text()


# ------------------------------------------------------------- windows on screen


def on_primary(widget) -> bool:
    """Wholly on the primary screen, give or take a window frame's width."""
    area = QApplication.primaryScreen().availableGeometry().adjusted(-4, -4, 4, 4)
    return area.contains(widget.frameGeometry())


def centred(widget) -> bool:
    area = QApplication.primaryScreen().availableGeometry()
    centre = widget.frameGeometry().center()
    return abs(centre.x() - area.center().x()) <= 2 and abs(centre.y() - area.center().y()) <= 2


def test_main_window_geometry_is_remembered(qtbot, qloop, make_desktop) -> None:
    first = make_desktop()
    first.window.setGeometry(30, 60, 760, 500)
    saved = first.window.geometry()
    first.window.hide()  # hidden to the tray, closed or quit: the geometry is saved
    second = make_desktop()
    assert second.window.isVisible()
    assert second.window.geometry() == saved


def test_a_window_reshown_off_screen_comes_back_centred(qtbot, qloop, make_desktop) -> None:
    """The screen a window was on went away while it was hidden (tray, closed)."""
    desktop = make_desktop()
    inbox = act(qloop, desktop.show_inbox)
    settings = act(qloop, desktop.show_settings)
    for window in (desktop.window, inbox, settings):
        window.hide()
        window.move(4000, 3000)
    act(qloop, desktop.show_window)
    assert on_primary(desktop.window) and centred(desktop.window)
    assert on_primary(act(qloop, desktop.show_inbox)) and centred(inbox)
    assert on_primary(act(qloop, desktop.show_settings)) and centred(settings)


def test_a_window_saved_off_screen_opens_on_screen(qtbot, qloop, make_desktop) -> None:
    first = make_desktop()
    inbox = act(qloop, first.show_inbox)
    first.window.move(4000, 3000)  # then the user unplugged that screen and quit
    inbox.move(-3000, 200)
    first.window.hide()
    inbox.hide()
    second = make_desktop()
    assert second.window.isVisible() and on_primary(second.window)
    assert on_primary(act(qloop, second.show_inbox))


def test_dialogs_and_quick_ask_open_on_screen(qtbot, qloop, make_desktop, tmp_path) -> None:
    desktop = make_desktop()
    desktop.window.move(5000, 5000)  # parked off-screen: its dialogs must not follow
    folder = tmp_path / "team-folder"
    folder.mkdir()
    dialog = act(qloop, lambda: desktop.grant_folder(str(folder)))
    assert dialog.isVisible() and on_primary(dialog)
    onboarding = act(qloop, desktop.show_onboarding)
    assert on_primary(onboarding)
    quick = act(qloop, desktop.show_quick_ask)
    assert on_primary(quick)
    quick.hide()
    quick.move(-2000, -2000)
    assert on_primary(act(qloop, desktop.show_quick_ask))
