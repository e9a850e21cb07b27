"""The window's status bar shows the session's tokens and estimated cost, discreetly."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import run, until


def test_status_bar_shows_tokens_and_cost(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([
        {"text": "One.", "usage": {"input_tokens": 1000, "output_tokens": 100,
                                   "cache_read_tokens": 600}},
        {"text": "Two.", "usage": {"input_tokens": 2000, "output_tokens": 100,
                                   "reasoning_tokens": 40}},
    ])
    window = desktop.window
    desktop.runtime.config.data["prices"] = {
        "scripted:*": {"input": 2.0, "output": 10.0, "cache_read": 0.5}}
    label = window.usage
    assert not label.isVisibleTo(window)  # nothing used yet: nothing shown

    def send(text: str) -> None:
        window.composer.edit.setPlainText(text)
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)

    async def scenario() -> None:
        send("first")
        await until(lambda: label.text() == "1.1k tokens · ≈ $0.002", what="first total")
        send("second")
        await until(lambda: label.text() == "3.2k tokens · ≈ $0.007", what="second total")

    run(qloop, scenario)
    assert label.isVisibleTo(window)
    tip = label.toolTip()
    assert "Last turn: 2k in · 100 out (40 thinking) · ≈ $0.005" in tip
    assert "This session: 3k in (600 cached) · 200 out (40 thinking) · ≈ $0.007" in tip
    assert label.accessibleName() == "Tokens and cost" and label.accessibleDescription() == tip
    window.new_session()
    assert not label.isVisibleTo(window)
