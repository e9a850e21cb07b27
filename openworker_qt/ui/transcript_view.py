"""The transcript: a virtualised QListView over TranscriptModel, painted by a delegate.

Why a list view and not a QTextBrowser: a 10,000-message session must open in
well under 300 ms and scroll smoothly, so only visible rows may cost anything.
The delegate renders a row with a cached ``QTextDocument`` (Markdown for the
assistant) and reports its height; rows that were never painted get a cheap
font-metrics *estimate*, corrected when they are first painted (the correction
is coalesced into one relayout per frame).

While an assistant row streams, its Markdown is rendered incrementally
(:class:`StreamingDocument`): finished blocks are appended to one document once,
only the unfinished tail is re-rendered per frame, and painting is clipped to
the viewport. Re-rendering the whole reply on every frame cost ~13 ms per frame
at 11,500 characters (bench/ui_stall.py); the tail costs well under 1 ms. When
the stream ends the reply is rendered once more as a whole (up to
``FULL_RENDER_LIMIT`` characters) so the final Markdown is exactly what a
reopened session shows.

A long session is shown through a bounded window of its rows (see
:class:`TranscriptModel`): the list view lays out only the window, and a
*session scrollbar* (``session_bar``, in place of the list's own) stands for the
whole session from the first paint, in stored messages. Dragging it anywhere
moves the window there (its pages are read in a worker; the rows on screen stay
until they are); scrolling near an edge of the window moves it by a page and
keeps the row being read still. "Jump to start" (Ctrl+Home, or the button shown
while the view is scrolled up) moves the window to the first page.
Rows that arrive live become pages too once enough are stored: while the view
follows the end its window then drops its oldest page (the rows at the bottom
stay where they are); while the user reads further up, only pages above the row
being read go, or the window leaves the end (``window_full``, :meth:`_on_window_full`).

Pending approvals are real widgets (:class:`ApprovalCard`) placed on their row
with ``setIndexWidget`` (inside a holder, so a card outlives its row leaving the
window and comes back with it), so they are keyboard- and screen-reader-accessible.

Messages show hover actions under them (copy; "ask again" on the last reply;
"edit" on the last user message) and their time; code blocks have a Copy
button; links open in the browser (http, https and mailto only).

Signals:
    retry_requested(): the user activated an error notice's Retry.
    resend_requested(str): "ask again": send the last user message once more.
    edit_requested(str): "edit": put the last user message into the message box.
    file_open_requested(str): a file chip (:mod:`~openworker_qt.ui.file_chip`) was clicked.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QPoint,
    QPointF,
    QRect,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QContextMenuEvent,
    QDesktopServices,
    QGuiApplication,
    QKeyEvent,
    QMouseEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QScrollBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.transcript_items import (
    TranscriptItem,
)
from openworker_qt.qt.transcript_model import ITEM_ROLE, TranscriptModel
from openworker_qt.ui.empty_state import EmptyState
from openworker_qt.ui.markdown_style import anchor_at, copy_button_at
from openworker_qt.ui.transcript_delegate import FETCH_MARGIN_PX, TranscriptDelegate
from openworker_qt.ui.transcript_text import collapsible
from openworker_qt.ui.transcript_warmup import DelegateWarmUp

#: Session scrollbar steps per stored message.
BAR_SCALE = 10


class TranscriptView(QListView):
    """The virtualised transcript (see module docstring)."""

    retry_requested = Signal()
    resend_requested = Signal(str)
    edit_requested = Signal(str)
    file_open_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setAccessibleName(self.tr("Transcript"))
        self.setAccessibleDescription(self.tr("The conversation: messages, tool cards and approvals"))
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        # One pass: the model exposes a bounded window of rows (a few hundred), so a
        # relayout is short and a moved window can be positioned at once.
        self.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.setSpacing(0)
        self.verticalScrollBar().setSingleStep(24)
        self.delegate = TranscriptDelegate(self, self.card_for)
        self.setItemDelegate(self.delegate)
        self._cards: dict[str, QWidget] = {}
        self._holders: dict[str, QWidget] = {}  # call id -> the index widget holding its card
        self._card_shelf = QWidget(self)  # cards whose rows are outside the window
        self._card_shelf.hide()
        self._stick_to_bottom = True
        self._anchor: tuple[int, int] | None = None  # (row, top) to keep still after a move
        self._anchor_timer = QTimer(self)
        self._anchor_timer.setSingleShot(True)
        self._anchor_timer.setInterval(80)
        self._anchor_timer.timeout.connect(self._release_anchor)
        self.warm_up = DelegateWarmUp(self, self.delegate)
        # A session with no rows yet: what OpenWorker can do, examples, the folder.
        self.empty_state = EmptyState(self.viewport())
        # The whole session's scrollbar (a long session; see module docstring).
        self.session_bar = QScrollBar(Qt.Orientation.Vertical, self)
        self.session_bar.setObjectName("sessionScrollBar")
        self.session_bar.setAccessibleName(self.tr("Position in the session"))
        self.session_bar.hide()
        self.session_bar.valueChanged.connect(self._on_session_bar)
        self.session_bar.sliderReleased.connect(self._sync_session_bar)
        self._syncing = False
        self._seek: float | None = None  # where the user asked to go, until it is shown
        self._held: tuple[TranscriptItem, int] | None = None  # (row, top) kept over a move
        # Jump to the first message of a long session (Ctrl+Home too).
        self.jump_button = QToolButton(self.viewport())
        self.jump_button.setObjectName("jumpToStart")
        self.jump_button.setText(self.tr("Jump to start"))
        self.jump_button.setToolTip(self.tr("Show the first message of this session (Ctrl+Home)"))
        self.jump_button.setAccessibleName(self.tr("Jump to start"))
        self.jump_button.setAccessibleDescription(
            self.tr("Show the first message of this session"))
        self.jump_button.setAutoRaise(False)
        self.jump_button.clicked.connect(self.jump_to_start)
        self.jump_button.hide()
        # Back to the newest message when scrolled up (Ctrl+End too).
        self.latest_button = QToolButton(self.viewport())
        self.latest_button.setObjectName("jumpToLatest")
        self.latest_button.setText(self.tr("Jump to latest ↓"))
        self.latest_button.setToolTip(self.tr("Show the newest message (Ctrl+End)"))
        self.latest_button.setAccessibleName(self.tr("Jump to latest"))
        self.latest_button.setAccessibleDescription(self.tr("Show the newest message"))
        self.latest_button.clicked.connect(self.jump_to_latest)
        self.latest_button.hide()
        self.clicked.connect(self._on_clicked)
        self.setMouseTracking(True)
        self.copied = ""  # what the last Copy put on the clipboard (also for tests)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.verticalScrollBar().rangeChanged.connect(self._on_range_changed)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is not None:
            model.modelAboutToBeReset.connect(self._before_reset)
            model.modelReset.connect(self._on_model_reset)
            model.rowsInserted.connect(self._on_rows_inserted)
            for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved):
                signal.connect(self._update_empty_state)
            if isinstance(model, TranscriptModel):
                model.window_moved.connect(self._on_window_moved)
                model.window_full.connect(self._on_window_full)
                model.extent_changed.connect(self._sync_session_bar)
        self._update_empty_state()

    def transcript(self) -> TranscriptModel:
        model = self.model()
        assert isinstance(model, TranscriptModel)
        return model

    # ---------------------------------------------------------- approval cards

    def card_for(self, call_id: str) -> QWidget | None:
        return self._cards.get(call_id)

    def cards(self) -> list[QWidget]:
        """The approval and question cards on screen."""
        return list(self._cards.values())

    def set_card(self, call_id: str, card: QWidget | None) -> None:
        model = self.transcript()
        row = model.tool_row(call_id)
        old = self._cards.pop(call_id, None)
        holder = self._holders.pop(call_id, None)
        if card is not None and old is card:
            card.setParent(self._card_shelf)  # the same card again: out of the holder going
        if holder is not None and row is not None:
            self.setIndexWidget(model.index(row, 0), None)  # type: ignore[arg-type]
        elif old is not None and old is not card:
            old.deleteLater()
        if card is not None:
            self._cards[call_id] = card
            self._mount(call_id)
        if row is not None:
            model.changed(row)

    def _mount(self, call_id: str) -> None:
        """Put a card on its row if the row is exposed, else keep it aside."""
        card = self._cards[call_id]
        model = self.transcript()
        row = model.tool_row(call_id)
        if row is None:
            card.setParent(self._card_shelf)
            return
        index = model.index(row, 0)
        holder = self._holders.get(call_id)
        if holder is None or self.indexWidget(index) is not holder:
            holder = QWidget()
            holder.setObjectName("cardHolder")
            layout = QVBoxLayout(holder)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(card)
            self._holders[call_id] = holder
            self.setIndexWidget(index, holder)
        card.show()

    def _before_reset(self) -> None:
        # A reset deletes the index widgets: take the cards out of their holders first.
        for card in self._cards.values():
            card.setParent(self._card_shelf)
        self._holders.clear()
        model = self.transcript()
        if model.moving and self._seek is None and not self._stick_to_bottom:
            top = self.indexAt(QPoint(1, 1))
            if top.isValid():
                self._held = (model.item(top.row()), self.visualRect(top).top())

    def _on_model_reset(self) -> None:
        if self.transcript().moving:
            return  # the same session, another part of it (_on_window_moved)
        for call_id in list(self._cards):
            self._cards.pop(call_id).deleteLater()
        self.delegate.forget_rows()
        self._stick_to_bottom = True
        self._anchor = None
        self._held = None
        self._seek = None
        self._anchor_timer.stop()
        self.jump_button.hide()
        self._sync_session_bar()
        QTimer.singleShot(0, self.scrollToBottom)

    def _on_window_moved(self) -> None:
        model = self.transcript()
        self.delegate.keep_only({item.uid for item in model.items})
        for call_id in list(self._cards):
            self._mount(call_id)
        self.executeDelayedItemsLayout()
        held, self._held = self._held, None
        if self._seek is not None:
            if self._seek == float("inf") and model.at_end():
                self._seek = None
                self._stick_to_bottom = True
                self.scrollToBottom()
            elif model.covers(self._seek):
                units, self._seek = self._seek, None
                self._scroll_to_units(units)
        elif self._stick_to_bottom and model.at_end():
            self.scrollToBottom()
        elif held is not None:
            row = model.tool_row(held[0].call_id) if held[0].kind == "tool" else None
            if row is None:
                row = next((r for r in range(model.rowCount()) if model.item(r) is held[0]), None)
            if row is not None:
                self._anchor = (row, held[1])
                self._restore_anchor()
                self._anchor_timer.start()
        self._sync_session_bar()
        self._place_jump_button()
        QTimer.singleShot(0, self._maybe_shift)

    def _on_window_full(self) -> None:
        """Live rows became a page and the window is over its bound: its oldest page
        goes (following the end), or the pages above the row being read."""
        if self._seek is not None:
            return  # the window is on its way elsewhere
        if self._stick_to_bottom:
            self.transcript().fit_window(None)
            return
        top = self.indexAt(QPoint(1, 1))
        self.transcript().fit_window(top.row() if top.isValid() else None)

    # ------------------------------------------------------------- scrolling

    def _on_scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        model = self.model()
        at_end = not isinstance(model, TranscriptModel) or model.at_end()
        self._stick_to_bottom = value >= bar.maximum() - 4 and at_end
        self._sync_session_bar()
        self._place_jump_button()
        self._place_latest_button()
        self._maybe_shift()

    def _maybe_shift(self) -> None:
        """Near an edge of the window: move it a page that way (the row being read
        stays where it is)."""
        model = self.model()
        if (not isinstance(model, TranscriptModel) or not model.paged()
                or self._seek is not None or self.session_bar.isSliderDown()):
            return
        bar = self.verticalScrollBar()
        margin = self.viewport().height() + FETCH_MARGIN_PX
        if bar.value() <= margin:
            model.request_shift(older=True)
        elif bar.value() >= bar.maximum() - margin and not model.at_end():
            model.request_shift(older=False)

    def _place_jump_button(self) -> None:
        model = self.model()
        show = (isinstance(model, TranscriptModel) and model.paged()
                and not self._stick_to_bottom and self.session_bar.value() > 0)
        if show:
            # Centred at the top: at the right it covered a code block's Copy button
            # and the end of the user's messages.
            hint = self.jump_button.sizeHint()
            self.jump_button.setGeometry(
                (self.viewport().width() - hint.width()) // 2, 8, hint.width(), hint.height())
        self.jump_button.setVisible(show)

    def _place_latest_button(self) -> None:
        """"Jump to latest" shows while the newest rows are out of sight."""
        bar = self.verticalScrollBar()
        model = self.model()
        behind = isinstance(model, TranscriptModel) and not model.at_end()
        show = (model is not None and model.rowCount() > 0 and not self._stick_to_bottom
                and (behind or bar.value() < bar.maximum() - self.viewport().height() // 2))
        if show:
            hint = self.latest_button.sizeHint()
            self.latest_button.setGeometry(
                (self.viewport().width() - hint.width()) // 2,
                self.viewport().height() - hint.height() - 12, hint.width(), hint.height())
        self.latest_button.setVisible(show)

    def jump_to_latest(self) -> None:
        """Show the newest message and follow the end again."""
        self._anchor = None
        self._anchor_timer.stop()
        self._stick_to_bottom = True
        self.latest_button.hide()
        model = self.model()
        if isinstance(model, TranscriptModel) and model.paged():
            self.seek(float("inf"))
        else:
            self.scrollToBottom()

    def jump_to_start(self) -> None:
        """Show the first message (the window moves to the first page)."""
        model = self.model()
        if not isinstance(model, TranscriptModel):
            return
        self._stick_to_bottom = False
        self._anchor = None
        self._anchor_timer.stop()
        self.jump_button.hide()
        if not model.paged():
            self.scrollToTop()
            return
        self.seek(0.0)

    def seek(self, units: float) -> None:
        """Show the part of the session ``units`` stored messages from its start
        (``inf``: the end), moving the window there if it is elsewhere."""
        model = self.transcript()
        if not model.paged():
            return
        self._anchor = None
        self._held = None
        if units == float("inf") or units >= model.total_units():
            self._stick_to_bottom = True
            if model.at_end():
                self._seek = None
                self.scrollToBottom()
            else:
                self._seek = float("inf")
                model.request_units(model.total_units())
            return
        self._stick_to_bottom = False
        if model.covers(units):
            self._seek = None
            self._scroll_to_units(units)
            if not model.covers(units, margin_pages=1):
                model.request_units(units)  # recentre around it; the rows stay still
            return
        self._seek = units
        model.request_units(units)

    def _scroll_to_units(self, units: float) -> None:
        model = self.transcript()
        hit = model.row_of_units(units)
        if hit is None:
            return
        row, fraction = hit
        self.executeDelayedItemsLayout()
        rect = self.visualRect(model.index(row, 0))
        bar = self.verticalScrollBar()
        self._syncing = True
        try:
            bar.setValue(bar.value() + rect.top() + int(fraction * rect.height()))
        finally:
            self._syncing = False

    def _on_session_bar(self, value: int) -> None:
        if self._syncing:
            return
        bar = self.session_bar
        self.seek(float("inf") if value >= bar.maximum() else value / BAR_SCALE)
        self._place_jump_button()

    def _sync_session_bar(self, *_args: Any) -> None:
        """The session bar shows where the view is in the whole session."""
        model = self.model()
        paged = isinstance(model, TranscriptModel) and model.paged()
        if paged != (self.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff):
            width = self.verticalScrollBar().sizeHint().width()
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff if paged
                                            else Qt.ScrollBarPolicy.ScrollBarAsNeeded)
            self.setViewportMargins(0, 0, width if paged else 0, 0)
            self.session_bar.setVisible(paged)
            self._place_session_bar()
            self.delegate.invalidate()  # the reading column's width changed
        if not paged or self._syncing or self.session_bar.isSliderDown():
            return
        assert isinstance(model, TranscriptModel)
        total = model.total_units()
        inner = self.verticalScrollBar()
        rows = model.rowCount()
        top = self.indexAt(QPoint(1, 1))
        if top.isValid():
            rect = self.visualRect(top)
            units = model.units_of_row(top.row(), -rect.top() / max(1, rect.height()))
        else:
            units = model.units_of_row(0)
        height = self.viewport().height()
        span = model.units_of_row(rows - 1, 1.0) - model.units_of_row(0) if rows else 1.0
        visible = max(1.0, span * height / max(1, inner.maximum() + height))
        self._syncing = True
        try:
            self.session_bar.setRange(0, max(0, int((total - visible) * BAR_SCALE)))
            self.session_bar.setPageStep(max(1, int(visible * BAR_SCALE)))
            self.session_bar.setSingleStep(BAR_SCALE)
            at_bottom = model.at_end() and inner.value() >= inner.maximum() - 4
            self.session_bar.setValue(self.session_bar.maximum() if at_bottom
                                      else int(units * BAR_SCALE))
        finally:
            self._syncing = False

    def _place_session_bar(self) -> None:
        width = self.verticalScrollBar().sizeHint().width()
        self.session_bar.setGeometry(QRect(self.width() - width, 0, width, self.height()))

    def _restore_anchor(self) -> None:
        if self._anchor is None:
            return
        row, offset = self._anchor
        if row >= self.model().rowCount():
            return
        rect = self.visualRect(self.model().index(row, 0))
        if rect.height() > 0 and rect.top() != offset:
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() + rect.top() - offset)

    def _release_anchor(self) -> None:
        self._restore_anchor()
        self._anchor = None
        self._maybe_shift()  # still near an edge (a short page): keep going

    def _on_range_changed(self, _lo: int, hi: int) -> None:
        if self._anchor is not None:
            self._restore_anchor()
            self._anchor_timer.start()
        elif self._stick_to_bottom:
            self.verticalScrollBar().setValue(hi)
        self._sync_session_bar()

    def _on_rows_inserted(self, *_args: Any) -> None:
        if self._stick_to_bottom:
            QTimer.singleShot(0, self.scrollToBottom)
        self._place_latest_button()

    def paintEvent(self, event: Any) -> None:
        self.delegate.begin_frame()
        try:
            super().paintEvent(event)
        finally:
            self.delegate.end_frame()
        self.warm_up.start()  # after the first paint: it never delays the window itself

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.delegate.column_changed()
        return super().viewportEvent(event)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        # Row heights depend on the width alone: a change of height only (the message
        # box growing, a banner shown) keeps them; measuring every row again on such a
        # resize cost up to 40 ms of the loop's time in a session of a few hundred rows.
        if event.oldSize().width() != event.size().width():
            self.delegate.invalidate()
        self.empty_state.setGeometry(self.viewport().rect())
        self._place_session_bar()
        self._place_jump_button()
        self._place_latest_button()

    def _update_empty_state(self, *_args: Any) -> None:
        model = self.model()
        empty = model is None or model.rowCount() == 0
        self.empty_state.setGeometry(self.viewport().rect())
        self.empty_state.setVisible(empty)
        self._note_last_messages()

    # ------------------------------------------------------------ interaction

    def _on_clicked(self, index: QModelIndex) -> None:
        item: TranscriptItem = index.data(ITEM_ROLE)
        if item.kind == "notice" and item.notice_kind == "error":
            self.retry_requested.emit()
            return
        if item.kind == "tool" and item.status == "awaiting":
            return
        if item.kind == "tool" or (item.kind == "assistant" and item.reasoning) or collapsible(item):
            self.transcript().toggle_expanded(index.row())

    # ------------------------------------------------- hover, copy, links

    def _note_last_messages(self) -> None:
        model = self.model()
        if not isinstance(model, TranscriptModel):
            return
        user = reply = 0
        # The session's last messages, wherever the window is (not the window's last).
        for item in reversed(model.newest_rows()):
            if not reply and item.kind == "assistant" and item.text:
                reply = item.uid
            if item.kind == "user":
                user = item.uid
                break
        self.delegate.last_user_uid, self.delegate.last_reply_uid = user, reply

    def _target_at(self, pos: QPoint) -> tuple[str, str]:
        """What a click at ``pos`` would do: (kind, payload), kind '' for nothing."""
        index = self.indexAt(pos)
        if not index.isValid():
            return "", ""
        item: TranscriptItem = index.data(ITEM_ROLE)
        rect = self.visualRect(index)
        self._note_last_messages()
        chip = self.delegate.chip_at(item, rect)
        if chip is not None and chip[1].contains(pos):
            return "open-file", chip[0].opens
        action = self.delegate.action_at(item, rect, pos)
        if action:
            return action, str(index.row())
        if item.kind == "assistant" and item.text and not item.streaming:
            doc = self.delegate.body_doc(item)
            point = QPointF(pos - self.delegate.body_origin(item, rect))
            code = copy_button_at(doc, point)
            if code is not None:
                return "copy-code", code
            href = anchor_at(doc, point)
            if href:
                return "link", href
        return "", ""

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        pos = event.position().toPoint()
        index = self.indexAt(pos)
        row = index.row() if index.isValid() else -1
        kind, _ = self._target_at(pos) if row >= 0 else ("", "")
        action = kind if kind in ("copy", "edit", "retry", "open-file") else ""
        if row != self.delegate.hover_row or action != self.delegate.hover_action:
            old = self.delegate.hover_row
            self.delegate.hover_row, self.delegate.hover_action = row, action
            for r in {old, row} - {-1}:
                if r < self.model().rowCount():
                    self.viewport().update(self.visualRect(self.model().index(r, 0)))
        tips = {"copy": self.tr("Copy"), "edit": self.tr("Edit and send again"),
                "retry": self.tr("Ask again"), "copy-code": self.tr("Copy the code")}
        if kind:
            self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
            self.viewport().setToolTip(tips.get(kind, _))
        else:
            self.viewport().unsetCursor()
            self.viewport().setToolTip("")

    def leaveEvent(self, event: Any) -> None:
        super().leaveEvent(event)
        old, self.delegate.hover_row = self.delegate.hover_row, -1
        if 0 <= old < self.model().rowCount():
            self.viewport().update(self.visualRect(self.model().index(old, 0)))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            kind, payload = self._target_at(event.position().toPoint())
            if kind and self.activate(kind, payload):
                event.accept()
                return
        super().mouseReleaseEvent(event)

    def activate(self, kind: str, payload: str) -> bool:
        """Do what a hover button, a code block's Copy or a link does."""
        if kind == "copy-code":
            self._copy(payload)
            return True
        if kind == "open-file":
            self.file_open_requested.emit(payload)
            return True
        if kind == "link":
            url = QUrl(payload)
            if url.scheme().lower() in ("http", "https", "mailto"):
                QDesktopServices.openUrl(url)
            return True
        if kind in ("copy", "edit", "retry"):
            item = self.transcript().item(int(payload))
            if kind == "copy":
                self._copy(item.text)
            elif kind == "edit":
                self.edit_requested.emit(item.text)
            else:
                user = next((self.transcript().item(r) for r in range(int(payload), -1, -1)
                             if self.transcript().item(r).kind == "user"), None)
                if user is not None:
                    self.resend_requested.emit(user.text)
            return True
        return False

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """A file chip's menu, from the mouse or the menu key (see file_chip)."""
        from openworker_qt.ui import file_chip  # (with the first menu: not at start)

        self.file_menu = file_chip.chip_menu(self, self.delegate, event, self.file_open_requested.emit)
        if self.file_menu is None:
            super().contextMenuEvent(event)

    def _copy(self, text: str) -> None:
        self.copied = text
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if (event.key() == Qt.Key.Key_Home
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.jump_to_start()
            return
        if (event.key() == Qt.Key.Key_End
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.jump_to_latest()
            return
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            index = self.currentIndex()
            if index.isValid():
                self._on_clicked(index)
                return
        super().keyPressEvent(event)
