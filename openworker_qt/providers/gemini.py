"""Gemini adapter (google-genai, ``client.aio``).

Contract:
  * canonical history → ``contents``: assistant turns become ``model`` turns of
    text and ``function_call`` parts; tool results become ``function_response``
    parts (grouped in one user turn); images and PDFs become ``inline_data``;
  * thought parts (``thought: true``) stream as reasoning; ``thought_signature``
    values (on function-call and text parts) are kept in
    ``provider_state["gemini"]`` and sent back on the same parts next call, as
    Gemini 3 requires for function calling;
  * call ids: Gemini's own ids are used when it sends them (and only those are
    sent back); otherwise a fresh id is minted and never sent to the API;
  * transport: httpx2 with :class:`GeminiStreamTransport`, SDK retries off.
"""

from __future__ import annotations

import base64
import copy
import json
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

from openworker_qt.core.provider_api import (
    FinishChunk,
    ModelRequest,
    ProviderError,
    ReasoningChunk,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)
from openworker_qt.domain.arguments import TOO_DEEP_ARGUMENTS, too_deep
from openworker_qt.domain.messages import AssistantMessage, Message
from openworker_qt.providers._assembly import new_call_id
from openworker_qt.providers._common import (
    close_stream,
    content_parts,
    content_text,
    lenient_arguments,
    object_schema,
    parse_data_url,
    provider_state,
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

NAMESPACE = "gemini"
#: Google's documented stand-in for the thought signature of a function call that
#: another model made (history from Anthropic, OpenAI …): Gemini 3 rejects a call in
#: the current turn without one (HTTP 400). On the wire it reads as this text.
SKIP_SIGNATURE = base64.urlsafe_b64decode("skip_thought_signature_validator")
_FINISH = {"STOP": "stop", "MAX_TOKENS": "length", "SAFETY": "content_filter", "RECITATION": "content_filter"}


def _gemini_ids(messages: list[Message]) -> set[str]:
    ids: set[str] = set()
    for msg in messages:
        if msg.get("role") == "assistant":
            ids.update(str(i) for i in provider_state(msg, NAMESPACE).get("ids", []))
    return ids


def _user_parts(content: Any) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    for part in content_parts(content):
        kind = part.get("type")
        if kind == "text" and part.get("text"):
            parts.append({"text": str(part["text"])})
        elif kind == "image_url":
            url = str((part.get("image_url") or {}).get("url", ""))
            data = parse_data_url(url)
            if data:
                parts.append({"inline_data": {"mime_type": data[0], "data": data[1]}})
            else:
                parts.append({"text": f"[image: {url}]"})
        elif kind == "file":
            info = part.get("file") or {}
            data = parse_data_url(str(info.get("file_data", "")))
            if data:
                parts.append({"inline_data": {"mime_type": data[0], "data": data[1]}})
    return parts


def _function_response_parts(attachments: Any) -> list[dict[str, Any]]:
    """A tool result's pictures as a function response's own parts (inline data)."""
    return [{"inline_data": p["inline_data"]} for p in _user_parts(attachments)
            if "inline_data" in p]


def _stored_parts(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for raw in stored:
        part = copy.deepcopy(raw)
        sig = part.pop("thought_signature", None)
        if sig:
            part["thought_signature"] = base64.b64decode(sig)
        out.append(part)
    return out


def needs_signatures(model: str) -> bool:
    """Whether ``model`` validates thought signatures on function calls (Gemini 3 on;
    1.x and 2.x do not, and are sent no placeholder)."""
    return not re.match(r"(?:models/)?gemini-[12](?:[.-]|$)", model)


def _model_parts(msg: AssistantMessage, known_ids: set[str], sign: bool = True) -> list[dict[str, Any]]:
    state = provider_state(msg, NAMESPACE)
    text = content_text(msg.get("content"))
    calls = msg.get("tool_calls") or []
    stored = state.get("parts")
    if isinstance(stored, list) and stored:
        stored_text = "".join(
            str(p.get("text", "")) for p in stored if "text" in p and not p.get("thought")
        )
        stored_ids = state.get("call_ids", [])
        if stored_text == text and stored_ids == [c.get("id") for c in calls]:
            return _stored_parts(stored)
    signatures = {str(k): v for k, v in (state.get("signatures") or {}).items()}
    parts: list[dict[str, Any]] = []
    if text:
        parts.append({"text": text})
    # Gemini wants a signature on the first call of each step: a step another model
    # made has none, so it gets the documented placeholder.
    unsigned = sign and not any(str(c.get("id")) in signatures for c in calls)
    for index, call in enumerate(calls):
        fn = call.get("function") or {}
        call_id = str(call.get("id"))
        fc: dict[str, Any] = {"name": str(fn.get("name", "")), "args": lenient_arguments(str(fn.get("arguments") or ""))}
        if call_id in known_ids:
            fc["id"] = call_id
        part: dict[str, Any] = {"function_call": fc}
        if call_id in signatures:
            part["thought_signature"] = base64.b64decode(signatures[call_id])
        elif unsigned and index == 0:
            part["thought_signature"] = SKIP_SIGNATURE
        parts.append(part)
    return parts


def build_contents(messages: list[Message], model: str = "") -> list[dict[str, Any]]:
    """Canonical history → Gemini ``contents`` (``model``: the model they go to)."""
    sign = needs_signatures(model)
    known_ids = _gemini_ids(messages)
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []

    def push(role: str, parts: list[dict[str, Any]]) -> None:
        if not parts:
            return
        if out and out[-1]["role"] == role:
            out[-1]["parts"].extend(parts)
        else:
            out.append({"role": role, "parts": parts})

    for msg in messages:
        if msg["role"] == "assistant":
            for call in msg.get("tool_calls") or []:
                names[str(call.get("id"))] = str((call.get("function") or {}).get("name", ""))
            push("model", _model_parts(msg, known_ids, sign))
        elif msg["role"] == "tool":
            call_id = str(msg.get("tool_call_id"))
            fr: dict[str, Any] = {
                "name": str(msg.get("name") or names.get(call_id, "")),
                "response": {"output": content_text(msg.get("content"))},
            }
            if call_id in known_ids:
                fr["id"] = call_id
            if images := _function_response_parts(msg.get("attachments")):
                fr["parts"] = images
            push("user", [{"function_response": fr}])
        elif msg["role"] == "user":
            push("user", _user_parts(msg.get("content")) or [{"text": ""}])
    return out


def _usage(meta: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    if meta is None:
        return out
    for ours, theirs in (
        ("input_tokens", "prompt_token_count"),
        ("output_tokens", "candidates_token_count"),
        ("reasoning_tokens", "thoughts_token_count"),
        ("cache_read_tokens", "cached_content_token_count"),
    ):
        value = getattr(meta, theirs, None)
        if isinstance(value, int):
            out[ours] = value
    # Gemini counts thinking apart from the answer; both are output (domain.usage).
    if out.get("reasoning_tokens"):
        out["output_tokens"] = out.get("output_tokens", 0) + out["reasoning_tokens"]
    return {k: v for k, v in out.items() if v or k in ("input_tokens", "output_tokens")}


class GeminiProvider(GuardedProvider):
    """Streams ``generateContent`` through google-genai's async client."""

    name = "gemini"
    label = "Google Gemini"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        include_thoughts: bool = True,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool = True,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, caps_overrides=caps_overrides,
                         retry=retry, timeouts=timeouts, sleep=sleep, stream=stream)
        self._include_thoughts = include_thoughts
        self._http: Any = None

    def _warm_client(self, client: Any) -> None:
        from google.genai import types

        _ = client.aio.models, types.Content, types.GenerateContentConfig

    def _make_client(self) -> Any:
        import httpx2
        from google import genai
        from google.genai import types

        from openworker_qt.providers.gemini_transport import GeminiStreamTransport

        # google-genai sends every request with ``timeout=None``; the transport puts
        # the configured connect and read timeouts back and feeds the stall watchdog.
        self._http = httpx2.AsyncClient(transport=GeminiStreamTransport(timeouts=self._timeouts))
        options = types.HttpOptions(
            base_url=self._base_url,
            api_version="v1beta",
            httpx_async_client=self._http,
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        return genai.Client(api_key=self._api_key or "unset", http_options=options)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aio.aclose()
        if self._http is not None:
            await self._http.aclose()

    def build_config(self, request: ModelRequest) -> dict[str, Any]:
        caps = self.capabilities(request.model)
        config: dict[str, Any] = {}
        if request.system:
            config["system_instruction"] = request.system
        specs = tool_specs(request.tools)
        if specs and caps.tools:
            config["tools"] = [
                {
                    "function_declarations": [
                        {
                            "name": s.name,
                            "description": s.description,
                            "parameters_json_schema": object_schema(s.parameters),
                        }
                        for s in specs
                    ]
                }
            ]
            config["automatic_function_calling"] = {"disable": True}
        if caps.reasoning and self._include_thoughts:
            config["thinking_config"] = {"include_thoughts": True}
        if request.max_tokens is not None:
            config["max_output_tokens"] = request.max_tokens
        if request.temperature is not None:
            config["temperature"] = request.temperature
        return config

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        from google.genai import types

        models = self.client.aio.models
        # typed objects: the SDK converts these to the wire's camelCase faithfully
        contents = [types.Content.model_validate(c) for c in build_contents(request.messages, request.model)]
        config = types.GenerateContentConfig.model_validate(self.build_config(request))
        if self._stream:
            responses = await models.generate_content_stream(
                model=request.model, contents=contents, config=config
            )
        else:
            single = await models.generate_content(model=request.model, contents=contents, config=config)

            async def once() -> AsyncIterator[Any]:
                yield single

            responses = once()
        stored: list[dict[str, Any]] = []
        call_ids: list[str] = []
        gemini_ids: list[str] = []
        signatures: dict[str, str] = {}
        calls: list[ToolCallChunk] = []
        finish = "stop"
        finished = False  # a candidate's finishReason arrived: the answer is complete
        usage: dict[str, int] = {}
        thoughts = False
        try:
            async for response in responses:
                if response.usage_metadata is not None:
                    usage = _usage(response.usage_metadata)
                produced = False
                feedback = getattr(response, "prompt_feedback", None)
                if feedback is not None and getattr(feedback, "block_reason", None):
                    raise ProviderError(
                        "bad_request",
                        f"Gemini blocked the prompt ({feedback.block_reason})",
                        provider=self.name,
                        model=request.model,
                    )
                for candidate in (response.candidates or [])[:1]:
                    if candidate.finish_reason is not None:
                        reason = str(getattr(candidate.finish_reason, "value", candidate.finish_reason))
                        finish = _FINISH.get(reason, reason.lower())
                        finished = True
                    content = candidate.content
                    for part in (content.parts if content is not None else None) or []:
                        record: dict[str, Any] = {}
                        sig = part.thought_signature
                        if sig:
                            record["thought_signature"] = base64.b64encode(sig).decode("ascii")
                        if part.function_call is not None:
                            fc = part.function_call
                            call_id = fc.id or new_call_id()
                            if fc.id:
                                gemini_ids.append(fc.id)
                            fc_args = fc.args or {}
                            if too_deep(fc_args):  # the call is refused as such; keep none of it
                                fc_args = {}
                                args = TOO_DEEP_ARGUMENTS
                            else:
                                args = json.dumps(fc_args, ensure_ascii=False)
                            calls.append(ToolCallChunk(id=call_id, name=fc.name or "", arguments=args))
                            call_ids.append(call_id)
                            if sig:
                                signatures[call_id] = record["thought_signature"]
                            wire: dict[str, Any] = {"name": fc.name, "args": fc_args}
                            if fc.id:
                                wire["id"] = fc.id
                            record["function_call"] = wire
                        elif part.text is not None:
                            record["text"] = part.text
                            if part.thought:
                                record["thought"] = True
                                thoughts = True
                                if part.text:
                                    produced = True
                                    yield ReasoningChunk(part.text)
                            elif part.text:
                                produced = True
                                yield TextChunk(part.text)
                        else:
                            continue
                        stored.append(record)
                if not produced:
                    yield None
        finally:
            await close_stream(responses)
        if not finished:
            raise incomplete_answer(self.label, provider=self.name, model=request.model,
                                    empty=not (stored or calls))
        for call in calls:
            yield call
        if calls and finish == "stop":
            finish = "tool_calls"
        state: dict[str, Any] = {}
        if signatures or thoughts or gemini_ids or any("thought_signature" in p for p in stored):
            state = {
                NAMESPACE: {
                    "parts": stored,
                    "call_ids": call_ids,
                    "ids": gemini_ids,
                    "signatures": signatures,
                }
            }
        yield FinishChunk(reason=finish, usage=usage, provider_state=state)
