"""The composer: multi-line input, pickers, attachments, Send / Stop.

One rounded box (design system colours) holding the attachments, a message box
that grows with its text up to ~40 % of the window, persona / mode / model as
compact chips and icon buttons (attach, mic, stop, send) with tooltips and
accessible names (their text stays set for screen readers).

Enter sends, Shift+Enter inserts a newline. While a turn runs the Send button
reads "Steer" (the text is injected after the current step) and Stop is shown;
Esc in the input stops the turn. A message that could not be sent is put back
with :meth:`Composer.restore` (its attachments are kept in ``last_attachments``).

Signals:
    submitted(str, list): text and the attachment parts (content-part dicts).
    stop_requested(): the user pressed Stop (button or Esc).
    model_chosen(str), persona_chosen(str), mode_chosen(str): picker changes
        (persona_chosen carries the persona's name; the picker shows its title).
    model_missing(): Send with no model in the picker (the text is kept).
    attach_requested(): the Attach button (or its menu's "Files…").
    mcp_attach_requested(): the attach menu's "From an MCP server…".
    mcp_prompt_requested(bool): "/" typed (True) into an empty message box, or the attach
        menu's "Prompt from an MCP server…" (only once :meth:`offer_mcp` ran).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QRect, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QKeyEvent, QPainter, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QMenu,
    QPlainTextEdit,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.qt.wording import MODES, mode_description, mode_name, provider_title
from openworker_qt.ui import design
from openworker_qt.ui.attachments import Attachment
from openworker_qt.ui.design import ICON_SIZE, RADIUS, SPACE
from openworker_qt.ui.icons import icon
from openworker_qt.ui.picker_popup import describe_items, set_description
from openworker_qt.ui.voice import MicButton

PERSONAS = ("cowork", "code", "chat", "ops", "myhelper")
#: The built-in personas' titles and what they are for, until :meth:`Composer.set_personas`.
PERSONA_ITEMS: tuple[tuple[str, str, str], ...] = (
    ("cowork", "Cowork", "A coworker who researches, analyses and delivers finished files"),
    ("code", "Code", "A senior engineer working in one code repository"),
    ("chat", "Chat", "Quick questions and answers, no tools and no folder"),
    ("ops", "Ops", "Careful operations work on servers, services and deployments"),
    ("myhelper", "My helper", "A long-lived personal assistant that keeps notes and remembers"),
)
MAX_SHARE = 0.4  # of the window's height: the message box grows up to this


class ComposerEdit(QPlainTextEdit):
    """Enter submits, Shift+Enter is a newline, Esc asks to stop.

    Signals:
        submit(): Enter pressed.
        escape(): Esc pressed.
    """

    submit = Signal()
    escape = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
                return
            if not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
                self.submit.emit()
                return
        if event.key() == Qt.Key.Key_Escape:
            self.escape.emit()
            return
        super().keyPressEvent(event)

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        return QSize(400, fm.lineSpacing() * 2 + 14)


class ChipCombo(QComboBox):
    """A compact rounded picker (persona, mode, model) with a small chevron. It
    takes the width its words need when there is room and, in a narrow window,
    gives way down to a few letters, its words ending in "…" (the whole name stays
    in the list it opens and for screen readers)."""

    #: Letters a squeezed chip still shows.
    SQUEEZED_LETTERS = 7

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        # (the style sheet's padding: 10 px before the words, 24 px for the chevron)
        squeezed = self.fontMetrics().horizontalAdvance("x" * self.SQUEEZED_LETTERS) + 34
        return QSize(min(hint.width(), squeezed), hint.height())

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composerChip")
        self._chevron: QIcon | None = None

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._chevron = None

    def paintEvent(self, event: Any) -> None:
        if self.isEditable():
            super().paintEvent(event)
        else:
            self._paint_elided()
        side = 12
        rect = self.rect()
        target = QRect(rect.right() - side - 8, rect.center().y() - side // 2 + 1, side, side)
        painter = QPainter(self)
        if self._chevron is None:
            self._chevron = icon("chevron-down", "muted", sizes=(12,))
        self._chevron.paint(painter, target)
        painter.end()

    def _paint_elided(self) -> None:
        """QComboBox's own painting, with the current words elided to the room left."""
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        room = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                           QStyle.SubControl.SC_ComboBoxEditField, self)
        option.currentText = self.fontMetrics().elidedText(
            option.currentText, Qt.TextElideMode.ElideRight, max(0, room.width()))
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)
        painter.end()


