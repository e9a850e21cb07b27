"""The turn engine: one user outcome → model calls, tool calls, a finished answer.

:meth:`TurnEngine.run` is an async generator of :mod:`~openworker_qt.core.events`.
Every surface (window, tray, CLI, Slack, scheduler) consumes the same stream. The event
order, the turn's two steps and the guarantees: ``docs/architecture.md``, "The turn loop".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import uuid
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import Approver as ApproverFn
from openworker_qt.core.approvals import AskForConsequential, Decider, OpenAsks, Questioner
from openworker_qt.core.audit import AuditSink
from openworker_qt.core.context import (
    CHARS_PER_TOKEN,
    COMPACT_AT,
    COMPACTED,
    KEEP_RECENT,
    SUMMARY_SYSTEM,
    Trim,
    TrimIndex,
    budget_for,
    compaction_cut,
    compaction_text,
    estimate_tokens,
    fit_parts,
    latest_compaction,
    summary_message,
    summary_request_text,
)
from openworker_qt.core.messages import (
    Capabilities,
    OpenToolCall,
    dangling_tool_calls,
    has_parts,
    notice,
    now,
    order_tool_results,
    outbound_message,
    pending_tool_calls,
    settled_length,
    tool_result,
    user_message,
)
from openworker_qt.core.provider_api import (
    FinishChunk,
    ModelRequest,
    OpenedChunk,
    ProviderError,
    ProviderResolver,
    ReasoningChunk,
    RetryChunk,
    TextChunk,
    ToolCallChunk,
)
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.core.tool_step import (
    DENIED_RESULT,
    MAX_RESULT_CHARS,
    ParsedCall,
    StepEnd,
    StopRequested,
    StopSignal,
    ToolStep,
    rerun_key,
)
from openworker_qt.domain.arguments import ArgumentsError, map_json, parse_arguments
from openworker_qt.domain.messages import (
    AssistantMessage,
    ContentPart,
    Message,
    MessageT,
    NoticeMessage,
    ToolCall,
    UserMessage,
)
from openworker_qt.domain.text import storable, storable_text
from openworker_qt.domain.usage import Usage

__all__ = [
    "DENIED_RESULT", "MAX_RESULT_CHARS", "HistoryStore", "MemoryHistory", "ModelReply",
    "SessionHistory", "TurnEngine",
]

log = logging.getLogger(__name__)

#: The key of a tool result's ``display`` holding a sub-agent's token usage (the explorer's).
AGENT_USAGE = "agent_usage"
INTERNAL_ERROR_TEXT = (
    "Something went wrong inside OpenWorker, so this turn was stopped. "
    "The details are in the log. You can retry."
)
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


class HistoryStore(Protocol):
    """Where a session's canonical history lives. ``append`` commits durably;
    inside ``batch()`` the appends commit together when the block ends."""

    def load(self, session_id: str) -> list[Message]: ...

    def append(self, session_id: str, message: Message) -> None: ...

    def batch(self) -> contextlib.AbstractContextManager[None]: ...


class MemoryHistory:
    """A history store in memory (sub-agents, tests, benchmarks)."""

    def __init__(self) -> None:
        self.sessions: dict[str, list[Message]] = {}

    def load(self, session_id: str) -> list[Message]:
        return list(self.sessions.get(session_id, []))

    def append(self, session_id: str, message: Message) -> None:
        self.sessions.setdefault(session_id, []).append(message)

    def batch(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


def _scrub(value: Any, redact: Callable[[str], str]) -> Any:
    """``value`` with every string in it redacted. Containers are copied only where a
    string changed (a message rarely holds a secret): otherwise ``value`` itself.
    A structure nested too deep to walk recursively is copied iteratively."""
    try:
        return _scrub_shared(value, redact)
    except RecursionError:
        return map_json(value, lambda v: redact(v) if isinstance(v, str) else v)


def _image_data(value: Any) -> bool:
    """An image attachment's ``data:image/…;base64,`` URL (a user's or a tool's)."""
    return isinstance(value, str) and value.startswith("data:image/") and (
        ";base64," in value[:80])


