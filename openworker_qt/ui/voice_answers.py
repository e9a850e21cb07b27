"""Answering the focused approval by voice, after an on-screen confirmation.

When a transcript (the composer's mic, or push-to-talk anywhere) is a short
"approve"/"deny" in English or Chinese (voice/commands.py, matched locally) and
an approval card has the keyboard focus, :meth:`VoiceAnswers.offer` does not put
the word in a message box: it asks "Approve <tool>?" in a window-modal box, and
only the user's click on the confirming button resolves the request (recorded as
answered ``by="voice"``). Cancel leaves the request pending.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from openworker_qt.ui.approval import ApprovalCard
from openworker_qt.voice.commands import match_answer


class VoiceAnswers(QObject):
    """See module docstring. ``window`` has ``view.cards()``, ``inbox``, ``answers``."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.box: QMessageBox | None = None

    def focused_card(self) -> ApprovalCard | None:
        focus: QWidget | None = self.window.focusWidget()
        if focus is None:
            return None
        for card in self.window.view.cards():
            if isinstance(card, ApprovalCard) and (card is focus or card.isAncestorOf(focus)):
                return card
        return None

    def offer(self, text: str) -> bool:
        """True when ``text`` was taken as an answer (a confirmation is showing)."""
        answer = match_answer(text)
        card = self.focused_card() if answer is not None else None
        if card is None:
            return False
        request = card.panel.request
        item = self.window.inbox.find(request.session_id, request.call_id)
        if item is None:
            return False
        if answer == "approve":
            question = self.tr("You said “{text}”. Approve {tool} once?").format(
                text=text.strip(), tool=request.tool)
            confirm_text, resolution = self.tr("Approve"), "once"
        else:
            question = self.tr("You said “{text}”. Deny {tool}?").format(
                text=text.strip(), tool=request.tool)
            confirm_text, resolution = self.tr("Deny"), "deny"
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Answer by voice"), question,
                          QMessageBox.StandardButton.Cancel, self.window)
        box.setObjectName("voiceAnswerConfirm")
        box.setWindowModality(Qt.WindowModality.WindowModal)
        confirm = box.addButton(confirm_text, QMessageBox.ButtonRole.AcceptRole)
        confirm.setObjectName("confirmVoiceAnswer")
        item_id = item.id
        confirm.clicked.connect(
            lambda: self.window.answers.resolve(item_id, resolution, by="voice"))
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.open()
        self.box = box
        return True
