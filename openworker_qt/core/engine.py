"""The turn engine: one user outcome → model calls, tool calls, a finished answer.

:meth:`TurnEngine.run` is an async generator of :mod:`~openworker_qt.core.events`.
Every surface (window, tray, CLI, Slack, scheduler) consumes the same stream. The event
order, the turn's two steps and the guarantees: ``docs/architecture.md``, "The turn loop".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import Approver as ApproverFn
from openworker_qt.core.approvals import AskForConsequential, Decider, OpenAsks, Questioner
from openworker_qt.core.audit import AuditSink
from openworker_qt.core.compaction import compact
from openworker_qt.core.healing import CallCloser
from openworker_qt.core.history import HistoryStore, SessionHistory
from openworker_qt.core.messages import (
    Capabilities,
    has_parts,
    notice,
    pending_tool_calls,
    user_message,
)
from openworker_qt.core.model_step import ModelReply, ModelStep
from openworker_qt.core.provider_api import ModelRequest, ProviderResolver
from openworker_qt.core.repeats import limit_words
from openworker_qt.core.request_builder import RequestBuilder
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.stop import StopRequested, StopSignal
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.core.tool_calls import ParsedCall
from openworker_qt.core.tool_step import StepEnd, ToolStep
from openworker_qt.domain.messages import (
    ContentPart,
    Message,
    MessageT,
    NoticeMessage,
    ToolCall,
    UserMessage,
)
from openworker_qt.domain.text import storable

__all__ = ["AGENT_USAGE", "INTERNAL_ERROR_TEXT", "TurnEngine"]

log = logging.getLogger(__name__)

#: The key of a tool result's ``display`` holding a sub-agent's token usage (the explorer's).
AGENT_USAGE = "agent_usage"
INTERNAL_ERROR_TEXT = (
    "Something went wrong inside OpenWorker, so this turn was stopped. "
    "The details are in the log. You can retry."
)


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
        #: Builds each call's request from the history (owns the outbound copies).
        self.requests = RequestBuilder(self.history)

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
                        text = limit_words(self.history, iteration, self.max_iterations)
                        async with self.log.writing():
                            self._append(notice("max_iterations", text))
                        yield ev.NoticeAdded(session_id=sid, kind="max_iterations", text=text)
                        yield self._end("max_iterations", iteration, detail=text)
                        return
                    # Ask the model.
                    iteration += 1
                    reply = ModelReply("error", detail="the model call ended without a reply")
                    async for out in self._model_step(stop).run():
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
        so the next request is valid (``keep``: the calls a resume is about to run)."""
        return self._closer().heal(self.history, keep)

    def _closer(self) -> CallCloser:
        return CallCloser(self.session_id, self.log, self.asks, self.audit)

    def _fail(self, exc: Exception, iteration: int, step: ToolStep | None) -> list[ev.Event]:
        """End the turn after an unexpected exception: every open call gets a truthful
        result, the user a notice; the detail goes to the log."""
        log.error("turn of session %s failed", self.session_id, exc_info=exc)
        started = frozenset(step.started) if step is not None else frozenset()
        out: list[ev.Event] = []
        try:
            self._closer().after_failure(self.history, started, out)
            self._append(notice("error", INTERNAL_ERROR_TEXT, error_kind="internal"))
        except Exception:  # the store itself is failing: the next turn heals what is left
            log.exception("could not record the end of the failed turn of %s", self.session_id)
        out.append(ev.ErrorOccurred(
            session_id=self.session_id, message=INTERNAL_ERROR_TEXT, kind="internal",
            retryable=True,
        ))
        out.append(self._end("error", iteration, detail=INTERNAL_ERROR_TEXT))
        return out

    # ------------------------------------------------------------- model calls

    def _build_request(self, model_id: str, caps: Capabilities) -> Awaitable[ModelRequest]:
        """The next call's request, with the engine's settings as they are now."""
        return self.requests.build(
            self.history, model_id, caps, system=self.system_prompt, tools=self.tools,
            pdf_mode=self.pdf_mode, reminder=self.reminder)

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

    def _model_step(self, stop: StopSignal) -> ModelStep:
        return ModelStep(
            session_id=self.session_id,
            log=self.log,
            resolver=self.resolver,
            model=lambda: self.model,
            requests=self.requests,
            build=self._build_request,
            compact=self._compact if self.compaction else None,
            next_chunk=self._next_chunk,
            usage=self._usage,
            tool_step=self._tool_step,
            stop=stop,
        )

    def _compact(
        self, provider: Any, model_id: str, caps: Capabilities
    ) -> AsyncIterator[ev.Event]:
        return compact(
            session_log=self.log, history=self.history, requests=self.requests,
            model=self.model, provider=provider, model_id=model_id, caps=caps,
            next_chunk=self._next_chunk, usage=self._usage,
        )
