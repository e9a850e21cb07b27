"""Tray menu, quick ask, notifications (double + real D-Bus) and drag-and-drop."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import look_away, posted_marker, run, until
from tests.ui.test_approvals import WRITE
from tests.ui.test_main_window import type_and_enter


class RecordingNotifier:
    """The Notifier interface, recording what would be shown."""

    def __init__(self) -> None:
        self.on_activated = None
        self.shown: list[tuple[str, str, str, list[tuple[str, str]]]] = []
        self.withdrawn: list[str] = []

    def notify(self, key: str, title: str, body: str, actions: Sequence[tuple[str, str]] = ()) -> None:
        self.shown.append((key, title, body, list(actions)))

    def withdraw(self, key: str) -> None:
        self.withdrawn.append(key)

    async def close(self) -> None:
        return None


def test_tray_menu_approves_from_the_menu(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    window.cards.show_dialogs = False
    tray = desktop.create_tray(available=False)
    assert tray.state == "idle" and tray.status_action.text() == "Idle"
    assert "No system tray" in window.banner.label.text()  # said once…
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write")
        await until(lambda: tray.state == "attention", what="attention state")
        seen["status"] = tray.status_action.text()
        entries = tray.pending_menu.actions()
        seen["entry"] = entries[0].text()
        approve = entries[0].menu().actions()[0]
        assert approve.text() == "Approve once"
        approve.trigger()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen["status"] == "1 waiting for you"
    assert seen["entry"] == "Write out.txt?"
    assert (tmp_path / "ws" / "out.txt").exists()
    assert desktop.runtime.inbox.items()[0].resolved_by == "tray"
    assert tray.state == "idle" and not tray.pending_menu.isEnabled()
    window.banner.hide()
    desktop.create_tray(available=False)
    assert not window.banner.isVisibleTo(window)  # …only once


def test_tray_menu_opens_inbox_quick_ask_and_pauses(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    tray = desktop.create_tray(available=False)
    tray.inbox_action.trigger()
    assert desktop.inbox_window is not None and desktop.inbox_window.isVisible()
    tray.quick_ask_action.trigger()
    assert desktop.quick_ask is not None and desktop.quick_ask.isVisible()
    tray.pause_action.trigger()
    from openworker_qt.storage.config import load_config

    assert load_config().get("automation.paused") is True
    assert tray.quick_ask_action.shortcut().toString() == "Ctrl+Alt+Space"


def test_quick_ask_streams_and_opens_in_window(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"chunks": ["The answer ", "is ", "42."], "delay": 0.01}])

    async def scenario() -> None:
        popup = desktop.show_quick_ask()
        qtbot.keyClicks(popup.edit, "What is the answer?")
        qtbot.keyClick(popup.edit, Qt.Key.Key_Return)
        await until(lambda: popup.status.text() == "Done", what="answer")
        assert popup.answer.text() == "The answer is 42."
        qtbot.mouseClick(popup.open_button, Qt.MouseButton.LeftButton)
        await until(lambda: desktop.window.transcript.rowCount() == 2 and desktop.window.loaded())

    run(qloop, scenario)
    assert not desktop.quick_ask.isVisible()
    assert desktop.window.transcript.items[1].text == "The answer is 42."


def test_notification_actions_resolve_the_item(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    notifier = RecordingNotifier()
    desktop = make_desktop(WRITE + [{"text": "again"}], notifier=notifier)
    window = desktop.window
    window.cards.show_dialogs = False

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write")
        await until(lambda: notifier.shown, what="notification")
        key, title, _body, actions = notifier.shown[0]
        assert title == "Approval needed: Write out.txt?"  # words, not the tool id
        assert actions == [("approve", "Approve"), ("deny", "Deny")]
        notifier.on_activated(key, "approve")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        assert key in notifier.withdrawn

    run(qloop, scenario)
    assert (tmp_path / "ws" / "out.txt").exists()
    assert desktop.runtime.inbox.items()[0].resolved_by == "notification"


def test_no_finished_notification_while_the_quick_ask_shows_the_answer(
        qtbot, qloop, make_desktop) -> None:
    notifier = RecordingNotifier()
    desktop = make_desktop([{"chunks": ["The answer ", "is ", "42."], "delay": 0.01},
                            {"text": "Second."}], notifier=notifier)
    popup = desktop.show_quick_ask()
    seen: dict[str, object] = {}

    async def scenario() -> None:
        qtbot.keyClicks(popup.edit, "What is the answer?")
        qtbot.keyClick(popup.edit, Qt.Key.Key_Return)
        await until(lambda: popup.status.text() == "Done", what="answer")
        await until(lambda: not desktop.manager.is_running(popup.session_id), what="turn end")
        assert popup.isVisible()
        seen["while_shown"] = list(notifier.shown)
        # once the popup is gone, a finished turn of that session is announced again
        popup.hide()
        desktop.manager.send(popup.session_id, "more")
        await until(lambda: notifier.shown, what="notification")

    run(qloop, scenario)
    assert seen["while_shown"] == []
    assert [title.split(":")[0] for _key, title, _body, _actions in notifier.shown] == ["Finished"]


# ------------------------------------------------------------------- real D-Bus


@pytest.fixture
def session_bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private dbus-daemon session bus (nothing else on it unless the test adds it)."""
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, text=True)
    try:
        assert bus.stdout is not None
        address = bus.stdout.readline().strip()
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield address
    finally:
        bus.terminate()
        bus.wait(5)
        if bus.stdout is not None:
            bus.stdout.close()


