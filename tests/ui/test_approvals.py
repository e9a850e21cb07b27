"""A write needs approval: the dialog and the inline card answer the same ask."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import Qt

from openworker_qt.ui.approval import ApprovalCard, ApprovalDialog
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter

WRITE = [
    {"tool_calls": [{"name": "write_file", "arguments": {"path": "out.txt", "content": "hello\n"}}]},
    {"text": "Done."},
]


def _dialog(window) -> ApprovalDialog | None:  # type: ignore[no-untyped-def]
    return next(iter(window.dialogs.values()), None)


def test_approve_in_dialog_runs_the_write(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

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
    assert window.dialogs == {} and window.view.card_for(tool.call_id) is None
    assert window.transcript.items[-1].text == "Done."


def test_deny_in_dialog_does_not_write(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        qtbot.mouseClick(_dialog(window).panel.deny, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert not (tmp_path / "ws" / "out.txt").exists()
    tool = next(r for r in window.transcript.items if r.kind == "tool")
    assert tool.status == "denied"


def test_escape_on_dialog_denies(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        qtbot.keyClick(_dialog(window), Qt.Key.Key_Escape)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert not (tmp_path / "ws" / "out.txt").exists()


def test_inline_card_answers_and_closes_the_dialog(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        card = window.view.card_for(dialog.request.call_id)
        assert isinstance(card, ApprovalCard) and card.isVisible()
        assert card.accessibleName() == "Approval request: Write out.txt?"
        qtbot.mouseClick(card.panel.once, Qt.MouseButton.LeftButton)
        seen["dialog_visible"] = dialog.isVisible()
        # a late answer from the other surface changes nothing (first wins)
        item_id = desktop.runtime.inbox.find(dialog.request.session_id, dialog.request.call_id).id
        seen["late"] = desktop.runtime.inbox.resolve(item_id, "deny", by="test")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen == {"dialog_visible": False, "late": False}
    assert (tmp_path / "ws" / "out.txt").exists()


def test_keyboard_shortcut_approves_focused_request(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    window.show_dialogs = False

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


def test_stop_while_waiting_for_approval(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        qtbot.mouseClick(window.composer.stop, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert window.dialogs == {}
    assert desktop.inbox.pending() == []
    tool = next(r for r in window.transcript.items if r.kind == "tool")
    assert tool.status == "interrupted"
    assert not (tmp_path / "ws" / "out.txt").exists()


def test_closing_the_dialog_is_not_an_answer(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    desktop = make_desktop(WRITE)
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        dialog.close()  # the window's close button, or the app closing its windows
        await asyncio.sleep(0.2)
        item = desktop.runtime.inbox.find(dialog.request.session_id, dialog.request.call_id)
        seen["status"] = item.status
        seen["running"] = desktop.manager.is_running(window.session_id)
        # The ask is still answerable from the inbox.
        desktop.runtime.inbox.resolve(item.id, "once", by="inbox")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen == {"status": "pending", "running": True}
    assert (tmp_path / "ws" / "out.txt").exists()


def test_answers_that_do_not_fit_the_item_are_refused(qtbot, qloop, make_desktop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
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

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the report")
        await until(lambda: inbox.pending(kind="question"), what="question")
        [question] = inbox.pending(kind="question")
        desktop._on_notification_activated(f"inbox:{question.id}", "approve")
        seen["question"] = inbox.get(question.id).status
        assert desktop.resolve_item(question.id, "Q4", by="card")
        await until(lambda: _dialog(window) is not None, what="approval dialog")
        [approval] = inbox.pending(kind="approval")
        seen["text answer won"] = desktop.resolve_item(approval.id, "Q4 please", by="card")
        seen["approval"] = inbox.get(approval.id).status
        desktop._on_notification_activated(f"inbox:{approval.id}", "approve")
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    assert seen == {"question": "pending", "text answer won": False, "approval": "pending"}
    assert (tmp_path / "ws" / "out.txt").read_text() == "Q4\n"
    answer = next(m for m in desktop.runtime.conversations.load(window.session_id)
                  if m.get("role") == "tool" and m.get("tool_call_id") == "q1")
    assert answer["content"] == "The user answered: Q4"
