"""The strip above the transcript: the session's title centred with "persona · model"
under it, a button that hides or shows the session list at its left and one that
opens the deliverables at its right (the calm frame of the best chat apps, where
the window title alone named the session).

:class:`SidebarCollapse` owns hiding the session list: one checkable action
(Window ▸ Session list, Ctrl+B, and the header's button), remembered across
restarts in ``windows.ini`` beside the windows' geometry. It is not animated: every
step of a sliding list would lay the transcript's rows out again at a new width,
which costs frames while an answer streams.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings, QSize, Qt
from PySide6.QtGui import QAction, QKeySequence, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QGridLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.ui import design, icons
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.window_state import state_file

#: Where the choice is kept in ``windows.ini``.
HIDDEN_KEY = "main/sidebarHidden"
SHORTCUT = "Ctrl+B"


class SidebarCollapse(QObject):
    """Hides and shows ``sidebar``; ``action`` is checked while the list shows."""

    def __init__(self, sidebar: QWidget, config_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sidebar = sidebar
        self._settings = QSettings(str(state_file(config_dir)), QSettings.Format.IniFormat, self)
        self.action = QAction(self.tr("Session &list"), self)
        self.action.setObjectName("toggleSidebar")
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence(SHORTCUT))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.setToolTip(self.tr("Show or hide the session list ({key})").format(
            key=QKeySequence(SHORTCUT).toString(QKeySequence.SequenceFormat.NativeText)))
        hidden = self._settings.value(HIDDEN_KEY, False, type=bool)
        self.action.setChecked(not hidden)
        sidebar.setVisible(not hidden)
        self.action.toggled.connect(self._on_toggled)

    def hidden(self) -> bool:
        return not self.action.isChecked()

    def set_hidden(self, hidden: bool) -> None:
        self.action.setChecked(not hidden)

    def toggle(self) -> None:
        self.action.toggle()

    def _on_toggled(self, shown: bool) -> None:
        focus_inside = self.sidebar.isAncestorOf(self.sidebar.focusWidget() or self.sidebar)
        self.sidebar.setVisible(shown)
        self._settings.setValue(HIDDEN_KEY, not shown)
        self._settings.sync()
        if not shown and focus_inside:
            # the focus does not stay on a hidden widget: the window moves it on
            window = self.sidebar.window()
            window.focusNextChild()


class IconWhenNarrow(QObject):
    """A button with an icon and words shows the icon alone when it is too narrow
    for its words ("New sessio" was cut off in a squeezed session list); its
    tooltip and accessible name keep the words."""

    def __init__(self, button: QAbstractButton) -> None:
        super().__init__(button)
        self.button = button
        self.words = button.text()
        button.installEventFilter(self)

    def needed(self) -> int:
        fm = self.button.fontMetrics()
        icon = self.button.iconSize().width() if not self.button.icon().isNull() else 0
        return fm.horizontalAdvance(self.words.replace("&", "")) + icon + 4 * design.SPACE["s"]

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.button and event.type() == QEvent.Type.Resize:
            text = self.words if self.button.width() >= self.needed() else ""
            if self.button.text() != text:
                self.button.setText(text)
        return False


class _Elided(QLabel):
    """A one-line label that ends in "…" when its text is wider than it is."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.setAccessibleName(text)
        self.setToolTip(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        self.setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight,
                                                   max(0, self.width())))


def _flat_button(action: QAction, icon_name: str, parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    # (not the action's own button: a checked action would draw it pressed in)
    design.follow_scheme(button, lambda: button.setIcon(
        icons.icon(icon_name, "muted", (design.ICON_SIZE["medium"],))))
    button.clicked.connect(action.trigger)
    button.setToolTip(action.toolTip())
    action.changed.connect(lambda: button.setToolTip(action.toolTip()))
    button.setAutoRaise(True)
    button.setIconSize(QSize(design.ICON_SIZE["medium"], design.ICON_SIZE["medium"]))
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    # (reached from the keyboard by their shortcuts; Tab keeps to the conversation)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return button


class SessionHeader(QWidget):
    """See module docstring. ``title()``: the current session's title ('' for a new
    one); ``deliverables``: the action that shows the deliverables panel."""

    def __init__(self, composer: Composer, collapse: SidebarCollapse, deliverables: QAction,
                 *, title: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sessionHeader")
        self.setAccessibleName(self.tr("Session"))
        # on the transcript's own surface: one calm page, no band across its top
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)
        self.composer = composer
        self._title = title
        grid = QGridLayout(self)
        s = design.SPACE
        grid.setContentsMargins(s["s"], s["xs"], s["s"], s["xs"])
        grid.setHorizontalSpacing(s["s"])
        grid.setVerticalSpacing(0)
        self.sidebar_button = _flat_button(collapse.action, "sidebar", self)
        self.sidebar_button.setAccessibleName(self.tr("Session list"))
        self.deliverables_button = _flat_button(deliverables, "file", self)
        self.deliverables_button.setAccessibleName(self.tr("Deliverables"))

        def tip() -> None:  # (the window gives the action its shortcut after this)
            key = deliverables.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            text = (self.tr("Show or hide the deliverables ({key})").format(key=key) if key
                    else self.tr("Show or hide the deliverables"))
            if deliverables.toolTip() != text:
                deliverables.setToolTip(text)

        deliverables.changed.connect(tip)
        tip()
        middle = QWidget(self)
        column = QVBoxLayout(middle)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.title_label = _Elided(middle)
        self.title_label.setObjectName("sessionTitle")
        title_font = design.font("body", self.title_label.font())
        title_font.setWeight(title_font.Weight.DemiBold)
        self.title_label.setFont(title_font)
        self.subtitle_label = _Elided(middle)
        self.subtitle_label.setObjectName("sessionSubtitle")
        self.subtitle_label.setFont(design.font("small", self.subtitle_label.font()))
        design.tint(self.subtitle_label, "muted")
        column.addWidget(self.title_label)
        column.addWidget(self.subtitle_label)
        # the side columns are as wide as each other, so the title sits in the middle
        side = design.ICON_SIZE["medium"] + 2 * s["s"]
        grid.addWidget(self.sidebar_button, 0, 0, Qt.AlignmentFlag.AlignLeft)
        grid.addWidget(middle, 0, 1)
        grid.addWidget(self.deliverables_button, 0, 2, Qt.AlignmentFlag.AlignRight)
        grid.setColumnMinimumWidth(0, side)
        grid.setColumnMinimumWidth(2, side)
        grid.setColumnStretch(1, 1)
        composer.persona.currentIndexChanged.connect(self.refresh)
        composer.model.currentTextChanged.connect(self.refresh)
        composer.model.editTextChanged.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        """Show the current session's title, persona and model again."""
        self.title_label.set_full_text(self._title() or self.tr("New session"))
        persona = self.composer.persona.currentText().strip()
        model = self.composer.model.currentText().strip()
        parts = [p for p in (persona, model) if p]
        self.subtitle_label.set_full_text(" · ".join(parts))
        self.subtitle_label.setVisible(bool(parts))
