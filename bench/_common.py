"""Shared bits of the desktop benchmarks (they print figures; they are not tests)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def rss_mib(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def temp_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="ow-bench-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    return home
