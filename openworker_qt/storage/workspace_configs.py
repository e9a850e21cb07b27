"""The config each session folder sees, cached per folder (``Runtime.config_for``).

The global config narrowed by a folder's ``.openworker/config.toml``
(``storage/config.py`` says what a workspace may set). The file is stat'ed at most every
:data:`RECHECK_EVERY` seconds and parsed again only when its modification time or size
changed, or the global config was replaced; so the permission engine may ask on every
check. A file that cannot be used lets that folder's sessions only read (``Config.error``
says why; the warning is logged once per change).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from openworker_qt.storage.config import Config, with_workspace
from openworker_qt.storage.paths import workspace_config_file

log = logging.getLogger(__name__)

#: Seconds between two looks at a folder's config file (a stat).
RECHECK_EVERY = 1.0


@dataclass(slots=True)
class _Entry:
    base: Config  # the global config it narrows
    signature: tuple[int, int] | None  # the file's (mtime_ns, size); None: no file
    config: Config
    checked: float  # time.monotonic() of the last look at the file


def _file_signature(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class WorkspaceConfigs:
    """See module docstring. ``base()``: the global config in force."""

    def __init__(self, base: Callable[[], Config]) -> None:
        self._base = base
        self._entries: dict[str, _Entry] = {}

    def get(self, workspace: str | Path | None) -> Config:
        base = self._base()
        if not workspace:
            return base
        key = str(workspace)
        entry = self._entries.get(key)
        now = time.monotonic()
        if entry is not None and entry.base is base and now - entry.checked < RECHECK_EVERY:
            return entry.config
        signature = _file_signature(workspace_config_file(Path(key)))
        if entry is not None and entry.base is base and entry.signature == signature:
            entry.checked = now
            return entry.config
        config = with_workspace(base, Path(key), strict=False)
        for warning in config.warnings[len(base.warnings):]:
            log.warning("%s", warning)
        self._entries[key] = _Entry(base, signature, config, now)
        return config

    def clear(self) -> None:
        """Forget every folder's config (the global one was reloaded)."""
        self._entries.clear()