def test_real_dbus_notification_action_approves(qtbot, qloop, make_desktop, tmp_path: Path,
                                                session_bus: str) -> None:
    from tests.ui.test_notifications_native import serve_notifications

    desktop = make_desktop(WRITE)
    window = desktop.window
    window.cards.show_dialogs = False
    calls: list[tuple] = []
    closed: list[int] = []

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # the user clicks "Approve" on the bubble
        server = asyncio.ensure_future(serve_notifications(ready, calls, closed, press="Approve"))
        await asyncio.wait_for(ready, 5)
        await desktop.notices.start_native()  # the app's own choice: the platform notifier
        assert type(desktop.notices.notifier).__name__ == "NativeNotifier"
        type_and_enter(qtbot, window, "write")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        await desktop.notices.notifier.close()
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)

    run(qloop, scenario)
    app, _replaces, _icon, summary, _body, actions, _hints, _timeout = calls[0]
    assert (app, summary) == ("OpenWorker Qt", "Approval needed: Write out.txt?")
    assert list(actions[:2]) == ["default", ""]  # a click on the bubble opens the item
    assert list(actions[3::2]) == ["Approve", "Deny"]  # the buttons (the library names their keys)
    assert (tmp_path / "ws" / "out.txt").exists()
    assert desktop.runtime.inbox.items()[0].resolved_by == "notification"


def test_no_notification_daemon_is_silent(qtbot, qloop, make_desktop, tmp_path: Path,
                                          session_bus: str) -> None:
    """A session bus with no notification daemon on it (a bare window manager, a
    kiosk): the app falls back quietly; an approval shows no error anywhere."""
    import gc

    desktop = make_desktop(WRITE)
    tray = desktop.create_tray(available=True)
    window = desktop.window
    window.cards.show_dialogs = False
    errors: list[object] = []
    desktop.error_reported.connect(errors.append)  # what the banner would show
    qloop.set_exception_handler(lambda _loop, ctx: errors.append(ctx))  # as launch.main does

    async def scenario() -> None:
        await desktop.notices.start_native()
        type_and_enter(qtbot, window, "write")
        await until(lambda: desktop.inbox.pending(kind="approval"), what="the ask")
        assert type(desktop.notices.notifier).__name__ == "TrayNotifier"
        # What the ask queued (a notification attempt, its failure) has run:
        await until(posted_marker(), what="the ask's queued work")
        gc.collect()  # a failed fire-and-forget task reports when it is collected
        desktop.resolve_item(desktop.inbox.pending(kind="approval")[0].id, "once", by="test")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        gc.collect()

    run(qloop, scenario)
    assert errors == []
    assert type(desktop.notices.notifier).__name__ == "TrayNotifier"  # the tray's balloon instead
    tray.hide()
    assert not window.banner.isVisibleTo(window)
    assert (tmp_path / "ws" / "out.txt").exists()


# ----------------------------------------------------------------- drag-and-drop


