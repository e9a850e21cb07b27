"""The one reducer from a session's history and live events to transcript rows.

A session is shown the same way whether it is read back from the store or
watched live: :class:`TranscriptReducer` holds the rules for both.
:meth:`~TranscriptReducer.apply_message` takes a stored message,
:meth:`~TranscriptReducer.apply_event` a live engine event, and every event
that announces a stored message is reduced *through that message* (the events
carry it, or, for a tool result, everything it holds). So the rows of a session
reloaded from the store equal the rows its live event stream built, field by
field (tests/qt/test_transcript_equivalence.py drives a real engine through
every event kind to check it).

Whether a call waits for the user is not history: it is the inbox's state.
:meth:`~TranscriptReducer.mark_awaiting` and
:meth:`~TranscriptReducer.mark_resolved` lay it over the rows, from the inbox's
pending items, for a stored session and a live one alike (events that say "the
engine is about to ask" change no row).

No Qt here: stored history is reduced in a worker thread when a session opens
(a 10,000-message session must not block the loop). The rows live in a
:class:`RowSink`: a plain :class:`ListRows` here, the
:class:`~openworker_qt.qt.transcript_window.TranscriptWindow` on screen, whose
:class:`~openworker_qt.qt.transcript_model.TranscriptModel` announces each change
to its views.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from openworker_qt.core import events as ev
from openworker_qt.domain.messages import Message
from openworker_qt.domain.slack_header import plain_header
from openworker_qt.qt.transcript_items import TranscriptItem, content_text, parse_arguments

# The engine stores this text on the notice of every stop (core/engine.py, tool_step.py);
# the Interrupted event that announces it carries no text.
STOPPED_TEXT = "Stopped by user."
#: The notice kind of the transient "waiting for <provider> · retrying 2/4" row: never
#: stored, replaced by the next retry, dropped by whatever the turn does next.
WAITING = "waiting"
FINISHED = frozenset({"ok", "error", "denied", "interrupted"})
#: Characters of a running call's output a tool row keeps (the end).
PROGRESS_KEEP = 4_000


class RowSink(Protocol):
    """Where the reducer's rows live. The reducer only ever appends a row,
    changes the last row or a tool row, or drops the last row."""

    def last_row(self) -> TranscriptItem | None: ...

    def find_tool(self, call_id: str) -> TranscriptItem | None: ...

    def append(self, item: TranscriptItem) -> int: ...

    def row_changed(self, item: TranscriptItem) -> None: ...

    def drop_last(self) -> None: ...


class ListRows:
    """Rows in a list; a call id names its newest tool row."""

    __slots__ = ("rows", "tools")

    def __init__(self) -> None:
        self.rows: list[TranscriptItem] = []
        self.tools: dict[str, TranscriptItem] = {}

    def last_row(self) -> TranscriptItem | None:
        return self.rows[-1] if self.rows else None

    def find_tool(self, call_id: str) -> TranscriptItem | None:
        return self.tools.get(call_id)

    def append(self, item: TranscriptItem) -> int:
        self.rows.append(item)
        if item.kind == "tool":
            self.tools[item.call_id] = item
        return len(self.rows) - 1

    def row_changed(self, item: TranscriptItem) -> None:
        item.touch()

    def drop_last(self) -> None:
        item = self.rows.pop()
        if item.kind == "tool" and self.tools.get(item.call_id) is item:
            del self.tools[item.call_id]


class TranscriptReducer:
    """Stored messages and live events → rows in ``sink`` (see module docstring)."""

    __slots__ = ("sink",)

    def __init__(self, sink: RowSink | None = None) -> None:
        self.sink: RowSink = sink if sink is not None else ListRows()

    @property
    def rows(self) -> list[TranscriptItem]:
        """The rows, when the sink is a :class:`ListRows`."""
        assert isinstance(self.sink, ListRows)
        return self.sink.rows

    # ------------------------------------------------------------ stored history

    def apply_messages(self, messages: Iterable[Mapping[str, Any]]) -> None:
        for message in messages:
            self.apply_message(message)

    def apply_message(self, msg: Mapping[str, Any]) -> None:
        """One stored message (or the message a live event announces)."""
        role = msg.get("role")
        if role == "assistant":
            self._assistant(msg)
        elif role == "tool":
            self._tool_result(msg)
        elif role == "user":
            self._end_streaming()
            text, names = content_text(msg.get("content"))
            # A Slack message's header for the model, in plain words ("From @ana in #sales").
            if text.startswith("[Slack message"):
                text = plain_header(text) or text
            self.sink.append(TranscriptItem(
                "user", text=text, attachments=names, source=str(msg.get("source") or "user"),
                ts=float(msg.get("ts") or 0.0)))
        elif role == "notice":
            self._end_streaming()
            self.sink.append(TranscriptItem(
                "notice", notice_kind=str(msg.get("kind") or ""), text=str(msg.get("text") or ""),
                ts=float(msg.get("ts") or 0.0)))
        # Anything else (system prompts, roles a newer version adds) shows no row.

    def _assistant(self, msg: Mapping[str, Any]) -> None:
        content = msg.get("content")
        text = content if isinstance(content, str) else ""
        reasoning = str(msg.get("reasoning") or "")
        ts = float(msg.get("ts") or 0.0)
        last = self.sink.last_row()
        if last is not None and last.kind == "assistant" and last.streaming:
            # The stored message is the truth: the provider may have replaced the
            # streamed text, and what was stored may be redacted.
            if text or reasoning:
                last.text, last.reasoning, last.streaming = text, reasoning, False
                last.partial, last.ts = str(msg.get("partial") or ""), ts
                self.sink.row_changed(last)
            else:
                self.sink.drop_last()
        elif text or reasoning:
            self.sink.append(TranscriptItem(
                "assistant", text=text, reasoning=reasoning,
                partial=str(msg.get("partial") or ""), ts=ts))
        for call in msg.get("tool_calls") or ():
            fn = call.get("function") or {}
            self.sink.append(TranscriptItem(
                "tool", call_id=str(call.get("id")), name=str(fn.get("name", "")),
                arguments=parse_arguments(fn.get("arguments")), status="pending", ts=ts))

    def _tool_result(self, msg: Mapping[str, Any]) -> None:
        item = self.sink.find_tool(str(msg.get("tool_call_id")))
        if item is None:
            return  # a result without its call (an unreadable message): nothing to attach to
        item.status = str(msg.get("status") or "ok")
        item.result = str(msg.get("content") or "")
        item.progress = ""  # the result replaces what streamed
        item.rule = str(msg.get("rule") or "")
        display = msg.get("_display")
        item.display = dict(display) if isinstance(display, Mapping) else {}
        item.duration = _seconds(msg.get("duration"))
        _stop_waiting(item)
        self.sink.row_changed(item)

    # ---------------------------------------------------------------- live events

    def apply_event(self, event: Any) -> None:
        """One live event. Kinds this reducer does not know change no row."""
        if isinstance(event, ev.ProviderRetrying):
            self._show_waiting(event)
            return
        self._drop_waiting()
        if isinstance(event, ev.AssistantDelta):
            self.append_text(event.text)
        elif isinstance(event, ev.ReasoningDelta):
            self.append_reasoning(event.text)
        elif isinstance(event, ev.UserMessageAdded | ev.AssistantMessage):
            self.apply_message(event.message)
        elif isinstance(event, ev.ToolFinished):
            finished = self._call_row(event.call_id, event.name)
            if finished.started:
                finished.finished = time.time()
            self._tool_result({
                "role": "tool", "tool_call_id": event.call_id, "content": event.result,
                "status": event.status, "rule": event.rule, "_display": event.display,
                "duration": event.duration,
            })
        elif isinstance(event, ev.ToolProgress):
            item = self._call_row(event.call_id, event.name)
            if item.status not in FINISHED:
                item.progress = (item.progress + event.text)[-PROGRESS_KEEP:]
                self.sink.row_changed(item)
        elif isinstance(event, ev.ToolStarted):
            item = self._call_row(event.call_id, event.name)
            item.status = "running"
            item.started = time.time()
            _stop_waiting(item)
            self.sink.row_changed(item)
        elif isinstance(event, ev.ToolProposed):
            # Its row came with the assistant message (or the stored history of a
            # resumed turn); a call seen first here gets one.
            self._call_row(event.call_id, event.name, event.arguments)
        elif isinstance(event, ev.NoticeAdded):
            self.apply_message({"role": "notice", "kind": event.kind, "text": event.text,
                                "ts": time.time()})
        elif isinstance(event, ev.ErrorOccurred):
            self._end_streaming(partial="error")
            self.apply_message({"role": "notice", "kind": "error", "text": event.message,
                                "ts": time.time()})
        elif isinstance(event, ev.Interrupted):
            self._end_streaming(partial="interrupted")
            self.apply_message({"role": "notice", "kind": "interrupted", "text": STOPPED_TEXT,
                                "ts": time.time()})
        elif isinstance(event, ev.TurnEnded):
            self._end_streaming()
        # TurnStarted, IterationEnded: no row. PermissionRequired, QuestionRequested,
        # PlanRequested, DirectoryRequested: the wait shows once the inbox holds the
        # item (mark_awaiting), for a live session as for a reopened one.

    def _show_waiting(self, event: ev.ProviderRetrying) -> None:
        # The fields, so the window words it in the user's language (qt/wording.py);
        # the core's English line stays as the plain text.
        fields = {"provider": event.provider, "attempt": event.attempt,
                  "max_attempts": event.max_attempts, "kind": event.kind,
                  "reason": event.reason, "delay": event.delay}
        last = self.sink.last_row()
        if last is not None and last.kind == "notice" and last.notice_kind == WAITING:
            last.text = event.text()
            last.display = fields
            self.sink.row_changed(last)
        else:
            self.sink.append(TranscriptItem("notice", notice_kind=WAITING, text=event.text(),
                                            display=fields, ts=time.time()))

    def _drop_waiting(self) -> None:
        last = self.sink.last_row()
        if last is not None and last.kind == "notice" and last.notice_kind == WAITING:
            self.sink.drop_last()

    def append_text(self, text: str) -> None:
        """Streamed assistant text (deltas, possibly coalesced)."""
        self._drop_waiting()
        if text:
            item = self._streaming_row()
            item.text += text
            self.sink.row_changed(item)

    def append_reasoning(self, text: str) -> None:
        self._drop_waiting()
        if text:
            item = self._streaming_row()
            item.reasoning += text
            self.sink.row_changed(item)

    def _streaming_row(self) -> TranscriptItem:
        last = self.sink.last_row()
        if last is not None and last.kind == "assistant" and last.streaming:
            return last
        item = TranscriptItem("assistant", streaming=True, ts=time.time())
        self.sink.append(item)
        return item

    def _end_streaming(self, partial: str = "") -> None:
        """The streamed reply ends without its message: what streamed stays, as the
        engine stored it (a partial reply is stored only when something streamed)."""
        last = self.sink.last_row()
        if last is None or last.kind != "assistant" or not last.streaming:
            return
        if not (last.text or last.reasoning):
            self.sink.drop_last()
            return
        last.streaming = False
        last.partial = partial
        self.sink.row_changed(last)

    def _call_row(self, call_id: str, name: str,
                  arguments: Mapping[str, Any] | None = None) -> TranscriptItem:
        item = self.sink.find_tool(call_id)
        if item is None:
            item = TranscriptItem("tool", call_id=call_id, name=name, status="pending",
                                  arguments=dict(arguments or {}), ts=time.time())
            self.sink.append(item)
        return item

    # ------------------------------------------------------------ the inbox overlay

    def mark_awaiting(self, call_id: str, item_id: int, *, reason: str = "",
                      target: str = "") -> TranscriptItem | None:
        """The call waits for inbox item ``item_id`` (an approval or a question).

        Only a call that has neither started nor finished can wait: an item the
        engine has already moved past (answered elsewhere, a stale item) changes
        nothing. Returns the row, or ``None``.
        """
        item = self.sink.find_tool(call_id)
        if item is None or item.status not in ("pending", "awaiting"):
            return None
        item.status = "awaiting"
        item.waiting_on = item_id
        item.reason = reason
        item.target = target
        self.sink.row_changed(item)
        return item

    def mark_resolved(self, call_id: str, item_id: int) -> TranscriptItem | None:
        """Inbox item ``item_id`` was answered (here or in another process): a row
        still waiting on it is pending again until the engine says what ran."""
        item = self.sink.find_tool(call_id)
        if item is None or item.status != "awaiting" or item.waiting_on != item_id:
            return None
        item.status = "pending"
        _stop_waiting(item)
        self.sink.row_changed(item)
        return item


def _seconds(value: Any) -> float | None:
    """A stored duration, or None when there is none (an older row) or it is not a
    number of seconds (a hand-edited database)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value < 1e9 else None


