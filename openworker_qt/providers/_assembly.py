"""Pieces every adapter needs while turning wire events into stream chunks.

* :class:`ThinkSplitter` splits ``<think>…</think>`` spans out of streamed text
  (MiniMax-M2, DeepSeek-R1 and Qwen3 on Ollama), tolerating tags cut across deltas.
* :class:`ToolCallAssembler` joins argument fragments per call index.
* :class:`MarkupHold` holds back streamed text from the first tool-call marker
  on (``<tool_call>``, ``<function=``, ``<|python_tag|>``, ``[TOOL_CALLS]``,
  DeepSeek's), so markup is never shown while the call is being written.
* :func:`finish_text_calls` runs mangled tool-call recovery at the end of a
  response that produced text but no native call.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass, field

from openworker_qt.core.provider_api import ReasoningChunk, TextChunk, ToolCallChunk
from openworker_qt.providers.recovery import CALL_MARKERS, recover_tool_calls

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


class MarkupHold:
    """Passes streamed text through until a tool-call marker appears; from there on
    the text is held (:attr:`held`) for recovery at the end of the answer. A suffix
    that could be the start of a marker is held until the next piece decides."""

    def __init__(self, markers: tuple[str, ...] = CALL_MARKERS) -> None:
        self._markers = markers
        self._pending = ""
        self.held = ""  # from the first marker on

    def feed(self, text: str) -> str:
        """The part of ``text`` that can be shown now."""
        if self.held:
            self.held += text
            return ""
        buf = self._pending + text
        self._pending = ""
        first = min((i for i in (buf.find(m) for m in self._markers) if i >= 0), default=-1)
        if first >= 0:
            self.held = buf[first:]
            return buf[:first]
        keep = 0
        for marker in self._markers:
            for n in range(min(len(marker) - 1, len(buf)), keep, -1):
                if marker.startswith(buf[-n:]):
                    keep = n
                    break
        self._pending = buf[len(buf) - keep :] if keep else ""
        return buf[: len(buf) - keep]

    def release(self) -> str:
        """Everything still held (the answer ended without a call to recover)."""
        out, self._pending, self.held = self._pending + self.held, "", ""
        return out


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ToolCallAssembler:
    """Collects tool-call fragments keyed by the wire's index.

    Some servers (Ollama) send parallel calls all at ``index: 0``, or with no index:
    a fragment with a new id, or another name after the current call's arguments
    began, starts a new call, so two calls never merge into one with concatenated
    arguments (``{"city":"Paris"}{"city":"Tokyo"}``). Calls that nothing tells apart
    keep the concatenation, which is not valid JSON: the model is told, nothing runs."""

    def __init__(self) -> None:
        self._calls: list[_PartialCall] = []
        self._at: dict[int, int] = {}  # wire index → the call it currently feeds

    def add(self, index: int, *, id: str | None = None, name: str | None = None, arguments: str | None = None) -> None:
        pos = self._at.get(index)
        call = self._calls[pos] if pos is not None else None
        if call is not None and (
            (id and call.id and id != call.id)
            or (name and not id and call.name and call.arguments and name != call.name)
        ):
            call = None  # a second call reusing the index
        if call is None:
            call = _PartialCall()
            self._at[index] = len(self._calls)
            self._calls.append(call)
        if id:
            call.id = id
        if name:
            if id or not call.name:
                call.name = name
            elif not call.arguments:
                call.name += name  # the name itself arriving in pieces
            # (else the same name again, repeated by the server: nothing new)
        if arguments:
            call.arguments.append(arguments)

    def __bool__(self) -> bool:
        return bool(self._calls)

    def complete(self) -> list[ToolCallChunk]:
        out = []
        for call in self._calls:
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