class ModeChip(ChipCombo):
    """The permission-mode chip: shows the mode in words ("Ask first"), while
    :meth:`currentText`, :meth:`setCurrentText` and :meth:`findText` speak the
    mode's id ("interactive"), as stored with the session."""

    def __init__(self, words: dict[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        for mode in MODES:
            self.addItem(words.get(mode, mode), mode)

    def currentText(self) -> str:  # noqa: N802
        return str(self.currentData() or "")

    def setCurrentText(self, text: str) -> None:  # noqa: N802
        index = self.findData(text)
        if index >= 0:
            self.setCurrentIndex(index)

    def findText(self, text: str, *_args: Any) -> int:  # noqa: N802
        return self.findData(text)


class Composer(QWidget):
    """See module docstring."""

    submitted = Signal(str, list)
    stop_requested = Signal()
    model_chosen = Signal(str)
    persona_chosen = Signal(str)
    mode_chosen = Signal(str)
    model_missing = Signal()
    attach_requested = Signal()
    mcp_attach_requested = Signal()
    mcp_prompt_requested = Signal(bool)  # True: typed "/" (put back if nothing is chosen)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.attachments: list[Attachment] = []
        #: The attachments of the last message submitted, to put back if it is not sent.
        self.last_attachments: list[Attachment] = []
        self._running = False
        #: The attach button's menu once MCP servers are offered (:meth:`offer_mcp`).
        self.attach_menu: QMenu | None = None
        self._slash_armed = False
        lay = QVBoxLayout(self)
        lay.setContentsMargins(SPACE["l"], SPACE["xs"], SPACE["l"], SPACE["m"])
        lay.setSpacing(SPACE["xs"])
        # One rounded box: attachments, the growing message box, then a row of
        # compact chips (persona, mode, model) and the icon buttons.
        self.box = QFrame()
        self.box.setObjectName("composerBox")
        box = QVBoxLayout(self.box)
        box.setContentsMargins(SPACE["m"], SPACE["s"], SPACE["s"], SPACE["s"])
        box.setSpacing(SPACE["xs"])
        self.chips = QHBoxLayout()
        self.chips.setContentsMargins(0, 0, 0, 0)
        self.chips.addStretch(1)
        box.addLayout(self.chips)
        self.edit = ComposerEdit()
        self.edit.setObjectName("composerInput")
        self.edit.setFrameShape(QFrame.Shape.NoFrame)
        self.edit.setPlaceholderText(
            self.tr("Describe the outcome you want… (Enter sends, Shift+Enter for a new line)")
        )
        self.edit.setAccessibleName(self.tr("Message"))
        self.edit.setAccessibleDescription(
            self.tr("Type what you want done. Enter sends; while a turn runs, it steers it.")
        )
        self.edit.setTabChangesFocus(True)
        self.edit.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.edit.document().contentsChanged.connect(self._grow)
        box.addWidget(self.edit)
        row = QHBoxLayout()
        row.setSpacing(SPACE["xs"])
        self.persona = self._combo((), self.tr("Persona"), self.tr("Which agent works on this session"))
        self.set_personas(list(PERSONA_ITEMS))
        self.mode = ModeChip({m: mode_name(m) for m in MODES})
        for i, m in enumerate(MODES):
            set_description(self.mode, i, mode_description(m))
        describe_items(self.mode)
        describe_items(self.persona)
        self.mode.setAccessibleName(self.tr("Permission mode"))
        self.mode.setAccessibleDescription(self.tr("What the agent may do without asking"))
        self.mode.setToolTip(self.tr("What the agent may do without asking"))
        self.mode.setCurrentText("interactive")
        self._shown: dict[str, str] = {}  # a label the picker shows → the model it sends
        self.model = ChipCombo()
        self.model.setEditable(True)
        self.model.setMinimumContentsLength(18)
        self.model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model.setAccessibleName(self.tr("Model"))
        self.model.setAccessibleDescription(self.tr("The model for the next call; provider:model"))
        self.model.setToolTip(self.tr("Model (provider:model)"))
        self.attach = self._icon_button(self.tr("Attach…"), self.tr("Attach files"),
                                        self.tr("Add files or a folder to this message"))
        self.mic = MicButton()  # push-to-talk; ui/voice.py's VoiceController drives it
        self.send = self._icon_button(self.tr("Send"), self.tr("Send"),
                                      self.tr("Send the message (Enter)"))
        self.send.setObjectName("sendButton")
        self.stop = self._icon_button(self.tr("Stop"), self.tr("Stop"),
                                      self.tr("Stop the running turn (Esc)"))
        self.stop.setObjectName("stopButton")
        self.stop.setVisible(False)
        for w in (self.persona, self.mode, self.model):
            row.addWidget(w)
        row.addStretch(1)
        row.addWidget(self.attach)
        row.addWidget(self.mic)
        row.addWidget(self.stop)
        row.addWidget(self.send)
        box.addLayout(row)
        # centred under the transcript's reading column, as wide as its cards
        self.box.setMaximumWidth(design.READING_WIDTH + 2 * SPACE["m"])
        centre = QHBoxLayout()
        centre.setContentsMargins(0, 0, 0, 0)
        centre.addStretch(1)
        centre.addWidget(self.box, 100)
        centre.addStretch(1)
        lay.addLayout(centre)
        self._style()
        self.edit.submit.connect(self.submit)
        self.edit.escape.connect(self._on_escape)
        self.send.clicked.connect(self.submit)
        self.stop.clicked.connect(self.stop_requested)
        self.attach.clicked.connect(self._on_attach)
        self.edit.textChanged.connect(self._on_text_changed)
        self.model.activated.connect(lambda _i: self.model_chosen.emit(self.current_model()))
        if line := self.model.lineEdit():
            line.setAccessibleName(self.tr("Model name"))
            line.setPlaceholderText(self.tr("Choose a model"))
            line.returnPressed.connect(lambda: self.model_chosen.emit(self.current_model()))
        self.persona.activated.connect(lambda _i: self.persona_chosen.emit(self.current_persona()))
        self.mode.activated.connect(lambda _i: self.mode_chosen.emit(self.mode.currentText()))
        self.setFocusProxy(self.edit)
        self.chain_tab_order(self.edit)

    def tab_chain(self) -> list[QWidget]:
        """The composer's controls in the order Tab visits them: the message box, then
        left to right as they are drawn (persona, mode, model, attach, mic, Stop, Send)."""
        return [self.edit, self.persona, self.mode, self.model, self.attach, self.mic,
                self.stop, self.send]

    def chain_tab_order(self, before: QWidget) -> None:
        """Put the composer's controls after ``before`` in the Tab order, in
        :meth:`tab_chain`'s order (a window calls it once its own order is set)."""
        previous = before
        for widget in self.tab_chain():
            if widget is not previous:
                QWidget.setTabOrder(previous, widget)
            previous = widget

    def _icon_button(self, text: str, name: str, description: str) -> QToolButton:
        button = QToolButton()
        button.setObjectName("composerIconButton")
        button.setText(text)  # read by screen readers; the icon is what shows (set in _style)
        button.setIconSize(QSize(ICON_SIZE["medium"], ICON_SIZE["medium"]))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        button.setAutoRaise(True)
        button.setToolTip(description)
        button.setAccessibleName(name)
        button.setAccessibleDescription(description)
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        return button

    def _style(self) -> None:
        """The rounded box and its chips, in the design system's colours."""
        c = design.colors(self.palette())
        r, chip = RADIUS["large"], RADIUS["chip"]
        self.box.setStyleSheet(
            f"QFrame#composerBox {{ background: {c.raised}; border: 1px solid {c.border};"
            f" border-radius: {r}px; }}"
            f" QPlainTextEdit#composerInput {{ background: transparent; border: none;"
            f" color: {c.text}; }}"
            f" QComboBox#composerChip {{ background: {c.sunken}; color: {c.text};"
            f" border: 1px solid {c.border}; border-radius: {chip}px; padding: 2px 24px 2px 10px; }}"
            f" QComboBox#composerChip::drop-down {{ border: none; width: 20px; }}"
            f" QComboBox#composerChip::down-arrow {{ image: none; width: 0; }}"
            f" QToolButton#composerIconButton, QToolButton#micButton {{ border: none;"
            f" border-radius: 15px; padding: 5px; }}"
            f" QToolButton#composerIconButton:hover, QToolButton#micButton:hover {{"
            f" background: {c.sunken}; }}"
            f" QToolButton#composerIconButton:focus, QToolButton#micButton:focus,"
            f" QComboBox#composerChip:focus {{ border: 2px solid {c.accent}; }}"
            f" QToolButton#sendButton {{ background: {c.accent}; border-radius: 15px;"
            f" padding: 5px; border: none; }}"
            f" QToolButton#sendButton:disabled {{ background: {c.border}; }}"
            f" QToolButton#sendButton:focus {{ border: 2px solid {c.text}; }}"
        )
        self.send.setIcon(icon("send", "on_accent"))
        for button, name in ((self.attach, "attach"), (self.stop, "stop")):
            button.setIcon(icon(name, "muted"))
        self.mic.setIcon(icon("mic", "muted"))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "box"):
            self._style()

    def _grow(self) -> None:
        """The message box grows with its text, up to ~40 % of the window."""
        doc = self.edit.document()
        lines = doc.size().height()  # in lines for a plain-text document
        fm = self.edit.fontMetrics()
        wanted = int(max(2, lines) * fm.lineSpacing() + 2 * doc.documentMargin() + 6)
        top = self.window()
        cap = max(4 * fm.lineSpacing(), int(top.height() * MAX_SHARE)) if top is not self else 240
        height = min(wanted, cap)
        if self.edit.height() != height or self.edit.minimumHeight() != height:
            self.edit.setFixedHeight(height)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._grow()

    def _combo(self, values: tuple[str, ...], name: str, description: str) -> QComboBox:
        box = ChipCombo()
        box.addItems(list(values))
        box.setAccessibleName(name)
        box.setAccessibleDescription(description)
        box.setToolTip(name)
        return box

    # ------------------------------------------------------------------ state

    def set_running(self, running: bool) -> None:
        self._running = running
        self.stop.setVisible(running)
        self.send.setText(self.tr("Steer") if running else self.tr("Send"))
        self.send.setAccessibleName(self.send.text())
        self.send.setAccessibleDescription(
            self.tr("Inject this message after the current step") if running
            else self.tr("Send the message (Enter)")
        )
        self.send.setToolTip(self.send.accessibleDescription())

    @property
    def running(self) -> bool:
        return self._running

    def current_model(self) -> str:
        """The model the next message uses: what the picker shows ('' for none); the
        offline demo's picker says "Offline demo" but sends its script's model."""
        text = self.model.currentText().strip()
        return self._shown.get(text, text)

    def model_label(self, model: str) -> str:
        """How ``model`` reads in the picker: the demo's ``scripted:<path>`` is
        "Offline demo" (a path is not for users); ``provider:name`` is "name · Provider"
        ("stub-1 · Custom server"); OpenAI's bare names as they are."""
        if model.startswith("scripted:"):
            label = self.tr("Offline demo")
        else:
            provider, colon, name = model.partition(":")
            title = provider_title(provider) if colon and name else ""
            if not title:
                return model
            label = f"{name} · {title}"
        self._shown[label] = model
        return label

    def set_models(self, models: list[str], current: str) -> None:
        """Fill the picker with ``models`` and show ``current`` ('' shows none)."""
        self.model.blockSignals(True)
        self.model.clear()
        seen: list[str] = []
        for m in [current, *models]:
            if m and m not in seen:
                seen.append(m)
        self.model.addItems([self.model_label(m) for m in seen])
        self.model.blockSignals(False)
        self.show_model(current)

    def show_model(self, model: str) -> None:
        """Show ``model`` as the picker's item and text, so the picker never shows one
        model while the text (what is sent) says another; '' shows the placeholder."""
        model = self.model_label(model.strip())
        self.model.blockSignals(True)
        if model:
            index = self.model.findText(model)
            if index < 0:
                self.model.insertItem(0, model)
                index = 0
            self.model.setCurrentIndex(index)
            self.model.setEditText(model)
            if line := self.model.lineEdit():
                line.setCursorPosition(0)  # a long name shows its provider prefix
        else:
            self.model.setCurrentIndex(-1)
            self.model.setEditText("")
        self.model.blockSignals(False)

    def set_personas(self, items: list[tuple[str, str, str]]) -> None:
        """Offer these personas (name, title, description), keeping the current choice
        when it is still offered."""
        current = self.current_persona() if self.persona.count() else "cowork"
        self.persona.blockSignals(True)
        self.persona.clear()
        for name, title, description in items:
            self.persona.addItem(title, name)
            set_description(self.persona, self.persona.count() - 1, description)
        self.persona.blockSignals(False)
        self.show_persona(current)

    def current_persona(self) -> str:
        """The name of the persona the picker shows ('cowork' when it shows none)."""
        name = self.persona.currentData()
        return str(name) if name else "cowork"

    def show_persona(self, name: str) -> None:
        """Show the persona ``name``; one no longer offered (disabled, removed) shows as
        itself, so the picker never claims a session runs as another persona."""
        index = self.persona.findData(name or "cowork")
        if index < 0:
            self.persona.addItem(name, name)
            index = self.persona.count() - 1
        self.persona.setCurrentIndex(index)

    def current_mode(self) -> str:
        """The permission mode the picker shows, by its id ("interactive")."""
        return self.mode.currentText()

    def show_mode(self, mode: str) -> None:
        """Show the permission mode ``mode`` (an id no picker item has is ignored)."""
        self.mode.setCurrentText(mode)

    def set_draft(self, text: str) -> None:
        """Replace the message being written with ``text``, the cursor at its end, focused."""
        self.edit.setPlainText(text)
        self.edit.moveCursor(QTextCursor.MoveOperation.End)
        self.edit.setFocus()

    def focus_message(self, reason: Qt.FocusReason = Qt.FocusReason.OtherFocusReason) -> None:
        """Put the keyboard focus in the message box."""
        self.edit.setFocus(reason)

    def focus_model(self) -> None:
        """Put the keyboard focus in the model picker."""
        self.model.setFocus()

    def set_session_fields(self, persona: str, mode: str, model: str) -> None:
        self.show_persona(persona)
        self.mode.setCurrentText(mode)
        self.show_model(model)

    # ------------------------------------------------------------ attachments

    def add_attachment(self, attachment: Attachment) -> None:
        self.attachments.append(attachment)
        chip = QToolButton()
        chip.setText(f"{attachment.name}  ✕")
        if attachment.thumbnail is not None:
            chip.setIcon(QIcon(attachment.thumbnail))
            chip.setIconSize(QSize(24, 24))
            chip.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        chip.setAccessibleName(self.tr("Attachment {name}").format(name=attachment.name))
        chip.setAccessibleDescription(self.tr("Press to remove this attachment"))
        chip.setToolTip(attachment.path)
        chip.setProperty("attachment_path", attachment.path)
        chip.clicked.connect(lambda _=False, c=chip, a=attachment: self._remove(c, a))
        self.chips.insertWidget(self.chips.count() - 1, chip)

    def _remove(self, chip: QToolButton, attachment: Attachment) -> None:
        if attachment in self.attachments:
            self.attachments.remove(attachment)
        chip.deleteLater()

    def clear_attachments(self) -> None:
        self.attachments.clear()
        while self.chips.count() > 1:
            item = self.chips.takeAt(0)
            if item is not None and (w := item.widget()) is not None:
                w.deleteLater()

    def restore(self, text: str, attachments: list[Attachment]) -> None:
        """Put back a message that was not sent, ahead of anything typed since."""
        typed = self.edit.toPlainText().strip()
        self.edit.setPlainText("\n\n".join(t for t in (text, typed) if t))
        cursor = self.edit.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.edit.setTextCursor(cursor)
        present = {a.path for a in self.attachments}
        for attachment in attachments:
            if attachment.path not in present:
                self.add_attachment(attachment)

    # ----------------------------------------------------------------- actions

    def submit(self) -> None:
        """Send what is typed and attached (Enter, the Send button, Session → Send)."""
        text = self.edit.toPlainText().strip()
        if not text and not self.attachments:
            return
        if not self.current_model():
            self.model_missing.emit()  # a blank model is never sent; nothing is lost
            return
        parts: list[dict[str, Any]] = [a.part for a in self.attachments]
        self.last_attachments = list(self.attachments)
        self.edit.clear()
        self.clear_attachments()
        self.submitted.emit(text, parts)

    # -------------------------------------------------------------- MCP offers

    def offer_mcp(self, offered: bool = True) -> None:
        """Offer MCP servers' resources (the attach menu) and prompts ("/" in an
        empty message box, and the attach menu)."""
        self._slash_armed = offered
        if not offered:
            self.attach_menu = None
            return
        menu = QMenu(self)
        menu.setAccessibleName(self.tr("Attach"))
        files = menu.addAction(self.tr("Files…"))
        files.triggered.connect(self.attach_requested)
        resource = menu.addAction(self.tr("From an MCP server…"))
        resource.setToolTip(self.tr("Attach something one of your MCP servers offers"))
        resource.triggered.connect(self.mcp_attach_requested)
        prompt = menu.addAction(self.tr("Prompt from an MCP server…"))
        prompt.setToolTip(self.tr("Start the message from a prompt an MCP server offers (or type /)"))
        prompt.triggered.connect(lambda: self.mcp_prompt_requested.emit(False))
        self.attach_menu = menu
        self.attach.setToolTip(self.tr("Add files, a folder, or something from an MCP server"))

    def _on_attach(self) -> None:
        if self.attach_menu is None:
            self.attach_requested.emit()
            return
        self.attach_menu.popup(self.attach.mapToGlobal(self.attach.rect().bottomLeft()))

    def _on_text_changed(self) -> None:
        if self._slash_armed and self.edit.toPlainText() == "/":
            self.edit.clear()
            self.mcp_prompt_requested.emit(True)

    def insert_text(self, text: str) -> None:
        """Put ``text`` at the cursor of the message box (a prompt chosen from a server;
        the "/" itself when no prompt was chosen)."""
        armed, self._slash_armed = self._slash_armed, False
        try:
            self.edit.insertPlainText(text)
        finally:
            self._slash_armed = armed
        self.edit.setFocus()

    def _on_escape(self) -> None:
        if self._running:
            self.stop_requested.emit()