def _drop(widget, paths: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    enter = QDragEnterEvent(pos.toPoint(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    drop = QDropEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, drop)
    assert drop.isAccepted()


def test_drop_files_become_attachments_and_are_sent(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"text": "Read them."}])
    window = desktop.window
    image = tmp_path / "chart.png"
    img = QImage(32, 24, QImage.Format.Format_RGB32)
    img.fill(0x2F6FDF)
    assert img.save(str(image))
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\nship it", encoding="utf-8")
    blob = tmp_path / "data.bin"
    blob.write_bytes(os.urandom(64))

    async def scenario() -> None:
        _drop(window, [image, notes, blob])
        await until(lambda: len(window.composer.attachments) == 2, what="attachments")
        await until(lambda: window.banner.isVisibleTo(window), what="refusal message")
        qtbot.keyClicks(window.composer.edit, "Summarise these")
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id))

    run(qloop, scenario)
    assert [a.kind for a in window.composer.attachments] == []  # sent and cleared
    assert "data.bin: this kind of file cannot be attached" in window.banner.label.text()
    user = window.transcript.items[0]
    assert user.attachments == ("chart.png", "notes.md")
    stored = desktop.runtime.conversations.load(window.session_id)[0]["content"]
    kinds = [p["type"] for p in stored]
    assert kinds == ["image_url", "text", "text"]
    assert stored[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "ship it" in stored[1]["text"]


def test_drop_folder_grants_access(qtbot, qloop, make_desktop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    desktop = make_desktop([{"text": "ok"}])
    folder = tmp_path / "project"
    folder.mkdir()
    asked: list[str] = []
    monkeypatch.setattr(desktop, "grant_folder",
                        lambda f, parent=None: (asked.append(f), desktop.apply_folder_grant(f, writable=True)))
    _drop(desktop.window, [folder])
    assert asked == [str(folder)]
    assert [a.kind for a in desktop.window.composer.attachments] == ["folder"]
    info = desktop.manager.store.get_session(desktop.window.session_id)
    assert info.meta["granted_roots"] == [{"path": str(folder), "writable": True}]
    from openworker_qt.storage.config import load_config

    assert str(folder) not in (load_config().get("permissions.writable_roots") or [])  # per session


def test_drop_on_quick_ask(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop([{"text": "ok"}])
    popup = desktop.show_quick_ask()
    notes = tmp_path / "todo.txt"
    notes.write_text("buy milk", encoding="utf-8")

    async def scenario() -> None:
        _drop(popup, [notes])
        await until(lambda: popup.attachments, what="attachment")

    run(qloop, scenario)
    assert "todo.txt" in popup.chips.text()


def test_tray_needs_you_for_unattended_and_other_process_asks(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    from openworker_qt.core.inbox import Inbox
    from openworker_qt.storage.db import Database

    desktop = make_desktop(WRITE)
    tray = desktop.create_tray(available=False)
    info = desktop.manager.create_session(workspace=str(tmp_path / "ws"), unattended=True)
    other = Inbox(Database(desktop.runtime.paths.database))  # e.g. an automation in the CLI
    seen: dict[str, object] = {}

    async def scenario() -> None:
        desktop.manager.send(info.id, "write it")
        await until(lambda: tray.state == "attention", what="needs you")
        seen["one"] = tray.tooltip
        seen["dialogs"] = len(desktop.window.cards.dialogs)
        question = other.add("question", "elsewhere", title="Which folder?",
                             arguments={"question": "Which folder?"})
        await until(lambda: "2 waiting for you" in tray.tooltip, timeout=5, what="the other process's ask")
        seen["two"] = tray.tooltip
        other.resolve(question.id, "here", by="cli")  # answered where it was asked
        approval = desktop.inbox.pending(kind="approval")[0]
        desktop.resolve_item(approval.id, "once", by="test")
        await until(lambda: not desktop.manager.is_running(info.id), what="turn end")
        await until(lambda: tray.state == "idle", what="idle again")

    run(qloop, scenario)
    other.db.close()
    assert seen["dialogs"] == 0  # unattended: no dialog pops up, the tray says it
    assert seen["one"] == ("OpenWorker Qt — 1 waiting for you\n"
                           "1 approval(s), 0 other question(s) in 1 session(s)")
    assert seen["two"] == ("OpenWorker Qt — 2 waiting for you\n"
                           "1 approval(s), 1 other question(s) in 2 session(s)")
    assert tray.tooltip == "OpenWorker Qt — Idle"
    assert (tmp_path / "ws" / "out.txt").exists()


def test_tray_icon_tooltip_carries_the_count(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "ok"}])
    tray = desktop.create_tray(available=True)  # a real QSystemTrayIcon (not shown offscreen)
    desktop.runtime.inbox.add("approval", "s1", tool="write_file", reason="writes x")
    assert tray.state == "attention"
    assert tray.icon.toolTip().startswith("OpenWorker Qt — 1 waiting for you")
    tray.hide()
