"""Scrolled up in a session, "Jump to latest" brings the newest message back (and so
does Ctrl+End), and sending a message shows it instead of leaving it out of sight.
Real SQLite, real window, offscreen."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from tests.ui.conftest import run, until
from tests.ui.test_jump_button_place import _fill
from tests.ui.test_main_window import type_and_enter


def _at_bottom(view: Any) -> bool:
    bar = view.verticalScrollBar()
    return view.transcript().at_end() and bar.value() >= bar.maximum() - 4


def test_sending_while_scrolled_up_shows_the_message(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "Noted."}])
    window = desktop.window
    window.resize(1040, 720)
    window.show()
    sid = _fill(desktop.runtime, 20)
    view = window.view
    bar = view.verticalScrollBar()

    async def scenario() -> None:
        window.open_session(sid)
        await until(lambda: window.loaded() and window.transcript.rowCount(), what="load")
        await until(lambda: bar.value() == bar.maximum() > 0, what="at bottom")
        assert not view.latest_button.isVisible()
        bar.setValue(0)
        await until(lambda: view.latest_button.isVisible(), what="the jump-to-latest button")
        type_and_enter(qtbot, window, "one more thing")
        await until(lambda: any(r.kind == "user" and r.text == "one more thing"
                                for r in window.transcript.items), what="the message")
        await until(lambda: _at_bottom(view), what="scrolled to the message")
        await until(lambda: not view.latest_button.isVisible(), what="button gone")

    run(qloop, scenario)
    window.hide()


def test_jump_to_latest_and_ctrl_end_in_a_long_session(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([{"text": "x"}])
    window = desktop.window
    window.resize(1040, 720)
    window.show()
    sid = _fill(desktop.runtime, 300)  # paged: the newest rows leave the window
    view = window.view
    bar = view.verticalScrollBar()

    async def scenario() -> None:
        window.open_session(sid)
        await until(lambda: window.loaded() and window.transcript.rowCount(), what="load")
        await until(lambda: bar.value() == bar.maximum() > 0, what="at bottom")
        view.jump_to_start()
        await until(lambda: not view.transcript().at_end() and view.latest_button.isVisible(),
                    what="at the start, the button")
        view.latest_button.click()
        await until(lambda: _at_bottom(view), what="back at the newest message")
        assert not view.latest_button.isVisible()
        bar.setValue(0)
        await until(lambda: view.latest_button.isVisible(), what="the button again")
        view.setFocus()
        qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: _at_bottom(view), what="Ctrl+End")

    run(qloop, scenario)
    window.hide()
