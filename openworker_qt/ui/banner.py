"""The banner above the composer: one dismissible, non-fatal message (an error, a
drop problem, a warning), with at most one action button named by an id."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from openworker_qt.ui import design

#: The banner's actions, by id (what the window does when its button is clicked).
RETRY = "retry"
USE_FOLDER = "use_folder"
IMPORT_VOICE_MODEL = "import_voice_model"


class Banner(QFrame):
    """A dismissible, non-fatal message above the composer (errors, drop problems).

    Signals:
        action_triggered(str): the action button was clicked; the id of the action
            shown with the message (e.g. :data:`RETRY`).
    """

    action_triggered = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(design.SPACE["m"], design.SPACE["xs"], design.SPACE["xs"], design.SPACE["xs"])
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action = QPushButton()
        self.action.setAccessibleName(self.tr("No action"))
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAccessibleName(self.tr("Dismiss message"))
        lay.addWidget(self.label, 1)
        lay.addWidget(self.action)
        lay.addWidget(self.close_button)
        self._action_id = ""
        self.action.clicked.connect(lambda: self.action_triggered.emit(self._action_id))
        self.close_button.clicked.connect(self.hide)
        self.setAccessibleName(self.tr("Message banner"))
        self.hide()

    @property
    def action_id(self) -> str:
        """The id of the action shown with the message ('' for none)."""
        return self._action_id

    def show_message(self, text: str, action: str = "", *, action_id: str = "",
                     error: bool = True) -> None:
        """Show ``text``; ``action`` (the button's words) with ``action_id`` (what
        :attr:`action_triggered` says was asked for) adds the button."""
        self._action_id = action_id if action else ""
        self.label.setText(text)
        self.action.setText(action)
        self.action.setAccessibleName(action or self.tr("No action"))
        self.action.setVisible(bool(action))
        self.setProperty("error", error)
        self.setAccessibleDescription(text)
        self.show()
