"""Answering tool calls that will never run, so every later request stays valid: a
call a cut-off or parked turn left open gets its result when the next turn starts
(:meth:`CallCloser.heal`), and the calls a failed turn leaves open get theirs as it
ends (:meth:`CallCloser.after_failure`). Each result says truthfully whether the call
may already have taken effect; the asks still open on those calls are closed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import OpenAsks
from openworker_qt.core.audit import AuditSink
from openworker_qt.core.messages import OpenToolCall, dangling_tool_calls, tool_result
from openworker_qt.core.tool_calls import rerun_key
from openworker_qt.core.tool_step import SessionLog
from openworker_qt.domain.messages import Message, ToolCall

__all__ = [
    "NOT_RUN_AFTER_FAILURE", "NOT_RUN_CUT_OFF", "NOT_RUN_SUPERSEDED", "STARTED_BEFORE_FAILURE",
    "STARTED_CUT_OFF", "CallCloser",
]

log = logging.getLogger(__name__)

NOT_RUN_AFTER_FAILURE = "Not run: an internal error stopped the turn before this call ran."
STARTED_BEFORE_FAILURE = (
    "Stopped by an internal error after this call started: it may already have taken "
    "effect. It was not run again."
)
NOT_RUN_CUT_OFF = (
    "Not run: the turn stopped before this call ran (the app stopped or the turn failed)."
)
NOT_RUN_SUPERSEDED = (
    "Not run: it was still waiting for the user's answer when the conversation moved on "
    "(a new message arrived), so the request was closed."
)
STARTED_CUT_OFF = (
    "Interrupted: this call was started but its result was never recorded (the app stopped "
    "or the turn failed), so it may already have taken effect. It was not run again."
)


def _key(call: OpenToolCall) -> str:
    """The call instance key of a call from :func:`dangling_tool_calls`."""
    return str(call.get("_key") or call.get("id"))


def _ask_keys(calls: Sequence[OpenToolCall]) -> set[str]:
    """The keys every ask of these calls may have: its approval or question, and the
    confirmation to run it again after a restart."""
    return {k for c in calls for k in (_key(c), rerun_key(_key(c)))}


@dataclass(frozen=True, slots=True)
class CallCloser:
    """Closes one session's open calls (see the module docstring); results go to
    ``log``, the audit trail learns each call was interrupted."""

    session_id: str
    log: SessionLog
    asks: OpenAsks | None
    audit: AuditSink | None

    def heal(self, history: Sequence[Message], keep: Sequence[ToolCall]) -> list[ev.Event]:
        """Give every call a cut-off or parked turn left without a result its result
        (``keep``: the calls a resume is about to run); then close the asks those
        calls still had open."""
        kept = {c.get("id") for c in keep}
        calls = [c for c in dangling_tool_calls(history) if c.get("id") not in kept]
        if not calls:
            return []
        waiting = self._asks_waiting(calls)
        out: list[ev.Event] = [
            self._close_call(call, frozenset(), STARTED_CUT_OFF,
                             NOT_RUN_SUPERSEDED if _key(call) in waiting else NOT_RUN_CUT_OFF)
            for call in calls
        ]
        self._supersede_asks(calls)
        return out

    def after_failure(
        self, history: Sequence[Message], started: Collection[str], out: list[ev.Event]
    ) -> None:
        """After a turn failed: every open call gets its result (``started``: the ids
        of calls whose tool began to run), each event added to ``out`` once stored
        (a failing store leaves what it stored announced); then close their asks."""
        calls = dangling_tool_calls(history)
        began = frozenset(started)
        for call in calls:
            out.append(self._close_call(
                call, began, STARTED_BEFORE_FAILURE, NOT_RUN_AFTER_FAILURE))
        self._supersede_asks(calls)

    def _asks_waiting(self, calls: Sequence[OpenToolCall]) -> set[str]:
        """The keys of ``calls`` whose ask (or re-run confirmation) is still open."""
        if self.asks is None:
            return set()
        try:
            open_keys = self.asks.waiting(self.session_id, _ask_keys(calls))
        except Exception:  # only the wording of the results depends on it
            log.exception("could not read the open asks of session %s", self.session_id)
            return set()
        return {_key(c) for c in calls if {_key(c), rerun_key(_key(c))} & open_keys}

    def _supersede_asks(self, calls: Sequence[OpenToolCall]) -> None:
        """Close the asks of calls that now have a result and will never run. After the
        results are stored: the results are what keeps the calls from running."""
        if self.asks is None:
            return
        try:
            self.asks.supersede(self.session_id, _ask_keys(calls))
        except Exception:  # the turn goes on; the late answer changes nothing
            log.exception("could not close the open asks of session %s", self.session_id)

    def _close_call(
        self, call: OpenToolCall, started: frozenset[str], if_started: str, not_run: str
    ) -> ev.ToolFinished:
        """Answer a call that will never run: say whether it may have taken effect."""
        call_id = str(call.get("id"))
        name = str((call.get("function") or {}).get("name", ""))
        began = call_id in started
        if not began and self.audit is not None:
            try:
                began = self.audit.was_started(self.session_id, call_id, call_key=_key(call))
            except Exception:  # unknown: say it may have run
                began = True
        content = if_started if began else not_run
        self.log.append(tool_result(call_id, name, content, status="error"))
        if self.audit is not None:
            with contextlib.suppress(Exception):
                self.audit.record(self.session_id, call_id, name, "interrupted",
                                  call_key=_key(call), status="error")
        return ev.ToolFinished(
            session_id=self.session_id, call_id=call_id, name=name,
            status="error", result=content,
        )
