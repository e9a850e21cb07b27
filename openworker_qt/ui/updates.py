"""Help ▸ Check for updates…: fetch and verify the signed manifest, offer the download.

The check runs in a worker (reading the key, the network and signature work never
touch the loop thread). The answer is a message box: "up to date", the new version's
notes with an "Open download page" button (the browser fetches it; nothing is
installed here), why the check failed, or — in a build made without a release key
(``update-key.pub`` is the development placeholder) — that this build cannot check
for updates. ``updates.url`` (Settings ▸ Updates) says where the manifest is.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from openworker_qt import __version__
from openworker_qt.qt.updates import UpdateAnswer, check_now
from openworker_qt.ui.resources import resource


class UpdatePrompt(QObject):
    """Runs one check and shows its outcome (``finished(str)`` names it for tests)."""

    finished = Signal(str)  # "available", "current", "failed", "unset", "unavailable"

    def __init__(self, parent_widget: QWidget, url: str, *, current: str = __version__,
                 open_url: Any = None, public_key: bytes | None = None,
                 key_file: Path | None = None) -> None:
        super().__init__(parent_widget)
        self.parent_widget = parent_widget
        self.url = url.strip()
        self.current = current
        self.open_url = open_url or (lambda link: QDesktopServices.openUrl(QUrl(link)))
        self.box: QMessageBox | None = None
        self.download_url = ""
        self.public_key = public_key  # None: read from key_file
        self.key_file = key_file  # None: resources/update-key.pub, as the build ships it

    async def run(self) -> str:
        if not self.url:
            self._show(QMessageBox.Icon.Information, self.tr("Updates are not set up"),
                       self.tr("No update address is set. Add one in Settings ▸ Updates to "
                               "check for new versions."))
            return self._done("unset")
        answer = await asyncio.to_thread(self._check)
        if answer.outcome == "unavailable":
            self._show(QMessageBox.Icon.Information,
                       self.tr("This build cannot check for updates"),
                       self.tr("This copy of OpenWorker was built without the release key "
                               "that update notices are signed with (a development or "
                               "unofficial build), so it cannot check for new versions. "
                               "Get new versions from wherever this copy came from."))
            return self._done("unavailable")
        if answer.outcome == "failed":
            self._show(QMessageBox.Icon.Warning, self.tr("Could not check for updates"),
                       answer.error)
            return self._done("failed")
        if answer.outcome != "available":
            self._show(QMessageBox.Icon.Information, self.tr("OpenWorker is up to date"),
                       self.tr("You have version {version}, the latest.").format(
                           version=self.current))
            return self._done("current")
        notes = answer.notes.strip() or self.tr("No release notes were given.")
        text = self.tr("Version {new} is available (you have {current}).").format(
            new=answer.version, current=self.current)
        url = answer.download_url
        if not url:
            text += "\n\n" + self.tr("There is no download for this system yet.")
        box = self._show(QMessageBox.Icon.Information, self.tr("An update is available"), text,
                         details=notes)
        if url:
            self.download_url = url
            button = box.addButton(self.tr("Open download page"),
                                   QMessageBox.ButtonRole.AcceptRole)
            button.clicked.connect(lambda: self.open_url(url))
            box.setInformativeText(self.tr("The download's SHA-256 checksum: {digest}").format(
                digest=answer.sha256))
        return self._done("available")

    def _check(self) -> UpdateAnswer:
        """In a worker: the shipped key, the manifest, the comparison."""
        return check_now(self.url, self.current, self.key_file or resource("update-key.pub"),
                         public_key=self.public_key)

    def _show(self, icon: QMessageBox.Icon, title: str, text: str, *,
              details: str = "") -> QMessageBox:
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Close, self.parent_widget)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        if details:
            box.setDetailedText(details)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.open()
        self.box = box
        return box

    def _done(self, outcome: str) -> str:
        self.finished.emit(outcome)
        return outcome
