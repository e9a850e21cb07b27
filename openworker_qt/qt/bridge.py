"""EngineBridge: core events → Qt signals, streamed text coalesced per frame.

The bridge registers itself as a :class:`~openworker_qt.core.sessions.SessionManager`
listener. Listeners are called synchronously on the loop thread (qasync runs
asyncio on the Qt thread), so no cross-thread marshalling is needed; what the
bridge adds is *rate control*: a model can emit hundreds of text deltas per
second, and repainting on each would stall the UI. Deltas (and a running tool's
output, :class:`~openworker_qt.core.events.ToolProgress`) are buffered per
session and flushed at most once per frame (~16 ms), and always before any
other event of the same session so order is preserved.

Only plain Python values cross into Qt: session ids as ``str``, payloads as
the frozen event objects themselves (``object`` signals).

Signals:
    event_received(object): every event except text/reasoning deltas, in order (a
        tool's progress pieces of one frame arrive joined, as one ToolProgress).
    text_appended(str, str): session id, coalesced assistant text.
    reasoning_appended(str, str): session id, coalesced reasoning text.
    running_changed(str, bool): a session's turn began or is over, as the manager's
        :class:`~openworker_qt.core.events.RunningChanged` says (the bridge keeps no
        running state: :attr:`EngineBridge.running_sessions` asks the manager).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from openworker_qt.core import events as ev
from openworker_qt.core.sessions import SessionManager

FRAME_MS = 16
#: Characters of one frame's tool output kept when a tool floods (its end).
PROGRESS_KEEP = 8_000


class EngineBridge(QObject):
    """Adapts a SessionManager's event stream to Qt signals (see module docstring)."""

    event_received = Signal(object)
    text_appended = Signal(str, str)
    reasoning_appended = Signal(str, str)
    running_changed = Signal(str, bool)

    def __init__(self, manager: SessionManager, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.manager = manager
        # session id -> (kind, pieces); kind is "text", "reasoning" or, for a tool's
        # progress, its (call id, tool name)
        self._pending: dict[str, list[tuple[str | tuple[str, str], list[str]]]] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self.flush)
        self.flushes = 0  # for tests and the stall benchmark
        # Every manager of the process: a team worker's or a scheduled run's session
        # streams live in the window like one this window's manager drives.
        manager.peers.watch(self._on_manager_event)

    def detach(self) -> None:
        """Stop listening (the manager outlives windows in tests)."""
        self.manager.peers.unwatch(self._on_manager_event)
        self._timer.stop()

    def is_running(self, session_id: str) -> bool:
        return session_id in self.manager.running_sessions()

    @property
    def running_sessions(self) -> frozenset[str]:
        """Every session with a turn going in this process (the manager's word)."""
        return self.manager.running_sessions()

    # ----------------------------------------------------------------- intake

    def _on_manager_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.AssistantDelta | ev.ReasoningDelta | ev.ToolProgress):
            kind: str | tuple[str, str]
            if isinstance(event, ev.ToolProgress):
                kind = (event.call_id, event.name)
            else:
                kind = "text" if isinstance(event, ev.AssistantDelta) else "reasoning"
            runs = self._pending.setdefault(event.session_id, [])
            if runs and runs[-1][0] == kind:
                pieces = runs[-1][1]
                pieces.append(event.text)
                if isinstance(kind, tuple) and len(pieces) > 64:  # a flood: the card shows the end
                    pieces[:] = ["".join(pieces)[-PROGRESS_KEEP:]]
            else:
                runs.append((kind, [event.text]))
            if not self._timer.isActive():
                self._timer.start()
            return
        self._flush_session(event.session_id)
        if isinstance(event, ev.RunningChanged):
            self.running_changed.emit(event.session_id, event.running)
            return
        self.event_received.emit(event)

    # ------------------------------------------------------------------ output

    def flush(self) -> None:
        """Emit every buffered delta now (called by the frame timer)."""
        for sid in list(self._pending):
            self._flush_session(sid)

    def _flush_session(self, session_id: str) -> None:
        runs = self._pending.pop(session_id, None)
        if not runs:
            return
        self.flushes += 1
        for kind, pieces in runs:
            text = "".join(pieces)
            if isinstance(kind, tuple):
                self.event_received.emit(ev.ToolProgress(
                    session_id=session_id, call_id=kind[0], name=kind[1], text=text))
            elif kind == "text":
                self.text_appended.emit(session_id, text)
            else:
                self.reasoning_appended.emit(session_id, text)
