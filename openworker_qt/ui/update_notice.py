"""Automatic update checks and their quiet notice in the status bar.

When ``updates.check_automatically`` is on and ``updates.url`` is set,
:class:`AutoUpdateCheck` checks the signed manifest at most once a week
(:func:`openworker_qt.qt.updates.check_if_due`, remembered in
``<data>/updates.json``): a first look a few minutes after start, then every few
hours whether a week has passed. Everything that touches the disk or the network —
the state file, the key, the manifest — runs in a worker; the loop thread only reads
the live settings. A failed check says nothing and is tried again at the next look.

A newer version only shows :class:`UpdateNotice`, a flat button in the status bar
("Version 0.2.0 is available"); pressing it opens the same prompt as Help ▸ Check for
updates…, which offers the download. Nothing is downloaded or installed here.

This module is imported with the main window, so the update code itself
(``qt/updates.py`` and what it reads with: urllib, JSON, cryptography) is imported in
the worker on first use.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QPushButton, QWidget

from openworker_qt import __version__

FIRST_LOOK_MS = 3 * 60 * 1000  # after start, once the app has settled
LOOK_EVERY_MS = 6 * 60 * 60 * 1000  # is a week up? (an app left open for days)


class AutoUpdateCheck(QObject):
    """See module docstring. ``checked(str)`` names each outcome (for tests): "off",
    "unset", "recent", "unavailable", "failed", "current" or "available"."""

    available = Signal(str)  # the newer version
    checked = Signal(str)

    def __init__(self, parent: QObject, settings: Any, state_file: Path, *,
                 current: str = __version__, public_key: bytes | None = None,
                 key_file: Path | None = None, start: bool = True) -> None:
        super().__init__(parent)
        self.settings = settings
        self.state_file = state_file
        self.current = current
        self.public_key = public_key  # None: read from key_file
        self.key_file = key_file  # None: resources/update-key.pub, as the build ships it
        self.task: asyncio.Future[str] | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._look)
        if start:
            self.timer.start(FIRST_LOOK_MS)

    def _look(self) -> None:
        self.timer.start(LOOK_EVERY_MS)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.check_if_due())

    async def check_if_due(self) -> str:
        """Check now if automatic checks are on, an address is set and a week is up."""
        if not bool(self.settings.get("updates.check_automatically")):
            return self._done("off")
        url = str(self.settings.get("updates.url") or "").strip()
        if not url:
            return self._done("unset")
        outcome, version = await asyncio.to_thread(self._check, url)
        if outcome == "available":
            self.available.emit(version)
        return self._done(outcome)

    def _check(self, url: str) -> tuple[str, str]:
        """In a worker: the state file, the key and the manifest (a failed check is
        tried again at the next look; a development build never asks a server)."""
        from openworker_qt.qt.updates import check_if_due
        from openworker_qt.ui.resources import resource

        answer = check_if_due(self.state_file, url, self.current,
                              self.key_file or resource("update-key.pub"),
                              public_key=self.public_key)
        return answer.outcome, answer.version

    def _done(self, outcome: str) -> str:
        self.checked.emit(outcome)
        return outcome


class UpdateNotice(QPushButton):
    """The status bar's quiet "Version … is available"; hidden until there is one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("updateNotice")
        self.setFlat(True)
        self.setAccessibleName(self.tr("An update is available"))
        self.setToolTip(self.tr("See what is new and where to download it"))
        self.version = ""
        self.hide()
        self.clicked.connect(self.hide)

    def show_version(self, version: str) -> None:
        self.version = version
        self.setText(self.tr("Version {version} is available").format(version=version))
        self.show()
