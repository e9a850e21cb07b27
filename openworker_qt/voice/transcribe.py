"""Speech to text with pywhispercpp, off the event loop.

:class:`Transcriber` resolves the model lazily (so the app starts without one),
loads it once in a worker thread and transcribes WAV files there too: loading
takes ~0.3 s and transcribing a few seconds of speech with ``tiny.en`` ~1–3 s on
a laptop CPU, far too long for the loop thread. Surfaces depend on the
:class:`SpeechToText` protocol so tests can put a double behind it.
"""

from __future__ import annotations

import asyncio
import tempfile
import threading
from pathlib import Path
from typing import Any, Protocol

from openworker_qt.voice.audio import AudioError, Recording, load_for_whisper
from openworker_qt.voice.models import find_model


class TranscriptionError(RuntimeError):
    """Transcription failed; ``str()`` is a message for the user."""


class SpeechToText(Protocol):
    def check(self) -> Path:
        """The model that would be used; raises NoModelError when there is none."""
        ...

    async def transcribe(self, wav: Path) -> str:
        """The text spoken in ``wav`` (any PCM WAV)."""
        ...


async def transcribe_recording(transcriber: SpeechToText, recording: Recording) -> str:
    """The words of ``recording``: saved as a WAV file (in a worker, in a folder
    removed afterwards) and transcribed. Raises what :meth:`~SpeechToText.transcribe`
    raises, or OSError when the file cannot be written."""
    with tempfile.TemporaryDirectory(prefix="openworker-voice-") as folder:
        wav = await asyncio.to_thread(recording.save_wav, Path(folder) / "speech.wav")
        return await transcriber.transcribe(wav)


class Transcriber:
    """pywhispercpp behind :class:`SpeechToText`.

    Args:
        configured: ``voice.model`` from the config ("" = discover).
        folder: the models folder (default ``<data dir>/models``).
        language: the spoken language code (``voice.language``).
        threads: inference threads (pywhispercpp's default when None).
    """

    def __init__(self, configured: str = "", folder: Path | None = None, *,
                 language: str = "en", threads: int | None = None) -> None:
        self.configured = configured
        self.folder = folder
        self.language = language
        self.threads = threads
        self._model: Any = None
        self._model_path: Path | None = None
        self._lock = threading.Lock()

    def check(self) -> Path:
        return find_model(self.configured, self.folder)

    async def transcribe(self, wav: Path) -> str:
        return await asyncio.to_thread(self.transcribe_blocking, wav)

    def transcribe_blocking(self, wav: Path) -> str:
        """Transcribe in the calling thread (a worker; never the loop thread)."""
        path = self.check()
        try:
            audio = load_for_whisper(wav)
        except AudioError as exc:
            raise TranscriptionError(str(exc)) from exc
        if audio.size < 1600:  # under 0.1 s: a tap, not speech
            return ""
        with self._lock:  # one whisper context; calls from two workers take turns
            model = self._load(path)
            try:
                segments = model.transcribe(audio, language=self.language or "",
                                            print_progress=False, print_realtime=False)
            except Exception as exc:  # pywhispercpp raises bare RuntimeErrors and worse
                raise TranscriptionError(f"Transcription failed: {exc}") from exc
        return " ".join(s.text.strip() for s in segments if s.text.strip())

    def _load(self, path: Path) -> Any:
        if self._model is not None and self._model_path == path:
            return self._model
        from pywhispercpp.model import Model  # ~0.1 s import; only when first needed

        kwargs: dict[str, Any] = {"print_progress": False, "print_realtime": False}
        if self.threads:
            kwargs["n_threads"] = self.threads
        try:
            # None sends whisper.cpp's own logging to /dev/null instead of our stderr.
            self._model = Model(str(path), redirect_whispercpp_logs_to=None, **kwargs)
        except Exception as exc:
            raise TranscriptionError(f"Could not load the voice model {path.name}: {exc}") from exc
        self._model_path = path
        return self._model
