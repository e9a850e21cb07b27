"""The one logging set-up of the desktop app, the CLI and headless modes.

:func:`setup_logging` puts one handler on the root logger: a record is queued
on the thread that logs it (the loop thread never writes to disk) and a worker
thread formats it and appends it to a rotating file in the platform's log dir.
The worker's :class:`~openworker_qt.storage.secrets.RedactingFormatter` scrubs
every known secret (keyring and environment keys) from the *final* text,
tracebacks and stack traces included, so an SDK error or an exception message
that echoes a key never reaches the file.

Calling it again with the same file returns the installed handler; with another
file (a test's fresh state dir) it replaces it.
"""

from __future__ import annotations

import logging
import logging.handlers
import queue
import threading
from pathlib import Path
from typing import Any

from openworker_qt.storage.paths import AppPaths

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FILE = "openworker-qt.log"
MAX_BYTES = 2_000_000
BACKUPS = 3


class _Listener(logging.handlers.QueueListener):
    def handle(self, record: logging.LogRecord) -> None:
        marker = getattr(record, "openworker_flush", None)
        if isinstance(marker, threading.Event):
            for handler in self.handlers:
                handler.flush()
            marker.set()
            return
        super().handle(record)


class LogHandler(logging.handlers.QueueHandler):
    """The root handler :func:`setup_logging` installs (see module docstring)."""

    def __init__(self, path: Path) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        super().__init__(self._queue)
        self.path = path
        from openworker_qt.storage.secrets import RedactingFormatter

        self.file = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
        )
        self.file.setFormatter(RedactingFormatter(LOG_FORMAT))
        self._listener = _Listener(self._queue, self.file)
        self._listener.start()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until every record queued so far is written (or ``timeout``)."""
        if self._closed:
            return
        done = threading.Event()
        record = logging.makeLogRecord({"openworker_flush": done})
        self._queue.put_nowait(record)
        done.wait(timeout)

    def close(self) -> None:
        """Write what is queued, stop the worker, close the file. Idempotent."""
        if not self._closed:
            self._closed = True
            self._listener.stop()
            self.file.close()
        super().close()


def setup_logging(paths: AppPaths | Path, *, level: int = logging.INFO) -> LogHandler:
    """Log to ``<logs>/openworker-qt.log`` (see module docstring); returns the handler.

    ``paths`` is the app's :class:`AppPaths` or the log directory itself.
    """
    log_dir = paths.logs if isinstance(paths, AppPaths) else Path(paths)
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / LOG_FILE
    root = logging.getLogger()
    installed = None
    for handler in list(root.handlers):
        if isinstance(handler, LogHandler):
            if handler.path == path and not handler.closed and installed is None:
                installed = handler
            else:
                root.removeHandler(handler)
                handler.close()
    if installed is None:
        installed = LogHandler(path)
        root.addHandler(installed)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    return installed


def log_file(paths: AppPaths) -> Path:
    return paths.logs / LOG_FILE
