"""The folder-grant question: a dropped folder becomes a root of *one* session.

:class:`GrantDialog` asks "read only or read and write?" for a folder the user
dropped (on the window, the composer or the quick-ask popup). It is window-modal
and opened with ``open()``, never ``exec()``: a nested event loop inside a qasync
callback would re-enter the asyncio loop. The answer arrives as a signal and the
caller applies it (``SessionManager.grant_folder`` on the current session);
nothing is written to the global config.

Signals:
    chosen(bool): the user granted access; ``True`` means writable.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.ui import design
from openworker_qt.ui.window_state import keep_on_screen


class GrantDialog(QDialog):
    chosen = Signal(bool)

    def __init__(self, folder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder = folder
        self.setObjectName("grantDialog")
        keep_on_screen(self)
        self.setWindowTitle(self.tr("Grant folder access"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setAccessibleName(self.tr("Grant folder access"))
        self.setAccessibleDescription(
            self.tr("Choose whether the agent may only read {folder} or also change files there")
            .format(folder=folder))
        lay = QVBoxLayout(self)
        design.arrange(lay, "dialog", "section")
        self.question = QLabel(self.tr("Let the agent use <b>{name}</b> in this session?")
                               .format(name=Path(folder).name or folder))
        self.question.setTextFormat(Qt.TextFormat.RichText)
        self.question.setObjectName("heading")
        self.question.setFont(design.font("heading", self.font()))
        self.question.setWordWrap(True)
        self.path_label = QLabel(folder)
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path_label.setAccessibleName(self.tr("Folder"))
        design.tint(self.path_label, "muted")
        self.explain = QLabel(self.tr(
            "Read only: the agent can list and read files there.\n"
            "Read and write: it may also create and change files there, still following "
            "the session's permission mode.\n"
            "The grant applies to this session only."))
        self.explain.setWordWrap(True)
        lay.addWidget(self.question)
        lay.addWidget(self.path_label)
        lay.addWidget(self.explain)
        buttons = QDialogButtonBox()
        self.read_button = QPushButton(self.tr("&Read only"))
        self.read_button.setAccessibleName(self.tr("Grant read-only access"))
        self.write_button = QPushButton(self.tr("Read and &write"))
        self.write_button.setAccessibleName(self.tr("Grant read and write access"))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setAccessibleName(self.tr("Do not grant access"))
        buttons.addButton(self.read_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.write_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        lay.addWidget(buttons)
        self.read_button.setDefault(True)  # the least access is what Enter gives
        self.read_button.clicked.connect(lambda: self._on_button_chosen(False))
        self.write_button.clicked.connect(lambda: self._on_button_chosen(True))
        self.cancel_button.clicked.connect(self.reject)

    def _on_button_chosen(self, writable: bool) -> None:
        self.chosen.emit(writable)
        self.accept()


def grant_note(folder: str, *, writable: bool) -> str:
    """What the model is told about a granted folder (sent with the next message)."""
    if writable:
        return (f"[Folder granted for this session (read and write): {folder} — you may list, "
                "read, create and change files there.]")
    return (f"[Folder granted for this session (read only): {folder} — you may list and read "
            "files there; do not write there.]")


def grant_label(folder: str, *, writable: bool) -> str:
    """A folder chip's words: its name and the access granted ("notes/ (read only)")."""
    words = "{name}/ (read and write)" if writable else "{name}/ (read only)"
    return QCoreApplication.translate("GrantDialog", words).format(name=Path(folder).name or folder)


def grant_part(folder: str, *, writable: bool) -> dict[str, object]:
    """The content part that tells the model about a granted folder. Its ``name`` (the
    chip's words) marks it as an attachment: the transcript shows a chip, never the
    note as if the user typed it (the provider sends only the text)."""
    return {"type": "text", "text": grant_note(folder, writable=writable),
            "name": grant_label(folder, writable=writable), "folder": folder,
            "access": "write" if writable else "read"}
