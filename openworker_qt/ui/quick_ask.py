"""Quick ask: a small frameless popup (tray or global hotkey) that streams a compact answer.

Enter sends the question as a new session; the answer streams into a label
(the tail is kept when it grows long); "Open in window" shows the full session.
Files dropped on the popup become attachments of the question; a dropped folder
asks read-only or writable and is granted to the question's session when it is
created. A compact persona chip (the composer's look, the enabled personas' titles)
picks who answers: the question's session is created with that persona, so its
prompt and its tools are that persona's. Esc hides it; what was typed and not
sent is still there next time,
and an answer that ended more than two minutes ago is not shown again. A
rounded panel on a soft shadow; it does not stay on top of other windows.

It starts and shows sessions through a
:class:`~openworker_qt.ui.ports.QuickAskSessions` and follows the answer on the
:class:`EngineBridge`; the app connects :attr:`QuickAsk.folder_dropped` to the
grant question and hands the choice back with :meth:`QuickAsk.add_grant`.

Signals:
    folder_dropped(str): a folder was dropped; ask how to grant it.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QCursor,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QKeyEvent,
    QPainter,
    QPainterPath,
    QRegion,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.core import events as ev
from openworker_qt.core.background import spawn
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.compositing import composited
from openworker_qt.qt.wording import (
    activity_text,
    answer_opened_text,
    retry_fields,
    retry_text,
    waiting_for_model_text,
)
from openworker_qt.ui import design
from openworker_qt.ui.answer_view import AnswerView
from openworker_qt.ui.attachments import Attachment, AttachmentError, load_attachment
from openworker_qt.ui.composer import PERSONA_ITEMS, ChipCombo
from openworker_qt.ui.drop_highlight import accept_copy
from openworker_qt.ui.grant_dialog import grant_label, grant_part
from openworker_qt.ui.ports import QuickAskSessions
from openworker_qt.ui.window_state import keep_on_screen

SHADOW = 18  # px of soft shadow around the rounded panel
STALE_AFTER_S = 120.0  # an answer older than this is cleared when the popup opens again


class QuickAsk(QFrame):
    folder_dropped = Signal(str)

    def __init__(self, sessions: QuickAskSessions, bridge: EngineBridge,
                 parent: QWidget | None = None) -> None:
        # Not "stays on top": it is a popup the user summons, not a window that
        # covers their other apps once they move on.
        super().__init__(parent, Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint)
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground)
        self.sessions = sessions
        self.session_id: str | None = None
        self.attachments: list[Attachment] = []
        self.grants: list[tuple[str, bool]] = []  # (folder, writable) for the next question
        self._answer = ""
        self.setObjectName("quickAsk")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAcceptDrops(True)
        self._finished_at = 0.0  # when the last answer ended (a stale one is not shown again)
        self.setAccessibleName(self.tr("Quick ask"))
        self.setAccessibleDescription(self.tr("Ask something quickly; Esc closes"))
        lay = QVBoxLayout(self)
        pad = SHADOW + design.SPACE["l"]
        lay.setContentsMargins(pad, pad - 4, pad, pad)
        lay.setSpacing(design.SPACE["s"])
        self.edit = QLineEdit()
        self.edit.setObjectName("quickAskInput")
        self.edit.setFrame(False)
        self.edit.setPlaceholderText(self.tr("Ask OpenWorker… (Enter to send, Esc to close)"))
        self.edit.setAccessibleName(self.tr("Question"))
        self.edit.setAccessibleDescription(self.tr("What you want to know or have done"))
        f = self.edit.font()
        f.setPointSizeF(f.pointSizeF() * 1.25)
        self.edit.setFont(f)
        lay.addWidget(self.edit)
        self.asked = QLabel()  # the question the answer below is for
        self.asked.setObjectName("quickAskAsked")
        self.asked.setWordWrap(True)
        self.asked.setTextFormat(Qt.TextFormat.PlainText)
        self.asked.setAccessibleName(self.tr("Your question"))
        self.asked.hide()
        lay.addWidget(self.asked)
        self.chips = QLabel()
        self.chips.setAccessibleName(self.tr("Attachments"))
        self.chips.hide()
        lay.addWidget(self.chips)
        self.answer = AnswerView(max_height=460)  # Markdown as in the main window
        self.answer.setAccessibleName(self.tr("Answer"))
        self.answer.height_changed.connect(self._fit_answer)
        self.answer.hide()
        lay.addWidget(self.answer, 1)
        row = QHBoxLayout()
        self.persona = ChipCombo()
        self.persona.setAccessibleName(self.tr("Persona"))
        self.persona.setAccessibleDescription(self.tr("Who answers this question"))
        self.persona.setToolTip(self.tr("Who answers this question"))
        self.set_personas(list(PERSONA_ITEMS))
        row.addWidget(self.persona)
        self.status = QLabel()
        self.status.setAccessibleName(self.tr("Status"))
        self.open_button = QPushButton(self.tr("Open in window"))
        self.open_button.setAccessibleName(self.tr("Open in window"))
        self.open_button.setAccessibleDescription(self.tr("Show this conversation in the main window"))
        self.open_button.setEnabled(False)
        row.addWidget(self.status, 1)
        row.addWidget(self.open_button)
        lay.addLayout(row)
        self.edit.returnPressed.connect(self.submit)
        self.open_button.clicked.connect(self.open_in_window)
        bridge.text_appended.connect(self._on_bridge_text)
        bridge.event_received.connect(self._on_bridge_event)
        self.setFixedWidth(600 + 2 * SHADOW)
        self.resize(600 + 2 * SHADOW, 110)
        self.status.setObjectName("quickAskStatus")
        self._style()
        self.setFocusProxy(self.edit)
        keep_on_screen(self)

    def _style(self) -> None:
        c = design.colors(self.palette())
        self.setStyleSheet(
            f"QLineEdit#quickAskInput {{ background: transparent; border: none; color: {c.text}; }}"
            f" QLabel#quickAskStatus, QLabel#quickAskAsked {{ color: {c.muted}; }}"
            f" QComboBox#composerChip {{ background: {c.sunken}; color: {c.text};"
            f" border: 1px solid {c.border}; border-radius: {design.RADIUS['chip']}px;"
            f" padding: 2px 24px 2px 10px; }}"
            f" QComboBox#composerChip::drop-down {{ border: none; width: 20px; }}"
            f" QComboBox#composerChip::down-arrow {{ image: none; width: 0; }}"
            f" QComboBox#composerChip:focus {{ border: 2px solid {c.accent}; }}")

    def set_personas(self, items: list[tuple[str, str, str]]) -> None:
        """Offer these personas (name, title, description), keeping the current choice
        when it is still offered (else Cowork, the default)."""
        current = self.current_persona() if self.persona.count() else "cowork"
        self.persona.blockSignals(True)
        self.persona.clear()
        for name, title, description in items:
            self.persona.addItem(title, name)
            self.persona.setItemData(self.persona.count() - 1, description,
                                     Qt.ItemDataRole.ToolTipRole)
        index = self.persona.findData(current)
        if index < 0:
            index = self.persona.findData("cowork")
        self.persona.setCurrentIndex(max(index, 0))
        self.persona.blockSignals(False)

    def current_persona(self) -> str:
        """The name of the persona the chip shows ('cowork' when it shows none)."""
        name = self.persona.currentData()
        return str(name) if name else "cowork"

    def _panel(self) -> QRectF:
        return QRectF(self.rect()).adjusted(SHADOW, SHADOW - 4, -SHADOW, -SHADOW)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if not composited():
            # No compositor (a bare X11 desktop): a translucent window's corners are
            # painted black. Cut the window to the rounded panel instead (no shadow).
            radius = design.RADIUS["large"]
            path = QPainterPath()
            path.addRoundedRect(self._panel(), radius, radius)
            self.setMask(QRegion(path.toFillPolygon().toPolygon()))

    def paintEvent(self, event: Any) -> None:
        """A rounded panel on a soft shadow (the window itself is transparent)."""
        c = design.colors(self.palette())
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        panel = self._panel()
        radius = design.RADIUS["large"]
        painter.setPen(Qt.PenStyle.NoPen)
        for i in range(SHADOW, 0, -2) if composited() else ():
            # the shadow: rings fading outwards, offset down a little
            alpha = int(26 * (1 - i / SHADOW) ** 2) + 1
            painter.setBrush(QColor(0, 0, 0, alpha))
            painter.drawRoundedRect(panel.adjusted(-i, -i + 4, i, i + 4), radius + i, radius + i)
        painter.setPen(QColor(c.border))
        painter.setBrush(QColor(c.raised))
        painter.drawRoundedRect(panel, radius, radius)
        painter.end()

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "status"):
            self._style()

    def popup(self) -> None:
        # What was typed and not sent is kept; an answer that ended a while ago is
        # not shown again as if it were fresh.
        if self._finished_at and time.monotonic() - self._finished_at > STALE_AFTER_S:
            self.forget_answer()
        # on the screen the pointer is on (the one the user looks at), else the primary
        screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
        if screen is not None:
            geo = screen.availableGeometry()
            self.move(geo.center().x() - self.width() // 2, geo.top() + geo.height() // 4)
        self.show()
        self.raise_()
        self.activateWindow()
        self.edit.setFocus()

    def forget_answer(self) -> None:
        """Clear the last answer (its session stays in the sidebar)."""
        self._answer = ""
        self._finished_at = 0.0
        self.session_id = None
        self.answer.set_markdown("", now=True)
        self.answer.hide()
        self.asked.clear()
        self.asked.hide()
        self.status.setText("")
        self.open_button.setEnabled(False)
        self.resize(self.width(), self.minimumSizeHint().height())

    def submit(self) -> None:
        text = self.edit.text().strip()
        if not text:
            return
        # The default model, else what the window's picker shows; never a blank one.
        model = self.sessions.new_session_model()
        if not model:
            self.status.setText(self.tr("Choose a model first: in the main window or in Settings."))
            return  # the question stays in the box
        from openworker_qt.ui.folders import prepare_folder

        workspace = self.sessions.new_session_folder()
        try:
            workspace = prepare_folder(str(workspace))  # the default is created on first use
        except ValueError as exc:
            self.status.setText(str(exc))
        session_id = self.sessions.create_session(model=model, workspace=str(workspace),
                                                  meta={"origin": "quick_ask"},
                                                  persona=self.current_persona())
        self.session_id = session_id
        for folder, writable in self.grants:
            self.sessions.grant_folder(session_id, folder, writable=writable)
            part = grant_part(folder, writable=writable)
            self.attachments.append(Attachment(str(part["name"]), folder, "folder", part))
        self.grants.clear()
        content: Any = text
        if self.attachments:
            content = [*(a.part for a in self.attachments), {"type": "text", "text": text}]
        self.attachments.clear()
        self.chips.hide()
        self._answer = ""
        self.answer.set_markdown("", now=True)
        self.answer.show()
        self.asked.setText(text)
        self.asked.show()
        self._finished_at = 0.0
        self.status.setText(waiting_for_model_text(model))
        self.open_button.setEnabled(True)
        self.edit.clear()
        self.sessions.send(session_id, content)

    def _on_bridge_text(self, session_id: str, text: str) -> None:
        if session_id != self.session_id:
            return
        self._answer += text
        self.answer.set_markdown(self._answer)

    def _fit_answer(self, _height: int) -> None:
        """Grow with the answer (the panel is a window of its own: its layout does not)."""
        if self.answer.isVisible():
            self.resize(self.width(), max(self.minimumSizeHint().height(),
                                          self.sizeHint().height()))

    def _on_bridge_event(self, event: ev.Event) -> None:
        if event.session_id != self.session_id:
            return
        if isinstance(event, ev.ToolStarted):
            self.status.setText(activity_text(event.name, {}))
        elif isinstance(event, ev.PermissionRequired):
            self.status.setText(self.tr("Waiting for your approval"))
        elif isinstance(event, ev.ProviderRetrying):
            self.status.setText(retry_text(**retry_fields(event)))
        elif isinstance(event, ev.AnswerOpened):
            self.status.setText(answer_opened_text(""))
        elif isinstance(event, ev.ErrorOccurred):
            self.status.setText(self.tr("Failed: {message}").format(message=event.message))
        elif isinstance(event, ev.TurnEnded):
            self._finished_at = time.monotonic()
            self.answer.set_markdown(self._answer, now=True)
            if event.status == "completed":
                self.status.setText(self.tr("Done"))
            elif event.status != "error":
                self.status.setText(event.status)

    def open_in_window(self) -> None:
        if self.session_id:
            self.sessions.show_session(self.session_id)
        self.hide()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.hide()
            return
        super().keyPressEvent(event)

    # ---------------------------------------------------------- drag and drop

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            accept_copy(event)  # never Move: the source could delete the original

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if event.mimeData().hasUrls():
            accept_copy(event)

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        accept_copy(event)
        spawn(self._attach(paths))

    async def _attach(self, paths: list[str]) -> None:
        problems: list[str] = []
        for path in paths:
            if await asyncio.to_thread(Path(path).is_dir):
                self.folder_dropped.emit(path)
                continue
            try:
                self.attachments.append(await asyncio.to_thread(load_attachment, path))
            except AttachmentError as exc:
                problems.append(str(exc))
        self._show_chips(problems)

    def add_grant(self, folder: str, writable: bool) -> None:
        """The grant chosen for a dropped folder: applied to the next question's session."""
        self.grants = [g for g in self.grants if g[0] != folder] + [(folder, writable)]
        self._show_chips([])

    def _show_chips(self, problems: list[str]) -> None:
        names = ", ".join([*(a.name for a in self.attachments),
                           *(grant_label(f, writable=w) for f, w in self.grants)])
        self.chips.setText((self.tr("Attached: {names}").format(names=names) if names else "") + ("\n" + "\n".join(problems) if problems else ""))
        self.chips.setVisible(bool(names or problems))
