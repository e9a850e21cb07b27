"""A write needs approval: the dialog and the inline card answer the same ask."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from openworker_qt.ui.approval import ApprovalCard, ApprovalDialog
from tests.ui.conftest import look_away, run, until
from tests.ui.test_main_window import type_and_enter

WRITE = [
    {"tool_calls": [{"name": "write_file", "arguments": {"path": "out.txt", "content": "hello\n"}}]},
    {"text": "Done."},
]


def _dialog(window) -> ApprovalDialog | None:
    return next(iter(window.cards.dialogs.values()), None)


def test_approve_in_dialog_runs_the_write(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        assert dialog is not None and dialog.isVisible() and not dialog.isModal()
        seen["diff"] = dialog.panel.details.toPlainText()
        seen["card"] = window.view.card_for(dialog.request.call_id)
        qtbot.mouseClick(dialog.panel.once, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert "+hello" in str(seen["diff"])  # a diff preview, not raw JSON
    assert isinstance(seen["card"], ApprovalCard)
    assert (tmp_path / "ws" / "out.txt").read_text() == "hello\n"
    tool = next(r for r in window.transcript.items if r.kind == "tool")
    assert tool.status == "ok" and tool.rule == "user:once"
    item = desktop.runtime.inbox.items()[0]
    assert (item.status, item.resolution, item.resolved_by) == ("resolved", "once", "dialog")
    assert window.cards.dialogs == {} and window.view.card_for(tool.call_id) is None
    assert window.transcript.items[-1].text == "Done."


def test_deny_in_dialog_does_not_write(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        qtbot.mouseClick(_dialog(window).panel.deny, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert not (tmp_path / "ws" / "out.txt").exists()
    tool = next(r for r in window.transcript.items if r.kind == "tool")
    assert tool.status == "denied"


def test_escape_on_dialog_denies(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        qtbot.keyClick(_dialog(window), Qt.Key.Key_Escape)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert not (tmp_path / "ws" / "out.txt").exists()


def test_inline_card_answers_and_closes_the_dialog(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        card = window.view.card_for(dialog.request.call_id)
        assert isinstance(card, ApprovalCard) and card.isVisible()
        assert card.accessibleName() == "Approval request: Create out.txt?"
        qtbot.mouseClick(card.panel.once, Qt.MouseButton.LeftButton)
        seen["dialog_visible"] = dialog.isVisible()
        # a late answer from the other surface changes nothing (first wins)
        item_id = desktop.runtime.inbox.find(dialog.request.session_id, dialog.request.call_id).id
        seen["late"] = desktop.runtime.inbox.resolve(item_id, "deny", by="test")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen == {"dialog_visible": False, "late": False}
    assert (tmp_path / "ws" / "out.txt").exists()


def test_keyboard_shortcut_approves_focused_request(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    window.cards.show_dialogs = False

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: desktop.inbox.pending(), what="ask")
        await until(lambda: window.view._cards, what="card")
        action = window.findChild(type(window.new_action), "approveFocused")
        assert action.shortcut().toString() == "Ctrl+Shift+A"
        action.trigger()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert (tmp_path / "ws" / "out.txt").exists()


def test_stop_while_waiting_for_approval(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        qtbot.mouseClick(window.composer.stop, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert window.cards.dialogs == {}
    assert desktop.inbox.pending() == []
    tool = next(r for r in window.transcript.items if r.kind == "tool")
    assert tool.status == "interrupted"
    assert not (tmp_path / "ws" / "out.txt").exists()


def test_closing_the_dialog_is_not_an_answer(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        dialog.close()  # the window's close button, or the app closing its windows
        # deleted on close: once it is gone, its close has been handled (an answer
        # would have been given on the way)
        await until(lambda: not window.cards.dialogs, what="the dialog gone")
        item = desktop.runtime.inbox.find(dialog.request.session_id, dialog.request.call_id)
        seen["status"] = item.status
        seen["running"] = desktop.manager.is_running(window.session_id)
        # The ask is still answerable from the inbox.
        desktop.runtime.inbox.resolve(item.id, "once", by="inbox")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen == {"status": "pending", "running": True}
    assert (tmp_path / "ws" / "out.txt").exists()


def test_answers_that_do_not_fit_the_item_are_refused(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    """The desktop's resolve path goes through the core's check: a text answer to an
    approval and a notification's Approve on a question change nothing."""
    desktop = make_desktop([
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": {"question": "Which quarter?"}}]},
        {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": "out.txt", "content": "Q4\n"}}]},
        {"text": "Done."},
    ])
    window = desktop.window
    inbox = desktop.runtime.inbox
    seen: dict[str, object] = {}

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the report")
        await until(lambda: inbox.pending(kind="question"), what="question")
        [question] = inbox.pending(kind="question")
        desktop.notices.activated(f"inbox:{question.id}", "approve")
        seen["question"] = inbox.get(question.id).status
        assert desktop.resolve_item(question.id, "Q4", by="card")
        await until(lambda: _dialog(window) is not None, what="approval dialog")
        [approval] = inbox.pending(kind="approval")
        seen["text answer won"] = desktop.resolve_item(approval.id, "Q4 please", by="card")
        seen["approval"] = inbox.get(approval.id).status
        desktop.notices.activated(f"inbox:{approval.id}", "approve")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen == {"question": "pending", "text answer won": False, "approval": "pending"}
    assert (tmp_path / "ws" / "out.txt").read_text() == "Q4\n"
    answer = next(m for m in desktop.runtime.conversations.load(window.session_id)
                  if m.get("role") == "tool" and m.get("tool_call_id") == "q1")
    assert answer["content"] == "The user answered: Q4"


# ------------------------------------------- card or dialog: where the user looks


class Notes:
    """The Notifier interface, recording the keys it was asked to show."""

    def __init__(self) -> None:
        self.on_activated = None
        self.shown: list[str] = []

    def notify(self, key: str, title: str, body: str, actions=()) -> None:
        self.shown.append(key)

    def withdraw(self, key: str) -> None:
        pass

    async def close(self) -> None:
        return None


def _look_here(window) -> None:
    """The user is in the app's main window."""
    window.activateWindow()
    for _ in range(50):
        if window.isActiveWindow():
            break
        QApplication.processEvents()
    assert window.isActiveWindow()


def test_an_ask_of_the_session_on_screen_is_answered_on_its_card(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    """The window is active and shows the session: the inline card is the one place
    to answer — no dialog over it, no notification — and it has the focus, so the
    keyboard alone answers it (Space on Approve)."""
    notes = Notes()
    desktop = make_desktop(WRITE, notifier=notes)
    window = desktop.window
    _look_here(window)
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: window.view.cards(), what="card")
        [card] = window.view.cards()
        # (no wait: the presenter places the card and decides on a dialog in one step,
        # InboxPresenter._present, so a dialog would be open already)
        seen["dialogs"] = dict(window.cards.dialogs)
        seen["focus on approve"] = QApplication.focusWidget() is card.panel.once
        seen["notified"] = list(notes.shown)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        seen["card after"] = window.view.cards()
        seen["focus after"] = QApplication.focusWidget() is window.composer.edit

    run(qloop, scenario)
    assert seen == {"dialogs": {}, "focus on approve": True, "notified": [], "card after": [],
                    "focus after": True}
    assert (tmp_path / "ws" / "out.txt").read_text() == "hello\n"
    item = desktop.runtime.inbox.items()[0]
    assert (item.resolution, item.resolved_by) == ("once", "card")


def test_the_card_does_not_take_the_focus_from_a_draft(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    """A keystroke meant for the message being typed never answers the ask: the
    draft keeps the focus; Ctrl+Shift+A approves from there."""
    desktop = make_desktop(WRITE)
    window = desktop.window
    _look_here(window)
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        qtbot.keyClicks(window.composer.edit, "and then")  # before the ask arrives
        await until(lambda: window.view.cards(), what="card")
        seen["dialogs"] = dict(window.cards.dialogs)  # decided with the card (InboxPresenter._present)
        seen["focus"] = QApplication.focusWidget() is window.composer.edit
        qtbot.keyClicks(window.composer.edit, " a summary")  # a space: still the draft's
        seen["pending"] = len(desktop.inbox.pending())
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_A,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        await until(lambda: not desktop.inbox.pending(), what="approved")

    run(qloop, scenario)
    assert seen == {"dialogs": {}, "focus": True, "pending": 1}
    assert window.composer.edit.toPlainText() == "and then a summary"
    assert desktop.runtime.inbox.items()[0].resolved_by == "shortcut"


def test_an_ask_of_another_session_gets_a_dialog(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    """The window shows another session: the ask gets its dialog (and notification),
    titled with its session; answered there, it is gone from everywhere."""
    notes = Notes()
    desktop = make_desktop(WRITE, notifier=notes)
    window = desktop.window
    shown = window.ensure_session()  # the session on screen
    other = desktop.manager.create_session(title="Quarterly brief", workspace=str(tmp_path / "ws"))
    _look_here(window)
    seen: dict[str, object] = {}

    async def scenario() -> None:
        desktop.manager.send(other.id, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        seen["cards"] = window.view.cards()
        seen["from"] = dialog.accessibleDescription()
        seen["notified"] = len(notes.shown)
        qtbot.mouseClick(dialog.panel.once, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(other.id), what="turn end")
        window.show_session(other.id)
        await until(lambda: window.transcript.session_id == other.id
                    and window.transcript.items, what="the other session on screen")

    run(qloop, scenario)
    assert window.session_id == other.id != shown
    assert seen == {"cards": [], "from": "write_file wants to run in Quarterly brief", "notified": 1}
    assert window.cards.dialogs == {} and window.view.cards() == [] and desktop.inbox.pending() == []
    assert (tmp_path / "ws" / "out.txt").exists()


def test_building_an_approval_opens_no_stray_window(qtbot) -> None:
    """Its labels and buttons are never windows of their own, even for an instant (a
    flash on the desktop that took the activation from the main window)."""
    from PySide6.QtCore import QEvent, QObject

    from openworker_qt.core.approvals import ApprovalRequest
    from openworker_qt.core.risk import RiskClass

    shown: list[str] = []

    class Windows(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Show and obj.isWidgetType() and obj.isWindow():
                shown.append(type(obj).__name__)
            return False

    request = ApprovalRequest(
        session_id="s1", call_id="c1", tool="web_fetch", risk=RiskClass.EXTERNAL,
        reason="web_fetch reaches example.com", arguments={"url": "https://example.com"},
        target="example.com", can_always=True, about="[MCP server docs] Fetches a page.")
    watcher = Windows()
    QApplication.instance().installEventFilter(watcher)
    try:
        card = ApprovalCard(request)
        qtbot.addWidget(card)
        dialog = ApprovalDialog(request)
        qtbot.addWidget(dialog)
    finally:
        QApplication.instance().removeEventFilter(watcher)
    assert shown == []


def test_a_scheduled_tasks_shell_card_offers_always_for_this_task(qtbot) -> None:
    from openworker_qt.core.inbox import Inbox
    from openworker_qt.qt.inbox_bridge import approval_request
    from openworker_qt.storage.db import Database

    inbox = Inbox(Database(":memory:"))
    ask = inbox.add("approval", "__run__1", tool_call_id="c1", tool="run_shell",
                    arguments={"command": "make report"}, risk="exec", target="make report",
                    task_id="task-1")
    plain = inbox.add("approval", "s2", tool_call_id="c1", tool="run_shell",
                      arguments={"command": "make report"}, risk="exec", target="make report")
    card = ApprovalCard(approval_request(ask))
    qtbot.addWidget(card)
    other = ApprovalCard(approval_request(plain))
    qtbot.addWidget(other)
    assert not card.panel.always_command.isHidden() and card.panel.always.isHidden()
    assert card.panel.always_command.text() == "A&lways for this task: this exact command"
    assert other.panel.always_command.isHidden() and other.panel.always.isHidden()
    with qtbot.waitSignal(card.answered) as answered:
        card.panel.always_command.click()
    assert answered.args == ["always_command"]
