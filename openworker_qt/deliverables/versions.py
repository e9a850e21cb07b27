"""Versions of a deliverable: every file the deliverables tool writes is kept, numbered.

``outputs/report.docx`` is always the latest version; each version written (and the file
that was there before, when nobody had kept it: written before versions existed, or
edited by hand since) is copied to ``outputs/.versions/report.docx/v1.docx``,
``v2.docx`` … beside it, so a revision never loses the one before and a transcript's
link to an earlier version still opens what the model wrote then. Restoring a version
copies it over the file and keeps that as a new version (nothing is lost either way).
The folder is the record: a restart reads it back; nothing else is stored. At most
:data:`MAX_VERSIONS` are kept a file (the oldest go first). No Qt.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

VERSIONS_DIR = ".versions"
MAX_VERSIONS = 50
_NAME = re.compile(r"^v(\d+)(\.[^.]*)?$")


@dataclass(frozen=True, slots=True)
class Version:
    number: int
    path: Path
    modified: float  # seconds since the epoch
    size: int


def archive_dir(path: Path) -> Path:
    """The folder holding the versions of ``path``."""
    return path.parent / VERSIONS_DIR / path.name


def main_file(path: Path) -> Path:
    """The deliverable a path names: itself, or for a kept version
    (``.versions/report.docx/v1.docx``) the file it is a version of."""
    if path.parent.parent.name == VERSIONS_DIR and _NAME.match(path.name):
        return path.parent.parent.parent / path.parent.name
    return path


def versions(path: Path) -> list[Version]:
    """The kept versions of ``path``, oldest first (empty when none are kept)."""
    folder = archive_dir(main_file(path))
    found: list[Version] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        match = _NAME.match(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        stat = entry.stat(follow_symlinks=False)
        found.append(Version(int(match.group(1)), Path(entry.path), stat.st_mtime, stat.st_size))
    return sorted(found, key=lambda v: v.number)


def version_of(path: Path) -> Version | None:
    """The kept version whose bytes the file at ``path`` holds now, or None."""
    target = main_file(path)
    try:
        data = target.read_bytes()
    except OSError:
        return None
    for kept in reversed(versions(target)):
        if kept.size == len(data) and _same(kept.path, data):
            return kept
    return None


def _same(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _add(path: Path, data: bytes) -> Version:
    kept = versions(path)
    number = (kept[-1].number if kept else 0) + 1
    copy = archive_dir(path) / f"v{number}{path.suffix}"
    _write_atomic(copy, data)
    for old in kept[: max(0, len(kept) + 1 - MAX_VERSIONS)]:
        with contextlib.suppress(OSError):
            old.path.unlink()
    stat = copy.stat()
    return Version(number, copy, stat.st_mtime, stat.st_size)


def keep_current(path: Path) -> Version | None:
    """Before ``path`` is rewritten: keep what it holds now as a version unless that is
    kept already (the latest version). Returns the version holding it (None: no file)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    kept = versions(path)
    if kept and kept[-1].size == len(data) and _same(kept[-1].path, data):
        return kept[-1]
    return _add(path, data)


def record(path: Path, data: bytes) -> Version:
    """After ``data`` was written to ``path``: keep it as the next version."""
    kept = versions(path)
    if kept and kept[-1].size == len(data) and _same(kept[-1].path, data):
        return kept[-1]
    return _add(path, data)


def restore(path: Path, number: int) -> Version:
    """Make version ``number`` the current file again (kept as a new version, so the
    one it replaces stays kept too). Raises LookupError for a version not kept."""
    target = main_file(path)
    chosen = next((v for v in versions(target) if v.number == number), None)
    if chosen is None:
        raise LookupError(f"version {number} of {target.name} is not kept")
    data = chosen.path.read_bytes()
    keep_current(target)
    _write_atomic(target, data)
    return record(target, data)


def diff(older: str, newer: str, older_name: str, newer_name: str) -> list[str]:
    """A unified diff of two texts, as lines (empty when they are the same)."""
    return list(difflib.unified_diff(older.splitlines(), newer.splitlines(), older_name,
                                     newer_name, lineterm="", n=2))
