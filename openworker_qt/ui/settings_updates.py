"""Settings ▸ Updates: where update notices come from, and whether to look by itself.

``updates.url`` is the address of the signed update manifest (storage/updates.py).
It is saved when the user presses Save (or Enter) and only when
:func:`~openworker_qt.qt.updates.refused_address` finds nothing against it — ``https://``, or
plain ``http://`` to this computer for testing; a refused address stays in the field
with the reason under it, and the saved one is unchanged. An empty field turns
update checks off. ``updates.check_automatically`` (off by default) lets the app look
once a week (ui/update_notice.py). Both are written through the
:class:`SettingsStore`, so the next check uses them without a restart.

When the page is first shown it reads the shipped key file in a worker; a build with
the development placeholder says here, too, that it cannot check for updates.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.settings_store import SettingsStore
from openworker_qt.qt.updates import is_development_build, refused_address
from openworker_qt.ui import design


class UpdatesPage(QWidget):
    """See module docstring."""

    _key_read = Signal(bool)  # from the worker thread: is the shipped key the placeholder?

    def __init__(self, settings: SettingsStore, parent: QWidget | None = None, *,
                 key_file: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("updatesPage")
        self.settings = settings
        self.key_file = key_file  # None: resources/update-key.pub, as the build ships it
        self.key_reader: threading.Thread | None = None
        self.key_checked = False
        self._key_read.connect(self._on_key_read, Qt.ConnectionType.QueuedConnection)
        lay = QVBoxLayout(self)
        design.arrange(lay, "page", "section")
        lay.addWidget(design.heading(self.tr("Updates")))
        intro = QLabel(self.tr(
            "OpenWorker can tell you when a new version is out. It reads a short notice, "
            "signed by the OpenWorker team, from the address below, and checks the "
            "signature before believing it. It never downloads or installs anything by "
            "itself: you choose whether to open the download page."))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.build_note = QLabel()
        self.build_note.setObjectName("updatesBuildNote")
        self.build_note.setWordWrap(True)
        self.build_note.hide()
        lay.addWidget(self.build_note)

        label = QLabel(self.tr("Update &address"))
        self.url = QLineEdit(str(settings.get("updates.url") or ""))
        self.url.setObjectName("updatesUrl")
        self.url.setPlaceholderText("https://…/manifest.json")
        self.url.setAccessibleName(self.tr("Update address"))
        self.url.setAccessibleDescription(self.tr(
            "The web address of the update notice; leave it empty to turn update checks off"))
        label.setBuddy(self.url)
        self.save_button = QPushButton(self.tr("&Save"))
        self.save_button.setAccessibleName(self.tr("Save update address"))
        self.save_button.clicked.connect(self.save_url)
        self.url.returnPressed.connect(self.save_url)
        row = QHBoxLayout()
        row.addWidget(self.url, 1)
        row.addWidget(self.save_button)
        help_text = QLabel(self.tr(
            "Use the address your copy of OpenWorker came with; it starts with https://. "
            "Leave it empty to never check."))
        help_text.setWordWrap(True)
        lay.addWidget(label)
        lay.addLayout(row)
        lay.addWidget(help_text)
        self.status = QLabel()
        self.status.setObjectName("updatesStatus")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)

        self.automatic = QCheckBox(self.tr("Check for updates automatically (once a week)"))
        self.automatic.setObjectName("updatesAutomatic")
        self.automatic.setAccessibleName(self.tr("Check for updates automatically"))
        self.automatic.setChecked(bool(settings.get("updates.check_automatically")))
        self.automatic.toggled.connect(self.set_automatic)
        automatic_help = QLabel(self.tr(
            "When a newer version exists, a small note appears at the bottom of the main "
            "window. Help ▸ Check for updates… looks at any time."))
        automatic_help.setWordWrap(True)
        lay.addWidget(self.automatic)
        lay.addWidget(automatic_help)
        lay.addStretch(1)

    def showEvent(self, event: Any) -> None:
        if self.key_reader is None:
            self.key_reader = threading.Thread(target=self._read_key, daemon=True,
                                               name="update-key-read")
            self.key_reader.start()
        super().showEvent(event)

    def _read_key(self) -> None:
        """In a worker thread (a disk read); the answer is queued to the page."""
        from openworker_qt.ui.resources import resource

        development = is_development_build(self.key_file or resource("update-key.pub"))
        try:
            self._key_read.emit(development)
        except RuntimeError:
            pass  # the settings window was closed (and the page deleted) meanwhile

    def _on_key_read(self, development: bool) -> None:
        self.key_checked = True
        if development:
            self.build_note.setText(self.tr(
                "This build cannot check for updates: it was made without the release key "
                "that update notices are signed with (a development or unofficial build)."))
            self.build_note.show()
            # Nothing here would have an effect: the fields say so by being unavailable.
            for widget in (self.url, self.save_button, self.automatic):
                widget.setEnabled(False)

    def save_url(self) -> bool:
        """Save the field's address if it is allowed; say why not otherwise."""
        url, refusal = refused_address(self.url.text())
        if refusal:
            self.status.setText(self._refusal(refusal, url))
            return False
        self.settings.apply({"updates": {"url": url}})
        self.url.setText(url)
        self.status.setText(self.tr("Update address saved.") if url else self.tr(
            "Update address removed: OpenWorker will not check for updates."))
        return True

    def set_automatic(self, on: bool) -> None:
        self.settings.apply({"updates": {"check_automatically": bool(on)}})
        if on and not str(self.settings.get("updates.url") or "").strip():
            self.status.setText(self.tr(
                "Automatic checks start once an update address is saved."))

    def _refusal(self, reason: str, url: str) -> str:
        if reason == "plain_http":
            return self.tr("Not saved: the update address must start with https:// (a "
                           "private, secure connection). Plain http:// is allowed only for "
                           "this computer, for testing.")
        if reason == "no_server":
            return self.tr("Not saved: “{url}” has no server name.").format(url=url)
        return self.tr("Not saved: “{url}” is not a web address. It should look like "
                       "https://example.com/manifest.json.").format(url=url)
