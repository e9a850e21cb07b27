"""Recover tool calls that a model printed as text instead of calling natively.

Local models (Ollama, small open-weight models) often write a tool call into
their text: bare JSON, ``<tool_call>`` tags (Hermes/Qwen), an array of calls,
arguments as a JSON *string*, prose followed by a JSON call, or the shorthand
``tool_name {...}`` / ``tool_name [{...}, ...]``.

Contract:
  * only runs when tools were offered, and only accepts names that were offered;
  * a candidate object may hold only call-shaped keys (``name``, ``arguments`` /
    ``parameters`` / ``args`` / ``input``, ``id``, ``type``), so ordinary JSON data
    that happens to have a ``name`` field is left alone;
  * only a JSON value that ends the text counts (prose *before* it is kept, as the
    visible text); JSON in the middle of prose is an example, not a call;
  * all-or-nothing: if any candidate in a block is not a valid call, nothing is
    recovered from that block;
  * arguments nested deeper than ``domain.arguments.MAX_DEPTH`` make no call (text
    nested too deep to decode at all is left as text).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from openworker_qt.domain.arguments import ArgumentsError, parse_arguments, too_deep

_ARG_KEYS = ("arguments", "parameters", "args", "input")
_CALL_KEYS = frozenset({"name", "id", "type", *_ARG_KEYS})
_TAG_RE = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.S)
_FENCE_OPEN_RE = re.compile(r"```[a-zA-Z]*\s*\Z")
_FENCE_CLOSE_RE = re.compile(r"\A\s*```\s*\Z")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class RecoveredCall:
    name: str
    arguments: str  # a JSON object string


@dataclass(frozen=True, slots=True)
class Recovery:
    calls: list[RecoveredCall]
    text: str  # what remains visible once the calls are removed


def _arguments(obj: Mapping[str, Any]) -> dict[str, Any] | None:
    present = [k for k in _ARG_KEYS if k in obj]
    if len(present) > 1:
        return None
    if not present:
        return {}
    value = obj[present[0]]
    if value is None:
        return {}
    try:
        return parse_arguments(value)  # a JSON string or an object, of bounded depth
    except ArgumentsError:
        return None


def _call_from(obj: Any, offered: Collection[str]) -> RecoveredCall | None:
    if not isinstance(obj, dict):
        return None
    fn = obj.get("function")
    if isinstance(fn, dict) and set(obj) <= {"function", "type", "id"}:
        obj = fn
    if not set(obj) <= _CALL_KEYS:
        return None
    name = obj.get("name")
    if not isinstance(name, str) or name not in offered:
        return None
    args = _arguments(obj)
    if args is None:
        return None
    return RecoveredCall(name=name, arguments=json.dumps(args, ensure_ascii=False))


def _calls_from(value: Any, offered: Collection[str]) -> list[RecoveredCall] | None:
    items = value if isinstance(value, list) else [value]
    if not items:
        return None
    calls = [_call_from(item, offered) for item in items]
    if any(c is None for c in calls):
        return None
    return [c for c in calls if c is not None]


def _shorthand(name: str, value: Any) -> list[RecoveredCall] | None:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(i, dict) and not too_deep(i) for i in items):
        return None
    return [RecoveredCall(name, json.dumps(i, ensure_ascii=False)) for i in items]


def _from_tags(text: str, offered: Collection[str]) -> Recovery | None:
    matches = list(_TAG_RE.finditer(text))
    if not matches:
        return None
    calls: list[RecoveredCall] = []
    for m in matches:
        body = m.group(1).strip()
        try:
            value, end = _DECODER.raw_decode(body)
        except (json.JSONDecodeError, RecursionError):  # too deep is not a call either
            return None
        if body[end:].strip():
            return None
        found = _calls_from(value, offered)
        if found is None:
            return None
        calls.extend(found)
    remaining = _TAG_RE.sub("", text).strip()
    return Recovery(calls, remaining)


def _trailing_json(text: str, offered: Collection[str]) -> Recovery | None:
    for i, ch in enumerate(text):
        if ch not in "{[":
            continue
        try:
            value, end = _DECODER.raw_decode(text, i)
        except json.JSONDecodeError:
            continue
        except RecursionError:  # nested too deep to be a call; nothing later ends the text
            return None
        tail = text[end:]
        if tail.strip() and not _FENCE_CLOSE_RE.match(tail):
            continue
        prefix = text[:i]
        fence = _FENCE_OPEN_RE.search(prefix)
        if fence:
            prefix = prefix[: fence.start()]
        calls = _calls_from(value, offered)
        if calls is None:
            words = prefix.rstrip().rsplit(None, 1)
            if words and words[-1] in offered and prefix[len(prefix.rstrip()) :] != "":
                calls = _shorthand(words[-1], value)
                prefix = prefix.rstrip()[: -len(words[-1])]
        if calls:
            return Recovery(calls, prefix.strip())
        return None  # the value that ends the text is not a call: leave it alone
    return None


def recover_tool_calls(text: str, offered: Collection[str]) -> Recovery | None:
    """Tool calls written as text, or None when there are none (or no tools)."""
    if not offered or not text or not text.strip():
        return None
    if not any(name in text for name in offered):
        return None  # cheap guard: no offered name, no call (and no JSON scanning)
    if "<tool_call>" in text:
        return _from_tags(text, offered)
    return _trailing_json(text, offered)
