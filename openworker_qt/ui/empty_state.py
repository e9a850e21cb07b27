"""What a new, empty session shows instead of a blank transcript: what
OpenWorker can do, a few example requests the user can click to put into the
message box, and the folder the session works in.

Signals:
    example_chosen(str): the user clicked an example; the text goes into the composer.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget


class EmptyState(QWidget):
    example_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcriptEmptyState")
        self.setAccessibleName(self.tr("Getting started"))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(32, 24, 32, 24)
        lay.addStretch(1)
        self.heading = QLabel(self.tr("What should we get done?"))
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.blurb = QLabel(self.tr(
            "OpenWorker reads and changes files in your folder, runs programs and looks "
            "things up for you. It asks before it changes anything or sends anything "
            "off this computer."))
        self.blurb.setWordWrap(True)
        self.blurb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(self.heading)
        lay.addWidget(self.blurb)
        lay.addSpacing(12)
        self.examples: list[QPushButton] = []
        for text in (
            self.tr("Summarise the documents in this folder in one page"),
            self.tr("Sort the files in this folder into subfolders by type"),
            self.tr("Make a to-do list from the notes in this folder"),
        ):
            button = QPushButton(text)
            button.setObjectName("exampleButton")
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
            button.setAccessibleName(text)
            button.setAccessibleDescription(self.tr("Put this request into the message box"))
            button.clicked.connect(lambda _=False, t=text: self.example_chosen.emit(t))
            lay.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter)
            self.examples.append(button)
        lay.addSpacing(12)
        self.folder = QLabel()
        self.folder.setObjectName("emptyStateFolder")
        self.folder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.folder.setWordWrap(True)
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.folder)
        lay.addStretch(2)

    def set_folder(self, folder: Path) -> None:
        self.folder.setText(self.tr("Working in {folder}").format(folder=folder))
        self.folder.setAccessibleName(self.folder.text())
