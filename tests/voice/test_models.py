"""Model discovery and import: checked paths, magic bytes, actionable messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.storage.config import load_config
from openworker_qt.voice.models import (
    GGML_MAGIC,
    ModelImportError,
    NoModelError,
    find_model,
    import_model,
    installed_models,
    models_dir,
)


def _fake_model(path: Path, size: int = 64) -> Path:
    path.write_bytes(GGML_MAGIC + b"\0" * size)
    return path


def test_no_model_message_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(NoModelError) as info:
        find_model("", tmp_path / "models")
    text = str(info.value)
    assert "No speech model is installed" in text
    assert "Import model" in text and str(tmp_path / "models") in text


def test_models_dir_is_under_the_data_dir() -> None:
    # OPENWORKER_HOME is a temp dir per test (tests/conftest.py).
    assert models_dir().parts[-2:] == ("data", "models")
    with pytest.raises(NoModelError):
        find_model()


def test_config_has_voice_defaults() -> None:
    config = load_config()
    assert config.get("voice.model") == ""
    assert config.get("voice.language") == "en"


def test_discovery_picks_the_smallest_ggml_and_skips_impostors(tmp_path: Path) -> None:
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "ggml-bogus.bin").write_bytes(b"not a model at all")
    _fake_model(folder / "ggml-base.en.bin", size=500)
    small = _fake_model(folder / "ggml-tiny.en.bin", size=100)
    (folder / "notes.txt").write_text("x")
    assert [p.name for p in installed_models(folder)][0] == "ggml-bogus.bin"
    assert find_model("", folder) == small


def test_configured_model_is_checked_not_trusted(tmp_path: Path) -> None:
    # pywhispercpp's Model("/missing.bin") does not raise; we must.
    with pytest.raises(NoModelError, match="does not exist"):
        find_model(str(tmp_path / "missing.bin"), tmp_path)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"GGUF....")
    with pytest.raises(NoModelError, match="not a whisper.cpp ggml model"):
        find_model(str(junk), tmp_path)
    good = _fake_model(tmp_path / "mine.bin")
    assert find_model(str(good), tmp_path / "empty") == good


def test_import_copies_a_valid_model(tmp_path: Path) -> None:
    (tmp_path / "downloads").mkdir()
    source = _fake_model(tmp_path / "downloads" / "base.en.bin")
    folder = tmp_path / "models"
    target = import_model(source, folder)
    assert target == folder / "ggml-base.en.bin"
    assert target.read_bytes() == source.read_bytes()
    assert not list(folder.glob(".*.part"))
    assert find_model("", folder) == target


def test_import_keeps_a_ggml_name_and_rejects_other_files(tmp_path: Path) -> None:
    folder = tmp_path / "models"
    named = _fake_model(tmp_path / "ggml-small.bin")
    assert import_model(named, folder).name == "ggml-small.bin"
    wrong = tmp_path / "model.safetensors"
    wrong.write_bytes(b"{\"__metadata__\": {}}")
    with pytest.raises(ModelImportError, match="not a whisper.cpp ggml model"):
        import_model(wrong, folder)
    with pytest.raises(ModelImportError, match="is not a file"):
        import_model(tmp_path / "nowhere.bin", folder)
    assert [p.name for p in folder.iterdir()] == ["ggml-small.bin"]
