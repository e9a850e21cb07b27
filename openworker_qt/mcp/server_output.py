"""What a stdio MCP server prints: its stderr, kept in a bounded tail (for the
failure messages), and the SDK's log of its stray stdout lines, rate-limited."""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import IO

__all__ = ["GARBAGE_LOGS", "QUIETER", "STDERR_KEEP", "StderrTail"]

STDERR_KEEP = 32 * 1024


class _Quieter(logging.Filter):
    """The SDK logs every line a server prints on stdout that is not JSON-RPC, with a
    traceback: a server flooding stdout would flood our log. Lets
    :data:`GARBAGE_LOGS` such records through per minute, then one note."""

    def __init__(self) -> None:
        super().__init__()
        self.window = 0.0
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if "Failed to parse JSONRPC message" not in str(record.msg):
            return True
        now = time.monotonic()
        if now - self.window > 60:
            self.window, self.count = now, 0
        self.count += 1
        if self.count == GARBAGE_LOGS + 1:
            record.msg = "An MCP server keeps printing things that are not MCP; not logged for a minute"
            record.exc_info = None
            record.args = ()
            return True
        return self.count <= GARBAGE_LOGS


    def reset(self) -> None:
        self.window, self.count = 0.0, 0


GARBAGE_LOGS = 5
QUIETER = _Quieter()
logging.getLogger("mcp.client.stdio").addFilter(QUIETER)


class StderrTail:
    """The server's stderr through a pipe, drained by a thread (a flood never blocks
    the server or the loop), keeping the last :data:`STDERR_KEEP` bytes."""

    def __init__(self, keep: int = STDERR_KEEP) -> None:
        self.keep = keep
        self._buf = bytearray()
        self._lock = threading.Lock()
        self.total = 0

    def open(self) -> IO[bytes]:
        """A new pipe's write end for the next process (close it once spawned)."""
        r, w = os.pipe()
        threading.Thread(target=self._drain, args=(r,), name="mcp-stderr", daemon=True).start()
        return os.fdopen(w, "wb", buffering=0)

    def _drain(self, fd: int) -> None:
        with os.fdopen(fd, "rb", buffering=0) as pipe:
            while chunk := pipe.read(65536):
                with self._lock:
                    self.total += len(chunk)
                    self._buf += chunk
                    if len(self._buf) > 2 * self.keep:
                        del self._buf[: len(self._buf) - self.keep]

    def clear(self) -> None:
        with self._lock:
            self._buf.clear()
            self.total = 0

    def text(self, lines: int = 20) -> str:
        with self._lock:
            data = bytes(self._buf[-self.keep:])
        out = data.decode("utf-8", "replace").rstrip().splitlines()[-lines:]
        return "\n".join(line[:400] for line in out)
