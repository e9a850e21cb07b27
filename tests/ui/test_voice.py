"""Push-to-talk in the main window, offscreen: mic button / hotkey → text in the composer.

Audio comes from a prepared WAV behind the recorder interface (CI has no
microphone); transcription is real (a converted ggml tiny.en) in the first test and
a double behind ``SpeechToText`` in the others.
"""

from __future__ import annotations

import asyncio
import wave
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest

from openworker_qt.voice.audio import Recording
from openworker_qt.voice.models import GGML_MAGIC, models_dir
from openworker_qt.voice.transcribe import Transcriber, TranscriptionError
from tests.ui.conftest import act, run, until
from tests.voice.conftest import ggml_tiny_en, spoken_wav  # noqa: F401  (fixtures)


class WavRecorder:
    """The recorder interface, "capturing" a prepared WAV."""

    def __init__(self, wav: Path) -> None:
        self.recording = Recording.from_wav(wav)
        self.started = False

    def start(self) -> None:
        self.started = True

    def stop(self) -> Recording:
        return self.recording


class ScriptedSpeech:
    """A ``SpeechToText`` double: checks the WAV it gets, answers from a script."""

    def __init__(self, text: str = "", error: Exception | None = None) -> None:
        self.text = text
        self.error = error
        self.received: list[tuple[int, int]] = []

    def check(self) -> Path:
        return Path("ggml-test.bin")

    async def transcribe(self, wav: Path) -> str:
        with wave.open(str(wav)) as w:
            self.received.append((w.getframerate(), w.getnchannels()))
        await asyncio.sleep(0.01)
        if self.error is not None:
            raise self.error
        return self.text


def _hold(loop: Any, button: Any) -> None:
    act(loop, lambda: QTest.mousePress(button, Qt.MouseButton.LeftButton))


def _release(loop: Any, button: Any) -> None:
    act(loop, lambda: QTest.mouseRelease(button, Qt.MouseButton.LeftButton))


def test_hold_and_release_the_mic_button_dictates_into_the_composer(
        make_desktop: Any, qloop: Any, spoken_wav: Path, ggml_tiny_en: Path) -> None:  # noqa: F811
    desktop = make_desktop()
    window = desktop.window
    voice = window.voice
    voice.transcriber = Transcriber(str(ggml_tiny_en))
    recorder = WavRecorder(spoken_wav)
    voice.recorder_factory = lambda: recorder
    states: list[str] = []
    voice.state_changed.connect(states.append)
    window.composer.edit.setPlainText("Note:")
    window.composer.edit.moveCursor(QTextCursor.MoveOperation.End)

    _hold(qloop, window.composer.mic)
    assert recorder.started and voice.state == "listening"
    assert window.composer.mic.text() == "Listening…"
    _release(qloop, window.composer.mic)
    assert window.composer.mic.text() == "Transcribing…"

    async def scenario() -> None:
        await until(lambda: voice.state == "idle", timeout=60, what="transcription")

    run(qloop, scenario)
    text = window.composer.edit.toPlainText()
    assert text.lower().startswith("note: hello world")
    assert states == ["listening", "transcribing", "idle"]
    assert window.composer.mic.text() == "Voice"
    assert not window.banner.isVisible()


def test_text_lands_at_the_cursor(make_desktop: Any, qloop: Any, spoken_wav: Path) -> None:  # noqa: F811
    window = make_desktop().window
    voice = window.voice
    speech = ScriptedSpeech("at three")
    voice.transcriber = speech
    voice.recorder_factory = lambda: WavRecorder(spoken_wav)
    edit = window.composer.edit
    edit.setPlainText("Meet tomorrow please")
    cursor = edit.textCursor()
    cursor.setPosition(len("Meet tomorrow"))
    edit.setTextCursor(cursor)

    _hold(qloop, window.composer.mic)
    _release(qloop, window.composer.mic)

    async def scenario() -> None:
        await until(lambda: voice.state == "idle", what="transcription")

    run(qloop, scenario)
    assert edit.toPlainText() == "Meet tomorrow at three please"
    assert speech.received == [(16_000, 1)]  # converted from espeak's 22.05 kHz


