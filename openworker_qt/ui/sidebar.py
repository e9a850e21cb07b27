"""The sessions sidebar: search, sessions grouped by date, new / rename / pin /
export / delete.

The list pages through every session (:class:`SessionListModel` reads SQLite a
page at a time). Every key typed in the search box starts the search at once in
a worker (the one it replaces is stopped there), so typing never waits on the
disk and the results follow the last key without a pause; its hits show the
matching words marked, and a piece of the message that matched.

Signals:
    session_selected(str): the user picked a session.
    new_requested(): New session.
    rename_requested(str, str): session id, new title.
    delete_requested(str): session id (already confirmed by the user).
    pin_requested(str, bool): session id, pinned (Pin / Unpin); the list is read again after.
    search_changed(str): the search text (at every key).
    exported(str): a session was exported to this Markdown file.
    export_failed(str): the export failed (the message says why).
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetrics,
    QKeySequence,
    QPainter,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QStyle,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.session_model import (
    ATTENTION_ROLE,
    HEADER_ROLE,
    ID_ROLE,
    MATCH_ROLE,
    PENDING_ROLE,
    PINNED_ROLE,
    RUNNING_ROLE,
    SNIPPET_ROLE,
    SessionListModel,
)
from openworker_qt.ui import design, icons
from openworker_qt.ui.scheduled_section import ScheduledSessions
from openworker_qt.ui.window_state import keep_on_screen

#: Rows laid out per loop turn (bench/sessions.py: ~6 ms a batch).
LAYOUT_BATCH = 1000

AnyIndex = QModelIndex | QPersistentModelIndex


def _marked(text: str, words: list[str]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, matched) runs: the words searched for, as prefixes."""
    if not words or not text:
        return [(text, False)]
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)),
                         re.IGNORECASE)
    runs: list[tuple[str, bool]] = []
    at = 0
    for hit in pattern.finditer(text):
        if hit.start() > at:
            runs.append((text[at:hit.start()], False))
        runs.append((hit.group(0), True))
        at = hit.end()
    if at < len(text):
        runs.append((text[at:], False))
    return runs


