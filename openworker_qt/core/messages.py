"""Canonical, provider-neutral history and its outbound adaptation.

History is stored in the OpenAI chat shape (``role`` + ``content`` + optional
``tool_calls`` / ``tool_call_id``) with extra side fields that only the user
sees: ``ts``, ``reasoning``, ``_display``, ``source``, ``status`` and whole
``role: notice`` messages. Provider-private state (``provider_state``, e.g.
thinking signatures) is kept and sent back, because the API that produced it
needs it on the next call.

Contract:
  * :func:`outbound` never mutates its input; it returns a deep copy that holds
    only what a provider may see, adapted to the given capabilities.
  * Stored history is never rewritten for a provider.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack, cast

from openworker_qt.domain.arguments import map_json
from openworker_qt.domain.messages import (
    ContentPart,
    Message,
    NoticeExtras,
    NoticeMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from openworker_qt.domain.usage import Usage

IMAGE_PLACEHOLDER = "[image attachment — not viewable by this model]"
#: The keys of a tool result's ``display`` holding a sub-agent's token usage and the
#: model it ran on (the explorer's; ``core.engine.AGENT_USAGE`` is the same key).
AGENT_USAGE = "agent_usage"
AGENT_MODEL = "agent_model"
INTERRUPTED_RESULT = "interrupted by user"

# Per role, the keys a provider may see. Everything else is display-only.
_OUTBOUND_KEYS: Mapping[str, frozenset[str]] = {
    "system": frozenset({"role", "content"}),
    "user": frozenset({"role", "content", "name"}),
    "assistant": frozenset({"role", "content", "tool_calls", "provider_state"}),
    "tool": frozenset({"role", "content", "tool_call_id", "name", "attachments"}),
}


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a model accepts. Conservative defaults for unknown models."""

    tools: bool = True
    vision: bool = False
    pdf: bool = False
    parallel_tools: bool = True
    reasoning: bool = False
    context_window: int = 32_000


def now() -> float:
    """Wall-clock timestamp stored on messages (seconds since the epoch)."""
    return time.time()


def user_message(content: str | list[ContentPart], *, source: str = "user") -> UserMessage:
    """A user message with its display-only timestamp and source."""
    return {"role": "user", "content": content, "ts": now(), "source": source}


def notice(kind: str, text: str, **extra: Unpack[NoticeExtras]) -> NoticeMessage:
    """A display-only notice; providers never see it."""
    return {"role": "notice", "kind": kind, "text": text, "ts": now(), **extra}


def tool_result(
    call_id: str,
    name: str,
    content: str,
    *,
    status: str = "ok",
    display: Mapping[str, Any] | None = None,
    rule: str | None = None,
    attachments: Sequence[ContentPart] = (),
    duration: float | None = None,
) -> ToolMessage:
    """A ``role: tool`` message answering ``call_id`` (``attachments``: pictures the
    model sees with the result, ``image_url`` parts; ``duration``: the seconds the
    call ran, kept so a reopened session still says how long it took)."""
    msg: ToolMessage = {
        "role": "tool",
        "tool_call_id": call_id,
        "name": name,
        "content": content,
        "status": status,
        "ts": now(),
    }
    if attachments:
        msg["attachments"] = [dict(p) for p in attachments]
    if display:
        msg["_display"] = dict(display)
        # A sub-agent's tokens are stored on its result, as a reply's are on the
        # reply, so the session's totals and cost count them (storage step 6).
        used = Usage.of(display.get(AGENT_USAGE)) if isinstance(
            display.get(AGENT_USAGE), Mapping) else Usage()
        if used:
            msg["usage"] = used.as_dict()
            msg["model"] = str(display.get(AGENT_MODEL) or "")
    if rule:
        msg["rule"] = rule
    if duration is not None and duration >= 0:
        msg["duration"] = round(duration, 3)
    return msg


