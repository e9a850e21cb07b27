"""Push-to-talk voice input for the composer.

Hold the mic button (mouse, or Space when it has focus) or the voice shortcut
(``ui.voice_hotkey``, default Ctrl+Alt+V) to record; release to stop. The
recording is converted to 16 kHz mono and transcribed in a worker thread, and the
text lands at the message box's cursor. Progress shows on the button and in the
status bar; problems (no microphone, no model, a failed transcription) show as a
calm banner — with "Import model…" when the model is what is missing.

The recorder and the transcriber are injected (``recorder_factory``,
``transcriber``) so tests can put a prepared WAV and a double behind them.

Signals (VoiceController):
    state_changed(str): "idle", "listening" or "transcribing".
    message(str): a progress line for the status bar.
    problem(str, bool): a message for the banner; True when a model is missing.
    inserted(str): text was put into the message box.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QFileDialog, QPlainTextEdit, QToolButton, QWidget

from openworker_qt.qt.audio_capture import NoMicrophoneError, QtRecorder, Recorder, open_recorder
from openworker_qt.voice.models import ModelImportError, NoModelError, import_model, models_dir
from openworker_qt.voice.transcribe import (
    SpeechToText,
    Transcriber,
    TranscriptionError,
    transcribe_recording,
)

if TYPE_CHECKING:
    from openworker_qt.qt.settings_store import SettingsStore

DEFAULT_VOICE_HOTKEY = "Ctrl+Alt+V"
MIN_SECONDS = 0.3  # shorter is a tap on the button, not speech


class MicButton(QToolButton):
    """The composer's hold-to-talk button (the controller sets its texts)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from openworker_qt.ui.icons import icon

        self.setObjectName("micButton")
        self.setIcon(icon("mic", "muted"))
        self.setIconSize(QSize(20, 20))
        self.setAutoRaise(True)
        self.setText(self.tr("Voice"))
        self.setAccessibleName(self.tr("Voice input"))
        self.setAccessibleDescription(
            self.tr("Hold to dictate; release to put the words into the message"))
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.setToolTip(self.accessibleDescription())  # the controller adds its shortcut

    def setText(self, text: str) -> None:  # noqa: N802
        """Idle it is an icon; "Listening…" and "Transcribing…" show beside it."""
        super().setText(text)
        idle = text == self.tr("Voice")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly if idle
                                else Qt.ToolButtonStyle.ToolButtonTextBesideIcon)


