"""DOCX and PPTX as their true pages: LibreOffice (``soffice``), when it is installed,
converts the file to PDF headless, and the viewer draws that PDF's pages (pages.py).

Each conversion runs ``soffice`` with a profile of the app's own (``-env:UserInstallation``
under the app's cache folder: the user's LibreOffice settings, recent files and open
windows are never touched, and a LibreOffice the user has open does not take the job
over), in a process group of its own, with a time limit: a conversion that hangs is
killed and reported, and :meth:`Converter.cancel` (the viewer closing) kills the one
running. Converted PDFs are kept in the cache, named by the file's SHA-256 and
modification time, so opening the same file again costs nothing. One conversion at a
time shares the profile (a lock in this process, a file lock across the app's
processes). No Qt; called in a worker thread.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

#: Seconds a conversion may take before it is killed (a first run builds the profile).
TIMEOUT = 120.0
#: Converted PDFs kept in the cache (the oldest go first).
MAX_CACHED = 40
SUFFIXES = frozenset({".docx", ".pptx"})
_LOCK = threading.Lock()
_MAC_APP = "/Applications/LibreOffice.app/Contents/MacOS/soffice"


class ConversionError(Exception):
    """The file could not be converted; the message says why, in words (``timed_out``:
    LibreOffice was killed at the time limit)."""

    def __init__(self, text: str, timed_out: bool = False) -> None:
        super().__init__(text)
        self.timed_out = timed_out


def program() -> str | None:
    """The LibreOffice program on this machine, or None when it is not installed."""
    for name in ("soffice", "libreoffice"):
        if found := shutil.which(name):
            return found
    if sys.platform == "darwin" and os.path.exists(_MAC_APP):
        return _MAC_APP
    return None


def cache_dir() -> Path:
    from openworker_qt.storage.paths import app_paths  # read when called: tests move it

    return app_paths().cache / "office-pages"


def cache_key(path: Path) -> str:
    """The file's SHA-256 and modification time (nanoseconds): a file written again, or
    touched, is converted again."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return f"{digest.hexdigest()[:32]}-{path.stat().st_mtime_ns}"


class Converter:
    """The conversions of one viewer window: :meth:`pdf_for` converts (or finds the kept
    PDF), :meth:`cancel` stops the one running and every later one."""

    def __init__(self, soffice: str | None = None, cache: Path | None = None,
                 timeout: float | None = None) -> None:
        self.soffice = soffice if soffice is not None else program()
        self._cache = cache
        self.timeout = TIMEOUT if timeout is None else timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._cancelled = False
        self._guard = threading.Lock()

    @property
    def available(self) -> bool:
        return bool(self.soffice)

    @property
    def cache(self) -> Path:
        return self._cache if self._cache is not None else cache_dir()

    def pdf_for(self, path: Path) -> Path:
        """The PDF of ``path``'s pages (in the cache). Raises :class:`ConversionError`."""
        if not self.soffice:
            raise ConversionError("LibreOffice is not installed")
        try:
            key = cache_key(path)
        except OSError as exc:
            raise ConversionError(exc.strerror or str(exc)) from None
        cache = self.cache
        kept = cache / f"{key}.pdf"
        if kept.is_file():
            return kept
        cache.mkdir(parents=True, exist_ok=True)
        with _LOCK, _profile_lock(cache):
            if kept.is_file():  # converted meanwhile by another window
                return kept
            work = Path(tempfile.mkdtemp(prefix="convert-", dir=cache))
            try:
                produced = self._convert(path, work, cache / "profile")
                os.replace(produced, kept)
            finally:
                shutil.rmtree(work, ignore_errors=True)
        _prune(cache)
        return kept

    def _convert(self, path: Path, work: Path, profile: Path) -> Path:
        # a copy under a plain name: the output is named after the input, and LibreOffice
        # reads no lock file or other state beside the user's file
        source = work / f"document{path.suffix.lower()}"
        shutil.copyfile(path, source)
        argv = [str(self.soffice), f"-env:UserInstallation={profile.resolve().as_uri()}",
                "--headless", "--invisible", "--norestore", "--nolockcheck", "--nodefault",
                "--convert-to", "pdf", "--outdir", str(work), str(source)]
        with self._guard:
            if self._cancelled:
                raise ConversionError("the window was closed")
            try:
                process = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE, start_new_session=True)
            except OSError as exc:  # removed since it was found, not executable
                raise ConversionError(f"LibreOffice could not be started: "
                                      f"{exc.strerror or exc}") from None
            self._process = process
        try:
            _, err = process.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            process.communicate()
            raise ConversionError(f"LibreOffice did not finish within {self.timeout:g} "
                                  "seconds", timed_out=True) from None
        finally:
            with self._guard:
                self._process = None
        if self._cancelled:
            raise ConversionError("the window was closed")
        produced = work / "document.pdf"
        if process.returncode != 0 or not produced.is_file() or produced.stat().st_size == 0:
            detail = err.decode("utf-8", "replace").strip().splitlines()
            raise ConversionError("LibreOffice could not convert the file"
                                  + (f": {detail[-1][:200]}" if detail else
                                     f" (exit code {process.returncode})"))
        return produced

    def cancel(self) -> None:
        """Stop: the running conversion is killed, later ones do not start."""
        with self._guard:
            self._cancelled = True
            if self._process is not None:
                _kill(self._process)


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill ``process`` and what it started (soffice is a launcher: its group)."""
    if process.poll() is not None:
        return
    with contextlib.suppress(OSError):
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:  # Windows: no process groups here
            process.kill()


@contextlib.contextmanager
def _profile_lock(cache: Path) -> Iterator[None]:
    """The profile used by one conversion at a time across the app's processes."""
    try:
        import fcntl
    except ImportError:  # Windows: the in-process lock only
        yield
        return
    with (cache / "profile.lock").open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _prune(cache: Path) -> None:
    with contextlib.suppress(OSError):
        kept = sorted(cache.glob("*.pdf"), key=lambda p: p.stat().st_mtime)
        for old in kept[:-MAX_CACHED]:
            old.unlink(missing_ok=True)
