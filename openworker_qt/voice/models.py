"""Where whisper models live, which one is used, and importing one safely.

Models are ggml files in ``<data dir>/models/ggml-*.bin`` unless ``voice.model`` in
the config names a file. Nothing is downloaded implicitly: pywhispercpp's
``Model("tiny.en")`` would try the network, and ``Model("/missing.bin")`` does not
even raise — so the path is checked here, and a missing model is a
:class:`NoModelError` whose message tells the user what to do.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from openworker_qt.storage.paths import AppPaths, app_paths

# whisper.cpp's file magic, the u32 0x67676d6c written little-endian.
GGML_MAGIC = b"lmgg"


class NoModelError(LookupError):
    """No usable whisper model; ``str()`` is a message for the user."""


class ModelImportError(ValueError):
    """The chosen file is not a ggml whisper model; ``str()`` says why."""


def models_dir(paths: AppPaths | None = None) -> Path:
    return (paths or app_paths()).data / "models"


def is_ggml_model(path: Path) -> bool:
    """True when ``path`` starts with whisper.cpp's ggml magic."""
    try:
        with path.open("rb") as f:
            return f.read(4) == GGML_MAGIC
    except OSError:
        return False


def installed_models(folder: Path) -> list[Path]:
    """The ggml models in ``folder``, smallest first (the fastest to answer)."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob("ggml-*.bin") if p.is_file()]
    return sorted(found, key=lambda p: (p.stat().st_size, p.name))


def find_model(configured: str = "", folder: Path | None = None) -> Path:
    """The model to use: ``voice.model`` when set, else the first in ``folder``.

    Raises:
        NoModelError: the configured file is missing or not ggml, or none is installed.
    """
    folder = folder if folder is not None else models_dir()
    if configured:
        path = Path(configured).expanduser()
        if not path.is_file():
            raise NoModelError(
                f"The voice model set in the config (voice.model = {configured!r}) does not "
                "exist. Fix the path, or clear it to use a model from "
                f"{folder}.")
        if not is_ggml_model(path):
            raise NoModelError(
                f"{path.name} (voice.model) is not a whisper.cpp ggml model. Choose a "
                "ggml-*.bin file, such as ggml-base.en.bin.")
        return path
    for path in installed_models(folder):
        if is_ggml_model(path):
            return path
    raise NoModelError(
        "No speech model is installed, so voice input cannot transcribe. Import a "
        "whisper.cpp model file (for example ggml-base.en.bin from the whisper.cpp "
        f"project) with “Import model…”, or copy it into {folder}.")


def import_model(source: Path, folder: Path | None = None) -> Path:
    """Copy a user-chosen ggml model into the models folder; return the new path.

    The file is validated first (magic bytes) and copied under a temporary name, so a
    failed or interrupted copy never leaves a half model that discovery would pick.
    """
    folder = folder if folder is not None else models_dir()
    if not source.is_file():
        raise ModelImportError(f"{source} is not a file.")
    if not is_ggml_model(source):
        raise ModelImportError(
            f"{source.name} is not a whisper.cpp ggml model (it does not start with the "
            "ggml signature). Choose a ggml-*.bin file.")
    name = source.name if source.name.startswith("ggml-") and source.suffix == ".bin" \
        else f"ggml-{source.stem}.bin"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    partial = folder / f".{name}.part"
    shutil.copyfile(source, partial)
    partial.replace(target)
    return target
