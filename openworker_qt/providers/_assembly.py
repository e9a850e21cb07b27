"""Pieces every adapter needs while turning wire events into stream chunks.

* :class:`ThinkSplitter` splits ``<think>…</think>`` spans out of streamed text
  (MiniMax-M2, DeepSeek-R1 and Qwen3 on Ollama), tolerating tags cut across deltas.
* :class:`ToolCallAssembler` joins argument fragments per call index.
* :func:`finish_text_calls` runs mangled tool-call recovery at the end of a
  response that produced text but no native call.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass, field

from openworker_qt.core.provider_api import ReasoningChunk, TextChunk, ToolCallChunk
from openworker_qt.providers.recovery import recover_tool_calls

_OPEN, _CLOSE = "<think>", "</think>"


class ThinkSplitter:
    """Streams text, routing what is inside ``<think>`` tags to reasoning."""

    def __init__(self) -> None:
        self._buf = ""
        self._inside = False

    def feed(self, text: str) -> list[TextChunk | ReasoningChunk]:
        self._buf += text
        out: list[TextChunk | ReasoningChunk] = []
        while self._buf:
            tag = _CLOSE if self._inside else _OPEN
            pos = self._buf.find(tag)
            if pos >= 0:
                self._emit(out, self._buf[:pos])
                self._buf = self._buf[pos + len(tag) :]
                self._inside = not self._inside
                continue
            keep = 0  # hold back a suffix that could be the start of the tag
            for n in range(min(len(tag) - 1, len(self._buf)), 0, -1):
                if tag.startswith(self._buf[-n:]):
                    keep = n
                    break
            self._emit(out, self._buf[: len(self._buf) - keep])
            self._buf = self._buf[len(self._buf) - keep :]
            break
        return out

    def flush(self) -> list[TextChunk | ReasoningChunk]:
        out: list[TextChunk | ReasoningChunk] = []
        self._emit(out, self._buf)
        self._buf = ""
        return out

    def _emit(self, out: list[TextChunk | ReasoningChunk], text: str) -> None:
        if text:
            out.append(ReasoningChunk(text) if self._inside else TextChunk(text))


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ToolCallAssembler:
    """Collects tool-call fragments keyed by the wire's index."""

    def __init__(self) -> None:
        self._calls: dict[int, _PartialCall] = {}

    def add(self, index: int, *, id: str | None = None, name: str | None = None, arguments: str | None = None) -> None:
        call = self._calls.setdefault(index, _PartialCall())
        if id:
            call.id = id
        if name:
            call.name = call.name + name if call.name and not id else name
        if arguments:
            call.arguments.append(arguments)

    def __bool__(self) -> bool:
        return bool(self._calls)

    def complete(self) -> list[ToolCallChunk]:
        out = []
        for _, call in sorted(self._calls.items()):
            out.append(
                ToolCallChunk(
                    id=call.id or new_call_id(),
                    name=call.name,
                    arguments="".join(call.arguments) or "{}",
                )
            )
        return out


def new_call_id() -> str:
    """A fresh id for a call the wire gave none (ids key the inbox: must be unique)."""
    return f"call_{uuid.uuid4().hex[:20]}"


def finish_text_calls(
    text: str, offered: Collection[str]
) -> tuple[list[ToolCallChunk], str | None]:
    """Tool calls recovered from ``text`` and the text to keep (None: unchanged)."""
    recovery = recover_tool_calls(text, offered)
    if recovery is None:
        return [], None
    calls = [
        ToolCallChunk(id=new_call_id(), name=c.name, arguments=c.arguments)
        for c in recovery.calls
    ]
    return calls, recovery.text
