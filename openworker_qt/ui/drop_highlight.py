"""The drop highlight: while files are dragged over a window, a dashed frame and
"Drop to attach" over it, so the user sees the drop will be taken.

A drop is always taken as a *copy* (:func:`accept_copy`): a file manager that
proposes Move would otherwise delete the original once the drop is accepted.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QLabel, QWidget

from openworker_qt.ui import design


def accept_copy(event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> None:
    """Accept a drag or drop as a copy, whatever action the source proposed."""
    event.setDropAction(Qt.DropAction.CopyAction)
    event.accept()


class DropHighlight(QLabel):
    """An overlay covering ``parent`` (it follows its size); shown while dragging."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("dropHighlight")
        self.setText(self.tr("Drop files or folders to attach them"))
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAccessibleName(self.tr("Drop here to attach"))
        self.setFont(design.font("heading", self.font()))

        def sheet() -> str:
            c = design.colors(parent.palette())
            return (f"QLabel#dropHighlight {{ border: 3px dashed {c.accent}; border-radius: 12px;"
                    f" background: rgba(127, 127, 127, 40); color: {c.accent}; }}")

        design.style_sheet(self, sheet)
        self.hide()
        parent.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parent() and event.type() == QEvent.Type.Resize:
            self._fit()
        return False

    def _fit(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect().adjusted(6, 6, -6, -6))

    def begin(self) -> None:
        self._fit()
        self.show()
        self.raise_()

    def end(self) -> None:
        self.hide()
