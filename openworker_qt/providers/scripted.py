"""A provider that replays a script: for tests, benchmarks and offline demos.

It implements the same streaming interface as the real providers, so anything
that works against it exercises the real engine paths. A script is a list of
*turns*; each model call consumes the next one. A turn is a mapping with any of:

``text`` (str) or ``chunks`` (list of str)
    assistant text, streamed as one delta per chunk (``text`` is split into
    ``chunk_size`` pieces, default: one delta for the whole text);
``reasoning`` (str or list of str)
    reasoning deltas, streamed before the text;
``tool_calls`` (list of ``{"name", "arguments", "id"?}``)
    ``arguments`` may be a dict or a raw JSON string (to test mangled input);
``error`` (str) and ``error_kind`` (str)
    raise a :class:`ProviderError` after the chunks streamed so far;
``retries`` (int)
    first say that many times "waiting · retrying n/N", as a real provider's
    retry guard does when an attempt failed before any output (``RetryChunk``);
``opened`` (bool)
    then say the server opened its answer before any of it (``OpenedChunk``), as a
    real provider does on a role-only chunk or ``message_start``;
``delay`` (float seconds)
    sleep before every chunk (to test stop mid-stream and UI streaming);
``repeat`` (bool)
    keep replaying this turn forever (e.g. a model that never stops calling tools);
``usage`` (mapping)
    the token usage the call reports (``domain.usage`` keys; default: zeros).

Every request received is kept in :attr:`ScriptedProvider.requests`.

Sub-agents (the explorer) call the same model with their own system prompt. A
script may give them their own turns: ``{"turns": [...], "by_system": {"You are
an explorer": [...]}}`` — a request whose system prompt starts with a key is
answered from that key's turns (chosen by history, so several sub-agents running
at once each get the right turn); its requests are kept in :attr:`requests` too.

By default each call consumes the next turn (state lives in the provider). A
script file may say ``{"advance": "history", "turns": [...]}``: then the turn
is chosen by how many assistant messages the request already holds, so a
session continued by another process (after a crash, a resume, the CLI) picks
up at the right turn. ``{"vision": false, "turns": [...]}`` stands for a model
that cannot see images (its capabilities say so).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import (
    ErrorKind,
    FinishChunk,
    ModelRequest,
    OpenedChunk,
    ProviderError,
    ReasoningChunk,
    RetryChunk,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)


class ScriptError(ValueError):
    """The script file is missing, unreadable or malformed."""


class ScriptedProvider:
    """Replays scripted model turns through the streaming interface."""

    name = "scripted"

    def __init__(
        self,
        turns: Sequence[Mapping[str, Any]],
        *,
        caps: Capabilities | None = None,
        advance: str = "call",
        by_system: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    ) -> None:
        if advance not in ("call", "history"):
            raise ScriptError(f"unknown advance mode {advance!r} (expected 'call' or 'history')")
        self._advance = advance
        self._turns = [dict(t) for t in turns]
        self._index = 0
        self._caps = caps or Capabilities(vision=True, pdf=False, reasoning=True)
        self.requests: list[ModelRequest] = []
        self._call_counter = 0
        self._by_system = {
            prefix: ScriptedProvider(sub, caps=caps, advance="history")
            for prefix, sub in (by_system or {}).items()
        }

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedProvider:
        """Load a script: a JSON list of turns or ``{"turns": [...]}``."""
        p = Path(path).expanduser()
        try:
            raw = json.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise ScriptError(f"script file not found: {p}") from exc
        except json.JSONDecodeError as exc:
            raise ScriptError(f"{p}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from exc
        turns = raw.get("turns") if isinstance(raw, dict) else raw
        if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
            raise ScriptError(f"{p}: expected a list of turn objects (or {{\"turns\": [...]}})")
        advance = raw.get("advance", "call") if isinstance(raw, dict) else "call"
        by_system = raw.get("by_system") if isinstance(raw, dict) else None
        if by_system is not None and not (
            isinstance(by_system, dict)
            and all(isinstance(v, list) and all(isinstance(t, dict) for t in v)
                    for v in by_system.values())
        ):
            raise ScriptError(f"{p}: by_system maps a system prompt prefix to a list of turns")
        caps = None
        if isinstance(raw, dict) and "vision" in raw:  # a model that cannot see images
            caps = Capabilities(vision=bool(raw["vision"]), pdf=False, reasoning=True)
        return cls(turns, advance=str(advance), by_system=by_system, caps=caps)

    @property
    def calls(self) -> int:
        """How many model calls were made."""
        return len(self.requests)

    def capabilities(self, model: str) -> Capabilities:
        return self._caps

    def _next_turn(self, request: ModelRequest) -> dict[str, Any]:
        if self._advance == "history":
            done = sum(1 for m in request.messages if m.get("role") == "assistant")
            repeating = [i for i, t in enumerate(self._turns[: done + 1]) if t.get("repeat")]
            self._index = repeating[0] if repeating else done
        if self._index >= len(self._turns):
            raise ProviderError(
                "bad_request",
                f"script exhausted after {len(self._turns)} turn(s)",
                provider=self.name,
            )
        turn = self._turns[self._index]
        if not turn.get("repeat"):
            self._index += 1
        return turn

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        for prefix, sub in self._by_system.items():
            if request.system.startswith(prefix):
                self.requests.append(request)
                async for chunk in sub.stream(request):
                    yield chunk
                return
        self.requests.append(request)
        turn = self._next_turn(request)
        delay = float(turn.get("delay", 0.0))

        async def pause() -> None:
            if delay:
                await asyncio.sleep(delay)
            else:
                await asyncio.sleep(0)

        retries = int(turn.get("retries", 0))
        for n in range(retries):
            await pause()
            yield RetryChunk(provider="Scripted", attempt=n + 2, max_attempts=retries + 1,
                             kind="overloaded", reason="overloaded", delay=delay)
        if turn.get("opened"):
            await pause()
            yield OpenedChunk(provider="Scripted")
        reasoning = turn.get("reasoning") or []
        for piece in [reasoning] if isinstance(reasoning, str) else reasoning:
            await pause()
            yield ReasoningChunk(str(piece))
        chunks = turn.get("chunks")
        if chunks is None and turn.get("text"):
            text = str(turn["text"])
            size = int(turn.get("chunk_size", 0)) or len(text)
            chunks = [text[i : i + size] for i in range(0, len(text), size)]
        for piece in chunks or []:
            await pause()
            yield TextChunk(str(piece))
        if turn.get("error"):
            await pause()
            raise ProviderError(
                cast(ErrorKind, turn.get("error_kind", "server")),
                str(turn["error"]),
                provider=self.name,
                model=request.model,
            )
        for call in turn.get("tool_calls") or []:
            await pause()
            self._call_counter += 1
            args = call.get("arguments", {})
            yield ToolCallChunk(
                id=str(call.get("id") or f"call_{self._call_counter}"),
                name=str(call["name"]),
                arguments=args if isinstance(args, str) else json.dumps(args),
            )
        reason = "tool_calls" if turn.get("tool_calls") else "stop"
        usage = turn.get("usage") or {"input_tokens": 0, "output_tokens": 0}
        yield FinishChunk(reason=reason, usage={str(k): int(v) for k, v in dict(usage).items()})
