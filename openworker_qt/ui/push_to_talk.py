"""Push-to-talk anywhere: hold the voice hotkey in any application, speak, let go.

A :class:`~openworker_qt.qt.hotkey.GlobalHotkey` for ``ui.voice_hotkey`` (default
Ctrl+Alt+V) reports the press and the release. While it is held a small
:class:`RecordingIndicator` sits at the top of the screen with a level meter; on
release the recording is transcribed in a worker and the text is handed to
``deliver`` (the app puts it in the quick ask or the open session's message box,
per ``voice.push_to_talk_target``, and sends it when ``voice.push_to_talk_send``).

Where there is no global hotkey (Wayland, an unknown display) ``status`` says so
and the in-window mic button and shortcut keep working.

Signals:
    state_changed(str): "idle", "listening" or "transcribing".
    problem(str): a message for the user (no model, no microphone, a failure).
    transcribed(str): the text that was delivered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QWidget

from openworker_qt.qt.audio_capture import NoMicrophoneError, Recorder, open_recorder
from openworker_qt.qt.hotkey import GlobalHotkey
from openworker_qt.voice.models import NoModelError
from openworker_qt.voice.transcribe import SpeechToText, TranscriptionError, transcribe_recording

MIN_SECONDS = 0.3


class RecordingIndicator(QFrame):
    """A small always-on-top strip: "Listening…" and a level meter; never takes focus."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint
                         | Qt.WindowType.WindowStaysOnTopHint
                         | Qt.WindowType.WindowDoesNotAcceptFocus)
        self.setObjectName("recordingIndicator")
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(self.tr("Voice recording"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 10, 6)
        self.label = QLabel(self.tr("Listening…"))
        self.meter = QProgressBar()
        self.meter.setRange(0, 100)
        self.meter.setTextVisible(False)
        self.meter.setFixedWidth(120)
        self.meter.setAccessibleName(self.tr("Microphone level"))
        lay.addWidget(self.label)
        lay.addWidget(self.meter)

    def show_listening(self) -> None:
        self.label.setText(self.tr("Listening… release the key when you are done"))
        self.meter.setValue(0)
        self.meter.show()
        self.adjustSize()
        self.show_at_top()

    def show_problem(self, text: str) -> None:
        """A message where the user is looking (they may be in another application)."""
        self.label.setText(text)
        self.label.setWordWrap(True)
        self.meter.hide()
        self.setMaximumWidth(520)
        self.adjustSize()
        if not self.isVisible():
            self.show_at_top()
        QTimer.singleShot(6000, self.hide)

    def show_at_top(self) -> None:
        screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
        if screen is not None:
            geo = screen.availableGeometry()
            self.move(geo.center().x() - self.width() // 2, geo.top() + 24)
        self.show()
        self.raise_()

    def show_transcribing(self) -> None:
        self.label.setText(self.tr("Transcribing…"))
        self.meter.hide()
        self.adjustSize()


class PushToTalk(QObject):
    """See module docstring."""

    state_changed = Signal(str)
    problem = Signal(str)
    transcribed = Signal(str)

    def __init__(self, hotkey: GlobalHotkey, transcriber: SpeechToText,
                 recorder_factory: Callable[[], Recorder],
                 deliver: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.hotkey = hotkey
        self.transcriber = transcriber
        self.recorder_factory = recorder_factory
        self.deliver = deliver
        self.state = "idle"
        self.indicator = RecordingIndicator()
        self._recorder: Recorder | None = None
        self._task: asyncio.Task[None] | None = None
        self._meter = QTimer(self)
        self._meter.setInterval(50)
        self._meter.timeout.connect(self._update_level)
        hotkey.activated.connect(self.start)
        hotkey.released.connect(self.finish)
        if not hotkey.available:
            wayland = QGuiApplication.platformName().startswith("wayland")
            reason = self.tr(
                "Push-to-talk in other applications is not available on Wayland: hold the "
                "Voice button, or {sequence} while the OpenWorker window is active.") if wayland \
                else self.tr("Push-to-talk in other applications is not available on this "
                             "display: hold the Voice button, or {sequence} while the "
                             "OpenWorker window is active.")
            hotkey.reason = reason  # type: ignore[attr-defined]
        self.problem.connect(self.indicator.show_problem)

    @property
    def status(self) -> str:
        return self.hotkey.status

    def register(self, sequence: str) -> bool:
        """Grab ``sequence`` system-wide; False (and ``status`` says why) where it cannot."""
        return self.hotkey.register(sequence)

    def _set_state(self, state: str) -> None:
        self.state = state
        self.state_changed.emit(state)

    def start(self) -> None:
        if self.state != "idle":
            return
        try:
            recorder = open_recorder(self.transcriber, self.recorder_factory)
        except NoModelError as exc:
            self.problem.emit(str(exc))
            return
        except NoMicrophoneError:
            self.problem.emit(self.tr(
                "No microphone found. Connect one (or allow this app to use it in the "
                "system's privacy settings), then hold the key again."))
            return
        self._recorder = recorder
        self.indicator.show_listening()
        self._meter.start()
        self._set_state("listening")

    def _update_level(self) -> None:
        level = getattr(self._recorder, "level", None)
        if callable(level):
            self.indicator.meter.setValue(int(max(0.0, min(1.0, float(level()))) * 100))

    def finish(self) -> None:
        if self.state != "listening" or self._recorder is None:
            return
        self._meter.stop()
        recording = self._recorder.stop()
        self._recorder = None
        if recording.seconds < MIN_SECONDS:
            self.indicator.hide()
            self._set_state("idle")
            return
        self.indicator.show_transcribing()
        self._set_state("transcribing")
        self._task = asyncio.ensure_future(self._transcribe(recording))

    async def _transcribe(self, recording: Any) -> None:
        text, failure = "", ""
        try:
            text = await transcribe_recording(self.transcriber, recording)
        except NoModelError as exc:
            failure = str(exc)
        except (TranscriptionError, OSError) as exc:
            failure = self.tr("Voice input failed: {error}").format(error=str(exc))
        finally:
            self.indicator.hide()
            self._set_state("idle")
        if failure:
            self.problem.emit(failure)
        elif text:
            self.deliver(text)
            self.transcribed.emit(text)
        else:
            self.problem.emit(self.tr("No speech was recognised."))

    def close(self) -> None:
        self._meter.stop()
        if self._recorder is not None:
            with contextlib.suppress(Exception):
                self._recorder.stop()
            self._recorder = None
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self.indicator.close()
        self.hotkey.unregister()
        close = getattr(self.hotkey, "close", None)
        if callable(close):
            close()
        self.state = "idle"