def _stop_waiting(item: TranscriptItem) -> None:
    item.waiting_on = 0
    item.reason = ""
    item.target = ""


def items_from_history(history: Sequence[Mapping[str, Any]]) -> list[TranscriptItem]:
    """Rows for a stored history (pure; safe in a worker thread)."""
    reducer = TranscriptReducer()
    reducer.apply_messages(history)
    return reducer.rows


class MessagePages(Protocol):
    """The paging reads of :class:`~openworker_qt.storage.conversations.ConversationStore`."""

    def newest_messages(
        self, session_id: str, limit: int = ...
    ) -> tuple[list[Message], int | None]: ...

    def messages_before(
        self, session_id: str, before_id: int, *, chunk: int = ...
    ) -> list[Message]: ...


def newest_page(store: MessagePages, session_id: str,
                limit: int | None = None) -> tuple[list[TranscriptItem], int | None]:
    """Rows of the newest stored page, and the id where older messages end (worker thread)."""
    if limit is None:
        messages, before = store.newest_messages(session_id)
    else:
        messages, before = store.newest_messages(session_id, limit)
    return items_from_history(messages), before


def older_items(store: MessagePages, session_id: str, before_id: int,
                chunk: int | None = None) -> list[TranscriptItem]:
    """Rows of every stored message older than ``before_id`` (worker thread)."""
    if chunk is None:
        messages = store.messages_before(session_id, before_id)
    else:
        messages = store.messages_before(session_id, before_id, chunk=chunk)
    return items_from_history(messages)