class OpenToolCall(ToolCall):
    """A call no result answers yet, with its instance key (see :func:`dangling_tool_calls`)."""

    _key: str


def pending_tool_calls(history: Sequence[Message]) -> list[ToolCall]:
    """Tool calls of the last assistant message that have no result yet.

    Only the trailing assistant message counts: an earlier orphan would be a bug
    the engine prevents, and the durable-resume path only ever continues the
    latest step.
    """
    answered: set[str] = set()
    for msg in reversed(history):
        if msg["role"] == "tool":
            answered.add(str(msg.get("tool_call_id")))
        elif msg["role"] == "assistant":
            calls = msg.get("tool_calls") or []
            return [c for c in calls if c.get("id") not in answered]
        elif msg["role"] == "user":
            return []
    return []


def dangling_tool_calls(history: Sequence[Message]) -> list[OpenToolCall]:
    """Every tool call in ``history`` that no later ``role: tool`` message answers.

    The engine gives every call a result, so these come only from a turn cut off
    by a crash or a failure. Left alone they wedge the session: OpenAI and
    Anthropic refuse a request whose tool call has no result. A call id reused by
    a later assistant message starts a new call (some servers number calls per
    response); the earlier, unanswered one is reported too. Each returned call
    carries ``_key``, its call instance key (step id plus vendor id).
    """
    open_calls: dict[str, OpenToolCall] = {}
    shadowed: list[OpenToolCall] = []
    for msg in history:
        if msg["role"] == "assistant":
            step = msg.get("step_id")
            for call in msg.get("tool_calls") or ():
                cid = str(call.get("id"))
                if cid in open_calls:
                    shadowed.append(open_calls.pop(cid))
                # The call instance's key (see core/inbox.py): the step's id plus the
                # vendor's call id, which vendors reuse across turns.
                open_calls[cid] = {**call, "_key": f"{step}/{cid}" if step else cid}
        elif msg["role"] == "tool" and open_calls:
            open_calls.pop(str(msg.get("tool_call_id")), None)
    return [*shadowed, *open_calls.values()]


def has_parts(history: Iterable[Message], part_type: str) -> bool:
    """True if any user message carries a content part of ``part_type`` (or, for
    ``image_url``, any tool result carries a picture)."""
    for msg in history:
        if part_type == "image_url" and msg.get("attachments"):
            return True
        content = msg.get("content")
        if isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and part.get("type") == part_type:
                    return True
    return False


def _decode_data_url(url: str) -> bytes:
    _, _, data = url.partition(",")
    return base64.b64decode(data)


def pdf_text(data: bytes, *, max_chars: int = 200_000) -> str:
    """Extract the text of a PDF with pypdf; a clear note when there is none."""
    from openworker_qt.core.pdf import extract_text

    return extract_text(data, max_chars=max_chars)


PDF_FALLBACKS = ("text", "images")


def _pdf_as_images(name: str, data: bytes, max_pages: int) -> list[dict[str, Any]]:
    from openworker_qt.core.pdf import inspect, rasterize

    info = inspect(data)
    pages = rasterize(data, max_pages=max_pages)
    note = f"[Attached PDF: {name} — {info.pages} page(s)"
    note += f", first {len(pages)} shown as images]" if len(pages) < info.pages else " as images]"
    parts: list[dict[str, Any]] = [{"type": "text", "text": note}]
    for png in pages:
        url = "data:image/png;base64," + base64.b64encode(png).decode()
        parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts


