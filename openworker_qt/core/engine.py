"""The turn engine: one user outcome → model calls, tool calls, a finished answer.

:meth:`TurnEngine.run` is an async generator of :mod:`~openworker_qt.core.events`.
Every surface (window, tray, CLI, Slack, scheduler) consumes the same stream.

Event order (text-only reply)::

    TurnStarted, AssistantDelta*, AssistantMessage, TurnEnded("completed")

With tools, each iteration is::

    [ReasoningDelta* AssistantDelta*] AssistantMessage,
    ToolProposed × n,
    per call: [PermissionRequired | QuestionRequested] ToolStarted ToolFinished,
    IterationEnded

Guarantees:
  * Every message an event announces is committed to the history store first.
  * Every tool call of an assistant message gets exactly one ``role: tool``
    result, whatever happens (denied, failed, interrupted), so history never
    holds an orphan call.
  * Consecutive calls that are READ, allowed without asking and declared
    concurrency-safe run concurrently; everything else runs strictly one at a
    time in call order, and authorisation is serial in call order.
  * :meth:`request_interrupt` works in every state: mid-stream (partial text
    and reasoning kept), mid-tool (the tool task is cancelled, which kills a
    running process), while an approver or questioner waits, and between
    iterations.
  * Steering text queued during a turn is injected after the current step.
  * Reasoning is stored on the message for the user and never sent back.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Protocol

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import Approver as ApproverFn
from openworker_qt.core.approvals import AskForConsequential, Decider, Questioner
from openworker_qt.core.audit import AuditSink
from openworker_qt.core.context import Trim, budget_for, estimate_tokens, fit
from openworker_qt.core.messages import (
    Capabilities,
    Message,
    has_parts,
    notice,
    now,
    order_tool_results,
    outbound_message,
    pending_tool_calls,
    user_message,
)
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_step import (
    DENIED_RESULT,
    MAX_RESULT_CHARS,
    StopRequested,
    ToolSteps,
)
from openworker_qt.providers.base import (
    FinishChunk,
    ModelRequest,
    ProviderError,
    ProviderResolver,
    ReasoningChunk,
    TextChunk,
    ToolCallChunk,
)
from openworker_qt.tools.base import ToolRegistry

__all__ = ["DENIED_RESULT", "MAX_RESULT_CHARS", "HistoryStore", "MemoryHistory", "TurnEngine"]


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
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _scrub(v, redact) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, redact) for v in value]
    return value


class TurnEngine(ToolSteps):
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
        self.pdf_mode = "text"
        self.history: list[Message] = store.load(session_id)
        self.tool_state: dict[str, Any] = {}
        self.interrupt_hooks: list[Callable[[], None]] = []
        self._steering: list[str | list[dict[str, Any]]] = []
        self._interrupted = False
        self._interrupt_fut: asyncio.Future[None] | None = None
        self._provider_wait: asyncio.Task[Any] | None = None
        self._wait_cancelled = False
        self._running = False
        self._usage: dict[str, int] = {}
        self._suspended = False
        self._step_end: ev.TurnEnded | None = None
        self.waiting_for_user = False
        self._last_trim = Trim()
        self._noticed_trim = Trim()
        self._out_caps: tuple[Capabilities, str] | None = None
        self._out_cache: list[Message | None] = []
        self._out_tokens = 0

    # ------------------------------------------------------------------ control

    @property
    def running(self) -> bool:
        return self._running

    def request_interrupt(self) -> None:
        """Stop the current turn as soon as possible, from any state.

        Hooks run synchronously first (e.g. a shell kills its process group).
        """
        self._interrupted = True
        for hook in list(self.interrupt_hooks):
            with contextlib.suppress(Exception):
                hook()
        if self._interrupt_fut is not None and not self._interrupt_fut.done():
            self._interrupt_fut.set_result(None)
        if self._provider_wait is not None and not self._wait_cancelled:
            self._wait_cancelled = True
            self._provider_wait.cancel()

    def queue_steering(self, content: str | list[dict[str, Any]]) -> None:
        """Queue a user message (text or content parts with attachments) to be
        injected after the current step."""
        if isinstance(content, list) and content or isinstance(content, str) and content.strip():
            self._steering.append(content)

    def switch_model(self, model: str) -> Message | None:
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
        self, text: str | list[dict[str, Any]], *, source: str = "user"
    ) -> AsyncIterator[ev.Event]:
        """Append a user message and run the turn to its end."""
        message = self._append(user_message(text, source=source))
        async for event in self._turn("message", pending=None, opening=message):
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
        async for event in self._turn("retry", pending=None):
            yield event

    async def resume(self) -> AsyncIterator[ev.Event]:
        """Continue a turn suspended at unanswered tool calls (after a restart).

        Calls that already have a result are skipped, so nothing runs twice;
        the approver is expected to be idempotent per call id (the inbox is).
        """
        pending = pending_tool_calls(self.history)
        if not pending:
            return
        async for event in self._turn("resume", pending=pending):
            yield event

    # ------------------------------------------------------------------ the loop

    async def _turn(
        self,
        reason: str,
        pending: list[dict[str, Any]] | None,
        opening: Message | None = None,
    ) -> AsyncIterator[ev.Event]:
        sid = self.session_id
        self._interrupted = False
        self._suspended = False
        self._interrupt_fut = asyncio.get_running_loop().create_future()
        self._running = True
        self._usage = {}
        iteration = 0
        try:
            yield ev.TurnStarted(session_id=sid, model=self.model, reason=reason)  # type: ignore[arg-type]
            if opening is not None:
                yield ev.UserMessageAdded(session_id=sid, message=opening)
            if pending is not None:
                iteration = 1
                async for event in self._tool_step(pending, iteration, resuming=True):
                    yield event
                if self._step_end is not None:
                    yield self._step_end
                    return
            while True:
                if self._interrupted:
                    self._append(notice("interrupted", "Stopped by user."))
                    yield ev.Interrupted(session_id=sid)
                    yield self._end("interrupted", iteration)
                    return
                if iteration >= self.max_iterations:
                    text = (
                        f"Stopped after {iteration} steps: the iteration limit "
                        f"({self.max_iterations}) was reached. Send a message to continue."
                    )
                    self._append(notice("max_iterations", text))
                    yield ev.NoticeAdded(session_id=sid, kind="max_iterations", text=text)
                    yield self._end("max_iterations", iteration, detail=text)
                    return
                iteration += 1
                outcome: dict[str, Any] = {}
                async for event in self._call_model(outcome):
                    yield event
                status = outcome.get("status")
                if status == "interrupted":
                    yield self._end("interrupted", iteration)
                    return
                if status == "error":
                    yield self._end("error", iteration, detail=str(outcome.get("detail", "")))
                    return
                calls = outcome.get("tool_calls") or []
                if not calls:
                    if self._steering and not self._interrupted:
                        for event in self._inject_steering():
                            yield event
                        continue
                    yield self._end("completed", iteration)
                    return
                async for event in self._tool_step(calls, iteration):
                    yield event
                if self._step_end is not None:
                    yield self._step_end
                    return
        finally:
            self._running = False
            self._interrupt_fut = None

    async def _tool_step(
        self, calls: list[dict[str, Any]], iteration: int, *, resuming: bool = False
    ) -> AsyncIterator[ev.Event]:
        """Run one response's tool calls, then end the iteration — or, when the user
        stopped or the turn parked on the inbox, leave the turn's end in
        ``self._step_end`` for the caller to yield."""
        self._step_end = None
        stopped = False
        async for event in self._run_tools(calls, resuming=resuming):
            yield event
            stopped = stopped or isinstance(event, ev.Interrupted)
        if stopped or self._suspended:
            self._step_end = self._end("interrupted" if stopped else "suspended", iteration)
            return
        yield ev.IterationEnded(session_id=self.session_id, iteration=iteration)
        for event in self._inject_steering():
            yield event

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
            message = self._append(user_message(content, source="steering"))
            out.append(ev.UserMessageAdded(session_id=self.session_id, message=message))
        return out

    def _append(self, message: Message) -> Message:
        if self.redact is not None:
            # Before storing *and* before it can reach a provider: a tool output or a
            # provider error that echoes a key must not spread it further.
            message = _scrub(message, self.redact)
        self.store.append(self.session_id, message)
        self.history.append(message)
        return message

    # ------------------------------------------------------------- model calls

    async def _build_request(self, model_id: str, caps: Capabilities) -> ModelRequest:
        # Stored messages never change once appended, so each one's outbound copy is
        # computed once per capability set (bench/engine.py: re-copying the whole
        # history every call was the largest per-iteration cost).
        if (caps, self.pdf_mode) != self._out_caps:
            self._out_caps = (caps, self.pdf_mode)
            self._out_cache = []
            self._out_tokens = 0
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
        self._out_tokens += sum(estimate_tokens(m) for m in converted if m is not None)
        messages = order_tool_results([m for m in self._out_cache if m is not None])
        budget = budget_for(caps.context_window)
        system_tokens = len(self.system_prompt) // 4
        if self._out_tokens + system_tokens > budget:  # the common case skips fit() entirely
            messages, self._last_trim = fit(messages, budget, system_tokens)
        else:
            self._last_trim = Trim()
        return ModelRequest(
            model=model_id,
            messages=messages,
            tools=self.tools.schemas() if caps.tools else [],
            system=self.system_prompt,
        )

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

    async def _call_model(self, outcome: dict[str, Any]) -> AsyncIterator[ev.Event]:
        sid = self.session_id
        text_parts: list[str] = []
        reasoning_parts: list[str] = []
        calls: list[dict[str, Any]] = []
        finish: FinishChunk | None = None
        chunks: AsyncIterator[Any] | None = None
        try:
            provider, model_id = self.resolver.resolve(self.model)
            caps = provider.capabilities(model_id)
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
                self._append(notice("context_trimmed", text))
                yield ev.NoticeAdded(session_id=sid, kind="context_trimmed", text=text)
            chunks = provider.stream(request).__aiter__()
            while True:
                if self._interrupted:  # stopped while the consumer had the last event
                    raise StopRequested
                try:
                    item = await self._next_chunk(chunks)
                except StopAsyncIteration:
                    break
                if isinstance(item, TextChunk):
                    if item.text:
                        text_parts.append(item.text)
                        yield ev.AssistantDelta(session_id=sid, text=item.text)
                elif isinstance(item, ReasoningChunk):
                    if item.text:
                        reasoning_parts.append(item.text)
                        yield ev.ReasoningDelta(session_id=sid, text=item.text)
                elif isinstance(item, ToolCallChunk):
                    calls.append(
                        {
                            "id": item.id,
                            "type": "function",
                            "function": {"name": item.name, "arguments": item.arguments},
                        }
                    )
                elif isinstance(item, FinishChunk):
                    finish = item
        except StopRequested:
            self._save_partial(text_parts, reasoning_parts, partial="interrupted")
            self._append(notice("interrupted", "Stopped by user."))
            yield ev.Interrupted(session_id=sid)
            outcome["status"] = "interrupted"
            return
        except Exception as exc:
            kind = exc.kind if isinstance(exc, ProviderError) else "unknown"
            message = str(exc) or type(exc).__name__
            self._save_partial(text_parts, reasoning_parts, partial="error")
            # Announce what was stored: a provider error may echo a key, redacted there.
            message = str(self._append(notice("error", message, error_kind=kind))["text"])
            yield ev.ErrorOccurred(session_id=sid, message=message, kind=kind, retryable=True)
            outcome["status"] = "error"
            outcome["detail"] = message
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
                text = finish.replace_text
        reply: Message = {"role": "assistant", "content": text or None, "ts": now()}
        if calls:
            reply["tool_calls"] = calls
        if reasoning_parts:
            reply["reasoning"] = "".join(reasoning_parts)
        if finish is not None and finish.provider_state:
            reply["provider_state"] = dict(finish.provider_state)
        reply["model"] = self.model
        reply = self._append(reply)
        yield ev.AssistantMessage(session_id=sid, message=reply)
        outcome["status"] = "ok"
        outcome["tool_calls"] = calls

    def _save_partial(self, text: list[str], reasoning: list[str], *, partial: str) -> None:
        if not text and not reasoning:
            return
        msg: Message = {
            "role": "assistant",
            "content": "".join(text) or None,
            "ts": now(),
            "partial": partial,
            "model": self.model,
        }
        if reasoning:
            msg["reasoning"] = "".join(reasoning)
        self._append(msg)

    # ------------------------------------------------------------------- tools

