"""The agent's to-do list, shown above the composer while a long run goes on.

A compact header ("To-do list · 3 of 7 done", then the current step) that folds
the list open or closed, and the items: done ones checked, the one in progress
in bold on the highlight colour. Hidden while the session has no list. The
window feeds it the list of each successful ``todo_write`` (live, from
``ToolFinished``) and the stored one when a session is opened
(``tools/todo.py``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.tools.todo import TodoItem
from openworker_qt.ui import design

VISIBLE_ROWS = 6  # rows shown before the list scrolls


class TodoPanel(QFrame):
    """See module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("todoPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._items: list[TodoItem] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(design.SPACE["s"], design.SPACE["xs"], design.SPACE["s"], design.SPACE["xs"])
        lay.setSpacing(design.SPACE["xxs"])
        head = QHBoxLayout()
        head.setSpacing(design.SPACE["s"])
        self.toggle = QToolButton()
        self.toggle.setObjectName("todoToggle")
        self._expanded = True  # (not a checkable button: a pressed look would read as "on")
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bold = self.toggle.font()
        bold.setBold(True)
        self.toggle.setFont(bold)
        self.current = QLabel()
        self.current.setObjectName("todoCurrent")
        self.current.setTextFormat(Qt.TextFormat.PlainText)
        self.current.setAccessibleName(self.tr("Current step"))
        # A long step is clipped (the whole text is in the tooltip), never widening the window.
        self.current.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        head.addWidget(self.toggle)
        head.addWidget(self.current, 1)
        lay.addLayout(head)
        self.list = QListWidget()
        self.list.setObjectName("todoList")
        self.list.setAccessibleName(self.tr("To-do items"))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.list.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.list.setFrameShape(QFrame.Shape.NoFrame)
        self.list.setWordWrap(True)
        lay.addWidget(self.list)
        self.toggle.clicked.connect(self._on_clicked)
        self.setAccessibleName(self.tr("To-do list"))
        self._update_header()
        self.hide()

    # ---------------------------------------------------------------- state

    @property
    def items(self) -> list[TodoItem]:
        return list(self._items)

    @property
    def expanded(self) -> bool:
        return self._expanded

    def summary(self) -> str:
        done = sum(1 for i in self._items if i.status == "done")
        return self.tr("{done} of {total} done").format(done=done, total=len(self._items))

    def current_step(self) -> TodoItem | None:
        return next((i for i in self._items if i.status == "in_progress"), None)

    def set_items(self, items: list[TodoItem]) -> None:
        """Show ``items`` (an empty list hides the panel)."""
        self._items = list(items)
        self.list.clear()
        if not self._items:
            self.hide()
            return
        highlight = self.palette().color(QPalette.ColorRole.Highlight)
        highlight.setAlpha(60)
        for todo in self._items:
            row = QListWidgetItem(todo.text)
            row.setFlags(Qt.ItemFlag.ItemIsEnabled)
            if todo.status == "done":
                row.setCheckState(Qt.CheckState.Checked)
                row.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))
                spoken = self.tr("Done: {text}")
            elif todo.status == "in_progress":
                row.setCheckState(Qt.CheckState.PartiallyChecked)
                font = QFont(self.list.font())
                font.setBold(True)
                row.setFont(font)
                row.setBackground(highlight)
                spoken = self.tr("Current step: {text}")
            else:
                row.setCheckState(Qt.CheckState.Unchecked)
                spoken = self.tr("To do: {text}")
            row.setData(Qt.ItemDataRole.AccessibleTextRole, spoken.format(text=todo.text))
            self.list.addItem(row)
        rows = min(len(self._items), VISIBLE_ROWS)
        self.list.setFixedHeight(rows * max(self.list.sizeHintForRow(0), 18) + 4)
        self._update_header()
        self.show()

    # ------------------------------------------------------------- internals

    def _update_header(self) -> None:
        title = self.tr("To-do list · {summary}").format(summary=self.summary())
        self.toggle.setText(title)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if self.expanded else Qt.ArrowType.RightArrow)
        self.toggle.setAccessibleName(
            self.tr("Hide the to-do list") if self.expanded else self.tr("Show the to-do list"))
        self.toggle.setAccessibleDescription(title)
        step = self.current_step()
        text = self.tr("Now: {text}").format(text=step.text) if step is not None else ""
        self.current.setText(text)
        self.current.setToolTip(step.text if step is not None else "")
        self.setAccessibleDescription(title + (" — " + text if text else ""))

    def _on_clicked(self) -> None:
        self._expanded = not self._expanded
        self.list.setVisible(self._expanded)
        self._update_header()
