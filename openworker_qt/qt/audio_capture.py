"""Microphone capture with Qt Multimedia into memory, for push-to-talk.

:class:`QtRecorder` opens the default audio input in its preferred format (every
backend supports that one; asking for 16 kHz mono is refused by many) with a
``QAudioSource`` writing into a ``QBuffer``; :meth:`QtRecorder.stop` hands back a
:class:`~openworker_qt.voice.audio.Recording` that the caller converts to a 16 kHz
mono WAV in a worker. QtMultimedia is imported on the first recording, not at
start-up (it loads FFmpeg and probes PulseAudio/PipeWire: ~100 ms).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QBuffer, QIODevice, QObject

from openworker_qt.voice.audio import Recording, SampleKind


class NoMicrophoneError(RuntimeError):
    """No audio input device exists (or none can be opened)."""


class Recorder(Protocol):
    def start(self) -> None:
        """Start capturing; raises NoMicrophoneError when there is no input."""
        ...

    def stop(self) -> Recording:
        """Stop and return what was captured."""
        ...


class _Checked(Protocol):
    def check(self) -> object: ...


def open_recorder(transcriber: _Checked, factory: Callable[[], Recorder]) -> Recorder:
    """A recorder capturing, once there is a speech model to hear it: raises the
    transcriber's NoModelError first, then NoMicrophoneError."""
    transcriber.check()
    recorder = factory()
    recorder.start()
    return recorder


def has_audio_input() -> bool:
    from PySide6.QtMultimedia import QMediaDevices

    return bool(QMediaDevices.audioInputs())


_ARRAY_CODES: dict[SampleKind, tuple[str, float, float]] = {
    "uint8": ("B", 128.0, 128.0), "int16": ("h", 0.0, 32768.0),
    "int32": ("i", 0.0, 2147483648.0), "float32": ("f", 0.0, 1.0),
}


def peak_level(data: bytes, kind: SampleKind) -> float:
    """The peak of interleaved PCM ``data`` as 0..1 (stdlib only: cheap on the GUI thread)."""
    code, offset, scale = _ARRAY_CODES[kind]
    samples = array(code)
    samples.frombytes(data[:len(data) - len(data) % samples.itemsize])
    if not samples:
        return 0.0
    return min(1.0, max(abs(v - offset) for v in samples) / scale)


class QtRecorder(QObject):
    """The default microphone through ``QAudioSource`` (see module docstring)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source: Any = None
        self._buffer: QBuffer | None = None
        self._format: tuple[SampleKind, int, int] = ("int16", 1, 16_000)

    def start(self) -> None:
        from PySide6.QtMultimedia import QAudioFormat, QAudioSource, QMediaDevices

        device = QMediaDevices.defaultAudioInput()
        if device.isNull():
            raise NoMicrophoneError("no audio input device")
        fmt = device.preferredFormat()
        kinds: dict[Any, SampleKind] = {
            QAudioFormat.SampleFormat.UInt8: "uint8", QAudioFormat.SampleFormat.Int16: "int16",
            QAudioFormat.SampleFormat.Int32: "int32", QAudioFormat.SampleFormat.Float: "float32",
        }
        if fmt.sampleFormat() not in kinds:
            fmt.setSampleFormat(QAudioFormat.SampleFormat.Int16)
        self._format = (kinds[fmt.sampleFormat()], fmt.channelCount(), fmt.sampleRate())
        self._buffer = QBuffer(self)
        self._buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self._source = QAudioSource(device, fmt, self)
        self._source.start(self._buffer)
        if self._source.error() != self._source.error().NoError:
            error = self._source.error()
            self._discard()
            raise NoMicrophoneError(f"the microphone could not be opened ({error.name})")

    def level(self) -> float:
        """The loudest sample of the last ~50 ms, 0..1 (for a level meter; no numpy)."""
        if self._buffer is None:
            return 0.0
        kind, channels, rate = self._format
        return peak_level(bytes(self._buffer.data().data()[-(rate // 20) * channels * 4:]), kind)

    def stop(self) -> Recording:
        if self._source is not None:
            self._source.stop()
        data = bytes(self._buffer.data().data()) if self._buffer is not None else b""
        self._discard()
        kind, channels, rate = self._format
        return Recording(data, kind, channels, rate)

    def _discard(self) -> None:
        if self._source is not None:
            self._source.deleteLater()
        if self._buffer is not None:
            self._buffer.close()
            self._buffer.deleteLater()
        self._source = self._buffer = None