def _adapt_part(
    part: dict[str, Any],
    caps: Capabilities,
    extract: Callable[[bytes], str],
    pdf_mode: str = "text",
    max_pdf_pages: int = 5,
) -> list[dict[str, Any]]:
    kind = part.get("type")
    if kind == "image_url" and not caps.vision:
        return [{"type": "text", "text": IMAGE_PLACEHOLDER}]
    if kind == "file" and not caps.pdf:
        info = part.get("file", {})
        name = info.get("filename", "document.pdf")
        data_url = info.get("file_data", "")
        try:
            data = _decode_data_url(data_url) if data_url else b""
        except Exception as exc:
            return [{"type": "text", "text": f"[Attached PDF: {name}: could not be decoded: {exc}]"}]
        if not data:
            return [{"type": "text", "text": f"[Attached PDF: {name}: empty attachment]"}]
        # "images" needs a model that can see; any other mode (or a failure) is text.
        if pdf_mode == "images" and caps.vision:
            try:
                return _pdf_as_images(name, data, max_pdf_pages)
            except Exception:  # fall back to text, which explains its own failures
                pass
        return [{"type": "text", "text": f"[Attached PDF: {name}]\n{extract(data)}"}]
    return [_wire_part(part)]


# The keys each content part may carry to a provider; anything else (a display
# name, an attachment flag) is for the user only.
_PART_KEYS: Mapping[str, frozenset[str]] = {
    "text": frozenset({"type", "text"}),
    "image_url": frozenset({"type", "image_url"}),
    "file": frozenset({"type", "file"}),
}


def _wire_part(part: dict[str, Any]) -> dict[str, Any]:
    keys = _PART_KEYS.get(str(part.get("type")))
    if keys is None:
        return part
    return {k: v for k, v in part.items() if k in keys}


TOOL_IMAGE_NOTE = ("[{name}: an image the tool opened; this model cannot view images, so "
                   "it is left out. Ask the user to describe it, or switch to a model "
                   "that can see images.]")


def _adapt_attachments(msg: dict[str, Any], caps: Capabilities) -> None:
    """A tool result's pictures: kept (only well-formed ``image_url`` parts, without
    display keys) for a model with vision; for one without, a note in the text instead."""
    raw = msg.pop("attachments")
    found: list[tuple[str, str]] = []
    for part in raw if isinstance(raw, list) else []:
        info = part.get("image_url") if isinstance(part, dict) else None
        if part.get("type") == "image_url" and isinstance(info, dict) and info.get("url"):
            found.append((str(part.get("name") or "image"), str(info["url"])))
    if not found:
        return
    if caps.vision:
        msg["attachments"] = [{"type": "image_url", "image_url": {"url": url}}
                              for _name, url in found]
        return
    notes = "\n".join(TOOL_IMAGE_NOTE.format(name=name) for name, _url in found)
    text = msg.get("content")
    msg["content"] = f"{text}\n{notes}" if isinstance(text, str) and text else notes


def outbound_message(
    msg: Message,
    caps: Capabilities,
    *,
    extract_pdf: Callable[[bytes], str] = pdf_text,
    pdf_mode: str = "text",
) -> Message | None:
    """The provider-visible copy of one message, or None if providers never see it.

    ``pdf_mode`` says what a PDF becomes for a model without native PDF input:
    ``"text"`` (extracted with pypdf) or ``"images"`` (page renderings; only for
    models with vision — otherwise, and for any unknown mode, text).
    """
    keys = _OUTBOUND_KEYS.get(str(msg.get("role")))
    if keys is None or msg.get("partial") == "error":
        return None
    clean = {k: _clone(v) for k, v in msg.items() if k in keys}
    if "attachments" in clean:
        _adapt_attachments(clean, caps)
    content = clean.get("content")
    if isinstance(content, list):
        adapted: list[Any] = []
        for p in content:
            if isinstance(p, dict):
                adapted.extend(_adapt_part(p, caps, extract_pdf, pdf_mode))
            else:
                adapted.append(p)
        clean["content"] = adapted
    return cast(Message, clean)  # the same message, without the keys providers never see


