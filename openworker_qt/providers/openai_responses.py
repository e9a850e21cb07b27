"""OpenAI Responses API adapter, used for OpenAI reasoning models (o-series,
gpt-5*) where it streams reasoning summaries and keeps reasoning across tool
calls; other OpenAI models use Chat Completions (``openai_chat.py``).

Contract:
  * requests are stateless (``store: false``) and ask for
    ``reasoning.encrypted_content``; the reasoning items a response produced are
    kept in ``provider_state["openai"]["items"]`` and sent back before that
    turn's message and function calls, so the model keeps its chain of thought;
  * canonical history → ``input`` items: messages, ``function_call`` and
    ``function_call_output`` items; images and PDFs as ``input_image`` /
    ``input_file``;
  * text, reasoning summary and function-call events are normalised to chunks.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Mapping
from typing import Any

from openworker_qt.core.provider_api import (
    FinishChunk,
    ModelRequest,
    ReasoningChunk,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)
from openworker_qt.domain.messages import Message
from openworker_qt.providers._common import (
    content_parts,
    content_text,
    object_schema,
    provider_state,
    tool_specs,
)
from openworker_qt.providers.errors import incomplete_answer, stream_error
from openworker_qt.providers.guarded import GuardedProvider
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
)

NAMESPACE = "openai"


def _user_content(content: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for part in content_parts(content):
        kind = part.get("type")
        if kind == "text":
            out.append({"type": "input_text", "text": str(part.get("text", ""))})
        elif kind == "image_url":
            image = part.get("image_url") or {}
            out.append({"type": "input_image", "image_url": str(image.get("url", "")),
                        "detail": str(image.get("detail") or "auto")})  # the API requires it
        elif kind == "file":
            info = part.get("file") or {}
            out.append(
                {
                    "type": "input_file",
                    "filename": str(info.get("filename") or "document.pdf"),
                    "file_data": str(info.get("file_data", "")),
                }
            )
    return out


def _function_output(msg: Message) -> dict[str, Any]:
    """A tool result; with pictures (``attachments``) its output is a list of parts."""
    text = content_text(msg.get("content"))
    images = [p for p in _user_content(msg.get("attachments")) if p["type"] == "input_image"]
    output: str | list[dict[str, Any]] = (
        [{"type": "input_text", "text": text}, *images] if images else text)
    return {"type": "function_call_output", "call_id": str(msg.get("tool_call_id")),
            "output": output}


def build_input(messages: list[Message]) -> list[dict[str, Any]]:
    """Canonical history → Responses ``input`` items."""
    items: list[dict[str, Any]] = []
    for msg in messages:
        if msg["role"] == "user":
            content = msg.get("content")
            if isinstance(content, str):
                items.append({"role": "user", "content": content})
            else:
                items.append({"role": "user", "content": _user_content(content)})
        elif msg["role"] == "assistant":
            for item in provider_state(msg, NAMESPACE).get("items", []):
                items.append(copy.deepcopy(item))
            text = content_text(msg.get("content"))
            if text:
                items.append({"role": "assistant", "content": text})
            for call in msg.get("tool_calls") or []:
                fn = call.get("function") or {}
                items.append(
                    {
                        "type": "function_call",
                        "call_id": str(call.get("id")),
                        "name": str(fn.get("name", "")),
                        "arguments": str(fn.get("arguments") or "{}"),
                    }
                )
        elif msg["role"] == "tool":
            items.append(_function_output(msg))
    return items


def _usage(raw: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    if raw is None:
        return out
    for ours, theirs in (("input_tokens", "input_tokens"), ("output_tokens", "output_tokens")):
        value = getattr(raw, theirs, None)
        if isinstance(value, int):
            out[ours] = value
    details = getattr(raw, "input_tokens_details", None)
    cached = getattr(details, "cached_tokens", None)
    if isinstance(cached, int) and cached:
        out["cache_read_tokens"] = cached
    written = getattr(details, "cache_write_tokens", None)
    if written is None:  # (newer than this SDK's model: kept as an extra field)
        written = (getattr(details, "model_extra", None) or {}).get("cache_write_tokens")
    if isinstance(written, int) and written:
        out["cache_write_tokens"] = written
    reasoning = getattr(getattr(raw, "output_tokens_details", None), "reasoning_tokens", None)
    if isinstance(reasoning, int) and reasoning:
        out["reasoning_tokens"] = reasoning
    return out


class OpenAIResponsesProvider(GuardedProvider):
    """Streams the Responses API (OpenAI only)."""

    name = "openai"
    label = "OpenAI"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        reasoning_effort: str | None = None,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        client: Any = None,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, caps_overrides=caps_overrides,
                         retry=retry, timeouts=timeouts, sleep=sleep)
        self._effort = reasoning_effort
        self._client = client

    def _warm_client(self, client: Any) -> None:
        _ = client.responses

    def _make_client(self) -> Any:
        return self._openai_client(self._api_key)

    def build_params(self, request: ModelRequest) -> dict[str, Any]:
        caps = self.capabilities(request.model)
        params: dict[str, Any] = {
            "model": request.model,
            "input": build_input(request.messages),
            "store": False,
        }
        if request.system:
            params["instructions"] = request.system
        if caps.reasoning:
            params["include"] = ["reasoning.encrypted_content"]
            reasoning: dict[str, Any] = {"summary": "auto"}
            if self._effort:
                reasoning["effort"] = self._effort
            params["reasoning"] = reasoning
        specs = tool_specs(request.tools)
        if specs and caps.tools:
            params["tools"] = [
                {
                    "type": "function",
                    "name": s.name,
                    "description": s.description,
                    "parameters": object_schema(s.parameters),
                    "strict": False,
                }
                for s in specs
            ]
            if not caps.parallel_tools:
                params["parallel_tool_calls"] = False
        if request.max_tokens is not None:
            params["max_output_tokens"] = request.max_tokens
        if request.temperature is not None and not caps.reasoning:
            params["temperature"] = request.temperature
        return params

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        params = self.build_params(request)
        stream = await self.client.responses.create(**params, stream=True)
        calls: dict[str, dict[str, Any]] = {}  # item id → call
        order: list[str] = []
        reasoning_items: list[dict[str, Any]] = []
        usage: dict[str, int] = {}
        finish = "stop"
        finished = False  # response.completed (or .incomplete) arrived
        shown = False
        try:
            async for event in stream:
                kind = event.type
                if kind.endswith(".delta"):
                    shown = True
                if kind == "response.output_text.delta":
                    if event.delta:
                        yield TextChunk(event.delta)
                        continue
                elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
                    if event.delta:
                        yield ReasoningChunk(event.delta)
                        continue
                elif kind == "response.output_item.added" and event.item.type == "function_call":
                    item = event.item
                    calls[item.id] = {"call_id": item.call_id, "name": item.name, "arguments": []}
                    order.append(item.id)
                elif kind == "response.function_call_arguments.delta":
                    calls.setdefault(event.item_id, {"call_id": "", "name": "", "arguments": []})["arguments"].append(event.delta)
                elif kind == "response.output_item.done":
                    item = event.item
                    if item.type == "function_call":
                        call = calls.setdefault(item.id, {"call_id": item.call_id, "name": item.name, "arguments": []})
                        if item.id not in order:
                            order.append(item.id)
                        call.update(call_id=item.call_id, name=item.name, final=item.arguments)
                    elif item.type == "reasoning":
                        data: dict[str, Any] = item.model_dump(mode="json", exclude_none=True)
                        data.pop("status", None)
                        reasoning_items.append(data)
                elif kind in ("response.completed", "response.incomplete"):
                    finished = True
                    usage = _usage(event.response.usage)
                    if kind == "response.incomplete":
                        details = event.response.incomplete_details
                        finish = "length" if getattr(details, "reason", "") == "max_output_tokens" else "incomplete"
                elif kind in ("response.failed", "error"):
                    err = getattr(getattr(event, "response", None), "error", None) or event
                    raise stream_error(err, provider=self.name, model=request.model)
                yield None
        finally:
            await stream.close()
        if not finished:
            raise incomplete_answer(self.label, provider=self.name, model=request.model,
                                    empty=not shown)
        for item_id in order:
            call = calls[item_id]
            raw = call.get("final") or "".join(call["arguments"]) or "{}"
            yield ToolCallChunk(id=str(call["call_id"]), name=str(call["name"]), arguments=raw)
        if order and finish == "stop":
            finish = "tool_calls"
        state = {NAMESPACE: {"items": reasoning_items}} if reasoning_items else {}
        yield FinishChunk(reason=finish, usage=usage, provider_state=state)
