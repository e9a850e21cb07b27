"""The desktop's banner and transcript say why a turn stopped at its step limit when the
model kept asking for the same call after its result (issue 31)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import run, until


def test_a_repeated_call_is_said_in_the_banner_and_the_transcript(qtbot, qloop, make_desktop) -> None:
    turns = [{"tool_calls": [{"name": "list_files", "arguments": {}}], "repeat": True}]
    desktop = make_desktop(turns)
    window = desktop.window

    async def scenario() -> None:
        window.composer.edit.setFocus()
        qtbot.keyClicks(window.composer.edit, "which files are here?")
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)
        await until(lambda: window.banner.isVisibleTo(window), what="banner", timeout=60)
        await until(lambda: not desktop.manager.is_running(window.session_id))

    run(qloop, scenario)
    words = "the model kept asking for the same thing (list_files, with the same details)"
    assert words in window.banner.label.text()
    assert "may not be able to read tool results" in window.banner.label.text()
    assert any(words in (item.text or "") for item in window.transcript.items)
