"""Keeping a long session inside the model's context window.

Applied to the *outbound copy* on every call, never to stored history, in two
steps until the estimate fits the budget:

1. **Shrink old tool results.** Results outside the most recent steps are cut to
   their head and tail with a visible ``[… trimmed …]`` mark (the model can read
   the file again if it needs it).
2. **Drop the oldest exchanges.** Whole user-started exchanges go, oldest first;
   an assistant tool call is never separated from its results, and the first
   user message (usually the outcome asked for) and the latest exchange always
   stay. A marker message tells the model what was omitted.

The engine turns a non-empty :class:`Trim` into a display notice so the user
knows too — nothing is dropped silently.

Token counts are estimated (about four characters per token, images at a flat
rate): exact counts would need each provider's tokenizer, and the budget keeps
a safety margin for that reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from openworker_qt.domain.messages import Message, ToolMessage, UserMessage

CHARS_PER_TOKEN = 4
IMAGE_TOKENS = 1_000
KEEP_RECENT_TOOL_RESULTS = 6
SHRUNK_RESULT_CHARS = 1_500
OMITTED_MARKER = (
    "[Context note: {n} earlier message(s) of this conversation were omitted to fit the "
    "model's context window. Ask the user if you need something from them.]"
)


@dataclass(frozen=True, slots=True)
class Trim:
    shrunk_results: int = 0
    dropped_messages: int = 0

    def __bool__(self) -> bool:
        return bool(self.shrunk_results or self.dropped_messages)

    def describe(self) -> str:
        parts = []
        if self.dropped_messages:
            parts.append(f"{self.dropped_messages} oldest message(s) left out")
        if self.shrunk_results:
            parts.append(f"{self.shrunk_results} old tool result(s) shortened")
        return (
            "Long conversation: " + " and ".join(parts)
            + " for the model's context window (everything is still saved here)."
        )


def estimate_tokens(msg: Message) -> int:
    content = msg.get("content")
    chars = 0
    images = 0
    if isinstance(content, str):
        chars += len(content)
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and part.get("type") == "image_url":
                images += 1
            elif isinstance(part, dict):
                chars += len(str(part.get("text", ""))) + len(str(part.get("file", "")))
    if msg["role"] == "assistant" and msg.get("tool_calls"):
        chars += len(json.dumps(msg.get("tool_calls")))
    if msg["role"] == "tool":
        images += len(msg.get("attachments") or ())  # a tool result's pictures
    return chars // CHARS_PER_TOKEN + images * IMAGE_TOKENS + 4


def budget_for(context_window: int, *, reserve_output: int = 4_096) -> int:
    """Tokens the history may use: the window minus room for the reply and a margin."""
    return max(int(context_window * 0.85) - reserve_output, 1_000)


def _shrink(msg: ToolMessage) -> ToolMessage:
    text = str(msg.get("content") or "")
    half = SHRUNK_RESULT_CHARS // 2
    cut = len(text) - SHRUNK_RESULT_CHARS
    return {**msg, "content": f"{text[:half]}\n[… {cut} characters trimmed …]\n{text[-half:]}"}


def _exchanges(messages: list[Message]) -> list[list[Message]]:
    groups: list[list[Message]] = []
    for msg in messages:
        if msg.get("role") == "user" or not groups:
            groups.append([msg])
        else:
            groups[-1].append(msg)
    return groups


def fit(messages: list[Message], budget: int, system_tokens: int = 0) -> tuple[list[Message], Trim]:
    """``messages`` trimmed to ``budget`` tokens (a new list; inputs are not modified)."""
    sizes = [estimate_tokens(m) for m in messages]
    total = sum(sizes) + system_tokens
    if total <= budget:
        return messages, Trim()
    out = list(messages)
    shrunk = 0
    tool_positions = [i for i, m in enumerate(out) if m.get("role") == "tool"]
    for i in tool_positions[:-KEEP_RECENT_TOOL_RESULTS] if KEEP_RECENT_TOOL_RESULTS else tool_positions:
        if total <= budget:
            break
        result = out[i]
        if result["role"] == "tool" and len(str(result.get("content") or "")) > SHRUNK_RESULT_CHARS + 100:
            smaller = _shrink(result)
            total -= sizes[i] - estimate_tokens(smaller)
            out[i] = smaller
            shrunk += 1
    if total <= budget:
        return out, Trim(shrunk_results=shrunk)
    groups = _exchanges(out)
    first, middle, last = groups[:1], groups[1:-1], groups[-1:]
    dropped = 0
    while middle and total > budget:
        gone = middle.pop(0)
        total -= sum(estimate_tokens(m) for m in gone)
        dropped += len(gone)
    if dropped == 0:
        return out, Trim(shrunk_results=shrunk)
    marker: UserMessage = {"role": "user", "content": OMITTED_MARKER.format(n=dropped)}
    kept = [m for g in first for m in g] + [marker] + [m for g in middle + last for m in g]
    return kept, Trim(shrunk_results=shrunk, dropped_messages=dropped)
