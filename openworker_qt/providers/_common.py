"""Small helpers shared by the provider adapters (no SDK imports here).

Contract: pure functions over the canonical (OpenAI chat shaped) history and the
tool schemas the engine sends; nothing here performs I/O.
"""

from __future__ import annotations

import base64
import hashlib
import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openworker_qt.domain.arguments import parse_arguments
from openworker_qt.domain.messages import Message


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool offered to the model, independent of any wire format."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)


def tool_specs(tools: Iterable[Mapping[str, Any]]) -> list[ToolSpec]:
    """Normalise OpenAI-style (``{"type": "function", "function": {...}}``) or flat
    (``{"name", "description", "parameters"}``) tool schemas."""
    specs: list[ToolSpec] = []
    for tool in tools:
        fn = tool.get("function") if isinstance(tool.get("function"), Mapping) else tool
        assert isinstance(fn, Mapping)
        name = str(fn.get("name") or "")
        if not name:
            continue
        params = fn.get("parameters") or fn.get("input_schema") or {}
        specs.append(
            ToolSpec(
                name=name,
                description=str(fn.get("description") or ""),
                parameters=dict(params) if isinstance(params, Mapping) else {},
            )
        )
    return specs


def object_schema(params: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON schema that is always an object schema (APIs reject an empty ``{}``)."""
    schema = dict(params)
    schema.setdefault("type", "object")
    if schema.get("type") == "object":
        schema.setdefault("properties", {})
    return schema


def parse_data_url(url: str) -> tuple[str, bytes] | None:
    """``data:<mime>;base64,<payload>`` → (mime, bytes); None for other URLs."""
    if not url.startswith("data:"):
        return None
    head, _, payload = url.partition(",")
    mime = head[5:].split(";", 1)[0] or "application/octet-stream"
    try:
        return mime, base64.b64decode(payload)
    except ValueError:
        return None


def split_data_url(url: str) -> tuple[str, str] | None:
    """``data:`` URL → (mime, base64 payload) without decoding."""
    if not url.startswith("data:"):
        return None
    head, _, payload = url.partition(",")
    return head[5:].split(";", 1)[0] or "application/octet-stream", payload


def content_text(content: Any) -> str:
    """The plain text of a message content (string or list of parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        return "".join(
            str(p.get("text", "")) for p in content if isinstance(p, Mapping) and p.get("type") == "text"
        )
    return str(content)


def content_parts(content: Any) -> list[dict[str, Any]]:
    """Message content as a list of parts (a bare string becomes one text part)."""
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [dict(p) for p in content if isinstance(p, Mapping)]


def loads_arguments(raw: str) -> dict[str, Any]:
    """Parse a tool call's JSON argument string; empty means no arguments.

    Raises:
        ValueError: the string is not a JSON object, or nests too deep
            (:data:`~openworker_qt.domain.arguments.MAX_DEPTH`).
    """
    return parse_arguments(raw)  # ArgumentsError is a ValueError


def lenient_arguments(raw: str) -> dict[str, Any]:
    """Arguments for a wire format that needs an object; malformed input is kept
    under ``_raw`` so nothing the model wrote is silently lost."""
    try:
        return loads_arguments(raw)
    except ValueError:
        return {"_raw": raw}


def provider_state(msg: Message, namespace: str) -> dict[str, Any]:
    """This provider's own slice of an assistant message's ``provider_state``."""
    state = msg.get("provider_state")
    if isinstance(state, Mapping):
        mine = state.get(namespace)
        if isinstance(mine, Mapping):
            return dict(mine)
    return {}


def group_tool_results(messages: Sequence[Message]) -> list[Message | list[Message]]:
    """Messages with each run of consecutive ``role: tool`` messages grouped in a list."""
    out: list[Message | list[Message]] = []
    for msg in messages:
        if msg.get("role") == "tool":
            if out and isinstance(out[-1], list):
                out[-1].append(msg)
            else:
                out.append([msg])
        else:
            out.append(msg)
    return out


_TOOL_ID_RE = re.compile(r"^[a-zA-Z0-9_-]+$")


def safe_tool_id(call_id: str) -> str:
    """A call id as Anthropic and Bedrock accept it (``^[a-zA-Z0-9_-]+$``). Ids another
    vendor made (Kimi's ``functions.get_weather:0``) are rewritten the same way every
    time, so a tool call and its result still match; a short hash of the original
    keeps two ids that differ only in rewritten characters apart. The history keeps
    the original id (each vendor gets its own mapping)."""
    if _TOOL_ID_RE.match(call_id):
        return call_id
    safe = re.sub(r"[^a-zA-Z0-9_-]", "_", call_id)[:40] or "call"
    return f"{safe}_{hashlib.sha1(call_id.encode()).hexdigest()[:8]}"


Blocks = list[dict[str, Any]]


def alternating_turns(
    messages: Sequence[Message], *,
    user: Callable[[Any], Blocks],
    assistant: Callable[[Any], Blocks],
    tool_result: Callable[[Message], dict[str, Any]],
    is_result: Callable[[dict[str, Any]], bool],
) -> list[dict[str, Any]]:
    """Canonical history → ``{"role", "content": blocks}`` turns that alternate, as the
    block-based APIs (Anthropic, Bedrock Converse) want them: each message's blocks
    come from the vendor's own mapping (``user`` takes the content, ``assistant`` the
    message, ``tool_result`` a tool message); turns of the same role merge, and tool
    results (``is_result``) stay ahead of new text in the user turn they join."""
    out: list[dict[str, Any]] = []

    def push(role: str, blocks: Blocks) -> None:
        if not blocks:
            return
        if not out or out[-1]["role"] != role:
            out.append({"role": role, "content": blocks})
            return
        prev = out[-1]["content"]
        if role == "user" and any(is_result(b) for b in blocks):
            out[-1]["content"] = ([b for b in prev if is_result(b)] + blocks
                                  + [b for b in prev if not is_result(b)])
        else:
            prev.extend(blocks)

    for msg in messages:
        if msg["role"] == "assistant":
            push("assistant", assistant(msg))
        elif msg["role"] == "tool":
            push("user", [tool_result(msg)])
        elif msg["role"] == "user":
            push("user", user(msg.get("content")))
    return out


async def close_stream(stream: Any) -> None:
    """Close an SDK's stream however it closes (``aclose``, ``close``; awaited when
    it is a coroutine): the end of every adapter's attempt, answered or not."""
    closer = getattr(stream, "aclose", None) or getattr(stream, "close", None)
    if closer is None:
        return
    result = closer()
    if inspect.isawaitable(result):
        await result
