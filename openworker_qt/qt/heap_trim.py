"""Handing the C heap's free pages back to the system after big rows are dropped."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import threading
from typing import Any

_libc: Any = None


def trim_heap() -> bool:
    """Give the C heap's free pages back to the system (glibc ``malloc_trim``);
    False where the platform has no such call. May take a few ms: call it from a
    worker thread."""
    global _libc
    if not sys.platform.startswith("linux"):
        return False
    try:
        if _libc is None:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = getattr(_libc, "malloc_trim", None)
        if trim is None:
            return False
        trim(0)
        return True
    except OSError:
        return False


def trim_heap_later() -> threading.Thread:
    """:func:`trim_heap` in a thread of its own."""
    thread = threading.Thread(target=trim_heap, name="heap-trim", daemon=True)
    thread.start()
    return thread
