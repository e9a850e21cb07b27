"""Anthropic Messages API adapter (``anthropic.AsyncAnthropic``).

Contract:
  * canonical history → Messages: ``tool`` results become ``tool_result`` blocks
    in a user turn; consecutive same-role turns are merged (the API wants
    alternation); images and PDFs become ``image`` / ``document`` blocks;
  * the assistant's full content blocks (thinking with signature, redacted
    thinking, server tool use and results) are stored in
    ``provider_state["anthropic"]["content"]`` and sent back verbatim when the
    canonical text and tool calls still match them — the API requires the
    thinking signature on the turn that made a tool call;
  * prompt caching: ``cache_control`` on the system prompt, the last tool, and
    the last block of the conversation (the stable prefix grows turn by turn);
  * extended thinking is on for reasoning-capable models (budget configurable).
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator, Mapping
from fnmatch import fnmatchcase
from typing import Any

from openworker_qt.core.provider_api import (
    FinishChunk,
    ModelRequest,
    ReasoningChunk,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)
from openworker_qt.domain.messages import AssistantMessage, Message
from openworker_qt.providers._common import (
    alternating_turns,
    close_stream,
    content_parts,
    content_text,
    lenient_arguments,
    object_schema,
    provider_state,
    safe_tool_id,
    split_data_url,
    tool_specs,
)
from openworker_qt.providers.errors import incomplete_answer
from openworker_qt.providers.guarded import GuardedProvider
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
)

NAMESPACE = "anthropic"
#: Models that take ``thinking: {"type": "adaptive"}`` (a fixed budget is deprecated there).
ADAPTIVE_THINKING = ("claude-opus-4-6*", "claude-sonnet-4-6*", "claude-mythos*", "claude-opus-5*", "claude-sonnet-5*")
DEFAULT_MAX_TOKENS = 8192
_CACHEABLE = frozenset({"text", "image", "document", "tool_use", "tool_result"})
_STOP_REASONS = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop"}


#: Anthropic's call ids (``_common.safe_tool_id``, shared with Bedrock).
tool_id = safe_tool_id


def _user_blocks(content: Any) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for part in content_parts(content):
        kind = part.get("type")
        if kind == "text":
            if part.get("text"):
                blocks.append({"type": "text", "text": str(part["text"])})
        elif kind == "image_url":
            url = str((part.get("image_url") or {}).get("url", ""))
            data = split_data_url(url)
            source: dict[str, Any] = (
                {"type": "base64", "media_type": data[0], "data": data[1]}
                if data
                else {"type": "url", "url": url}
            )
            blocks.append({"type": "image", "source": source})
        elif kind == "file":
            info = part.get("file") or {}
            data = split_data_url(str(info.get("file_data", "")))
            if data:
                block: dict[str, Any] = {
                    "type": "document",
                    "source": {"type": "base64", "media_type": data[0], "data": data[1]},
                }
                if info.get("filename"):
                    block["title"] = str(info["filename"])
                blocks.append(block)
    return blocks


def _assistant_blocks(msg: AssistantMessage) -> list[dict[str, Any]]:
    text = content_text(msg.get("content"))
    calls = msg.get("tool_calls") or []
    canonical: list[dict[str, Any]] = []
    if text:
        canonical.append({"type": "text", "text": text})
    for call in calls:
        fn = call.get("function") or {}
        canonical.append(
            {
                "type": "tool_use",
                "id": tool_id(str(call.get("id"))),
                "name": str(fn.get("name", "")),
                "input": lenient_arguments(str(fn.get("arguments") or "")),
            }
        )
    stored = provider_state(msg, NAMESPACE).get("content")
    if not isinstance(stored, list) or not stored:
        return canonical
    stored_text = "".join(str(b.get("text", "")) for b in stored if b.get("type") == "text")
    stored_ids = [b.get("id") for b in stored if b.get("type") == "tool_use"]
    if stored_text == text and stored_ids == [c.get("id") for c in calls]:
        return copy.deepcopy(stored)
    # Text or calls changed since (e.g. recovered or interrupted): keep the private
    # blocks (thinking first, as the API requires) and the canonical content.
    private = [copy.deepcopy(b) for b in stored if b.get("type") not in ("text", "tool_use")]
    return private + canonical


def _tool_result_block(msg: Message) -> dict[str, Any]:
    """A tool result; its pictures (``attachments``) go inside it as image blocks."""
    text = content_text(msg.get("content")) or "(no output)"
    images = [b for b in _user_blocks(msg.get("attachments")) if b["type"] == "image"]
    return {
        "type": "tool_result",
        "tool_use_id": tool_id(str(msg.get("tool_call_id"))),
        "content": [{"type": "text", "text": text}, *images] if images else text,
    }


def build_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Canonical history → Anthropic ``messages`` (alternating roles)."""
    return alternating_turns(messages, user=_user_blocks, assistant=_assistant_blocks,
                             tool_result=_tool_result_block,
                             is_result=lambda b: b.get("type") == "tool_result")


