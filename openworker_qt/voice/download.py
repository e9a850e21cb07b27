"""Downloading a speech model: resumable, checksum-verified, never half-installed.

:func:`download_model` fetches ``voice.download_url`` (``{name}`` replaced by the
size, e.g. ``base.en``) into ``<models>/.ggml-<name>.bin.part``. A dropped
connection is retried with ``Range: bytes=<what we have>-`` (a server that
answers 200 instead of 206 is restarted from zero); a partial file left by a
closed app is resumed the same way next time. When the body is complete the file's
checksum is compared with the catalogue's: a mismatch removes the partial file and
raises :class:`ChecksumError`; a match (and the ggml magic) renames it into place,
where :func:`~openworker_qt.voice.models.find_model` sees it.

Blocking: run it in a worker. Progress is reported through a callback
``(bytes done, bytes total or 0)``; a :class:`threading.Event` cancels.
"""

from __future__ import annotations

import hashlib
import http.client
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from openworker_qt.voice.models import is_ggml_model

DEFAULT_URL = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-{name}.bin"
CHUNK = 256 * 1024
RETRIES = 5


@dataclass(frozen=True, slots=True)
class ModelSize:
    """A downloadable model: its name in the URL, size on disk, and checksum.

    The checksums are the SHA-1 digests whisper.cpp publishes for its ggml models
    in the "Available models" table of its ``models/README.md``. All six were
    compared in full with that table on 2026-12-01, at commit
    06b3eb05a48ba6ecce64b378d05a35a2f9d3ebe8 of github.com/ggerganov/whisper.cpp,
    and matched. Re-check them there (same file, same table) before adding a size
    or when the upstream files are re-published.
    """

    name: str
    mib: int
    digest: str
    algorithm: str = "sha1"
    english_only: bool = False


CATALOGUE: tuple[ModelSize, ...] = (
    ModelSize("tiny.en", 75, "c78c86eb1a8faa21b369bcd33207cc90d64ae9df", english_only=True),
    ModelSize("tiny", 75, "bd577a113a864445d4c299885e0cb97d4ba92b5f"),
    ModelSize("base.en", 142, "137c40403d78fd54d454da0f9bd998f78703390c", english_only=True),
    ModelSize("base", 142, "465707469ff3a37a2b9b8d8f89f2f99de7299dac"),
    ModelSize("small.en", 466, "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022", english_only=True),
    ModelSize("small", 466, "55356645c2b361a969dfd0ef2c5a50d530afd8d5"),
)


def size_named(name: str) -> ModelSize:
    for size in CATALOGUE:
        if size.name == name:
            return size
    raise KeyError(name)


class DownloadError(RuntimeError):
    """The download failed; ``str()`` is a message for the user (the partial file is kept
    for a later resume unless the message says otherwise)."""


class ChecksumError(DownloadError):
    """The finished file did not match its checksum; it was removed."""


class DownloadCancelled(DownloadError):
    """The user stopped the download; the partial file is kept for a resume."""


def model_url(template: str, name: str) -> str:
    template = template.strip() or DEFAULT_URL
    return template.replace("{name}", name) if "{name}" in template \
        else template.rstrip("/") + f"/ggml-{name}.bin"


def partial_path(folder: Path, name: str) -> Path:
    return folder / f".ggml-{name}.bin.part"


def file_digest(path: Path, algorithm: str) -> str:
    digest = hashlib.new(algorithm)
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


Progress = Callable[[int, int], None]


def download_model(url: str, folder: Path, name: str, digest: str, *, algorithm: str = "sha1",
                   progress: Progress | None = None, cancel: threading.Event | None = None,
                   retries: int = RETRIES, timeout: float = 30.0) -> Path:
    """Fetch ``url`` into ``folder/ggml-<name>.bin`` (see module docstring)."""
    folder.mkdir(parents=True, exist_ok=True)
    part = partial_path(folder, name)
    target = folder / f"ggml-{name}.bin"
    report = progress or (lambda _done, _total: None)
    failures = 0
    while True:
        try:
            if _fetch(url, part, report, cancel, timeout):
                break
        except DownloadCancelled:
            raise
        except (OSError, http.client.HTTPException, urllib.error.URLError) as exc:
            if isinstance(exc, urllib.error.HTTPError) and exc.code != 416:
                raise DownloadError(
                    f"The model server answered {exc.code} {exc.reason} for {url}") from exc
            failures += 1
            if failures > retries:
                reason = getattr(exc, "reason", exc)
                raise DownloadError(
                    f"The download stopped ({reason}). What arrived is kept: try again to "
                    "resume.") from exc
    actual = file_digest(part, algorithm)
    if actual != digest.lower():
        part.unlink(missing_ok=True)
        raise ChecksumError(
            f"The downloaded model did not match its checksum (expected {algorithm} "
            f"{digest}, got {actual}). It was deleted; nothing was installed.")
    if not is_ggml_model(part):
        part.unlink(missing_ok=True)
        raise ChecksumError("The downloaded file is not a whisper.cpp model. It was deleted.")
    part.replace(target)
    return target


def _fetch(url: str, part: Path, report: Progress, cancel: threading.Event | None,
           timeout: float) -> bool:
    """One request, appended to ``part``. True when the body arrived whole."""
    have = part.stat().st_size if part.exists() else 0
    headers = {"User-Agent": "OpenWorker-Qt model download"}
    if have:
        headers["Range"] = f"bytes={have}-"
    request = urllib.request.Request(url, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # asked past the end: the part is already whole
            return True
        raise
    with response:
        length = int(response.headers.get("Content-Length") or 0)
        if response.status == 206:
            total = have + length if length else 0
            mode = "ab"
        else:  # 200: the server sends everything; start again
            have, total, mode = 0, length, "wb"
        report(have, total)
        done = have
        with part.open(mode) as out:
            while True:
                if cancel is not None and cancel.is_set():
                    raise DownloadCancelled("The download was stopped. Start it again to resume.")
                block = response.read(CHUNK)
                if not block:
                    break
                out.write(block)
                done += len(block)
                report(done, total)
        if total and done < total:
            raise http.client.IncompleteRead(b"", total - done)
    return True


def delete_model(path: Path) -> None:
    """Remove an installed model (and a partial download of the same name)."""
    path.unlink(missing_ok=True)
    name = path.name.removeprefix("ggml-").removesuffix(".bin")
    partial_path(path.parent, name).unlink(missing_ok=True)
