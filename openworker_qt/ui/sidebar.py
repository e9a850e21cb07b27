"""The sessions sidebar: search, list with badges, new / rename / delete.

Signals:
    session_selected(str): the user picked a session.
    new_requested(): New session.
    rename_requested(str, str): session id, new title.
    delete_requested(str): session id (already confirmed by the user).
    search_changed(str): the search text.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.session_model import ID_ROLE, PENDING_ROLE, RUNNING_ROLE, SessionListModel
from openworker_qt.ui.window_state import keep_on_screen


class SessionDelegate(QStyledItemDelegate):
    """Draws the title with running / waiting badges on the right."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        running = bool(index.data(RUNNING_ROLE))
        pending = int(index.data(PENDING_ROLE) or 0)
        badge = ""
        if pending:
            badge = f"⚑ {pending}"
        elif running:
            badge = "●"
        opt = QStyleOptionViewItem(option)
        if badge:
            opt.rect = option.rect.adjusted(0, 0, -36, 0)
        super().paint(painter, opt, index)
        if badge:
            painter.save()
            color = QColor("#d9a400") if pending else option.palette.color(QPalette.ColorRole.Highlight)
            painter.setPen(color)
            r = option.rect.adjusted(0, 0, -8, 0)
            painter.drawText(r, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), badge)
            painter.restore()


class Sidebar(QWidget):
    session_selected = Signal(str)
    new_requested = Signal()
    rename_requested = Signal(str, str)
    delete_requested = Signal(str)
    search_changed = Signal(str)

    def __init__(self, model: SessionListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 8, 0, 8)
        self.new_button = QPushButton(self.tr("New session"))
        self.new_button.setAccessibleName(self.tr("New session"))
        self.new_button.setAccessibleDescription(self.tr("Start a new session (Ctrl+N)"))
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search sessions (Ctrl+K)"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(self.tr("Search sessions"))
        self.search.setAccessibleDescription(self.tr("Filter the session list by title"))
        for clear in self.search.findChildren(QToolButton):  # Qt's clear button has no name
            clear.setAccessibleName(self.tr("Clear search"))
        self.list = QListView()
        self.list.setObjectName("sessionList")
        self.list.setModel(model)
        self.list.setItemDelegate(SessionDelegate(self.list))
        self.list.setAccessibleName(self.tr("Sessions"))
        self.list.setAccessibleDescription(self.tr("Your sessions, newest first"))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setUniformItemSizes(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # titles elide
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # A search that matches nothing says so (over the empty list).
        self.no_match = QLabel(self.list.viewport())
        self.no_match.setObjectName("noMatch")
        self.no_match.setWordWrap(True)
        self.no_match.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.no_match.setMargin(12)
        self.no_match.hide()
        lay.addWidget(self.new_button)
        lay.addWidget(self.search)
        lay.addWidget(self.list, 1)
        self.new_button.clicked.connect(self.new_requested)
        self.search.textChanged.connect(self.search_changed)
        self.search.textChanged.connect(self._update_no_match)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved):
            signal.connect(self._update_no_match)
        self.list.selectionModel().currentChanged.connect(self._on_list_current_changed)
        self.list.customContextMenuRequested.connect(self._on_list_menu)
        # One action owns F2: the Session menu shows this same action, so the key is
        # bound once (two bindings made F2 ambiguous and neither fired).
        self.rename_action = QAction(self.tr("Re&name…"), self.list)
        self.rename_action.setObjectName("rename")
        self.rename_action.setShortcut(QKeySequence(Qt.Key.Key_F2))
        self.rename_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.rename_action.triggered.connect(self.rename_current)
        self.rename_dialog: QInputDialog | None = None
        self._rename_target = ""
        self.delete_action = QAction(self.tr("Delete…"), self.list)
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.triggered.connect(self.delete_current)
        self.list.addAction(self.rename_action)
        self.list.addAction(self.delete_action)

    def _update_no_match(self, *_args: object) -> None:
        text = self.search.text().strip()
        show = bool(text) and self.model.rowCount() == 0
        if show:
            self.no_match.setText(self.tr("No sessions match “{text}”").format(text=text))
            self.no_match.setAccessibleName(self.no_match.text())
            self.no_match.setGeometry(self.list.viewport().rect())
        self.no_match.setVisible(show)

    def current_id(self) -> str | None:
        idx = self.list.currentIndex()
        return str(idx.data(ID_ROLE)) if idx.isValid() else None

    def select(self, session_id: str) -> None:
        row = self.model.row_of(session_id)
        if row is None:
            return
        idx = self.model.index(row, 0)
        if self.list.currentIndex() != idx:
            self.list.setCurrentIndex(idx)

    def _on_list_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.session_selected.emit(str(current.data(ID_ROLE)))

    def _on_list_menu(self, pos: QPoint) -> None:
        if not self.list.indexAt(pos).isValid():
            return
        menu = QMenu(self)
        menu.addAction(self.rename_action)
        menu.addAction(self.delete_action)
        menu.exec(self.list.viewport().mapToGlobal(pos))

    def rename_current(self) -> QInputDialog | None:
        """Ask for a new title (window-modal, no nested event loop); returns the dialog."""
        sid = self.current_id()
        if sid is None:
            return None
        current = str(self.list.currentIndex().data(Qt.ItemDataRole.DisplayRole) or "")
        if self.rename_dialog is None:
            dialog = QInputDialog(self)
            dialog.setObjectName("renameDialog")
            keep_on_screen(dialog)
            dialog.setWindowTitle(self.tr("Rename session"))
            dialog.setLabelText(self.tr("Title:"))
            dialog.setAccessibleName(self.tr("Rename session"))
            dialog.textValueSelected.connect(self._on_renamed)
            self.rename_dialog = dialog
        self._rename_target = sid
        self.rename_dialog.setTextValue(current)
        self.rename_dialog.open()
        return self.rename_dialog

    def _on_renamed(self, title: str) -> None:
        if self._rename_target and title.strip():
            self.rename_requested.emit(self._rename_target, title.strip())

    def delete_current(self) -> None:
        sid = self.current_id()
        if sid is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Delete session"),
            self.tr("Delete this session and its transcript? This cannot be undone."),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.delete_requested.emit(sid)