def outbound(
    history: Sequence[Message],
    caps: Capabilities | None = None,
    *,
    extract_pdf: Callable[[bytes], str] = pdf_text,
    pdf_mode: str = "text",
) -> list[Message]:
    """The copy of ``history`` a provider may see, adapted to ``caps``.

    Drops notices, the partial text of a failed call and every display-only key,
    replaces parts the model cannot take, and orders each step's tool results by
    the order of its calls (tools may finish in any order). ``history`` itself is
    left untouched.
    """
    caps = caps or Capabilities()
    out = [
        outbound_message(m, caps, extract_pdf=extract_pdf, pdf_mode=pdf_mode) for m in history
    ]
    return order_tool_results([m for m in out if m is not None])


def _clone(value: Any) -> Any:
    # JSON-shaped data only: several times faster than copy.deepcopy (measured in
    # bench/engine.py, where deepcopy was the engine's largest per-iteration cost).
    # Data nested too deep to recurse over is copied without recursion instead.
    try:
        return _clone_fast(value)
    except RecursionError:
        return map_json(value, lambda v: v)


def _clone_fast(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clone_fast(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone_fast(v) for v in value]
    return value


def order_tool_results(msgs: list[Message]) -> list[Message]:
    """Put each step's tool results right after its assistant message, in call order.

    Tools may finish in any order, and a result written later to heal a cut-off
    turn (see :func:`dangling_tool_calls`) sits after messages that followed the
    call: providers need every result directly after its call, so such a result
    is moved up (never past an assistant message that reuses its call id).
    """
    result: list[Message] = []
    moved: set[int] = set()
    i = 0
    n = len(msgs)
    while i < n:
        if i in moved:
            i += 1
            continue
        msg = msgs[i]
        result.append(msg)
        i += 1
        if msg["role"] == "assistant" and msg.get("tool_calls"):
            order: dict[str | None, int] = {c["id"]: k for k, c in enumerate(msg["tool_calls"])}
            block: list[Message] = []
            while i < n and msgs[i]["role"] == "tool":
                if i not in moved:
                    block.append(msgs[i])
                i += 1
            if len(block) < len(order):
                block.extend(_late_results(msgs, i, order, block, moved))
            block.sort(key=lambda m: order.get(_answers(m), len(order)))
            result.extend(block)
    return result


def settled_length(msgs: list[Message]) -> int:
    """The longest prefix whose :func:`order_tool_results` no later message can change.

    ``order_tool_results(msgs + more) == order_tool_results(msgs[:k]) +
    order_tool_results((msgs + more)[k:])`` for this ``k`` and any ``more``: every
    step in the prefix has all its results in the block right after it (so nothing
    is fetched from further down), and ``msgs[k]`` is not a tool result (so no later
    result can join the prefix's last block). Lets a caller order only the new tail.
    """
    cut = 0
    i = 0
    n = len(msgs)
    while i < n:
        msg = msgs[i]
        i += 1
        if msg["role"] == "assistant" and msg.get("tool_calls"):
            unanswered = {c["id"] for c in msg["tool_calls"]}
            while i < n and msgs[i]["role"] == "tool":
                unanswered.discard(msgs[i].get("tool_call_id"))
                i += 1
            if unanswered:
                return cut
        if i < n and msgs[i]["role"] != "tool":
            cut = i
    return cut


def _answers(msg: Message) -> str | None:
    """The call id a ``role: tool`` message answers (None for any other message)."""
    return msg.get("tool_call_id") if msg["role"] == "tool" else None


def _late_results(
    msgs: list[Message], start: int, order: Mapping[Any, int], block: list[Message],
    moved: set[int],
) -> list[Message]:
    """The results of ``order``'s unanswered calls that were stored further down."""
    missing = set(order) - {_answers(m) for m in block}
    found: list[Message] = []
    for j in range(start, len(msgs)):
        if not missing:
            break
        later = msgs[j]
        if later["role"] == "tool" and j not in moved and later.get("tool_call_id") in missing:
            missing.discard(later.get("tool_call_id"))
            moved.add(j)
            found.append(later)
        elif later["role"] == "assistant":
            missing -= {c.get("id") for c in later.get("tool_calls") or ()}
    return found
