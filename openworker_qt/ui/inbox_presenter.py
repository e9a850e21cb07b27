"""Asks waiting for the user, shown in the main window: an inline card on the
call's transcript row for the session on screen (focused when the user watches
it), a dialog for any other attended session; answers go to the
:class:`~openworker_qt.ui.ports.Answers`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from openworker_qt.core.background import spawn
from openworker_qt.core.inbox import InboxItem
from openworker_qt.qt.inbox_bridge import InboxBridge, approval_request, question_request
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui.approval import (
    PREVIEWED_TOOLS,
    ApprovalCard,
    ApprovalDialog,
    QuestionCard,
    approval_preview,
)
from openworker_qt.ui.late_answers import closed_text
from openworker_qt.ui.plan_items import is_plan_item, persona_choices
from openworker_qt.ui.ports import Answers, SessionLookup
from openworker_qt.ui.transcript_view import TranscriptView

if TYPE_CHECKING:
    from openworker_qt.ui.plan_card import PlanCard


class InboxPresenter(QObject):
    """See module docstring. ``window``: the dialogs' parent, whose
    ``watching(session)`` says whether the user looks at a session;
    ``shows(session)``: whether it is the window's current session, its rows painted;
    ``default_folder()``: where a session without its own folder works;
    ``say(text)``: a note for the user (an answer that changed nothing);
    ``answered()``: a card was answered and removed (the focus goes back)."""

    def __init__(self, window: QWidget, *, store: SessionLookup, inbox: InboxBridge,
                 answers: Answers, transcript: TranscriptModel, view: TranscriptView,
                 watching: Callable[[str], bool], shows: Callable[[str], bool],
                 default_folder: Callable[[], Path],
                 say: Callable[[str], None], answered: Callable[[], None]) -> None:
        super().__init__(window)
        self.window = window
        self.store = store
        self.inbox = inbox
        self.answers = answers
        self.transcript = transcript
        self.view = view
        self._watching = watching
        self._shows = shows
        self._default_folder = default_folder
        self._say = say
        self._answered = answered
        #: open approval dialogs by inbox item id
        self.dialogs: dict[int, ApprovalDialog] = {}
        #: whether an ask of a session not watched opens a dialog (tests turn it off)
        self.show_dialogs = True
        self._previews: dict[int, str | None] = {}
        inbox.item_added.connect(self._on_item_added)
        inbox.item_resolved.connect(self._on_item_resolved)
        transcript.located.connect(self._on_call_located)

    def place_pending(self, session_id: str) -> None:
        """The cards of every ask of ``session_id`` still waiting (its rows were just painted)."""
        for item in self.inbox.pending(session_id):
            self.place_card(item)

    def _on_item_added(self, item: InboxItem) -> None:
        spawn(self._present(item))

    async def _present(self, item: InboxItem) -> None:
        preview: str | None = None
        if item.kind == "approval" and item.tool in PREVIEWED_TOOLS:
            info = self.store.get_session(item.session_id)
            workspace = Path(info.workspace) if info and info.workspace else self._default_folder()
            with contextlib.suppress(Exception):
                preview = await asyncio.to_thread(
                    approval_preview, item.tool, item.arguments, workspace)
        if self.inbox.get(item.id) is None:
            return  # answered while we read the file
        self._previews[item.id] = preview
        card = self.place_card(item) if self._shows(item.session_id) else None
        if card is not None and self._watching(item.session_id):
            # The user is looking at the session: its card is the one place to
            # answer (no dialog over it); it takes the focus unless they are typing.
            self._focus_card(card)
            return
        info = self.store.get_session(item.session_id)
        attended = info is not None and not info.unattended
        if item.kind == "approval" and self.show_dialogs and attended:
            self.open_dialog(item)

    def _focus_card(self, card: QWidget) -> None:
        """Give ``card`` the keyboard focus (its Approve button, or its answer field),
        unless the user is typing: a draft being written keeps its focus, so a
        keystroke meant for it never answers the ask (Ctrl+Shift+A still does)."""
        focus = QApplication.focusWidget()
        if isinstance(focus, QLineEdit | QPlainTextEdit | QTextEdit) and not focus.isReadOnly():
            typed = focus.text() if isinstance(focus, QLineEdit) else focus.toPlainText()
            if typed.strip():
                return
        card.setFocus(Qt.FocusReason.OtherFocusReason)

    def place_card(self, item: InboxItem) -> QWidget | None:
        """The item's inline card on its tool row (None: the row is not on screen)."""
        call_id = item.tool_call_id or ""
        if (placed := self.view.card_for(call_id)) is not None:
            return placed
        row = self.transcript.mark_awaiting(call_id, item.id, reason=item.reason,
                                            target=item.target or "")
        if row is None:
            return None
        card: ApprovalCard | QuestionCard | PlanCard
        if is_plan_item(item.tool, item.arguments):
            from openworker_qt.ui.plan_card import PlanCard  # (the team model with it)

            card = PlanCard(item.arguments, persona_choices())
        elif item.kind == "approval":
            card = ApprovalCard(approval_request(item), self._previews.get(item.id))
        else:
            card = QuestionCard(question_request(item))
        card.answered.connect(lambda v, i=item.id: self._answer_item(i, v, "card"))
        self.view.set_card(call_id, card)
        self.view.scrollTo(self.transcript.index(row, 0))
        return card

    def _on_call_located(self, call_id: str) -> None:
        """A waiting call's row was in an older page, read now: its card goes on it."""
        for item in self.inbox.pending(self.transcript.session_id):
            if (item.tool_call_id or "") == call_id:
                self.place_card(item)

    def open_dialog(self, item: InboxItem) -> None:
        """The approval's dialog (over the window), unless it is open already."""
        if item.id in self.dialogs:
            return
        info = self.store.get_session(item.session_id)
        dialog = ApprovalDialog(approval_request(item), self._previews.get(item.id),
                                session_title=info.title if info else "", parent=self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.answered.connect(lambda v, i=item.id: self._answer_item(i, v, "dialog"))
        dialog.destroyed.connect(lambda _=None, i=item.id: self.dialogs.pop(i, None))
        self.dialogs[item.id] = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    def _answer_item(self, item_id: int, resolution: str, by: str) -> None:
        """Answer from a card or dialog; an answer to an item the app had already
        closed (noticed late, from another process) says why it changed nothing."""
        if self.answers.resolve(item_id, resolution, by=by):
            return
        current = self.inbox.lookup(item_id)
        closed = closed_text(current) if current is not None else None
        if closed:
            self._say(closed)

    def _on_item_resolved(self, item: InboxItem) -> None:
        self._previews.pop(item.id, None)
        dialog = self.dialogs.pop(item.id, None)
        if dialog is not None:
            dialog.dismiss()
        call_id = item.tool_call_id or ""
        if item.session_id != self.transcript.session_id:
            return
        self.transcript.mark_resolved(call_id, item.id)
        if self.view.card_for(call_id) is not None:
            self.view.set_card(call_id, None)
            self._answered()

    def answer_focused(self, outcome: str, focus: QWidget | None, session_id: str | None) -> None:
        """Approve/deny the request of the card holding ``focus``, or else the oldest
        of ``session_id``."""
        for card in self.view.cards():
            if isinstance(card, ApprovalCard) and focus is not None and card.isAncestorOf(focus):
                req = card.panel.request
                item = self.inbox.find(req.session_id, req.call_id)
                if item is not None:
                    self.answers.resolve(item.id, outcome, by="shortcut")
                return
        for item in self.inbox.pending(session_id, kind="approval"):
            self.answers.resolve(item.id, outcome, by="shortcut")
            return