def _mark_cache(blocks: list[dict[str, Any]]) -> None:
    for block in reversed(blocks):
        if block.get("type") in _CACHEABLE:
            block["cache_control"] = {"type": "ephemeral"}
            return


def _usage(raw: Any, into: dict[str, int]) -> None:
    """Record the wire's counts (later events repeat or update earlier ones).

    As on the wire, ``input_tokens`` here leaves out the cached tokens:
    :func:`_canonical` adds them once the message is complete."""
    if raw is None:
        return
    for ours, theirs in (
        ("input_tokens", "input_tokens"),
        ("output_tokens", "output_tokens"),
        ("cache_read_tokens", "cache_read_input_tokens"),
        ("cache_write_tokens", "cache_creation_input_tokens"),
    ):
        value = getattr(raw, theirs, None)
        if isinstance(value, int):
            into[ours] = value
    details = getattr(raw, "output_tokens_details", None)
    if details is None:  # (a field this SDK version does not model arrives as an extra)
        details = (getattr(raw, "model_extra", None) or {}).get("output_tokens_details")
    thinking = (details.get("thinking_tokens") if isinstance(details, dict)
                else getattr(details, "thinking_tokens", None))
    if isinstance(thinking, int):
        into["reasoning_tokens"] = thinking


def _canonical(usage: dict[str, int]) -> dict[str, int]:
    """The wire's counts in the shape of ``domain.usage``: the prompt's total input
    (Anthropic counts cache reads and writes apart from ``input_tokens``)."""
    out = {k: v for k, v in usage.items() if v}
    total = sum(usage.get(k, 0) for k in ("input_tokens", "cache_read_tokens", "cache_write_tokens"))
    if total or "input_tokens" in usage:
        out["input_tokens"] = total
    if "output_tokens" in usage:
        out["output_tokens"] = usage["output_tokens"]
    return out


# Response-only fields the request schema does not take back.
_REQUEST_FIELDS: dict[str, frozenset[str]] = {
    "text": frozenset({"type", "text", "citations"}),
    "thinking": frozenset({"type", "thinking", "signature"}),
    "redacted_thinking": frozenset({"type", "data"}),
    "tool_use": frozenset({"type", "id", "name", "input"}),
    "server_tool_use": frozenset({"type", "id", "name", "input"}),
}


def _dump(block: Any) -> dict[str, Any]:
    data: dict[str, Any] = block.model_dump(mode="json", exclude_none=True)
    keep = _REQUEST_FIELDS.get(str(data.get("type")))
    if keep is not None:
        data = {k: v for k, v in data.items() if k in keep}
    else:
        data.pop("caller", None)
    return data


