"""Messages the window handed to the session manager and not yet taken in: one
refused because another driver has the session goes back into the message box
(with a banner saying why); steering a turn did not take in (it was stopped, or
ended first) is offered back there too. Nothing typed is lost, and nothing goes
into a later, unrelated turn. For a session not on screen it waits until the
user opens it again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from openworker_qt.core.sessions import SessionManager
from openworker_qt.qt.transcript_items import content_text
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui.attachments import Attachment
from openworker_qt.ui.composer import Composer

Message = tuple[str, list[Attachment]]


class Outbox(QObject):
    """See module docstring. ``current()``: the window's current session;
    ``shows(session)``: whether it is the current one with its rows painted;
    ``warn(text)``: the banner; ``note(text)``: a passing note in the status bar."""

    def __init__(self, manager: SessionManager, composer: Composer, transcript: TranscriptModel,
                 *, current: Callable[[], str | None], shows: Callable[[str], bool],
                 warn: Callable[[str], None],
                 note: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.manager = manager
        self.composer = composer
        self.transcript = transcript
        self._current = current
        self._shows = shows
        self._warn = warn
        self._note = note
        # session id -> a message handed to the manager for a new turn, until the turn
        # has started (then it is stored) or was refused (then it is put back).
        self._unsent: dict[str, Message] = {}
        self._refused: dict[str, Message] = {}  # for another session
        # Steering sent while a turn runs and not taken in yet, oldest first: offered
        # back (into the message box) if the turn stops or ends without it.
        self._queued: dict[str, list[Message]] = {}
        self._offered: dict[str, list[Message]] = {}  # for another session

    def send(self, session_id: str, model: str, text: str, parts: list[dict[str, Any]]) -> bool:
        """Hand the composer's message to the manager with ``model``: a new turn (True),
        or steering for the running one (False; shown at once under the live rows)."""
        info = self.manager.store.get_session(session_id)
        if info is not None and info.model != model and not self.manager.is_running(session_id):
            # what the picker shows is what is used (a stored blank model included)
            self.manager.switch_model(session_id, model)
        content: str | list[dict[str, object]] = text
        if parts:
            content = [*parts, {"type": "text", "text": text}] if text else list(parts)
        # The user's row appears from the engine's UserMessageAdded event, for a new
        # turn and for steering alike (attachments included).
        paths = {p.get("path") for p in parts}  # (the signal hands over copies of the parts)
        sent = [a for a in self.composer.last_attachments if a.part.get("path") in paths]
        if self.manager.is_running(session_id):
            self.manager.send(session_id, content)
            self._queued.setdefault(session_id, []).append((text, sent))
            if self._shows(session_id) and text:
                self.transcript.add_queued(text)
            return False
        self._unsent[session_id] = (text, sent)
        self.manager.send(session_id, content)
        return True

    def started(self, session_id: str) -> None:
        """The turn started: past the lease, its message will be stored."""
        self._unsent.pop(session_id, None)

    def refused(self, session_id: str) -> bool:
        """The turn was refused (another driver has the session): its message goes
        back. False when no message of ours was waiting."""
        unsent = self._unsent.pop(session_id, None)
        if unsent is None:
            return False
        self._put_back(session_id, *unsent)
        return True

    def steering_taken(self, session_id: str) -> None:
        """The oldest steering message was taken into the turn."""
        if self._queued.get(session_id):
            self._queued[session_id].pop(0)  # no longer to offer back

    def opened(self, session_id: str) -> None:
        """The user came back to ``session_id``: what waited for it goes back."""
        if (refused := self._refused.pop(session_id, None)) is not None:
            self._put_back(session_id, *refused)
        for text, attachments in self._offered.pop(session_id, []):
            self.composer.restore(text, attachments)

    def _put_back(self, session_id: str, text: str, attachments: list[Attachment]) -> None:
        """A message another driver of the session kept from being sent: back into
        the composer, and a banner saying why (no Retry: send it again when free)."""
        if session_id != self._current():  # the user moved on: put back on return
            self._refused[session_id] = (text, attachments)
            return
        self.composer.restore(text, attachments)
        self._warn(self.tr(
            "Your message was not sent: another OpenWorker window or process is working "
            "on this session. It is back in the message box; send it again when that turn "
            "has ended, or stop it there."))

    def offer_back(self, session_id: str) -> None:
        """Steering the turn did not take in (it was stopped, or ended first) goes
        back into the message box."""
        taken = self.manager.take_steering(session_id)
        queued = self._queued.pop(session_id, [])
        if not taken:
            return
        back = queued[-len(taken):] if len(queued) >= len(taken) else [
            (content_text(c)[0], []) for c in taken]
        if self._shows(session_id):
            self.transcript.drop_queued()
        if session_id != self._current():
            self._offered.setdefault(session_id, []).extend(back)
            return
        for text, attachments in back:
            self.composer.restore(text, attachments)
        self._note(self.tr(
            "Your message was not sent: the turn ended first. It is back in the message box."))
