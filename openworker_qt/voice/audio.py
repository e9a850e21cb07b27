"""WAV in, 16 kHz mono out: what whisper.cpp needs, without sox at runtime.

Recordings arrive at whatever rate and channel count the microphone prefers
(44.1/48 kHz stereo is common). :func:`load_for_whisper` reads a PCM WAV with the
stdlib ``wave`` module and converts it with numpy (a dependency of pywhispercpp):
channels are averaged, the rate is changed by a box low-pass plus linear
interpolation — plenty for speech recognition, whose band ends well below 8 kHz.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

TARGET_RATE = 16_000
SampleKind = Literal["uint8", "int16", "int32", "float32"]
_WIDTHS: dict[SampleKind, int] = {"uint8": 1, "int16": 2, "int32": 4, "float32": 4}

# numpy is imported where it is used: this module is on the window's import path,
# and numpy costs ~100 ms of start-up the first dictation can pay instead.
Samples: TypeAlias = "npt.NDArray[np.float32]"


class AudioError(ValueError):
    """A recording cannot be read as PCM audio; the message says why."""


def pcm_to_float(data: bytes, kind: SampleKind, channels: int) -> Samples:
    """Interleaved PCM bytes → float32 array of shape ``(frames, channels)`` in [-1, 1]."""
    import numpy as np

    width = _WIDTHS[kind]
    usable = len(data) - len(data) % (width * channels)
    raw = data[:usable]
    if kind == "uint8":
        x = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / 128.0
    elif kind == "int16":
        x = np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0
    elif kind == "int32":
        x = (np.frombuffer(raw, "<i4").astype(np.float64) / 2147483648.0).astype(np.float32)
    else:
        x = np.frombuffer(raw, "<f4").astype(np.float32)
    return x.reshape(-1, channels)


def float_to_int16(samples: Samples) -> bytes:
    """Float samples in [-1, 1] (any shape, interleaved order kept) → 16-bit PCM bytes."""
    import numpy as np

    clipped = np.clip(samples, -1.0, 1.0)
    return bytes((clipped * 32767.0).round().astype("<i2").tobytes())


def to_mono_16k(frames: Samples, rate: int) -> Samples:
    """``(frames, channels)`` at ``rate`` → 1-D float32 at 16 kHz."""
    import numpy as np

    mono = frames.mean(axis=1) if frames.ndim == 2 else frames
    mono = mono.astype(np.float32)
    if rate == TARGET_RATE or mono.size == 0:
        return mono
    if rate <= 0:
        raise AudioError(f"invalid sample rate {rate}")
    if rate > TARGET_RATE:
        # Average over the decimation step first so the interpolation does not fold
        # everything above 8 kHz back into the speech band.
        width = max(1, round(rate / TARGET_RATE))
        if width > 1:
            mono = np.convolve(mono, np.full(width, 1.0 / width, np.float32), mode="same")
    n_out = int(round(mono.size * TARGET_RATE / rate))
    positions = np.arange(n_out, dtype=np.float64) * (rate / TARGET_RATE)
    return np.interp(positions, np.arange(mono.size), mono).astype(np.float32)


def read_wav(path: Path) -> tuple[Samples, int]:
    """A PCM WAV file → (``(frames, channels)`` float32, sample rate)."""
    import numpy as np

    try:
        with wave.open(str(path), "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            data = w.readframes(w.getnframes())
    except (wave.Error, EOFError) as exc:
        raise AudioError(f"{path.name} is not a PCM WAV recording ({exc})") from exc
    kinds: dict[int, SampleKind] = {1: "uint8", 2: "int16", 4: "int32"}
    if width == 3:  # 24-bit: widen to 32 by padding the low byte
        a = np.frombuffer(data[:len(data) - len(data) % 3], np.uint8).reshape(-1, 3)
        padded = np.zeros((a.shape[0], 4), np.uint8)
        padded[:, 1:] = a
        return pcm_to_float(padded.tobytes(), "int32", channels), rate
    if width not in kinds:
        raise AudioError(f"{path.name}: unsupported sample width of {width} bytes")
    return pcm_to_float(data, kinds[width], channels), rate


def load_for_whisper(path: Path) -> Samples:
    """The recording at ``path`` as 16 kHz mono float32 samples."""
    frames, rate = read_wav(path)
    return to_mono_16k(frames, rate)


def write_wav(path: Path, frames: Samples, rate: int) -> Path:
    """Write float samples (1-D mono or ``(frames, channels)``) as a 16-bit PCM WAV."""
    channels = 1 if frames.ndim == 1 else int(frames.shape[1])
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(float_to_int16(frames))
    return path


def convert_to_16k_mono(src: Path, dst: Path) -> Path:
    """Write ``src`` (any PCM WAV) to ``dst`` as 16 kHz mono 16-bit."""
    return write_wav(dst, load_for_whisper(src), TARGET_RATE)


@dataclass(frozen=True, slots=True)
class Recording:
    """Raw PCM as a capture device delivered it (any rate, channels, sample kind)."""

    data: bytes
    kind: SampleKind
    channels: int
    rate: int

    @property
    def seconds(self) -> float:
        frame = _WIDTHS[self.kind] * self.channels
        return len(self.data) / frame / self.rate if self.rate and frame else 0.0

    def save_wav(self, path: Path) -> Path:
        """Write as a 16 kHz mono 16-bit WAV (run in a worker: numpy work)."""
        frames = pcm_to_float(self.data, self.kind, self.channels)
        return write_wav(path, to_mono_16k(frames, self.rate), TARGET_RATE)

    @classmethod
    def from_wav(cls, path: Path) -> Recording:
        """A WAV file as if captured (tests and "transcribe a file")."""
        frames, rate = read_wav(path)
        return cls(float_to_int16(frames), "int16", int(frames.shape[1]), rate)
