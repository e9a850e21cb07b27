"""What the engine bridge says happens, routed to the main window's parts: the
status line, the session loader (something arrived), the outbox (a turn started,
was refused, took in steering, ended), the transcript and the banner of the
session on screen, its to-do list, deliverables and model picker, the usage
label, the sidebar's badges and the composer's Stop."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from openworker_qt.core import events as ev
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.session_model import SessionListModel
from openworker_qt.qt.transcript_items import content_text
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.ui import banner as actions
from openworker_qt.ui.banner import Banner
from openworker_qt.ui.composer import Composer
from openworker_qt.ui.outbox import Outbox
from openworker_qt.ui.ports import SessionLookup
from openworker_qt.ui.session_loader import SessionLoader
from openworker_qt.ui.status_line import StatusLine
from openworker_qt.ui.usage_label import UsageLabel


class LiveEvents(QObject):
    """See module docstring. ``current()``: the window's current session;
    ``shows(session)``: whether it is the current one with its rows painted;
    ``listed()``: the sessions' list changed (a turn began or ended, a first
    message named a session).

    Signals:
        first_deliverable(): the session on screen made its first deliverable.
    """

    first_deliverable = Signal()

    def __init__(self, bridge: EngineBridge, *, store: SessionLookup,
                 transcript: TranscriptModel, sessions: SessionListModel, composer: Composer,
                 banner: Banner, status: StatusLine, loader: SessionLoader, outbox: Outbox,
                 usage: UsageLabel, current: Callable[[], str | None],
                 shows: Callable[[str], bool], listed: Callable[[], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.transcript = transcript
        self.sessions = sessions
        self.composer = composer
        self.banner = banner
        self.status = status
        self.loader = loader
        self.outbox = outbox
        self.usage = usage
        self._current = current
        self._shows = shows
        self._listed = listed
        bridge.event_received.connect(self.on_event)
        bridge.text_appended.connect(self.on_text)
        bridge.reasoning_appended.connect(self.on_reasoning)
        bridge.running_changed.connect(self.on_running)

    def on_text(self, session_id: str, text: str) -> None:
        self.loader.arrived(session_id)
        self.status.on_text(session_id)
        if self._shows(session_id):
            self.transcript.append_text(text)

    def on_reasoning(self, session_id: str, text: str) -> None:
        self.loader.arrived(session_id)
        if self._shows(session_id):
            self.transcript.append_reasoning(text)

    def on_running(self, session_id: str, running: bool) -> None:
        """The manager says a session's turn began or is over (the one word on it)."""
        self.sessions.running_changed(session_id)
        self.status.on_running(session_id, running)
        if session_id == self._current():
            self.composer.set_running(running)

    def on_event(self, event: ev.Event) -> None:
        sid = event.session_id
        self.loader.arrived(sid)
        self.status.on_event(event)
        if isinstance(event, ev.TurnStarted):
            self.outbox.started(sid)  # past the lease: the message will be stored
        elif isinstance(event, ev.ErrorOccurred) and event.kind == "busy":
            # Refused before anything was stored: no transcript row, no Retry.
            if not self.outbox.refused(sid) and sid == self._current():
                self.banner.show_message(self.tr(
                    "Not started: another OpenWorker window or process is working on this "
                    "session. Try again when that turn has ended, or stop it there."))
            return
        steering = (isinstance(event, ev.UserMessageAdded)
                    and event.message.get("source") == "steering")
        if steering:
            self.outbox.steering_taken(sid)
        if sid == self._current():
            self._beside_rows(event)
        if self._shows(sid):  # (a session the user just left paints nothing here)
            self._paint(event, steering)
        if isinstance(event, ev.TurnEnded):
            self.outbox.offer_back(sid)
        self.usage.on_event(event)
        if isinstance(event, ev.TurnStarted | ev.TurnEnded | ev.UserMessageAdded):
            self._listed()  # (the first message names a new session)
        self.status.refresh()

    def _paint(self, event: ev.Event, steering: bool) -> None:
        """The event in the rows on screen (steering shown queued settles in place),
        and in the banner when the turn failed or hit its limit."""
        if not (steering and isinstance(event, ev.UserMessageAdded) and self.transcript.settle_queued(
                content_text(event.message.get("content"))[0])):
            self.transcript.apply(event)
        if isinstance(event, ev.ErrorOccurred):
            self.banner.show_message(
                self.tr("The turn failed: {message}").format(message=event.message),
                self.tr("Retry"), action_id=actions.RETRY)
        elif isinstance(event, ev.TurnEnded) and event.status == "max_iterations":
            self.banner.show_message(event.detail, error=False)

    def _beside_rows(self, event: ev.Event) -> None:
        """What an event of the current session changes beside its rows: the model
        picker (switched elsewhere: the CLI, a tool), the to-do list, the deliverables."""
        if isinstance(event, ev.NoticeAdded) and event.kind == "model_switch":
            info = self.store.get_session(event.session_id)
            if info is not None and info.model:
                self.composer.show_model(info.model)
        elif isinstance(event, ev.ToolFinished):
            panels = self.loader.panels
            first = not panels.state.deliverables
            if panels.apply(event.name, event.status, event.display) is not None and first:
                self.first_deliverable.emit()