def _scrub_shared(value: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        out: dict[Any, Any] | None = None
        for key, item in value.items():
            if key == "url" and _image_data(item):
                continue  # an image's bytes, base64: no text to redact, megabytes to scan
            new = _scrub_shared(item, redact)
            if new is not item:
                if out is None:
                    out = dict(value)
                out[key] = new
        return value if out is None else out
    if isinstance(value, list):
        items: list[Any] | None = None
        for i, item in enumerate(value):
            new = _scrub_shared(item, redact)
            if new is not item:
                if items is None:
                    items = list(value)
                items[i] = new
        return value if items is None else items
    return value


class SessionHistory:
    """One session's history as turns write it: each message is redacted, committed
    to the store, then kept in :attr:`messages` (the engine's ``history``)."""

    def __init__(
        self, store: HistoryStore, session_id: str, redact: Callable[[str], str] | None,
        loaded: list[Message] | None = None,
    ) -> None:
        self.store = store
        self.session_id = session_id
        self.redact = redact
        #: ``loaded``: the stored history, already read (in a worker: a long session's
        #: history must not be read on the event loop's thread).
        self.messages: list[Message] = loaded if loaded is not None else store.load(session_id)

    def append(self, message: MessageT) -> MessageT:
        if self.redact is not None:
            # Before storing *and* before it can reach a provider: a tool output or a
            # provider error that echoes a key must not spread it further.
            message = _scrub(message, self.redact)
        self.store.append(self.session_id, message)
        self.messages.append(message)
        return message

    def batch(self) -> contextlib.AbstractContextManager[None]:
        return self.store.batch()

    def writing(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A block of synchronous writes, as one transaction whose write lock is
        awaited without blocking the loop (the store's ``writing()``, when it has
        one: another process holding the database must not freeze the window)."""
        writing = getattr(self.store, "writing", None)
        return writing() if callable(writing) else _no_wait()


@contextlib.asynccontextmanager
async def _no_wait() -> AsyncIterator[None]:
    yield


@dataclass(frozen=True, slots=True)
class ModelReply:
    """How one model call ended: ``ok`` (the reply is stored; ``tool_calls`` are
    the calls it asked for), ``interrupted`` or ``error`` (``detail`` says what)."""

    status: Literal["ok", "interrupted", "error"]
    tool_calls: list[ToolCall] = field(default_factory=list)
    detail: str = ""
    # The step that runs ``tool_calls``, their proposals stored with the reply.
    step: ToolStep | None = None
    proposed: list[ParsedCall] | None = None


class TurnEngine:
    """Runs turns for one session. Not thread-safe: use it on the loop thread."""

    def __init__(
        self,
        *,
        session_id: str,
        store: HistoryStore,
        resolver: ProviderResolver,
        model: str,
        tools: ToolRegistry | None = None,
        decider: Decider | None = None,
        approver: ApproverFn | None = None,
        questioner: Questioner | None = None,
        workspace: Path | None = None,
        system_prompt: str = "",
        max_iterations: int = 25,
        risk_overrides: dict[str, RiskClass] | None = None,
        model_label: Callable[[str], str] | None = None,
        audit: AuditSink | None = None,
        redact: Callable[[str], str] | None = None,
        asks: OpenAsks | None = None,
        compaction: bool = False,
        reminder: Callable[[Sequence[Message]], str] | None = None,
        history: list[Message] | None = None,
    ) -> None:
        self.session_id = session_id
        self.store = store
        self.resolver = resolver
        self.model = model
        self.tools = tools or ToolRegistry()
        self.decider: Decider = decider or AskForConsequential()
        self.approver = approver
        self.questioner = questioner
        self.workspace = (workspace or Path.cwd()).resolve()
        self.system_prompt = system_prompt
        self.max_iterations = max_iterations
        self.risk_overrides = risk_overrides or {}
        self.model_label = model_label or (lambda m: m)
        self.audit = audit
        self.redact = redact
        self.asks = asks
        #: Summarise older turns when the history nears the window (core/context.py).
        self.compaction = compaction
        #: Per-call reminder (mode changes, granted folders, the to-do list): added to
        #: the outbound copy of each request only, never stored.
        self.reminder = reminder
        self.pdf_mode = "text"
        self._schema_size: tuple[tuple[int, tuple[str, ...]], int] | None = None
        self.log = SessionHistory(store, session_id, redact, history)
        self.history: list[Message] = self.log.messages
        self.tool_state: dict[str, Any] = {}
        self.interrupt_hooks: list[Callable[[], None]] = []
        self._steering: list[str | list[ContentPart]] = []
        #: Steering the turn it was queued for ended without taking in: never
        #: delivered into a later turn; :meth:`take_steering` hands it back.
        self._unsent_steering: list[str | list[ContentPart]] = []
        self._stop: StopSignal | None = None  # the running turn's
        self._step: ToolStep | None = None  # the running tool step (waiting_for_user)
        self._provider_wait: asyncio.Task[Any] | None = None
        self._wait_cancelled = False
        self._usage: dict[str, int] = {}
        self._last_trim = Trim()
        self._noticed_trim = Trim()
        self._out_caps: tuple[Capabilities, str] | None = None
        self._out_cache: list[Message | None] = []
        self._out_of: tuple[list[Message], Message | None] | None = None  # what it was made of
        self._out_tokens = 0
        # Ordered once for good: the history's prefix no later message can reorder
        # (core.messages.settled_length), indexed for trimming as it grows; only the
        # tail after it is ordered per call.
        self._out_msgs: list[Message] = []
        self._out_settled = TrimIndex()
        # The compaction note in force, and what it replaces in the outbound copy:
        # (covers, outbound messages skipped, their tokens), computed once per note.
        self._note: NoticeMessage | None = latest_compaction(self.history)
        self._note_skip: tuple[int, int, int] | None = None
        self._estimate = 0  # the last request's estimate before trimming
        self._no_cut_at = -1  # history length at which compaction found nothing to do
        self._out_sizes: dict[int, int] = {}  # id(unsettled outbound copy) -> its estimate

    # ------------------------------------------------------------------ control

    @property
    def running(self) -> bool:
        return self._stop is not None

    @property
    def waiting_for_user(self) -> bool:
        """An approval or a question of the running turn is open."""
        return self._step is not None and self._step.waiting_for_user

    @property
    def running_tools(self) -> bool:
        """The running turn is in a tool step (its calls are asked for or run)."""
        return self._step is not None

    def request_interrupt(self) -> None:
        """Stop the current turn as soon as possible, from any state.

        Hooks run synchronously first (e.g. a shell kills its process group).
        """
        for hook in list(self.interrupt_hooks):
            with contextlib.suppress(Exception):
                hook()
        if self._stop is not None:
            self._stop.set()
        if self._provider_wait is not None and not self._wait_cancelled:
            self._wait_cancelled = True
            self._provider_wait.cancel()

    def queue_steering(self, content: str | list[ContentPart]) -> None:
        """Queue a user message (text or content parts with attachments) to be
        injected after the current step."""
        if isinstance(content, list) and content or isinstance(content, str) and content.strip():
            self._steering.append(content)

    def take_steering(self) -> list[str | list[ContentPart]]:
        """The queued steering not taken in yet (the running turn's, or what an
        ended turn left), removed: a stopped turn offers it back to the user."""
        out = self._unsent_steering + self._steering
        self._unsent_steering, self._steering = [], []
        return out

    def switch_model(self, model: str) -> NoticeMessage | None:
        """Use ``model`` from the next call on; store a notice marking the switch.

        The first bind (no model yet) is silent, the same model is a no-op.
        """
        old = self.model
        self.model = model
        if not old or old == model:
            return None
        label = self.model_label(model)
        text = f"Switched model from {self.model_label(old)} to {label}."
        try:
            caps = self._capabilities()
        except Exception:
            caps = Capabilities()
        if has_parts(self.history, "image_url") and not caps.vision:
            text += f" {label} cannot view images: earlier images are replaced by a placeholder."
        msg = notice("model_switch", text, model=model, previous=old, label=label)
        return self._append(msg)

    def _capabilities(self) -> Capabilities:
        provider, model_id = self.resolver.resolve(self.model)
        return provider.capabilities(model_id)

    # --------------------------------------------------------------- entry points

    async def run(
        self, text: str | list[ContentPart], *, source: str = "user"
    ) -> AsyncIterator[ev.Event]:
        """Append a user message and run the turn to its end."""
        # (storable: a pasted or command-line text may hold a lone surrogate too)
        opening = user_message(storable(text), source=source)
        async for event in self._turn("message", opening=opening):
            yield event

    async def retry(self) -> AsyncIterator[ev.Event]:
        """Re-run the last turn after an error. Yields nothing unless history ends in one."""
        last = next(
            (m for m in reversed(self.history)
             if not (m.get("role") == "notice" and m.get("kind") == "model_switch")),
            None,
        )
        if not last or last.get("role") != "notice" or last.get("kind") != "error":
            return
        async for event in self._turn("retry"):
            yield event

    async def resume(self) -> AsyncIterator[ev.Event]:
        """Continue a turn suspended at unanswered tool calls (after a restart).

        Calls that already have a result are skipped, so nothing runs twice;
        the approver is expected to be idempotent per call id (the inbox is).
        """
        pending = pending_tool_calls(self.history)
        if not pending:
            return
        async for event in self._turn("resume", open_calls=pending):
            yield event

    # ------------------------------------------------------------------ the turn

    async def _turn(
        self,
        reason: str,
        *,
        opening: UserMessage | None = None,
        open_calls: list[ToolCall] | None = None,
    ) -> AsyncIterator[ev.Event]:
        """One turn: heal, add the user's message, then model call → tool step →
        model call … until the model answers without tools, the user stops, a
        limit is hit or something fails. ``open_calls``: a resume starts by running
        the calls an earlier process left without a result."""
        sid = self.session_id
        stop = self._stop = StopSignal()
        self._usage = {}
        iteration = 1 if open_calls else 0
        step: ToolStep | None = None
        try:
            yield ev.TurnStarted(session_id=sid, model=self.model, reason=reason)  # type: ignore[arg-type]
            try:
                # Each block of writes awaits the database's write lock (the loop runs
                # meanwhile) and commits before its events are announced.
                async with self.log.writing():
                    healed = self._heal(keep=open_calls or ())
                for event in healed:
                    yield event
                if opening is not None:
                    async with self.log.writing():
                        opened = self._append(opening)
                    yield ev.UserMessageAdded(session_id=sid, message=opened)
                calls, resuming = open_calls or [], open_calls is not None
                prepared: tuple[ToolStep, list[ParsedCall]] | None = None
                while True:
                    if calls:
                        # Run the calls the model asked for (or a resume found open).
                        step = self._step = prepared[0] if prepared else self._tool_step(stop)
                        ended = StepEnd("done")
                        async for item in step.run(calls, resuming=resuming,
                                                   proposed=prepared[1] if prepared else None):
                            if isinstance(item, StepEnd):
                                ended = item
                            else:
                                if isinstance(item, ev.ToolFinished):
                                    self._add_agent_usage(item.display)
                                yield item
                        self._step = None
                        if ended.status != "done":
                            yield self._end(ended.status, iteration)
                            return
                        yield ev.IterationEnded(session_id=sid, iteration=iteration)
                        # (no empty transaction each step: one commit less; a stopped turn
                        # takes nothing in: what was queued for it is handed back)
                        if self._steering and not stop.requested:
                            async with self.log.writing():
                                steered = self._inject_steering()
                            for event in steered:
                                yield event
                    if stop.requested:
                        async with self.log.writing():
                            self._append(notice("interrupted", "Stopped by user."))
                        yield ev.Interrupted(session_id=sid)
                        yield self._end("interrupted", iteration)
                        return
                    if iteration >= self.max_iterations:
                        text = (
                            f"Stopped after {iteration} steps: the iteration limit "
                            f"({self.max_iterations}) was reached. Send a message to continue."
                        )
                        async with self.log.writing():
                            self._append(notice("max_iterations", text))
                        yield ev.NoticeAdded(session_id=sid, kind="max_iterations", text=text)
                        yield self._end("max_iterations", iteration, detail=text)
                        return
                    # Ask the model.
                    iteration += 1
                    reply = ModelReply("error", detail="the model call ended without a reply")
                    async for out in self._call_model(stop):
                        if isinstance(out, ModelReply):
                            reply = out
                        else:
                            yield out
                    if reply.status != "ok":
                        yield self._end(reply.status, iteration, detail=reply.detail)
                        return
                    calls, resuming = reply.tool_calls, False
                    prepared = ((reply.step, reply.proposed)
                                if reply.step is not None and reply.proposed is not None else None)
                    if not calls:  # an answer: the turn is done, unless the user said more
                        if not self._steering or stop.requested:
                            yield self._end("completed", iteration)
                            return
                        async with self.log.writing():
                            steered = self._inject_steering()
                        for event in steered:
                            yield event
            except Exception as exc:  # not a provider or tool error: those end above
                failed: list[ev.Event] | None = None
                try:
                    async with self.log.writing():
                        failed = self._fail(exc, iteration, step)
                except Exception:  # the store cannot even be locked: write what can be
                    if failed is None:
                        failed = self._fail(exc, iteration, step)
                for event in failed:
                    yield event
        finally:
            if self._stop is stop:  # (an abandoned earlier turn must not clear a newer one)
                self._stop = None
                self._step = None
                # What this turn did not take in is not the next turn's: kept to be
                # handed back (take_steering), never injected later.
                self._unsent_steering += self._steering
                self._steering = []

    def _tool_step(self, stop: StopSignal) -> ToolStep:
        return ToolStep(
            session_id=self.session_id,
            log=self.log,
            tools=self.tools,
            decider=self.decider,
            approver=self.approver,
            questioner=self.questioner,
            audit=self.audit,
            workspace=self.workspace,
            tool_state=self.tool_state,
            stop=stop,
            risk_overrides=self.risk_overrides,
            step_id=self._current_step_id(),
        )

    def _current_step_id(self) -> str | None:
        """The id of the step whose calls run now: minted when its assistant message
        was stored, so a restart finds the same one (None on messages stored before
        step ids existed: their calls keep the vendor id as key)."""
        for message in reversed(self.history):
            if message.get("role") == "assistant":
                step = message.get("step_id")
                return str(step) if step else None
        return None

    def _add_agent_usage(self, display: Mapping[str, Any] | None) -> None:
        """A sub-agent's tokens (``display[AGENT_USAGE]`` of its tool's result) count
        toward this turn's usage: the user pays for them too."""
        usage = display.get(AGENT_USAGE) if display else None
        if isinstance(usage, Mapping):
            for key, value in usage.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    self._usage[str(key)] = self._usage.get(str(key), 0) + value

    def _end(self, status: ev.TurnStatus, iterations: int, detail: str = "") -> ev.TurnEnded:
        return ev.TurnEnded(
            session_id=self.session_id,
            status=status,
            iterations=iterations,
            detail=detail,
            usage=dict(self._usage),
        )

    def _inject_steering(self) -> list[ev.Event]:
        out: list[ev.Event] = []
        while self._steering:
            content = self._steering.pop(0)
            message = self._append(user_message(storable(content), source="steering"))
            out.append(ev.UserMessageAdded(session_id=self.session_id, message=message))
        return out

    def _append(self, message: MessageT) -> MessageT:
        return self.log.append(message)

    # ------------------------------------------------------------ failure paths

    def _heal(self, keep: Sequence[ToolCall]) -> list[ev.Event]:
        """Give every call a cut-off or parked turn left without a result its result,
        so the next request is valid (``keep``: the calls a resume is about to run);
        then close the asks those calls still had open."""
        kept = {c.get("id") for c in keep}
        calls = [c for c in dangling_tool_calls(self.history) if c.get("id") not in kept]
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

    def _fail(self, exc: Exception, iteration: int, step: ToolStep | None) -> list[ev.Event]:
        """End the turn after an unexpected exception: every open call gets a truthful
        result, the user a notice; the detail goes to the log."""
        log.error("turn of session %s failed", self.session_id, exc_info=exc)
        started = frozenset(step.started) if step is not None else frozenset()
        out: list[ev.Event] = []
        try:
            calls = dangling_tool_calls(self.history)
            for call in calls:
                out.append(self._close_call(
                    call, started, STARTED_BEFORE_FAILURE, NOT_RUN_AFTER_FAILURE))
            self._supersede_asks(calls)
            self._append(notice("error", INTERNAL_ERROR_TEXT, error_kind="internal"))
        except Exception:  # the store itself is failing: the next turn heals what is left
            log.exception("could not record the end of the failed turn of %s", self.session_id)
        out.append(ev.ErrorOccurred(
            session_id=self.session_id, message=INTERNAL_ERROR_TEXT, kind="internal",
            retryable=True,
        ))
        out.append(self._end("error", iteration, detail=INTERNAL_ERROR_TEXT))
        return out

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
        self._append(tool_result(call_id, name, content, status="error"))
        if self.audit is not None:
            with contextlib.suppress(Exception):
                self.audit.record(self.session_id, call_id, name, "interrupted",
                                  call_key=_key(call), status="error")
        return ev.ToolFinished(
            session_id=self.session_id, call_id=call_id, name=name, status="error",
            result=content,
        )

    # ------------------------------------------------------------- model calls

    async def _build_request(self, model_id: str, caps: Capabilities) -> ModelRequest:
        # Stored messages never change once appended, so each one's outbound copy is
        # computed once per capability set (bench/engine.py: re-copying the whole
        # history every call was the largest per-iteration cost).
        current = self._outbound_current()
        if not current:  # the note in force is the edited history's
            self._note = latest_compaction(self.history)
            self._no_cut_at = -1
        if (caps, self.pdf_mode) != self._out_caps or not current:
            self._out_caps = (caps, self.pdf_mode)
            self._out_cache = []
            self._out_tokens = 0
            self._out_msgs = []
            self._out_settled = TrimIndex()
            self._out_sizes = {}
            self._note_skip = None
        fresh = self.history[len(self._out_cache):]
        if has_parts(fresh, "file") or has_parts(fresh, "image_url"):
            # PDF extraction is CPU work: keep it off the loop thread.
            mode = self.pdf_mode
            converted = await asyncio.to_thread(
                lambda: [outbound_message(m, caps, pdf_mode=mode) for m in fresh]
            )
        else:
            converted = [outbound_message(m, caps, pdf_mode=self.pdf_mode) for m in fresh]
        self._out_cache.extend(converted)
        self._out_of = (self.history, self.history[-1] if self.history else None)
        kept = [m for m in converted if m is not None]
        self._out_msgs.extend(kept)
        for m in kept:  # (kept by identity: the outbound copies live as long as the cache)
            size = self._out_sizes[id(m)] = estimate_tokens(m)
            self._out_tokens += size
        # Re-ordering the whole history on every model call grew with the turn
        # (bench/engine.py): the settled prefix is ordered once and kept.
        settled = self._out_settled
        tail = self._out_msgs[len(settled):]
        ordered_tail = order_tool_results(tail)
        cut = settled_length(tail)
        if cut:
            for m in ordered_tail[:cut]:
                settled.append(m, self._out_sizes.pop(id(m), None))
            ordered_tail = ordered_tail[cut:]
        tokens = self._out_tokens
        head: list[Message] = []
        skip = 0
        if self._note is not None:  # the note stands in for the messages it covers
            skip, skipped = self._skipped(int(self._note.get("covers") or 0))
            head = [summary_message(str(self._note.get("summary") or ""))]
            tokens += estimate_tokens(head[0]) - skipped
        lo = min(skip, len(settled))
        ordered_tail = ordered_tail[skip - lo:]
        budget = budget_for(caps.context_window)
        # What rides with every call besides the history: the system prompt (the
        # persona, AGENTS.md, memory, skills) and the tool schemas the persona offers.
        system_tokens = (len(self.system_prompt) + self._schema_chars(caps)) // CHARS_PER_TOKEN
        self._estimate = tokens + system_tokens
        messages: list[Message]
        if tokens + system_tokens > budget:  # the common case skips trimming entirely
            known = self._out_sizes
            end = TrimIndex(ordered_tail, [known.get(id(m)) or estimate_tokens(m)
                                           for m in ordered_tail])
            messages, self._last_trim = fit_parts(
                [(TrimIndex(head), 0, len(head)), (settled, lo, len(settled)),
                 (end, 0, len(end))], budget, system_tokens)
        else:
            messages = [*head, *settled.messages[lo:], *ordered_tail]
            self._last_trim = Trim()
        if self.reminder is not None and (reminder := self.reminder(self.history)):
            messages = [*messages, {"role": "user", "content": reminder}]
        return ModelRequest(
            model=model_id,
            messages=messages,
            tools=self.tools.schemas() if caps.tools else [],
            system=self.system_prompt,
        )

    def _outbound_current(self) -> bool:
        """Whether the outbound cache was made of this history (the same list, and the
        message it ended with still in its place): a history edited or replaced under
        the engine gets its outbound copy made again."""
        if self._out_of is None:
            return not self._out_cache
        made_of, last = self._out_of
        n = len(self._out_cache)
        history = self.history
        return made_of is history and len(history) >= n and (
            n == 0 or history[n - 1] is last)

    def _schema_chars(self, caps: Capabilities) -> int:
        """Characters of the tool schemas sent with each call (0 when the model takes no
        tools), kept until the offered tools change."""
        if not caps.tools:
            return 0
        key = (id(self.tools), tuple(self.tools.names()))
        if self._schema_size is None or self._schema_size[0] != key:
            size = len(json.dumps(self.tools.schemas(), ensure_ascii=False))
            self._schema_size = (key, size)
        return self._schema_size[1]

    def _skipped(self, covers: int) -> tuple[int, int]:
        """How many outbound messages (and tokens) the stored ``history[:covers]`` make:
        they come first in the outbound copy (a note's cut is a clean boundary)."""
        if self._note_skip is None or self._note_skip[0] != covers:
            kept = [m for m in self._out_cache[:covers] if m is not None]
            self._note_skip = (covers, len(kept), sum(estimate_tokens(m) for m in kept))
        return self._note_skip[1], self._note_skip[2]

    async def _compact(
        self, provider: Any, model_id: str, caps: Capabilities
    ) -> AsyncIterator[ev.Event]:
        """Ask the model for a note on the older part of the history and store it
        (see core/context.py). A failure leaves trimming to keep the request in bounds."""
        if len(self.history) == self._no_cut_at:
            return
        budget = budget_for(caps.context_window)
        previous = self._note
        start = int(previous.get("covers") or 0) if previous is not None else 0
        sizes = [estimate_tokens(m) if m is not None else 0 for m in self._out_cache]
        cut = compaction_cut(self.history, sizes, start, int(budget * KEEP_RECENT))
        if cut is None:
            self._no_cut_at = len(self.history)
            return
        older = [m for m in self._out_cache[start:cut] if m is not None]
        text = summary_request_text(
            str(previous.get("summary") or "") if previous is not None else "", older,
            limit_chars=int(budget * 0.6) * CHARS_PER_TOKEN,
        )
        request = ModelRequest(model=model_id, messages=[{"role": "user", "content": text}],
                               system=SUMMARY_SYSTEM, max_tokens=2_048)
        parts: list[str] = []
        usage: dict[str, int] = {}
        chunks = provider.stream(request).__aiter__()
        try:
            while True:
                try:
                    item = await self._next_chunk(chunks)
                except StopAsyncIteration:
                    break
                if isinstance(item, TextChunk):
                    parts.append(item.text)
                elif isinstance(item, FinishChunk):
                    usage = dict(item.usage)
        except StopRequested:
            raise
        except Exception:
            log.warning("summarising the older messages of %s failed; trimming instead",
                        self.session_id, exc_info=True)
            self._no_cut_at = len(self.history)
            return
        finally:
            with contextlib.suppress(BaseException):
                await chunks.aclose()
        summary = "".join(parts).strip()
        if not summary:
            self._no_cut_at = len(self.history)
            return
        for key, value in usage.items():
            self._usage[key] = self._usage.get(key, 0) + int(value)
        covered = sum(1 for m in self.history[:cut] if m.get("role") != "notice")
        note = notice(COMPACTED, compaction_text(covered), summary=summary, covers=cut,
                      model=self.model)
        used = Usage.of(usage)
        if used:
            note["usage"] = used.as_dict()
        async with self.log.writing():
            note = self._append(note)
        self._note = note
        yield ev.NoticeAdded(session_id=self.session_id, kind=COMPACTED, text=note["text"])

    async def _next_chunk(self, chunks: AsyncIterator[Any]) -> Any:
        """The provider's next chunk, or :class:`StopRequested` if the user stops first.

        No helper task per chunk (bench/engine.py: a pump task and a queue cost about
        half the streaming throughput): while this task waits on the provider,
        ``request_interrupt`` cancels it, and that one cancellation is taken back here.
        A cancellation from elsewhere (the app quitting) still propagates.
        """
        task = asyncio.current_task()
        self._provider_wait = task
        try:
            return await anext(chunks)
        except asyncio.CancelledError:
            if self._wait_cancelled and task is not None and task.uncancel() == 0:
                raise StopRequested from None
            raise
        finally:
            self._provider_wait = None
            self._wait_cancelled = False

    async def _call_model(self, stop: StopSignal) -> AsyncIterator[ev.Event | ModelReply]:
        """Stream one model call; yield its events, then the :class:`ModelReply`."""
        sid = self.session_id
        text_parts: list[str] = []
        reasoning_parts: list[str] = []
        calls: list[ToolCall] = []
        finish: FinishChunk | None = None
        chunks: AsyncIterator[Any] | None = None
        try:
            provider, model_id = self.resolver.resolve(self.model)
            caps = provider.capabilities(model_id)
            request = await self._build_request(model_id, caps)
            if self.compaction and self._estimate > COMPACT_AT * budget_for(caps.context_window):
                async for event in self._compact(provider, model_id, caps):
                    yield event
                    request = await self._build_request(model_id, caps)
            trim = self._last_trim
            # Say it the first time, and again only when more messages drop out:
            # shortening one more old tool result each step is not news.
            if trim and (
                not self._noticed_trim
                or trim.dropped_messages > self._noticed_trim.dropped_messages
            ):
                self._noticed_trim = trim
                text = trim.describe()
                async with self.log.writing():
                    self._append(notice("context_trimmed", text))
                yield ev.NoticeAdded(session_id=sid, kind="context_trimmed", text=text)
            chunks = provider.stream(request).__aiter__()
            while True:
                if stop.requested:  # stopped while the consumer had the last event
                    raise StopRequested
                try:
                    item = await self._next_chunk(chunks)
                except StopAsyncIteration:
                    break
                # What the model writes is made storable where it enters (a lone
                # surrogate cannot be encoded: domain/text.py).
                if isinstance(item, TextChunk):
                    if item.text:
                        piece = storable_text(item.text)
                        text_parts.append(piece)
                        yield ev.AssistantDelta(session_id=sid, text=piece)
                elif isinstance(item, ReasoningChunk):
                    if item.text:
                        piece = storable_text(item.text)
                        reasoning_parts.append(piece)
                        yield ev.ReasoningDelta(session_id=sid, text=piece)
                elif isinstance(item, ToolCallChunk):
                    calls.append(
                        {
                            "id": storable_text(str(item.id or "")),
                            "type": "function",
                            "function": {"name": storable_text(str(item.name or "")),
                                         "arguments": _storable_arguments(item.arguments)},
                        }
                    )
                elif isinstance(item, FinishChunk):
                    finish = item
                elif isinstance(item, OpenedChunk):  # say at once what is waited for
                    yield ev.AnswerOpened(session_id=sid, provider=item.provider)
                elif isinstance(item, RetryChunk):  # nothing shown yet; another try follows
                    yield ev.ProviderRetrying(
                        session_id=sid, provider=item.provider, attempt=item.attempt,
                        max_attempts=item.max_attempts, kind=item.kind, reason=item.reason,
                        delay=item.delay,
                    )
        except StopRequested:
            async with self.log.writing():
                self._save_partial(text_parts, reasoning_parts, partial="interrupted")
                self._append(notice("interrupted", "Stopped by user."))
            yield ev.Interrupted(session_id=sid)
            yield ModelReply("interrupted")
            return
        except Exception as exc:
            kind = exc.kind if isinstance(exc, ProviderError) else "unknown"
            message = storable_text(str(exc) or type(exc).__name__)
            async with self.log.writing():
                self._save_partial(text_parts, reasoning_parts, partial="error")
                # Announce what was stored: a provider error may echo a key, redacted there.
                message = str(self._append(notice("error", message, error_kind=kind))["text"])
            yield ev.ErrorOccurred(session_id=sid, message=message, kind=kind, retryable=True)
            yield ModelReply("error", detail=message)
            return
        finally:
            if chunks is not None:
                with contextlib.suppress(BaseException):
                    await chunks.aclose()  # type: ignore[attr-defined]
        text = "".join(text_parts)
        if finish is not None:
            for key, value in finish.usage.items():
                self._usage[key] = self._usage.get(key, 0) + int(value)
            if finish.replace_text is not None:
                text = storable_text(finish.replace_text)
        reply: AssistantMessage = {"role": "assistant", "content": text or None, "ts": now()}
        if calls:
            _unique_ids(calls)
            reply["tool_calls"] = calls
        if reasoning_parts:
            reply["reasoning"] = "".join(reasoning_parts)
        if finish is not None and finish.provider_state:
            reply["provider_state"] = storable(dict(finish.provider_state))
        used = Usage.of(finish.usage if finish is not None else None)
        if used:  # display only: what this call used
            reply["usage"] = used.as_dict()
        reply["model"] = self.model
        if calls:  # names this step's calls for the inbox (vendors reuse call ids)
            reply["step_id"] = uuid.uuid4().hex[:12]
        step: ToolStep | None = None
        proposed: list[ParsedCall] | None = None
        cut = None
        async with self.log.writing():
            reply = self._append(reply)
            if calls:  # its calls' proposals commit with it (one commit less per step)
                step = self._tool_step(stop)
                proposed = step.propose(calls)
                if finish is not None and finish.reason == "length":
                    cut = self._append(notice("output_limit", refuse_cut_calls(proposed)))
        yield ev.AssistantMessage(session_id=sid, message=reply)
        if cut is not None:
            yield ev.NoticeAdded(session_id=sid, kind="output_limit", text=str(cut["text"]))
        yield ModelReply("ok", tool_calls=calls, step=step, proposed=proposed)

    def _save_partial(
        self, text: list[str], reasoning: list[str], *, partial: Literal["interrupted", "error"]
    ) -> None:
        if not text and not reasoning:
            return
        msg: AssistantMessage = {
            "role": "assistant",
            "content": "".join(text) or None,
            "ts": now(),
            "partial": partial,
            "model": self.model,
        }
        if reasoning:
            msg["reasoning"] = "".join(reasoning)
        self._append(msg)


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _storable_arguments(raw: Any) -> Any:
    """A call's arguments text, storable: literal lone surrogates replaced, and an
    object whose JSON escapes parse to one (``"\\ud800"``) written again without
    them, so the stored text says what the tool is given."""
    if not isinstance(raw, str):
        return storable(raw)
    text = storable_text(raw)
    if _ESCAPED_SURROGATE.search(text) is None:
        return text
    try:
        parsed = parse_arguments(text)
    except ArgumentsError:
        return text  # the call fails with its own error; the escapes are plain ASCII
    clean = storable(parsed)
    return text if clean is parsed else json.dumps(clean, ensure_ascii=False)


def _unique_ids(calls: list[ToolCall]) -> None:
    """Give each call of one message its own id, before anything is stored: a call
    whose id an earlier call of the message already has (or that has none) gets a
    fresh one (``<id>_2``, …). The stored message, its results, the audit, the inbox
    and every later request then use the new id, so each call is decided, run and
    answered on its own (providers pair a result with its call by id)."""
    taken = {str(c.get("id") or "") for c in calls}
    seen: set[str] = set()
    for call in calls:
        cid = str(call.get("id") or "")
        if cid and cid not in seen:
            seen.add(cid)
            continue
        if cid:
            n = 2
            while f"{cid}_{n}" in taken:
                n += 1
            fresh = f"{cid}_{n}"
        else:
            fresh = f"call_{uuid.uuid4().hex[:12]}"
        call["id"] = fresh
        taken.add(fresh)
        seen.add(fresh)


#: What the model is told of a call its answer was cut in (it was not run).
CUT_CALL_ERROR = (
    "your answer was cut at its output limit while this call was being written, so its "
    "arguments are incomplete and it was not run; call it again with shorter arguments "
    "(for example, write a long file in several smaller parts)"
)
CUT_CALL_NOTICE = (
    "The model's answer was cut at its output limit while it was writing a tool call. "
    "The call was not run; the model was told, so it can try again with shorter arguments."
)


def refuse_cut_calls(calls: Sequence[ParsedCall]) -> str:
    """An answer cut at the output limit (``finish_reason: length``) with calls in it:
    the last call was being written when it was cut, and any whose arguments do not
    parse are incomplete too. None of those runs (each gets an error result for the
    model); returns the notice for the user."""
    for index, call in enumerate(calls):
        if index == len(calls) - 1 or call.error is not None:
            if call.tool is not None:  # (an unknown tool keeps that error)
                call.error = CUT_CALL_ERROR
    return CUT_CALL_NOTICE


def _key(call: OpenToolCall) -> str:
    """The call instance key of a call from :func:`dangling_tool_calls`."""
    return str(call.get("_key") or call.get("id"))


def _ask_keys(calls: Sequence[OpenToolCall]) -> set[str]:
    """The keys every ask of these calls may have: its approval or question, and the
    confirmation to run it again after a restart."""
    return {k for c in calls for k in (_key(c), rerun_key(_key(c)))}
