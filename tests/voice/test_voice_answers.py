"""Saying "approve" / "deny" (or 批准 / 拒绝) to a focused approval card: the words are
not typed into the message box, a confirmation shows, and only its button resolves
the request (answered by "voice"); Cancel leaves it pending."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from openworker_qt.ui.approval import ApprovalCard
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter
from tests.ui.test_voice import ScriptedSpeech, WavRecorder

WRITE = [
    {"tool_calls": [{"name": "write_file", "arguments": {"path": "out.txt", "content": "hi\n"}}]},
    {"text": "Done."},
]


def _say_to_focused_card(qtbot: Any, qloop: Any, desktop: Any, wav: Path, words: str) -> Any:
    window = desktop.window
    voice = window.voice
    voice.transcriber = ScriptedSpeech(words)
    voice.recorder_factory = lambda: WavRecorder(wav)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "write the file")
        await until(lambda: any(isinstance(c, ApprovalCard) for c in window.view.cards()),
                    what="approval card")
        card = next(c for c in window.view.cards() if isinstance(c, ApprovalCard))
        window.activateWindow()
        card.panel.once.setFocus()
        await until(lambda: window.focusWidget() is card.panel.once, what="card focus")
        QTest.mousePress(window.composer.mic, Qt.MouseButton.LeftButton)
        QTest.mouseRelease(window.composer.mic, Qt.MouseButton.LeftButton)
        await until(lambda: window.voice_answers.box is not None
                    and window.voice_answers.box.isVisible(), what="confirmation")
        seen["card"] = card

    run(qloop, scenario)
    return seen["card"]


def test_saying_approve_asks_then_approves(qtbot, qloop, make_desktop, spoken_wav: Path,
                                           tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    _say_to_focused_card(qtbot, qloop, desktop, spoken_wav, "Approve.")
    box: QMessageBox = window.voice_answers.box
    assert "Approve write_file once?" in box.text()
    assert window.composer.edit.toPlainText() == ""  # the word was an answer, not text
    [pending] = desktop.runtime.inbox.pending(kind="approval")
    assert pending.status == "pending"
    confirm = box.findChild(object, "confirmVoiceAnswer")

    async def scenario() -> None:
        confirm.click()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    item = desktop.runtime.inbox.items()[0]
    assert (item.resolution, item.resolved_by) == ("once", "voice")
    assert (tmp_path / "ws" / "out.txt").read_text() == "hi\n"


def test_chinese_deny_and_cancel(qtbot, qloop, make_desktop, spoken_wav: Path,
                                 tmp_path: Path) -> None:
    desktop = make_desktop(WRITE)
    window = desktop.window
    _say_to_focused_card(qtbot, qloop, desktop, spoken_wav, "拒绝。")
    box: QMessageBox = window.voice_answers.box
    assert "Deny write_file?" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert desktop.runtime.inbox.pending(kind="approval")  # cancel: still waiting
    window.voice_answers.offer("拒绝")  # focus is back on the card: ask again
    confirm = window.voice_answers.box.findChild(object, "confirmVoiceAnswer")

    async def scenario() -> None:
        confirm.click()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    item = desktop.runtime.inbox.items()[0]
    assert (item.resolution, item.resolved_by) == ("deny", "voice")
    assert not (tmp_path / "ws" / "out.txt").exists()


def test_dictation_without_a_focused_approval_is_text(qtbot, qloop, make_desktop,
                                                      spoken_wav: Path) -> None:
    desktop = make_desktop()
    window = desktop.window
    window.voice.transcriber = ScriptedSpeech("Approve.")
    window.voice.recorder_factory = lambda: WavRecorder(spoken_wav)

    async def scenario() -> None:
        QTest.mousePress(window.composer.mic, Qt.MouseButton.LeftButton)
        QTest.mouseRelease(window.composer.mic, Qt.MouseButton.LeftButton)
        await until(lambda: window.composer.edit.toPlainText() == "Approve.", what="text")

    run(qloop, scenario)
    assert window.voice_answers.box is None