class VoiceController(QObject):
    """See module docstring."""

    state_changed = Signal(str)
    message = Signal(str)
    problem = Signal(str, bool)
    inserted = Signal(str)

    def __init__(self, button: MicButton, edit: QPlainTextEdit, transcriber: SpeechToText,
                 *, hotkey: str = DEFAULT_VOICE_HOTKEY,
                 recorder_factory: Callable[[], Recorder] | None = None,
                 models_folder: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.button = button
        self.edit = edit
        self.transcriber = transcriber
        self.recorder_factory: Callable[[], Recorder] = recorder_factory or (lambda: QtRecorder(self))
        self.models_folder = models_folder
        self.state = "idle"
        self.hotkey = QKeySequence(hotkey or DEFAULT_VOICE_HOTKEY)
        self._recorder: Recorder | None = None
        self._task: asyncio.Task[None] | None = None
        self._hotkey_held = False
        # Offered each transcript first; True = taken (a spoken approval answer).
        self.intercept: Callable[[str], bool] | None = None
        self._describe(self.tr("Hold to dictate; release to put the words into the message"))
        button.pressed.connect(self.start)
        button.released.connect(self.finish)
        self.shortcut = QShortcut(self.hotkey, edit.window())
        self.shortcut.setAutoRepeat(False)
        self.shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.shortcut.activated.connect(self._on_shortcut_activated)

    @classmethod
    def for_settings(cls, button: MicButton, edit: QPlainTextEdit, settings: SettingsStore,
                     parent: QObject | None = None) -> VoiceController:
        folder = models_dir(settings.paths)
        transcriber = Transcriber(str(settings.get("voice.model") or ""), folder,
                                  language=str(settings.get("voice.language") or ""))
        return cls(button, edit, transcriber, parent=parent, models_folder=folder,
                   hotkey=str(settings.get("ui.voice_hotkey") or DEFAULT_VOICE_HOTKEY))

    # ---------------------------------------------------------------- texts

    def _describe(self, what: str) -> None:
        shortcut = self.hotkey.toString(QKeySequence.SequenceFormat.NativeText)
        self.button.setToolTip(self.tr("{what} ({shortcut})").format(what=what, shortcut=shortcut))
        self.button.setAccessibleDescription(self.button.toolTip())

    def _set_state(self, state: str) -> None:
        self.state = state
        labels = {"idle": self.tr("Voice"), "listening": self.tr("Listening…"),
                  "transcribing": self.tr("Transcribing…")}
        self.button.setText(labels[state])
        self.button.setAccessibleName(
            self.tr("Voice input") if state == "idle"
            else self.tr("Voice input: {state}").format(state=labels[state]))
        if state != "idle":
            self.message.emit(labels[state])
        self.state_changed.emit(state)

    @property
    def import_action_text(self) -> str:
        return self.tr("Import model…")

    # -------------------------------------------------------------- recording

    def start(self) -> None:
        """Begin listening (button pressed or shortcut held)."""
        if self.state != "idle":
            return
        try:
            recorder = open_recorder(self.transcriber, self.recorder_factory)
        except NoModelError as exc:
            self.problem.emit(str(exc), True)
            return
        except NoMicrophoneError:
            text = self.tr("No microphone found. Connect one (or allow this app to use it in "
                           "the system's privacy settings), then hold the button again.")
            self._describe(self.tr("No microphone found"))
            self.problem.emit(text, False)
            return
        self._recorder = recorder
        self._set_state("listening")

    def finish(self) -> None:
        """Stop listening and transcribe in a worker (button or shortcut released)."""
        if self.state != "listening" or self._recorder is None:
            return
        recording = self._recorder.stop()
        self._recorder = None
        if recording.seconds < MIN_SECONDS:
            self._set_state("idle")
            self.message.emit(self.tr("Hold the button while you speak."))
            return
        self._set_state("transcribing")
        self._task = asyncio.ensure_future(self._transcribe(recording))

    async def _transcribe(self, recording: Any) -> None:
        try:
            text = await transcribe_recording(self.transcriber, recording)
        except NoModelError as exc:
            self.problem.emit(str(exc), True)
        except (TranscriptionError, OSError) as exc:
            self.problem.emit(self.tr("Voice input failed: {error}").format(error=str(exc)), False)
        else:
            if text and self.intercept is not None and self.intercept(text):
                pass
            elif text:
                self.insert(text)
            else:
                self.message.emit(self.tr("No speech was recognised."))
        finally:
            self._set_state("idle")

    def insert(self, text: str) -> None:
        """Put ``text`` at the message box's cursor, spaced from what is around it."""
        cursor = self.edit.textCursor()
        before = self.edit.toPlainText()[:cursor.position()]
        if before and not before[-1].isspace():
            text = " " + text
        cursor.insertText(text)
        self.edit.setTextCursor(cursor)
        self.edit.setFocus()
        self.inserted.emit(text)

    def cancel(self) -> None:
        if self._recorder is not None:
            with contextlib.suppress(Exception):
                self._recorder.stop()
            self._recorder = None
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self.state = "idle"

    # ------------------------------------------------------- hold-to-talk key

    def _on_shortcut_activated(self) -> None:
        if self.state == "listening":  # pressed again: a toggle where release is lost
            self._release_hotkey()
            return
        self.start()
        if self.state == "listening":
            self._hotkey_held = True
            app = QApplication.instance()
            if app is not None:
                app.installEventFilter(self)

    def _release_hotkey(self) -> None:
        if self._hotkey_held:
            self._hotkey_held = False
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
        self.finish()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Installed on the application only while the shortcut is held: its key's
        # release (or the app losing focus, when no release will come) ends it.
        if self._hotkey_held:
            if event.type() == QEvent.Type.KeyRelease and isinstance(event, QKeyEvent):
                key = self.hotkey[0].key() if self.hotkey.count() else None  # type: ignore[index]
                if not event.isAutoRepeat() and event.key() == key:
                    self._release_hotkey()
            elif event.type() == QEvent.Type.ApplicationDeactivate:
                self._release_hotkey()
        return False

    # ------------------------------------------------------------ model import

    def choose_model_file(self, parent: QWidget | None = None) -> None:
        """Ask for a ggml file (window-modal, no nested loop) and import it."""
        dialog = QFileDialog(parent or self.button.window(), self.tr("Import a speech model"))
        dialog.setNameFilter(self.tr("whisper.cpp models (*.bin)"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.fileSelected.connect(lambda path: asyncio.ensure_future(self.import_file(Path(path))))
        dialog.open()

    async def import_file(self, source: Path) -> Path | None:
        """Copy ``source`` into the models folder in a worker; report the outcome."""
        self.message.emit(self.tr("Importing {name}…").format(name=source.name))
        try:
            target = await asyncio.to_thread(import_model, source, self.models_folder)
        except (ModelImportError, OSError) as exc:
            self.problem.emit(str(exc), False)
            return None
        self.message.emit(self.tr("Speech model {name} is ready. Hold the voice button to "
                                  "dictate.").format(name=target.name))
        return target
