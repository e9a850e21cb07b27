"""The model step of a turn: one model call, streamed into events, its reply stored.

The engine builds a :class:`ModelStep` for each call and hands it what it may use: the
session's log, the resolver and model, the request builder, compaction (or None), the
await of the provider's next chunk that a stop cancels, the turn's usage and stop
signal, and how to build the tool step for the calls the reply asks for.
:meth:`ModelStep.run` yields the call's events and, last, a :class:`ModelReply`.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from openworker_qt.core import events as ev
from openworker_qt.core.context import COMPACT_AT, budget_for
from openworker_qt.core.history import SessionHistory
from openworker_qt.core.messages import Capabilities, notice, now
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
from openworker_qt.core.request_builder import RequestBuilder
from openworker_qt.core.stop import StopRequested, StopSignal
from openworker_qt.core.tool_calls import (
    ParsedCall,
    refuse_cut_calls,
    storable_arguments,
    unique_ids,
)
from openworker_qt.core.tool_step import ToolStep
from openworker_qt.domain.messages import AssistantMessage, ToolCall
from openworker_qt.domain.text import storable, storable_text
from openworker_qt.domain.usage import Usage

__all__ = ["ModelReply", "ModelStep"]


#: Said when a model ends its answer with no text, no thinking and no tool call.
EMPTY_ANSWER_TEXT = ("The model ended its answer without saying anything. Send the message "
                     "again, or pick another model.")


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


class ModelStep:
    """Runs one model call of a turn (see the module docstring)."""

    __slots__ = ("build", "compact", "log", "model", "next_chunk", "requests", "resolver",
                 "session_id", "stop", "tool_step", "usage")

    def __init__(
        self,
        *,
        session_id: str,
        log: SessionHistory,
        resolver: ProviderResolver,
        model: Callable[[], str],
        requests: RequestBuilder,
        build: Callable[[str, Capabilities], Awaitable[ModelRequest]],
        compact: Callable[[Any, str, Capabilities], AsyncIterator[ev.Event]] | None,
        next_chunk: Callable[[AsyncIterator[Any]], Awaitable[Any]],
        usage: dict[str, int],
        tool_step: Callable[[StopSignal], ToolStep],
        stop: StopSignal,
    ) -> None:
        self.session_id = session_id
        self.log = log
        self.resolver = resolver
        #: The session's model now (a switch during the call applies to the next call;
        #: what the call stores is labelled with the model as it is then).
        self.model = model
        self.requests = requests
        #: The request of this call (``requests.build`` with the engine's settings).
        self.build = build
        #: Writes a compaction note when the request nears the window (None: never).
        self.compact = compact
        self.next_chunk = next_chunk
        #: The turn's token usage, added to.
        self.usage = usage
        self.tool_step = tool_step
        self.stop = stop

    async def run(self) -> AsyncIterator[ev.Event | ModelReply]:
        """Stream the call; yield its events, then the :class:`ModelReply`."""
        stop = self.stop
        sid = self.session_id
        text_parts: list[str] = []
        reasoning_parts: list[str] = []
        calls: list[ToolCall] = []
        finish: FinishChunk | None = None
        chunks: AsyncIterator[Any] | None = None
        try:
            provider, model_id = self.resolver.resolve(self.model())
            caps = provider.capabilities(model_id)
            request = await self.build(model_id, caps)
            if (self.compact is not None
                    and self.requests.estimate > COMPACT_AT * budget_for(caps.context_window)):
                async for event in self.compact(provider, model_id, caps):
                    yield event
                    request = await self.build(model_id, caps)
            trim = self.requests.trim_news()
            if trim is not None:
                text = trim.describe()
                async with self.log.writing():
                    self.log.append(notice("context_trimmed", text))
                yield ev.NoticeAdded(session_id=sid, kind="context_trimmed", text=text)
            chunks = provider.stream(request).__aiter__()
            while True:
                if stop.requested:  # stopped while the consumer had the last event
                    raise StopRequested
                try:
                    item = await self.next_chunk(chunks)
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
                                         "arguments": storable_arguments(item.arguments)},
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
                self.log.append(notice("interrupted", "Stopped by user."))
            yield ev.Interrupted(session_id=sid)
            yield ModelReply("interrupted")
            return
        except Exception as exc:
            kind = exc.kind if isinstance(exc, ProviderError) else "unknown"
            message = storable_text(str(exc) or type(exc).__name__)
            async with self.log.writing():
                self._save_partial(text_parts, reasoning_parts, partial="error")
                # Announce what was stored: a provider error may echo a key, redacted there.
                message = str(self.log.append(notice("error", message, error_kind=kind))["text"])
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
                self.usage[key] = self.usage.get(key, 0) + int(value)
            if finish.replace_text is not None:
                text = storable_text(finish.replace_text)
        reply: AssistantMessage = {"role": "assistant", "content": text or None, "ts": now()}
        if calls:
            unique_ids(calls)
            reply["tool_calls"] = calls
        if reasoning_parts:
            reply["reasoning"] = "".join(reasoning_parts)
        if finish is not None and finish.provider_state:
            reply["provider_state"] = storable(dict(finish.provider_state))
        used = Usage.of(finish.usage if finish is not None else None)
        if used:  # display only: what this call used
            reply["usage"] = used.as_dict()
        reply["model"] = self.model()
        if calls:  # names this step's calls for the inbox (vendors reuse call ids)
            reply["step_id"] = uuid.uuid4().hex[:12]
        step: ToolStep | None = None
        proposed: list[ParsedCall] | None = None
        said = None
        async with self.log.writing():
            reply = self.log.append(reply)
            if calls:  # its calls' proposals commit with it (one commit less per step)
                step = self.tool_step(stop)
                proposed = step.propose(calls)
                if finish is not None and finish.reason == "length":
                    said = self.log.append(notice("output_limit", refuse_cut_calls(proposed)))
            elif not text and not reasoning_parts:
                # The model ended its answer without a word (a small local model picking
                # nothing to say): not shown as if it had answered.
                said = self.log.append(notice("empty_answer", EMPTY_ANSWER_TEXT))
        yield ev.AssistantMessage(session_id=sid, message=reply)
        if said is not None:
            yield ev.NoticeAdded(session_id=sid, kind=str(said["kind"]), text=str(said["text"]))
        if said is not None and said["kind"] == "empty_answer":
            # Nothing came back: an error with the truth, not a completed turn (Retry).
            yield ModelReply("error", detail=EMPTY_ANSWER_TEXT)
            return
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
            "model": self.model(),
        }
        if reasoning:
            msg["reasoning"] = "".join(reasoning)
        self.log.append(msg)
