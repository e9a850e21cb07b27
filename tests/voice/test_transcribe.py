"""The real thing: espeak-ng speech → pywhispercpp with a converted ggml tiny.en."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from openworker_qt.voice.models import NoModelError, import_model
from openworker_qt.voice.transcribe import Transcriber, TranscriptionError


def test_converted_model_has_the_ggml_layout(ggml_tiny_en: Path) -> None:
    import struct

    with ggml_tiny_en.open("rb") as f:
        magic, *hparams = struct.unpack("<I11i", f.read(48))
        n_mels, n_bins = struct.unpack("<ii", f.read(8))
    assert magic == 0x67676D6C
    # n_vocab, audio ctx/state/head/layer, text ctx/state/head/layer, mels, f16
    assert hparams == [51864, 1500, 384, 6, 4, 448, 384, 6, 4, 80, 1]
    assert (n_mels, n_bins) == (80, 201)


def test_transcribes_espeak_speech(ggml_tiny_en: Path, spoken_wav: Path) -> None:
    # Imported the way a user would, then discovered from the models folder.
    folder = ggml_tiny_en.parent.parent / "models-for-transcribe"
    import_model(ggml_tiny_en, folder)
    transcriber = Transcriber(folder=folder, language="en")
    loop_thread = threading.get_ident()
    seen: list[int] = []
    original = transcriber.transcribe_blocking

    def spy(wav: Path) -> str:
        seen.append(threading.get_ident())
        return original(wav)

    transcriber.transcribe_blocking = spy
    started = time.perf_counter()
    text = asyncio.run(transcriber.transcribe(spoken_wav))
    elapsed = time.perf_counter() - started
    print(f"transcribed {text!r} in {elapsed:.2f} s")
    assert "hello world" in text.lower()
    assert "meeting" in text.lower()
    assert seen and seen[0] != loop_thread, "whisper ran on the loop thread"


def test_no_model_is_a_clear_error_before_any_work(tmp_path: Path, spoken_wav: Path) -> None:
    transcriber = Transcriber(folder=tmp_path / "models")
    with pytest.raises(NoModelError, match="Import model"):
        asyncio.run(transcriber.transcribe(spoken_wav))


def test_unreadable_recording_is_a_transcription_error(ggml_tiny_en: Path,
                                                      tmp_path: Path) -> None:
    bad = tmp_path / "rec.wav"
    bad.write_bytes(b"garbage")
    with pytest.raises(TranscriptionError, match="not a PCM WAV"):
        Transcriber(str(ggml_tiny_en)).transcribe_blocking(bad)