def test_no_model_explains_and_offers_import(make_desktop: Any, qloop: Any,
                                             tmp_path: Path) -> None:
    window = make_desktop().window
    voice = window.voice
    recorder_made: list[int] = []
    voice.recorder_factory = lambda: recorder_made.append(1)  # must not be reached

    _hold(qloop, window.composer.mic)
    _release(qloop, window.composer.mic)
    assert voice.state == "idle" and not recorder_made
    assert window.banner.isVisible()
    assert "No speech model is installed" in window.banner.label.text()
    assert window.banner.action.text() == "Import model…"
    assert window.banner.property("error") is False

    # Importing a file: a non-model is refused with a reason, a ggml file is installed.
    junk = tmp_path / "notes.bin"
    junk.write_bytes(b"hello")
    assert run(qloop, lambda: voice.import_file(junk)) is None
    assert "not a whisper.cpp ggml model" in window.banner.label.text()
    model = tmp_path / "ggml-tiny.en.bin"
    model.write_bytes(GGML_MAGIC + bytes(32))
    target = run(qloop, lambda: voice.import_file(model))
    assert target == models_dir() / "ggml-tiny.en.bin"
    assert voice.transcriber.check() == target
    assert "ready" in window.statusBar().currentMessage()


def test_no_microphone_explains_on_the_button(make_desktop: Any, qloop: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import PySide6.QtMultimedia as multimedia  # noqa: N813 (the module, patched below)
    from PySide6.QtMultimedia import QAudioDevice

    class NoDevices:
        @staticmethod
        def defaultAudioInput() -> QAudioDevice:  # noqa: N802
            return QAudioDevice()

    monkeypatch.setattr(multimedia, "QMediaDevices", NoDevices)
    window = make_desktop().window
    voice = window.voice
    voice.transcriber = ScriptedSpeech("unused")  # a model is there; the microphone is not

    _hold(qloop, window.composer.mic)
    _release(qloop, window.composer.mic)
    assert voice.state == "idle"
    assert "No microphone found" in window.banner.label.text()
    assert not window.banner.action.isVisible()
    assert "No microphone found" in window.composer.mic.toolTip()
    assert window.composer.mic.accessibleDescription() == window.composer.mic.toolTip()


def test_failed_transcription_is_a_calm_message(make_desktop: Any, qloop: Any,
                                                spoken_wav: Path) -> None:  # noqa: F811
    window = make_desktop().window
    voice = window.voice
    voice.transcriber = ScriptedSpeech(error=TranscriptionError("Transcription failed: boom"))
    voice.recorder_factory = lambda: WavRecorder(spoken_wav)
    window.composer.edit.setPlainText("kept")
    _hold(qloop, window.composer.mic)
    _release(qloop, window.composer.mic)

    async def scenario() -> None:
        await until(lambda: voice.state == "idle", what="failure")

    run(qloop, scenario)
    assert "Voice input failed: Transcription failed: boom" in window.banner.label.text()
    assert window.composer.edit.toPlainText() == "kept"
    assert window.composer.mic.text() == "Voice"


def test_holding_the_voice_hotkey_records_until_release(make_desktop: Any, qloop: Any,
                                                        spoken_wav: Path) -> None:  # noqa: F811
    window = make_desktop().window
    voice = window.voice
    voice.transcriber = ScriptedSpeech("from the keyboard")
    voice.recorder_factory = lambda: WavRecorder(spoken_wav)
    edit = window.composer.edit
    window.activateWindow()
    edit.setFocus()
    mods = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier

    act(qloop, lambda: voice.shortcut.activated.emit())  # what Ctrl+Alt+V delivers
    assert voice.state == "listening"
    act(qloop, lambda: QTest.keyRelease(edit, Qt.Key.Key_Control, mods))  # not the key
    assert voice.state == "listening"
    act(qloop, lambda: QTest.keyRelease(edit, Qt.Key.Key_V, mods))
    assert voice.state == "transcribing"

    async def scenario() -> None:
        await until(lambda: voice.state == "idle", what="transcription")

    run(qloop, scenario)
    assert edit.toPlainText() == "from the keyboard"
    assert voice.shortcut.key().toString() == "Ctrl+Alt+V"


def test_mic_button_is_accessible_and_in_the_tab_order(make_desktop: Any) -> None:
    composer = make_desktop().window.composer
    mic = composer.mic
    assert mic.accessibleName() == "Voice input"
    assert "Hold to dictate" in mic.accessibleDescription()
    assert "Ctrl+Alt+V" in mic.toolTip()
    assert composer.attach.nextInFocusChain() is mic


def test_mic_button_in_chinese(make_desktop: Any, qapp: Any) -> None:
    from openworker_qt.ui.theme import install_translator

    assert install_translator(qapp, "zh_CN") == "zh_CN"
    try:
        window = make_desktop().window
        assert window.composer.mic.text() == "语音"
        assert window.composer.mic.accessibleName() == "语音输入"
        assert window.voice.import_action_text == "导入模型…"
    finally:
        install_translator(qapp, "en")
