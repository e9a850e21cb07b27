"""Helpers for provider tests: fast retry settings and a stream collector."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from openworker_qt.core.provider_api import (
    FinishChunk,
    ModelRequest,
    ReasoningChunk,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)
from openworker_qt.providers.retry import RetryPolicy, StreamTimeouts


class SleepRecorder:
    """An injected ``sleep`` that records the delays and does not wait."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def fast(sleep: SleepRecorder | None = None, *, attempts: int = 3, stall: float = 5.0) -> dict[str, Any]:
    """Provider keyword arguments: tiny backoff, injected sleep, short stall timeout."""
    return {
        "retry": RetryPolicy(attempts=attempts, base_delay=0.001, max_delay=0.01),
        "timeouts": StreamTimeouts(first_event=stall, stall=stall),
        "sleep": sleep or SleepRecorder(),
    }


@dataclass
class Collected:
    chunks: list[StreamChunk] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chunks if isinstance(c, TextChunk))

    @property
    def reasoning(self) -> str:
        return "".join(c.text for c in self.chunks if isinstance(c, ReasoningChunk))

    @property
    def calls(self) -> list[ToolCallChunk]:
        return [c for c in self.chunks if isinstance(c, ToolCallChunk)]

    @property
    def parsed_calls(self) -> list[tuple[str, dict[str, Any]]]:
        return [(c.name, json.loads(c.arguments)) for c in self.calls]

    @property
    def finish(self) -> FinishChunk:
        last = self.chunks[-1]
        assert isinstance(last, FinishChunk), f"stream did not end with a FinishChunk: {last!r}"
        assert sum(isinstance(c, FinishChunk) for c in self.chunks) == 1
        return last

    def assistant_message(self) -> dict[str, Any]:
        """The canonical assistant message the engine would store."""
        finish = self.finish
        text = finish.replace_text if finish.replace_text is not None else self.text
        msg: dict[str, Any] = {"role": "assistant", "content": text}
        if self.calls:
            msg["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.calls
            ]
        if finish.provider_state:
            msg["provider_state"] = finish.provider_state
        return msg


OPEN_PROVIDERS: list[Any] = []


async def close_providers() -> None:
    while OPEN_PROVIDERS:
        provider = OPEN_PROVIDERS.pop()
        closer = getattr(provider, "aclose", None)
        if closer is not None:
            await closer()


async def collect(provider: Any, request: ModelRequest) -> Collected:
    if provider not in OPEN_PROVIDERS:
        OPEN_PROVIDERS.append(provider)
    out = Collected()
    stream: AsyncIterator[StreamChunk] = provider.stream(request)
    async for chunk in stream:
        out.chunks.append(chunk)
    return out


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
TOOL2 = {
    "type": "function",
    "function": {"name": "get_time", "description": "Time in a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
}


async def drain_into(stream: AsyncIterator[StreamChunk], sink: list[StreamChunk]) -> None:
    """Consume ``stream`` into ``sink`` (keeps what arrived before an error)."""
    async for chunk in stream:
        sink.append(chunk)