class AnthropicProvider(GuardedProvider):
    """Streams the Messages API."""

    name = "anthropic"
    label = "Anthropic"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        thinking_budget: int | None = 4096,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool = True,
        cache: bool = True,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, caps_overrides=caps_overrides,
                         retry=retry, timeouts=timeouts, sleep=sleep, stream=stream)
        self._thinking_budget = thinking_budget
        self._cache = cache

    def _warm_client(self, client: Any) -> None:
        _ = client.messages

    def _make_client(self) -> Any:
        import anthropic

        from openworker_qt.providers import wire

        options = wire.client_options(self._timeouts)
        return anthropic.AsyncAnthropic(
            api_key=self._api_key,
            base_url=self._base_url,
            max_retries=0,
            timeout=options["timeout"],
            http_client=anthropic.DefaultAsyncHttpxClient(**options),
        )

    def build_params(self, request: ModelRequest) -> dict[str, Any]:
        caps = self.capabilities(request.model)
        messages = build_messages(request.messages)
        params: dict[str, Any] = {
            "model": request.model,
            "max_tokens": request.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": messages,
        }
        if request.system:
            system: dict[str, Any] = {"type": "text", "text": request.system}
            if self._cache:
                system["cache_control"] = {"type": "ephemeral"}
            params["system"] = [system]
        specs = tool_specs(request.tools)
        if specs and caps.tools:
            tools = [
                {"name": s.name, "description": s.description, "input_schema": object_schema(s.parameters)}
                for s in specs
            ]
            if self._cache:
                tools[-1]["cache_control"] = {"type": "ephemeral"}
            params["tools"] = tools
            if not caps.parallel_tools:
                params["tool_choice"] = {"type": "auto", "disable_parallel_tool_use": True}
        if self._cache and messages:
            _mark_cache(messages[-1]["content"])
        if caps.reasoning and self._thinking_budget:
            if any(fnmatchcase(request.model, g) for g in ADAPTIVE_THINKING):
                # newer models decide how much to think; a fixed budget is deprecated
                params["thinking"] = {"type": "adaptive", "display": "summarized"}
            else:
                params["thinking"] = {"type": "enabled", "budget_tokens": self._thinking_budget}
                params["max_tokens"] = max(params["max_tokens"], self._thinking_budget + 4096)
        elif request.temperature is not None:
            params["temperature"] = request.temperature
        return params

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        params = self.build_params(request)
        offered = [t["name"] for t in params.get("tools", [])]
        if not self._stream:
            message = await self.client.messages.create(**params)
            dumped = [_dump(b) for b in message.content]
            once: dict[str, int] = {}
            _usage(message.usage, once)
            for block in dumped:
                if block["type"] == "thinking" and block.get("thinking"):
                    yield ReasoningChunk(block["thinking"])
                elif block["type"] == "text" and block.get("text"):
                    yield TextChunk(block["text"])
            for item in self._finish(dumped, message.stop_reason, once, offered):
                yield item
            return

        stream = await self.client.messages.create(**params, stream=True)
        blocks: dict[int, dict[str, Any]] = {}
        partial: dict[int, list[str]] = {}
        usage: dict[str, int] = {}
        stop_reason: str | None = None
        stopped = False  # message_stop arrived: the answer is complete
        shown = False
        try:
            async for event in stream:
                kind = event.type
                if kind == "message_start":
                    _usage(event.message.usage, usage)
                    yield None
                elif kind == "content_block_start":
                    blocks[event.index] = _dump(event.content_block)
                    if blocks[event.index]["type"] in ("tool_use", "server_tool_use"):
                        partial[event.index] = []
                    yield None
                elif kind == "content_block_delta":
                    block = blocks.setdefault(event.index, {"type": "text", "text": ""})
                    delta = event.delta
                    shown = True
                    if delta.type == "text_delta":
                        block["text"] = block.get("text", "") + delta.text
                        if delta.text:
                            yield TextChunk(delta.text)
                        else:
                            yield None
                    elif delta.type == "thinking_delta":
                        block["thinking"] = block.get("thinking", "") + delta.thinking
                        if delta.thinking:
                            yield ReasoningChunk(delta.thinking)
                        else:
                            yield None
                    elif delta.type == "signature_delta":
                        block["signature"] = block.get("signature", "") + delta.signature
                        yield None
                    elif delta.type == "input_json_delta":
                        partial.setdefault(event.index, []).append(delta.partial_json)
                        yield None
                    elif delta.type == "citations_delta":
                        block.setdefault("citations", []).append(_dump(delta.citation))
                        yield None
                    else:
                        yield None
                elif kind == "content_block_stop":
                    block = blocks.get(event.index, {})
                    if event.index in partial:
                        raw = "".join(partial.pop(event.index))
                        block["_raw_input"] = raw
                        block["input"] = lenient_arguments(raw)
                    yield None
                elif kind == "message_delta":
                    stop_reason = event.delta.stop_reason or stop_reason
                    _usage(event.usage, usage)
                    yield None
                elif kind == "message_stop":
                    stopped = True
                    yield None
                else:
                    yield None
        finally:
            await close_stream(stream)
        if not stopped and stop_reason is None:
            raise incomplete_answer(self.label, provider=self.name, model=request.model,
                                    empty=not shown)
        # A block still open when the stream ended (max_tokens mid-call) keeps its raw text.
        for index, pieces in partial.items():
            blocks[index]["_raw_input"] = "".join(pieces)
            blocks[index]["input"] = lenient_arguments(blocks[index]["_raw_input"])
        for item in self._finish([blocks[i] for i in sorted(blocks)], stop_reason, usage, offered):
            yield item

    def _finish(
        self,
        blocks: list[dict[str, Any]],
        stop_reason: str | None,
        usage: dict[str, int],
        offered: list[str],
    ) -> list[StreamChunk]:
        out: list[StreamChunk] = []
        for block in blocks:
            if block.get("type") == "tool_use":
                raw = block.pop("_raw_input", None)
                if raw is None:
                    raw = json.dumps(block.get("input") or {}, ensure_ascii=False)
                out.append(ToolCallChunk(id=str(block["id"]), name=str(block["name"]), arguments=raw or "{}"))
            else:
                block.pop("_raw_input", None)
        reason = _STOP_REASONS.get(stop_reason or "end_turn", stop_reason or "stop")
        if out:
            reason = "tool_calls" if reason == "stop" else reason
        private = any(b.get("type") not in ("text", "tool_use") for b in blocks)
        state = {NAMESPACE: {"content": blocks}} if private else {}
        out.append(FinishChunk(reason=reason, usage=_canonical(usage), provider_state=state))
        return out
