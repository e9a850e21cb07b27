"""The inbox window: every pending item across sessions, answered inline.

Left: the pending items (filterable by session). Right: the selected item —
tool, risk, target, reason, arguments — with Approve once / Always / Deny for
approvals, or an answer box (plus the offered options) for questions, plans
and folder requests, and "Open session". Items answered anywhere else (the
card, the dialog, the tray, a notification, the CLI) disappear on their own, as
do items the app closed (the turn was stopped, or the conversation moved on); an
answer that arrives too late says why it changed nothing.

Keyboard: Ctrl+Return approves once, Ctrl+Shift+Return "always" (when
offered), Ctrl+Delete denies, Ctrl+O opens the session, Esc closes.

It is built from the :class:`InboxBridge` (what is pending), a
:class:`~openworker_qt.ui.ports.SessionLookup` (session titles) and an
:class:`~openworker_qt.ui.ports.Answers` (who takes the answer); the app
connects its signal.

Signals:
    open_session_requested(str): the user wants to see the item's session.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from openworker_qt.core.approvals import parse_tool_key
from openworker_qt.core.background import spawn
from openworker_qt.core.inbox import InboxItem
from openworker_qt.domain import choices
from openworker_qt.qt.inbox_bridge import InboxBridge, question_request
from openworker_qt.qt.inbox_model import ITEM_ROLE, InboxListModel
from openworker_qt.qt.wording import (
    approval_question,
    arguments_text,
    kind_text,
    reason_text,
    risk_sentence,
    risk_text,
)
from openworker_qt.ui import design
from openworker_qt.ui.approval import DiffView
from openworker_qt.ui.choices import GroupSlot
from openworker_qt.ui.late_answers import closed_text
from openworker_qt.ui.plan_card import PlanSlot
from openworker_qt.ui.ports import Answers, SessionLookup
from openworker_qt.ui.window_state import remember_geometry


class InboxWindow(QWidget):
    open_session_requested = Signal(str)

    def __init__(self, inbox: InboxBridge, sessions: SessionLookup, answers: Answers, *,
                 state_dir: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.inbox = inbox
        self.sessions = sessions
        self.answers = answers
        self.setObjectName("inboxWindow")
        if state_dir is not None:
            remember_geometry(self, "inbox", state_dir)
        self.setWindowTitle(self.tr("Inbox — OpenWorker Qt"))
        self.setAccessibleName(self.tr("Inbox"))
        self.setAccessibleDescription(self.tr("Everything waiting for you, across sessions"))
        self.model = InboxListModel(inbox, self)
        outer = QVBoxLayout(self)
        top = QHBoxLayout()
        self.filter = QComboBox()
        self.filter.setAccessibleName(self.tr("Filter by session"))
        self.filter.setAccessibleDescription(self.tr("Show the items of one session only"))
        self.filter.setToolTip(self.tr("Show the items of one session only"))
        top.addWidget(self.filter, 1)
        self.count_label = QLabel()
        self.count_label.setAccessibleName(self.tr("Pending count"))
        top.addWidget(self.count_label)
        outer.addLayout(top)
        split = QSplitter()
        self.split = split
        self.list = QListView()
        self.list.setObjectName("inboxList")
        self.list.setModel(self.model)
        self.list.setAccessibleName(self.tr("Pending items"))
        self.list.setAccessibleDescription(self.tr("Approvals, questions, plans and folder requests"))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setWordWrap(True)
        self.list.setSpacing(design.SPACE["xxs"])
        self.list.setStyleSheet(
            f"QListView#inboxList::item {{ padding: {design.SPACE['xs']}px {design.SPACE['s']}px; }}")
        split.addWidget(self.list)
        detail = QWidget()
        dl = QVBoxLayout(detail)
        design.arrange(dl, "box", "tight")
        # No "Kind:/Session:/Risk:" captions: what it is, where, the question in
        # words, then the risk and target as sentences.
        self.kind_label = QLabel()  # "Approval", "Question" (a small eyebrow line)
        self.session_label = QLabel()
        self.headline = QLabel()
        self.headline.setObjectName("inboxHeadline")
        self.headline.setFont(design.font("heading", self.font()))
        self.risk_label = QLabel()
        self.target_label = QLabel()
        self.reason_label = QLabel()
        for label, name in ((self.kind_label, self.tr("Kind")), (self.session_label, self.tr("Session")),
                            (self.headline, self.tr("What it asks")),
                            (self.risk_label, self.tr("Risk")), (self.target_label, self.tr("Target")),
                            (self.reason_label, self.tr("Reason"))):
            label.setWordWrap(True)
            label.setAccessibleName(name)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            dl.addWidget(label)
        for label in (self.kind_label, self.session_label, self.target_label, self.reason_label):
            design.tint(label, "muted")
        self.kind_label.setFont(design.font("small", self.font()))
        self.question = QLabel()
        self.question.setObjectName("inboxQuestion")
        self.question.setWordWrap(True)
        self.question.setTextFormat(Qt.TextFormat.PlainText)
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.question.setAccessibleName(self.tr("Question"))
        self.question.setFont(design.font("body", self.font()))
        self.question.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        dl.addWidget(self.question, 1)
        self.plan_slot = PlanSlot(dl, dl.indexOf(self.question) + 1)  # a team's plan
        self.group_slot = GroupSlot(dl, dl.indexOf(self.question) + 1)  # grouped questions
        self.arguments = DiffView("")
        self.arguments.setAccessibleName(self.tr("Arguments"))
        self.arguments.setAccessibleDescription(self.tr("Exactly what the call would do"))
        dl.addWidget(self.arguments, 1)
        buttons = QHBoxLayout()
        self.once = QPushButton(self.tr("&Approve once"))
        self.always = QPushButton(self.tr("A&lways allow"))
        self.deny = QPushButton(self.tr("&Deny"))
        self.open_session = QPushButton(self.tr("&Open session"))
        for b, desc in ((self.once, self.tr("Run this call now (Ctrl+Enter)")),
                        (self.always, self.tr("Allow this tool for this exact target from now on")),
                        (self.deny, self.tr("Do not run this call (Ctrl+Delete)")),
                        (self.open_session, self.tr("Show the session this item belongs to"))):
            b.setAccessibleName(b.text().replace("&", ""))
            b.setAccessibleDescription(desc)
            buttons.addWidget(b)
        buttons.insertStretch(3, 1)
        dl.addLayout(buttons)
        answer_row = QHBoxLayout()
        self.options = QComboBox()
        self.options.setAccessibleName(self.tr("Suggested answers"))
        self.answer = QLineEdit()
        self.answer.setPlaceholderText(self.tr("Your answer"))
        self.answer.setAccessibleName(self.tr("Answer"))
        self.answer.setAccessibleDescription(self.tr("Type the answer and press Enter"))
        self.send_answer = QPushButton(self.tr("Answer"))
        self.send_answer.setAccessibleName(self.tr("Send answer"))
        answer_row.addWidget(self.options)
        answer_row.addWidget(self.answer, 1)
        answer_row.addWidget(self.send_answer)
        dl.addLayout(answer_row)
        split.addWidget(detail)
        split.setSizes([320, 480])
        outer.addWidget(split, 1)
        # Nothing pending: one friendly line instead of empty fields and an empty list.
        self.empty = QLabel(self.tr(
            "<p style='font-size:large'>Nothing needs you right now</p>"
            "<p>Approvals and questions from your sessions show up here.</p>"))
        self.empty.setObjectName("inboxEmpty")
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setAccessibleName(self.tr("Inbox empty"))
        self.empty.setAccessibleDescription(self.tr("Nothing needs you right now"))
        outer.addWidget(self.empty, 1)
        self.late = QLabel()
        self.late.setObjectName("inboxLateAnswer")
        self.late.setWordWrap(True)
        self.late.setAccessibleName(self.tr("Answer not taken"))
        self.late.hide()
        outer.addWidget(self.late)
        self.once.clicked.connect(lambda: self._resolve("once"))
        self.always.clicked.connect(lambda: self._resolve("always"))
        self.deny.clicked.connect(lambda: self._resolve("deny"))
        self.send_answer.clicked.connect(self._answer)
        self.answer.returnPressed.connect(self._answer)
        self.options.activated.connect(lambda _i: self.answer.setText(self.options.currentText()))
        self.open_session.clicked.connect(self._open)
        self.filter.activated.connect(self._on_filter_activated)
        self.list.selectionModel().currentChanged.connect(self._on_list_current_changed)
        self.model.rowsInserted.connect(self._after_rows_changed)
        self.model.rowsRemoved.connect(self._after_rows_changed)
        self.model.modelReset.connect(self._after_rows_changed)
        QShortcut(QKeySequence("Ctrl+Return"), self, lambda: self._resolve("once"))
        QShortcut(QKeySequence("Ctrl+Shift+Return"), self, lambda: self._resolve("always"))
        QShortcut(QKeySequence("Ctrl+Delete"), self, lambda: self._resolve("deny"))
        QShortcut(QKeySequence("Ctrl+O"), self, self._open)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close)
        self._task_command_shown = False  # the Always button answers a task's command
        self._wider = ""  # the answer of a wider "always" (a prefix, a folder), if offered
        self.resize(820, 520)
        self.refresh_filter()
        self._after_rows_changed()

    # ---------------------------------------------------------------- state

    def refresh_filter(self) -> None:
        current = self.filter.currentData()
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.addItem(self.tr("All sessions"), None)
        titles: dict[str, str] = {}
        for sid in sorted({i.session_id for i in self.inbox.pending()}):
            titles[sid] = self.session_title(sid)
            self.filter.addItem(titles[sid], sid)
        self.model.titles = titles
        idx = self.filter.findData(current)
        self.filter.setCurrentIndex(max(0, idx))
        self.filter.blockSignals(False)

    def session_title(self, session_id: str) -> str:
        """The session's title as the sidebar shows it (never its id)."""
        info = self.sessions.get_session(session_id)
        return (info.title if info is not None else "") or self.tr("Untitled session")

    def _on_filter_activated(self, _index: int) -> None:
        self.model.set_session_filter(self.filter.currentData())

    def current_item(self) -> InboxItem | None:
        idx = self.list.currentIndex()
        return idx.data(ITEM_ROLE) if idx.isValid() else None

    def _after_rows_changed(self, *_args: object) -> None:
        if set(self.model.titles) != {i.session_id for i in self.inbox.pending()}:
            self.refresh_filter()  # an item of a session not listed yet
        n = self.model.rowCount()
        self.count_label.setText(self.tr("{n} pending").format(n=n))
        if n and not self.list.currentIndex().isValid():
            self.list.setCurrentIndex(self.model.index(0, 0))
        self._show(self.current_item())

    def _on_list_current_changed(self, current: QModelIndex, _prev: QModelIndex) -> None:
        self._show(current.data(ITEM_ROLE) if current.isValid() else None)

    def _show(self, item: InboxItem | None) -> None:
        has = item is not None
        approval = has and item is not None and item.kind == "approval"
        self.split.setVisible(has or self.model.rowCount() > 0)
        self.empty.setVisible(self.model.rowCount() == 0)
        for w in (self.kind_label, self.session_label, self.risk_label, self.target_label,
                  self.reason_label, self.arguments, self.open_session):
            w.setEnabled(has)
        self.once.setVisible(approval)
        self.deny.setVisible(approval)
        self.always.setVisible(approval and item is not None and item.can_always)
        whole_tool = parse_tool_key(item.standing_target) if item is not None else None
        self.always.setText(self.tr("A&lways for this tool of this server") if whole_tool
                            else self.tr("A&lways allow"))
        for answer_widget in (self.options, self.answer, self.send_answer):
            answer_widget.setVisible(has and not approval)
        if item is None:
            for label in (self.kind_label, self.session_label, self.headline, self.risk_label,
                          self.target_label, self.reason_label, self.question):
                label.clear()
            self.arguments.clear()
            self.plan_slot.show(None, self._answer_plan)
            self.group_slot.show(None, self._answer_plan)
            return
        self.kind_label.setText(kind_text(item.kind))
        self.session_label.setText(self.model.titles.get(item.session_id)
                                   or self.session_title(item.session_id))
        self.session_label.setAccessibleDescription(self.tr("In the session {title}").format(
            title=self.session_label.text()))
        self.risk_label.setText(risk_text(item.risk) if approval else "—")
        self.risk_label.setToolTip(risk_sentence(item.risk) if approval else "")
        prompt = "" if approval else question_request(item).prompt
        self.headline.setText(approval_question(item.tool, dict(item.arguments), item.target)
                              if approval else "")
        self.headline.setVisible(approval)
        # A question needs no risk or target, and its reason is the question itself.
        self.risk_label.setVisible(approval)
        self.target_label.setVisible(bool(item.target))
        why = reason_text(item.tool, item.reason) if approval else (item.reason or item.title)
        self.reason_label.setVisible(bool(why) and why != prompt)
        self.target_label.setText(self.tr("Target: {target}").format(target=item.target) if item.target else "")
        self.reason_label.setText(why)
        options = list(item.options) or (["approve", "deny"] if item.kind in ("plan", "directory") else [])
        if approval:
            self.question.hide()
            self.arguments.show()
            self.arguments.show_text(arguments_text(item.arguments))
            self._preview(item)
        else:  # the question in words, not the call's JSON
            spec = choices.spec_from(item.arguments) if item.kind == "question" else None
            if spec is not None:  # numbered, as the answer may name them ("2", "1,3")
                prompt += "\n\n" + "\n".join(choices.numbered(spec))
            elif options:
                prompt += "\n\n" + self.tr("Options: {options}").format(options=", ".join(options))
            self.question.setText(prompt)
            self.question.show()
            self.arguments.hide()
            self.arguments.show_text(prompt)
        self.options.clear()
        self.options.addItems(options)
        self.options.setVisible(bool(options) and not approval)
        self._offer_task_command(item if approval else None)
        self._offer_wider(item if approval else None)
        if self.plan_slot.show(item, self._answer_plan):
            for hidden in (self.question, self.options, self.answer, self.send_answer,
                           self.reason_label):  # (a plan's reason is its outcome: on the card)
                hidden.hide()
        if self.group_slot.show(item, self._answer_plan):  # the questions have their picker
            self.question.setText(question_request(item).prompt)
            for hidden in (self.options, self.answer, self.send_answer, self.reason_label):
                hidden.hide()

    def _offer_wider(self, item: InboxItem | None) -> None:
        """A command prefix or a folder's writes, when the engine offered a bound."""
        from openworker_qt.ui.approval_always import scope_words

        words = scope_words(item.risk, item.always_scope) if item is not None else None
        self._wider = words[2] if words is not None else ""
        if words is not None:
            self.always.setVisible(True)
            self.always.setText(words[0])
            self.always.setAccessibleDescription(words[1])

    def _offer_task_command(self, item: InboxItem | None) -> None:
        """A scheduled task's shell command: "always" binds that exact command to the
        task (answered ``always_command``)."""
        from openworker_qt.core.inbox import task_command

        command = task_command(item) if item is not None else None
        self._task_command_shown = command is not None
        for_task = self.tr("A&lways for this task: this exact command")
        if command is None:
            if self.always.text() == for_task:  # (another item's words are left alone)
                self.always.setText(self.tr("A&lways allow"))
            self.always.setAccessibleDescription(
                self.tr("Allow this tool for this exact target from now on"))
            return
        self.always.setVisible(True)
        self.always.setText(for_task)
        self.always.setAccessibleDescription(self.tr(
            "Let this scheduled task run `{command}` from now on without asking; the task's "
            "settings list it, and it can be removed there").format(command=command))

    def _preview(self, item: InboxItem) -> None:
        """What a file-changing call would change, as a diff (read in a worker)."""
        from openworker_qt.ui.approval import PREVIEWED_TOOLS, approval_preview

        if item.tool not in PREVIEWED_TOOLS:
            return
        info = self.sessions.get_session(item.session_id)
        workspace = Path(info.workspace) if info is not None and info.workspace else None

        async def load() -> None:
            try:
                diff = await asyncio.to_thread(approval_preview, item.tool, dict(item.arguments), workspace)
            except Exception:  # a preview is a nicety: the arguments stay shown
                return
            current = self.current_item()
            if diff and current is not None and current.id == item.id:
                self.arguments.show_text(diff)

        spawn(load())

    # -------------------------------------------------------------- actions

    def _resolve(self, resolution: str) -> None:
        item = self.current_item()
        if item is None or item.kind != "approval":
            return
        if resolution == "always" and self._task_command_shown:
            resolution = "always_command"  # the run binds it to its task and the command
        elif resolution == "always" and self._wider:
            resolution = self._wider  # a command prefix or a folder, this session
        elif resolution == "always" and not item.can_always:
            return
        self._answered(item, self.answers.resolve(item.id, resolution, by="inbox"))

    def _answer_plan(self, item: InboxItem, text: str) -> None:
        self._answered(item, self.answers.resolve(item.id, text, by="inbox"))

    def _answer(self) -> None:
        item = self.current_item()
        text = self.answer.text().strip()
        if item is None or item.kind == "approval" or not text:
            return
        spec = choices.spec_from(item.arguments) if item.kind == "question" else None
        if spec is not None:
            try:
                text = choices.normalize(spec, text)
            except ValueError as exc:  # e.g. a number that is no option: nothing is sent
                self.late.setText(self.tr("That answer does not fit the question: {why}.")
                                  .format(why=exc))
                self.late.setAccessibleDescription(self.late.text())
                self.late.show()
                return
        if self._answered(item, self.answers.resolve(item.id, text, by="inbox")):
            self.answer.clear()

    def _answered(self, item: InboxItem, won: bool) -> bool:
        """Say why an answer changed nothing: someone else answered first, or the app
        had closed the item (its list catches up on its own)."""
        current = None if won else self.inbox.inbox.get(item.id)
        if current is None or current.pending:
            self.late.hide()
            return won
        self.late.setText(closed_text(current) or self.tr(
            "#{n} was already answered somewhere else; your answer was not taken.").format(n=item.id))
        self.late.setAccessibleDescription(self.late.text())
        self.late.show()
        return won

    def _open(self) -> None:
        item = self.current_item()
        if item is not None:
            self.open_session_requested.emit(item.session_id)

    def showEvent(self, event: object) -> None:
        self.refresh_filter()
        super().showEvent(event)  # type: ignore[arg-type]
