"""WAV conversion to what whisper.cpp wants: 16 kHz, mono, 16-bit."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from openworker_qt.voice.audio import (
    TARGET_RATE,
    AudioError,
    convert_to_16k_mono,
    float_to_int16,
    load_for_whisper,
    pcm_to_float,
    read_wav,
    write_wav,
)


def _tone(rate: int, seconds: float, freq: float = 440.0) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return (0.5 * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def _dominant_hz(samples: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(samples))
    return float(np.fft.rfftfreq(samples.size, 1 / rate)[spectrum.argmax()])


def test_stereo_48k_becomes_16k_mono_with_the_pitch_kept(tmp_path: Path) -> None:
    tone = _tone(48_000, 1.0)
    src = write_wav(tmp_path / "in.wav", np.stack([tone, tone], axis=1), 48_000)
    dst = convert_to_16k_mono(src, tmp_path / "out.wav")
    with wave.open(str(dst)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (TARGET_RATE, 1, 2)
        assert abs(w.getnframes() - TARGET_RATE) <= 1
    samples = load_for_whisper(dst)
    assert abs(_dominant_hz(samples, TARGET_RATE) - 440.0) < 2.0
    assert 0.4 < float(np.abs(samples).max()) <= 0.51


def test_espeak_recording_is_converted(spoken_wav: Path) -> None:
    frames, rate = read_wav(spoken_wav)
    assert rate == 22_050 and frames.shape[1] == 1
    samples = load_for_whisper(spoken_wav)
    assert samples.dtype == np.float32 and samples.ndim == 1
    assert abs(samples.size / TARGET_RATE - frames.shape[0] / rate) < 0.01


def test_16k_mono_passes_through_unchanged(tmp_path: Path) -> None:
    tone = _tone(TARGET_RATE, 0.5)
    src = write_wav(tmp_path / "in.wav", tone, TARGET_RATE)
    np.testing.assert_allclose(load_for_whisper(src), tone, atol=1 / 32767)


def test_8bit_and_upsampling(tmp_path: Path) -> None:
    tone = _tone(8_000, 0.5, freq=300.0)
    path = tmp_path / "u8.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8_000)
        w.writeframes(((tone * 127) + 128).astype(np.uint8).tobytes())
    samples = load_for_whisper(path)
    assert abs(samples.size - TARGET_RATE // 2) <= 1
    assert abs(_dominant_hz(samples, TARGET_RATE) - 300.0) < 3.0


def test_float_and_int32_pcm_from_a_capture_device() -> None:
    x = np.array([[0.5, -0.5], [0.25, -1.0]], np.float32)
    np.testing.assert_allclose(pcm_to_float(x.tobytes(), "float32", 2), x)
    as_i32 = (x * 2**31 - 1).astype("<i4").tobytes()
    np.testing.assert_allclose(pcm_to_float(as_i32, "int32", 2), x, atol=1e-6)
    # A partial trailing frame (a capture cut mid-sample) is dropped, not an error.
    assert pcm_to_float(float_to_int16(x) + b"\x01", "int16", 2).shape == (2, 2)


def test_not_a_wav_is_a_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "rec.wav"
    bogus.write_bytes(b"ID3 definitely an mp3")
    with pytest.raises(AudioError, match="not a PCM WAV"):
        load_for_whisper(bogus)


def test_a_capture_is_saved_as_16k_mono(tmp_path: Path, spoken_wav: Path) -> None:
    from openworker_qt.voice.audio import Recording

    tone = _tone(44_100, 0.5)
    stereo = np.stack([tone, tone], axis=1).astype("<f4")
    capture = Recording(stereo.tobytes(), "float32", 2, 44_100)
    assert abs(capture.seconds - 0.5) < 1e-3
    out = capture.save_wav(tmp_path / "c.wav")
    with wave.open(str(out)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (TARGET_RATE, 1, 2)
    again = Recording.from_wav(spoken_wav)
    assert (again.kind, again.channels, again.rate) == ("int16", 1, 22_050)
