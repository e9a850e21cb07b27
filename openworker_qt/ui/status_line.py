"""The status line: in words, what the shown session's turn is doing (or waiting
for) and for how long; else how many other sessions are working. While the model is
being waited for (no words of its answer yet, no tool running) a shimmer runs over
the words (:class:`~openworker_qt.ui.motion.Shimmer`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLabel, QWidget

from openworker_qt.core import events as ev
from openworker_qt.core.inbox import InboxItem
from openworker_qt.qt.wording import (
    activity_text,
    answer_opened_text,
    answering_text,
    waiting_for_model_text,
)
from openworker_qt.ui import design
from openworker_qt.ui.motion import Shimmer


class StatusLine(QLabel):
    """See module docstring. ``current()``: the session shown; ``running()``: the
    sessions whose turn runs and ``since(session)`` when it began (the session
    manager's word; the line keeps no copy); ``pending(session)``: its asks waiting
    for the user; ``model_of(session)``: the model it uses ('' when not known);
    ``arguments_of(session, call_id)``: a running tool's arguments."""

    def __init__(self, *, current: Callable[[], str | None],
                 running: Callable[[], Collection[str]],
                 since: Callable[[str], float | None],
                 pending: Callable[[str], list[InboxItem]],
                 model_of: Callable[[str], str],
                 arguments_of: Callable[[str, str], dict[str, object]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(self.tr("Status"))
        self._current = current
        self._running = running
        self._since = since
        self._pending = pending
        self._model_of = model_of
        self._arguments_of = arguments_of
        self._detail: dict[str, str] = {}
        self._answering: set[str] = set()  # sessions whose answer is streaming in
        self._thinking: set[str] = set()  # sessions waiting on the model to start
        self.shimmer = Shimmer(self)
        self._tick = QTimer(self)
        self._tick.setInterval(1000)
        self._tick.timeout.connect(self.refresh)

    # ------------------------------------------------------------------ intake

    def on_text(self, session_id: str) -> None:
        """Words of an answer arrived: the model is answering, no longer waited for."""
        if session_id not in self._answering:
            self._answering.add(session_id)
            self._thinking.discard(session_id)
            self._detail[session_id] = answering_text(self._model_of(session_id))
            if session_id == self._current():
                self.shimmer.set_on(False)

    def on_event(self, event: ev.Event) -> None:
        """What the event says the turn now does (call :meth:`refresh` after)."""
        sid = event.session_id
        self._answering.discard(sid)  # the next words (if any) start a new answer
        if isinstance(event, ev.ToolStarted):
            self._thinking.discard(sid)
            self._detail[sid] = activity_text(event.name, self._arguments_of(sid, event.call_id))
        elif isinstance(event, ev.ProviderRetrying):
            self._detail[sid] = self.tr("Waiting for {provider} · retrying").format(
                provider=event.provider)
        elif isinstance(event, ev.AnswerOpened):
            self._thinking.add(sid)
            self._detail[sid] = answer_opened_text(self._model_of(sid))
        elif isinstance(event, ev.IterationEnded | ev.ToolFinished):
            # (not on an answer's AssistantMessage: the model is called again only after
            # tools ran; the status said "Waiting for…" between a finished answer and its
            # turn's end)
            self._thinking.add(sid)
            self._detail[sid] = waiting_for_model_text(self._model_of(sid))

    def on_running(self, session_id: str, running: bool) -> None:
        """A session's turn began or is over."""
        if running:
            self._thinking.add(session_id)
            self._detail[session_id] = waiting_for_model_text(self._model_of(session_id))
        else:
            self._detail.pop(session_id, None)
            self._answering.discard(session_id)
            self._thinking.discard(session_id)
        if self._running():
            self._tick.start()
        else:
            self._tick.stop()
        self.refresh()

    # ------------------------------------------------------------------ output

    def refresh(self) -> None:
        """Say it again (also every second while a turn runs)."""
        sid = self._current()
        waiting = self._pending(sid) if sid is not None else []
        self.shimmer.set_on(not waiting and sid in self._thinking
                            and sid in self._running())
        if waiting:  # the turn waits on the user, not on the model
            if any(item.kind == "approval" for item in waiting):
                self.setText(self.tr("Waiting for your approval"))
            else:
                self.setText(self.tr("Waiting for your answer"))
        elif sid is not None and (began := self._since(sid)) is not None:
            secs = int(time.monotonic() - began)
            detail = self._detail.get(sid, "") or self.tr("Working")
            self.setText(self.tr("{detail} · {secs} s").format(detail=detail, secs=secs))
        else:
            others = len(self._running())
            if others == 1:
                self.setText(self.tr("Another session is working"))
            elif others:
                self.setText(self.tr("{n} other sessions are working").format(n=others))
            else:
                self.setText(self.tr("Ready"))
        self.setAccessibleDescription(self.text())

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.shimmer.on:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        colours = design.colors(self.palette())
        base = self.palette().color(QPalette.ColorRole.WindowText)
        self.shimmer.paint(painter, self.contentsRect(), self.text(), base,
                           design.mix(base, colours.q("window"), 0.7))
        painter.end()