class SessionDelegate(design.SectionedDelegate):
    """Group labels, rows with a hover and a selected state, the title (search
    words in bold), a snippet of the matching message while searching, a running
    dot, and the attention dot: with the number of approvals and questions waiting,
    or alone for a result not looked at yet."""

    PAD = 8
    header_role = HEADER_ROLE
    header_insets = (PAD + 2, PAD, 2)

    def _line(self, option: QStyleOptionViewItem) -> int:
        return QFontMetrics(option.font).height()

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        model = index.model()
        lines = 2 if isinstance(model, SessionListModel) and model.searching else 1
        return QSize(120, self._line(option) * lines + 2 * self.PAD + (lines - 1) * 2)

    def paint_row(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = option.palette
        state = option.state
        selected = bool(state & QStyle.StateFlag.State_Selected)
        hovered = bool(state & QStyle.StateFlag.State_MouseOver)
        box = QRectF(option.rect.adjusted(4, 1, -4, -1))
        if selected or hovered:
            fill = QColor(pal.color(QPalette.ColorRole.Highlight))
            if not selected:
                fill.setAlpha(40)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            painter.drawRoundedRect(box, 6, 6)
        text_color = pal.color(QPalette.ColorRole.HighlightedText if selected
                               else QPalette.ColorRole.Text)
        muted = QColor(text_color)
        muted.setAlpha(170)
        inner = option.rect.adjusted(self.PAD + 4, self.PAD, -self.PAD - 4, -self.PAD)
        line = self._line(option)
        right = self._paint_badges(painter, option, index, inner, text_color if selected else None)
        title_rect = QRect(inner.left(), inner.top(), max(0, right - inner.left()), line)
        words = list(index.data(MATCH_ROLE) or [])
        title = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        self._draw_runs(painter, option.font, title_rect, title, words, text_color)
        found = str(index.data(SNIPPET_ROLE) or "")
        if found:
            small = design.font("small", option.font)
            snippet_rect = QRect(inner.left(), inner.top() + line + 2,
                                 max(0, inner.right() - inner.left()), line)
            self._draw_runs(painter, small, snippet_rect, found, words, muted)

    def _paint_badges(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex,
                      inner: QRect, on_selection: QColor | None) -> int:
        """The badges at the right of a row, right to left: the pill with the number
        of asks waiting, the attention dot (asks waiting, or a result not seen yet),
        the running ring; returns where the title must end."""
        pending = int(index.data(PENDING_ROLE) or 0)
        line = self._line(option)
        right = inner.right()
        scheme = design.colors(option.palette)
        accent = on_selection or scheme.q("accent")
        painter.setPen(Qt.PenStyle.NoPen)
        if pending:
            font = design.font("small", option.font)
            font.setWeight(QFont.Weight.Bold)
            label = str(pending)
            width = max(QFontMetrics(font).horizontalAdvance(label) + 12, line)
            pill = QRectF(right - width + 1, inner.top() + 1, width, line - 2)
            painter.setBrush(scheme.q("badge"))
            painter.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2)
            painter.setFont(font)
            painter.setPen(scheme.q("on_badge"))
            painter.drawText(pill, int(Qt.AlignmentFlag.AlignCenter), label)
            painter.setPen(Qt.PenStyle.NoPen)
            right -= int(width) + 6
        d = max(6, line // 3)
        if pending or index.data(ATTENTION_ROLE):
            painter.setBrush(accent)
            painter.drawEllipse(QRectF(right - d, inner.top() + (line - d) / 2, d, d))
            right -= d + 6
        if index.data(RUNNING_ROLE):  # a ring: working, not (yet) asking for anything
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(accent, 1.5))
            painter.drawEllipse(QRectF(right - d, inner.top() + (line - d) / 2, d, d))
            right -= d + 8
        return right

    @staticmethod
    def _draw_runs(painter: QPainter, font: QFont, rect: QRect, text: str,
                   words: list[str], color: QColor) -> None:
        """``text`` on one line in ``rect``, the searched words in bold, elided."""
        painter.setPen(color)
        painter.setFont(font)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if not words:  # (browsing: one elided line, no runs)
            shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
            painter.drawText(rect, flags, shown)
            return
        bold = QFont(font)
        bold.setWeight(QFont.Weight.Bold)
        painter.setPen(color)
        x = rect.left()
        end = rect.right()
        for piece, hit in _marked(text, words):
            f = bold if hit else font
            metrics = QFontMetrics(f)
            room = end - x
            if room <= 0:
                break
            shown = metrics.elidedText(piece, Qt.TextElideMode.ElideRight, room)
            painter.setFont(f)
            painter.drawText(QRect(x, rect.top(), room, rect.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
            x += metrics.horizontalAdvance(shown)
            if shown != piece:
                break


class Sidebar(QWidget):
    session_selected = Signal(str)
    new_requested = Signal()
    rename_requested = Signal(str, str)
    delete_requested = Signal(str)
    search_changed = Signal(str)
    exported = Signal(str)
    export_failed = Signal(str)
    pin_requested = Signal(str, bool)
    _export_done = Signal(str, str)  # (path, error) from the worker

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and hasattr(self, "scheduled"):
            self.scheduled.changed()  # (back from the Automations window, say)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "new_button"):
            self.new_button.setIcon(icons.icon("new-session", "text", (design.ICON_SIZE["small"],)))

    def __init__(self, model: SessionListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        lay = QVBoxLayout(self)
        design.arrange(lay, "sidebar", "row")
        self.setAutoFillBackground(True)  # white, beside the main area's grey page
        self.setBackgroundRole(QPalette.ColorRole.Base)
        self.new_button = QPushButton(self.tr("New session"))
        self.new_button.setObjectName("newSession")
        self.new_button.setIcon(icons.icon("new-session", "text", (design.ICON_SIZE["small"],)))
        self.new_button.setIconSize(QSize(design.ICON_SIZE["small"], design.ICON_SIZE["small"]))
        pad_v, pad_h, r = design.SPACE["s"], design.SPACE["s"], design.RADIUS["medium"]
        design.style_sheet(self.new_button, lambda: (
            f"QPushButton#newSession {{ text-align: left; padding: {pad_v}px {pad_h}px;"
            f" border: none; border-radius: {r}px; background: transparent; }}"
            " QPushButton#newSession:hover { background: palette(midlight); }"
            " QPushButton#newSession:pressed { background: palette(mid); }"
            " QPushButton#newSession:focus { border: 1px solid palette(highlight); }"))
        self.new_button.setCursor(Qt.CursorShape.PointingHandCursor)
        # as narrow as the sidebar gets (the window's minimum width is not raised by it)
        self.new_button.setMinimumWidth(design.ICON_SIZE["small"] + 2 * pad_h)
        self.new_button.setToolTip(self.tr("Start a new session (Ctrl+N)"))
        self.new_button.setAccessibleName(self.tr("New session"))
        self.new_button.setAccessibleDescription(self.tr("Start a new session (Ctrl+N)"))
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search sessions (Ctrl+K)"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(self.tr("Search sessions"))
        self.search.setAccessibleDescription(
            self.tr("Find sessions by their title or by words written in them"))
        for clear in self.search.findChildren(QToolButton):  # Qt's clear button has no name
            clear.setAccessibleName(self.tr("Clear search"))
        self.list = QListView()
        self.list.setObjectName("sessionList")
        self.list.setModel(model)
        self.list.setItemDelegate(SessionDelegate(self.list))
        self.list.setAccessibleName(self.tr("Sessions"))
        self.list.setAccessibleDescription(self.tr("Your sessions by date, newest first"))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setUniformItemSizes(True)  # 100,000 rows lay out without reading them
        # ... but Qt still visits every row (~6 µs each, through Python): in batches,
        # one per loop turn, so 100,000 rows never hold the loop (0.6 s in one go).
        self.list.setLayoutMode(QListView.LayoutMode.Batched)
        self.list.setBatchSize(LAYOUT_BATCH)
        self.list.setMouseTracking(True)  # the hover state
        self.list.setFrameShape(QListView.Shape.NoFrame)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # titles elide
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # A search that matches nothing says so (over the empty list).
        self.no_match = QLabel(self.list.viewport())
        self.no_match.setObjectName("noMatch")
        self.no_match.setWordWrap(True)
        self.no_match.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.no_match.setMargin(design.SPACE["m"])
        design.tint(self.no_match)
        self.no_match.hide()
        self.scheduled = ScheduledSessions()  # shown once there is an automation
        self.scheduled.open_session.connect(self.session_selected)
        lay.addWidget(self.new_button)
        lay.addWidget(self.search)
        lay.addWidget(self.scheduled)
        lay.addWidget(self.list, 1)
        self.new_button.clicked.connect(self.new_requested)
        self.search.textChanged.connect(self._on_search_typed)
        model.results_shown.connect(self._on_search_done)  # (the rest of the rows follow)
        # The open session, when a search's first page does not hold it, is current
        # again once the rest of the hits are added (if it is one of them).
        self._kept = ""
        self._restoring = False
        model.layoutAboutToBeChanged.connect(self._keep_current)
        model.search_done.connect(self._restore_current)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved, model.layoutChanged):
            signal.connect(self._update_no_match)
            signal.connect(self.scheduled.changed)  # (a run starting or ending is a session changing)
        self.list.selectionModel().currentChanged.connect(self._on_list_current_changed)
        self.list.customContextMenuRequested.connect(self._on_list_menu)
        self._menu_target = ""
        self.context_menu: QMenu | None = None
        # One action owns F2: the Session menu shows this same action, so the key is
        # bound once (two bindings made F2 ambiguous and neither fired).
        self.rename_action = QAction(self.tr("Re&name…"), self.list)
        self.rename_action.setObjectName("rename")
        self.rename_action.setShortcut(QKeySequence(Qt.Key.Key_F2))
        self.rename_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.rename_action.triggered.connect(self.rename_current)
        self.rename_dialog: QInputDialog | None = None
        self._rename_target = ""
        self.pin_action = QAction(self.tr("&Pin"), self.list)
        self.pin_action.setObjectName("pin")
        self.pin_action.triggered.connect(self.toggle_pin)
        self.export_action = QAction(self.tr("&Export as Markdown…"), self.list)
        self.export_action.setObjectName("exportMarkdown")
        self.export_action.triggered.connect(self.export_current)
        self.export_dialog: QFileDialog | None = None
        self._export_target = ""
        self._export_done.connect(self._on_export_done)
        self.delete_action = QAction(self.tr("Delete…"), self.list)
        self.delete_action.setObjectName("delete")
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.triggered.connect(self.delete_current)
        self.delete_box: QMessageBox | None = None
        self._delete_target = ""
        self.list.addAction(self.rename_action)
        self.list.addAction(self.delete_action)
        model.start_backfill()  # older messages become searchable in the background

    def add_section(self, widget: QWidget) -> None:
        """A section above the session list (the teams, their workers nested)."""
        lay = self.layout()
        assert isinstance(lay, QVBoxLayout)
        lay.insertWidget(lay.indexOf(self.list), widget)

    # ------------------------------------------------------------------ search

    def _on_search_typed(self, text: str) -> None:
        """Every key: the search starts in the worker now (no pause to wait for);
        only the newest one's results are shown."""
        self.model.set_search(text)
        self.search_changed.emit(text)

    def _on_search_done(self, _text: str) -> None:
        self._update_no_match()
        # Row heights differ while searching (a snippet line): lay out again.
        self.list.doItemsLayout()

    def _update_no_match(self, *_args: object) -> None:
        """Over an empty list, a line that says why: no search hit, or no session yet."""
        text = self.search.text().strip()
        if text and self.model.searching:
            words = self.tr("No sessions match “{text}”").format(text=text)
        elif not text and self.model.store is not None:
            words = self.tr("No sessions yet. What you start with New session, "
                            "and what your automations run, shows here.")
        else:
            words = ""
        show = bool(words) and self.model.rowCount() == 0
        self.no_match.setProperty("empty", not text)
        if show:
            self.no_match.setText(words)
            self.no_match.setAccessibleName(words)
            self.no_match.setGeometry(self.list.viewport().rect())
        self.no_match.setVisible(show)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.no_match.isVisible():
            self.no_match.setGeometry(self.list.viewport().rect())

    # ------------------------------------------------------------------ selection

    def tab_chain(self) -> list[QWidget]:
        """The sidebar's controls in the order Tab visits them."""
        return [self.new_button, self.search, self.list]

    def focus_search(self) -> None:
        """Put the keyboard focus in the search box, its text selected (Ctrl+K)."""
        self.search.setFocus()
        self.search.selectAll()

    def clear_selection(self) -> None:
        """No session is current (a new one is being written)."""
        self.model.set_viewing(None)
        self.list.clearSelection()
        self.list.setCurrentIndex(self.model.index(-1, 0))

    def current_id(self) -> str | None:
        idx = self.list.currentIndex()
        sid = idx.data(ID_ROLE) if idx.isValid() else None
        return str(sid) if sid else None

    def select(self, session_id: str) -> None:
        """``session_id`` is on screen: current in the list (its new result seen)."""
        self.model.set_viewing(session_id)
        row = self.model.row_of(session_id)
        if row is None:
            return
        idx = self.model.index(row, 0)
        if self.list.currentIndex() != idx:
            self.list.setCurrentIndex(idx)

    def _on_list_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        sid = current.data(ID_ROLE) if current.isValid() else None
        if sid and not self._restoring:
            self.model.set_viewing(str(sid))
            self.session_selected.emit(str(sid))

    def _keep_current(self) -> None:
        sid = self.current_id()
        if sid:
            self._kept = sid

    def _restore_current(self, _text: str) -> None:
        kept, self._kept = self._kept, ""
        if not kept or self.list.currentIndex().isValid():
            return
        row = self.model.row_of(kept)
        if row is None:
            return
        self._restoring = True  # (the same session: nothing to open)
        try:
            self.list.setCurrentIndex(self.model.index(row, 0))
        finally:
            self._restoring = False

    def _target(self) -> str | None:
        """The session a menu action is for: the row right-clicked, else the current one."""
        return self._menu_target or self.current_id()

    def _on_list_menu(self, pos: QPoint) -> None:
        idx = self.list.indexAt(pos)
        sid = idx.data(ID_ROLE) if idx.isValid() else None
        if not sid:
            return
        self._menu_target = str(sid)
        pinned = bool(idx.data(PINNED_ROLE))
        self.pin_action.setText(self.tr("Un&pin") if pinned else self.tr("&Pin"))
        menu = self.context_menu
        if menu is None:  # one menu, shown again each time (not a new object per click)
            menu = QMenu(self)
            menu.setObjectName("sessionMenu")
            menu.addAction(self.rename_action)
            menu.addAction(self.pin_action)
            menu.addAction(self.export_action)
            menu.addSeparator()
            menu.addAction(self.delete_action)
            menu.aboutToHide.connect(lambda: QTimer.singleShot(0, self._clear_menu_target))
            self.context_menu = menu
        menu.popup(self.list.viewport().mapToGlobal(pos))

    def _clear_menu_target(self) -> None:
        self._menu_target = ""

    # ------------------------------------------------------------------ actions

    def _title_of(self, session_id: str) -> str:
        row = self.model.row_of(session_id)
        return str(self.model.index(row, 0).data() or "") if row is not None else ""

    def rename_current(self) -> QInputDialog | None:
        """Ask for a new title (window-modal, no nested event loop); returns the dialog."""
        sid = self._target()
        if sid is None:
            return None
        current = self._title_of(sid)
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

    def toggle_pin(self) -> None:
        """Pin the session to the top of the list, or unpin it."""
        sid = self._target()
        store = self.model.store
        if sid is None or store is None:
            return
        info = store.get_session(sid)
        if info is None:
            return
        self.pin_requested.emit(sid, not info.pinned)
        self.model.reload()
        self.select(sid)

    def export_current(self) -> QFileDialog | None:
        """Ask where to save the session as Markdown (window-modal); the file is
        written in a worker."""
        sid = self._target()
        if sid is None:
            return None
        if self.export_dialog is None:
            dialog = QFileDialog(self, self.tr("Export as Markdown"))
            dialog.setObjectName("exportDialog")
            dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            dialog.setNameFilter(self.tr("Markdown (*.md)"))
            dialog.setDefaultSuffix("md")
            dialog.fileSelected.connect(self._on_export_chosen)
            self.export_dialog = dialog
        name = re.sub(r"[^\w\- ]+", "", self._title_of(sid)).strip() or "session"
        self.export_dialog.selectFile(f"{name[:60]}.md")
        self._export_target = sid
        self.export_dialog.open()
        return self.export_dialog

    def _on_export_chosen(self, path: str) -> None:
        if path and self._export_target:
            self.export_to(self._export_target, Path(path))

    def export_to(self, session_id: str, path: Path) -> None:
        """Write ``session_id`` as Markdown to ``path`` in the worker; then
        :attr:`exported` (or :attr:`export_failed`) is emitted."""
        self.model.export_markdown(session_id, path, self._export_done.emit)

    def _on_export_done(self, path: str, error: str) -> None:
        if error:
            self.export_failed.emit(
                self.tr("Could not export to {path}: {error}").format(path=path, error=error))
        else:
            self.exported.emit(path)

    def delete_current(self) -> QMessageBox | None:
        """Ask before deleting (Cancel is the default button); returns the question."""
        sid = self._target()
        if sid is None:
            return None
        if self.delete_box is None:
            box = QMessageBox(self)
            box.setObjectName("deleteSession")
            box.setIcon(QMessageBox.Icon.Warning)
            box.setWindowTitle(self.tr("Delete session"))
            box.setText(self.tr("Delete this session and its transcript?"))
            box.setInformativeText(self.tr("This cannot be undone."))
            delete = box.addButton(self.tr("Delete"), QMessageBox.ButtonRole.DestructiveRole)
            delete.setObjectName("deleteButton")
            cancel = box.addButton(QMessageBox.StandardButton.Cancel)
            box.setDefaultButton(cancel)
            box.setEscapeButton(cancel)
            box.finished.connect(self._on_delete_answer)
            self.delete_box = box
            self._delete_button = delete
        self._delete_target = sid
        self.delete_box.open()
        return self.delete_box

    def _on_delete_answer(self, _result: int) -> None:
        box = self.delete_box
        if box is not None and box.clickedButton() is self._delete_button and self._delete_target:
            self.delete_requested.emit(self._delete_target)
        self._delete_target = ""
