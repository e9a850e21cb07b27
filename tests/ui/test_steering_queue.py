"""A message typed while a turn runs (steering): where it shows, and what Stop does
with it (issue 27, A1)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter


def test_queued_message_stays_under_the_answer_and_stop_puts_it_back(
        qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([
        {"chunks": [f"w{i} " for i in range(400)], "delay": 0.01},
        {"text": "Second, unrelated answer."},
    ])
    window = desktop.window
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "Write a long answer")
        await until(lambda: len(window.transcript.items) > 1 and window.transcript.items[1].text,
                    what="first text")
        type_and_enter(qtbot, window, "Use British spelling")
        assert window.composer.edit.toPlainText() == ""
        at_queue = len(window.transcript.items[1].text)
        # more of the answer streams in: it grows the answer above the queued row
        await until(lambda: len(window.transcript.items[1].text) > at_queue + 20, what="more text")
        rows = window.transcript.items
        seen["rows"] = [(r.kind, r.source) for r in rows]
        seen["line"] = window.view.delegate._plain_body(rows[-1]).splitlines()[-1]
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Escape)  # Stop
        seen["box"] = window.composer.edit.toPlainText()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="stop")
        seen["after_stop"] = [(r.kind, r.source, r.notice_kind) for r in window.transcript.items]
        seen["box_after"] = window.composer.edit.toPlainText()
        window.composer.edit.clear()
        type_and_enter(qtbot, window, "Something else")
        await until(lambda: window.transcript.items[-1].text == "Second, unrelated answer."
                    and not desktop.manager.is_running(window.session_id), what="second turn")

    run(qloop, scenario)
    # one answer row, not split in two by the queued message; the queued row last
    assert seen["rows"] == [("user", "user"), ("assistant", "user"), ("user", "queued")]
    assert seen["line"] == "Queued: goes in after the current step"  # plain words, no glyph
    # Stop offers the message back at once, and the queued row goes
    assert seen["box"] == "Use British spelling"
    assert seen["box_after"] == "Use British spelling"
    assert ("user", "queued", "") not in seen["after_stop"]
    assert seen["after_stop"][-1][2] == "interrupted"
    # never delivered into the next turn
    texts = [r.text for r in window.transcript.items if r.kind == "user"]
    assert texts == ["Write a long answer", "Something else"]
    provider, _ = desktop.runtime.router.resolve(desktop.manager.default_model)
    assert not any("British" in str(m.get("content")) for m in provider.requests[-1].messages)
    stored = desktop.runtime.conversations.load(window.session_id)
    assert not any("British" in str(m.get("content")) for m in stored)


def test_steering_left_by_an_ended_turn_is_not_sent_into_the_next(
        qtbot, qloop, make_desktop) -> None:
    """Stopped from elsewhere (not the window's Stop): the engine never injects the
    leftover steering into the next turn, and the window offers it back."""
    desktop = make_desktop([
        {"chunks": [f"w{i} " for i in range(400)], "delay": 0.01},
        {"text": "Second answer."},
    ])
    window = desktop.window

    async def scenario() -> None:
        type_and_enter(qtbot, window, "Write a long answer")
        await until(lambda: len(window.transcript.items) > 1 and window.transcript.items[1].text,
                    what="first text")
        type_and_enter(qtbot, window, "Keep it short")
        desktop.manager.stop(window.session_id)  # e.g. the tray's or another surface's stop
        await until(lambda: not desktop.manager.is_running(window.session_id), what="stop")
        await until(lambda: window.composer.edit.toPlainText() == "Keep it short", what="put back")
        window.composer.edit.clear()
        type_and_enter(qtbot, window, "Next task")
        await until(lambda: window.transcript.items[-1].text == "Second answer."
                    and not desktop.manager.is_running(window.session_id), what="second turn")

    run(qloop, scenario)
    stored = desktop.runtime.conversations.load(window.session_id)
    assert not any("Keep it short" in str(m.get("content")) for m in stored)
    assert not [r for r in window.transcript.items if r.source == "queued"]
