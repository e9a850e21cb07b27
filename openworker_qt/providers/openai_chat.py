"""OpenAI Chat Completions adapter (``openai.AsyncOpenAI``), used for OpenAI
itself and every OpenAI-compatible vendor (see ``compat.py``) and custom URL.

Contract:
  * the canonical history is already in this API's shape; this module only adds
    the system prompt, flattens text-only content for vendors that reject part
    lists, maps tool-call ids for vendors with id rules, and drops our private
    fields (``provider_state``) — on a copy;
  * tool-call argument fragments are joined per index and emitted once complete
    (raw string, even when truncated: the engine reports bad JSON to the model);
  * reasoning deltas come from the vendor's reasoning field or ``<think>`` tags;
  * the SDK's own retries are off (``max_retries=0``): ``retry.py`` owns them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import (
    FinishChunk,
    ModelRequest,
    ProviderError,
    ReasoningChunk,
    StreamChunk,
    TextChunk,
    ToolCallChunk,
)
from openworker_qt.domain.messages import Message
from openworker_qt.domain.usage import estimated_usage
from openworker_qt.providers import local_servers
from openworker_qt.providers._assembly import (
    MarkupHold,
    ThinkSplitter,
    ToolCallAssembler,
    finish_text_calls,
)
from openworker_qt.providers._common import (
    content_parts,
    content_text,
    object_schema,
    provider_state,
    tool_specs,
)
from openworker_qt.providers.compat import Vendor
from openworker_qt.providers.errors import incomplete_answer, not_the_api, stream_error
from openworker_qt.providers.guarded import GuardedProvider
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
)

_ALNUM9 = re.compile(r"^[A-Za-z0-9]{9}$")
#: OpenAI's own model ids (served through a proxy, they keep OpenAI's figures).
_OPENAI_MODEL = re.compile(r"^(gpt-|chatgpt-|o[1-9])")
OPENAI = Vendor(
    "openai", "OpenAI", "https://api.openai.com/v1", "OPENAI_API_KEY", recover_tool_calls=False
)


def _map_id(call_id: str, style: str) -> str:
    if style != "alnum9" or _ALNUM9.match(call_id):
        return call_id
    return hashlib.sha1(call_id.encode()).hexdigest()[:9]


def _tool_pictures(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"role": "user", "content": parts}


def _field(raw: Any, name: str) -> Any:
    if isinstance(raw, Mapping):
        return raw.get(name)
    value = getattr(raw, name, None)
    if value is None:
        value = (getattr(raw, "model_extra", None) or {}).get(name)
    return value


def _usage(raw: Any) -> dict[str, int]:
    """Usage in our shape from an OpenAI-style usage object (or the same as a dict)."""
    if raw is None:
        return {}
    out: dict[str, int] = {}
    for ours, theirs in (("input_tokens", "prompt_tokens"), ("output_tokens", "completion_tokens")):
        value = _field(raw, theirs)
        if isinstance(value, int):
            out[ours] = value
    cached = _field(_field(raw, "prompt_tokens_details"), "cached_tokens")
    if not isinstance(cached, int) or not cached:  # DeepSeek names its cache hits apart
        cached = _field(raw, "prompt_cache_hit_tokens")
    if isinstance(cached, int) and cached:
        out["cache_read_tokens"] = cached
    reasoning = _field(_field(raw, "completion_tokens_details"), "reasoning_tokens")
    if isinstance(reasoning, int) and reasoning:
        out["reasoning_tokens"] = reasoning
    return out


def _chunk_usage(chunk: Any) -> dict[str, int]:
    """A chunk's usage: the standard field, else where some servers put it: Groq's
    ``x_groq.usage``, llama.cpp's ``timings`` (``prompt_n`` / ``predicted_n``)."""
    if getattr(chunk, "usage", None):
        return _usage(chunk.usage)
    extra = getattr(chunk, "model_extra", None) or {}
    groq = extra.get("x_groq")
    if isinstance(groq, Mapping) and isinstance(groq.get("usage"), Mapping):
        return _usage(groq["usage"])
    timings = extra.get("timings")
    if isinstance(timings, Mapping):
        return _usage({"prompt_tokens": timings.get("prompt_n"),
                       "completion_tokens": timings.get("predicted_n")})
    return {}


def _estimate(params: Mapping[str, Any], answer: str) -> dict[str, int]:
    """Usage for a server that reported none (neither ``usage`` nor ``timings``): the
    prompt (its messages and tools as sent) and the answer (text, thinking, calls'
    names and arguments) estimated from their length, and marked as estimated."""
    import json

    prompt = json.dumps([params.get("messages"), params.get("tools")], ensure_ascii=False)
    return estimated_usage(prompt, answer)


class OpenAIChatProvider(GuardedProvider):
    """Streams Chat Completions from OpenAI or an OpenAI-compatible endpoint."""

    def __init__(
        self,
        vendor: Vendor = OPENAI,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool | None = None,
        ask_server: bool = False,
        context_window: int | None = None,
    ) -> None:
        """``ask_server``: a server the user runs (Ollama, LM Studio, vLLM, llama.cpp):
        a model's context window is asked from it (see ``local_servers.py``) unless
        ``context_window`` (the provider's setting) or a capabilities entry sets it."""
        self.name = vendor.name
        self.label = vendor.label
        self.vendor = vendor
        self.ask_server = ask_server
        self._context_setting = context_window
        super().__init__(api_key=api_key, base_url=base_url or vendor.base_url,
                         caps_overrides=caps_overrides, retry=retry, timeouts=timeouts,
                         sleep=sleep, stream=vendor.stream if stream is None else stream)

    #: Set once this server sent an empty stream for a call with tools (see _attempt).
    _tools_unstreamed = False
    #: Set once this server refused ``stream_options`` (usage is then read from what
    #: it sends anyway: a last chunk's ``usage``, ``x_groq``, ``timings``).
    _no_stream_options = False

    @property
    def compatible_server(self) -> bool:
        """Not OpenAI's own API: another vendor, or the ``openai`` provider pointed at
        another server (LM Studio, vLLM, llama.cpp, a proxy)."""
        return self.name != "openai" or "api.openai.com" not in str(self._base_url or "")

    # -- context window (servers the user runs) -------------------------------------

    def capabilities(self, model: str) -> Capabilities:
        caps = super().capabilities(model)
        if not self.ask_server:
            return caps
        size, _ = self.context_window(model)
        return dataclasses.replace(caps, context_window=size)

    def context_window(self, model: str, *, ask: bool = False) -> tuple[int, str]:
        """(tokens, where the figure came from) for ``model`` (see
        ``local_servers.resolve_context``). ``ask``: ask the server if not asked yet
        (blocking: a worker thread); else the answer already cached, if any."""
        from openworker_qt.providers.capabilities import rule_context

        built_in = rule_context(self.name, model)
        proxied = self._openai_model_via_proxy(model)
        if built_in is None and proxied:
            built_in = super().capabilities(model).context_window  # OpenAI's, via a proxy
        return local_servers.resolve_context(
            self.name, model, setting=self._context_setting, overrides=self._caps_overrides,
            # (an OpenAI model through a proxy keeps OpenAI's figure: the proxy, perhaps
            # not on this computer, is not probed with a local server's questions)
            base_url="" if proxied else str(self._base_url or ""), built_in=built_in,
            ask=ask, kind="ollama" if self.name == "ollama" else None)

    def _openai_model_via_proxy(self, model: str) -> bool:
        return self.name == "openai" and bool(_OPENAI_MODEL.match(model))

    def learn_context(self, model: str) -> None:
        """Ask the server for ``model``'s context window now, unless the config sets it
        or it was asked already (blocking: the router calls it from a worker)."""
        if self.ask_server and not self._openai_model_via_proxy(model):
            try:
                self.context_window(model, ask=True)
            except Exception:  # the default figure stands
                pass

    def _context_unknown(self, model: str) -> bool:
        if not self.ask_server or self._openai_model_via_proxy(model) or local_servers.configured_context(
                self.name, model, self._context_setting, self._caps_overrides):
            return False
        return not local_servers.cached_context(str(self._base_url or ""), model)[0]

    def _server(self) -> str:
        from urllib.parse import urlsplit

        parts = urlsplit(str(self._base_url or ""))
        return parts.netloc or str(self._base_url)

    def _warm_client(self, client: Any) -> None:
        _ = client.chat.completions

    def _make_client(self) -> Any:
        # Keyless servers (Ollama) still need some key for the SDK to build requests.
        return self._openai_client(self._api_key or "not-needed", self.vendor.extra_headers)

    # -- request -----------------------------------------------------------------

    def build_params(self, request: ModelRequest) -> dict[str, Any]:
        """The JSON body this adapter sends for ``request`` (without ``stream``)."""
        caps = self.capabilities(request.model)
        style = self.vendor.tool_id_style
        messages: list[dict[str, Any]] = []
        if request.system:
            messages.append({"role": "system", "content": request.system})
        messages.extend(self._history(request.messages, style))
        params: dict[str, Any] = {"model": request.model, "messages": messages}
        specs = tool_specs(request.tools)
        if specs and caps.tools:
            params["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": s.name,
                        "description": s.description,
                        "parameters": object_schema(s.parameters),
                    },
                }
                for s in specs
            ]
            if self.name == "openai" and not caps.parallel_tools:
                params["parallel_tool_calls"] = False
            if self.compatible_server:
                # llama.cpp's server hides the tools from the model unless it is set
                params["tool_choice"] = "auto"
        if request.max_tokens is not None:
            key = "max_completion_tokens" if self.name == "openai" else "max_tokens"
            params[key] = request.max_tokens
        if request.temperature is not None and not (self.name == "openai" and caps.reasoning):
            params["temperature"] = request.temperature
        return params

    def _history(self, history: list[Message], style: str) -> list[dict[str, Any]]:
        """The messages; a tool message carries text only, so the pictures of a step's
        tool results (``attachments``) follow its results as one user message."""
        out: list[dict[str, Any]] = []
        pictures: list[dict[str, Any]] = []
        for msg in history:
            if msg["role"] != "tool" and pictures:
                out.append(_tool_pictures(pictures))
                pictures = []
            out.append(self._message(msg, style))
            if msg["role"] == "tool":
                images = [p for p in content_parts(msg.get("attachments"))
                          if p.get("type") == "image_url"]
                if images:
                    name = msg.get("name") or "a tool"
                    pictures.append({"type": "text", "text": f"[The image from {name} "
                                     f"(call {_map_id(str(msg.get('tool_call_id')), style)}):]"})
                    pictures.extend({"type": "image_url", "image_url": p["image_url"]}
                                    for p in images)
        if pictures:
            out.append(_tool_pictures(pictures))
        return out

    def _message(self, msg: Message, style: str) -> dict[str, Any]:
        role = msg.get("role")
        if msg["role"] == "assistant":
            calls = msg.get("tool_calls") or []
            # OpenAI takes null beside tool calls; llama.cpp's server (and others) want a string.
            empty = "" if self.compatible_server else None
            out: dict[str, Any] = {"role": "assistant", "content": content_text(msg.get("content")) or empty}
            if calls:
                out["tool_calls"] = [
                    {
                        "id": _map_id(str(c.get("id")), style),
                        "type": "function",
                        "function": {
                            "name": c.get("function", {}).get("name", ""),
                            "arguments": c.get("function", {}).get("arguments") or "{}",
                        },
                    }
                    for c in calls
                ]
            if self.vendor.send_reasoning_back and self.vendor.reasoning_field:
                reasoning = provider_state(msg, self.name).get("reasoning")
                if reasoning:
                    out[self.vendor.reasoning_field] = reasoning
            return out
        if msg["role"] == "tool":
            return {
                "role": "tool",
                "tool_call_id": _map_id(str(msg.get("tool_call_id")), style),
                "content": content_text(msg.get("content")),
            }
        content = msg.get("content")
        if isinstance(content, list):
            parts = content_parts(content)
            if all(p.get("type") == "text" for p in parts) and self.name != "openai":
                content = content_text(parts)  # several vendors reject text part lists
            else:
                content = parts
        out = {"role": str(role), "content": content if content is not None else ""}
        if msg["role"] == "user" and msg.get("name"):
            out["name"] = msg["name"]
        return out

    # -- response ----------------------------------------------------------------

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        if self._context_unknown(request.model):  # (normally asked before the turn)
            await asyncio.to_thread(self.learn_context, request.model)
        params = self.build_params(request)
        offered = ({s.name: s.parameters for s in tool_specs(request.tools)}
                   if "tools" in params else {})
        if not self._stream or (offered and self._tools_unstreamed):
            async for item in self._complete(params, offered):
                yield item
            return
        params["stream"] = True
        if self.vendor.stream_usage and not self._no_stream_options:
            params["stream_options"] = {"include_usage": True}
        try:
            stream = await self.client.chat.completions.create(**params)
        except Exception as exc:
            # A server that rejects the usage option (an older one) is asked without it.
            if "stream_options" not in params or "stream_options" not in str(exc):
                raise
            self._no_stream_options = True
            del params["stream_options"]
            stream = await self.client.chat.completions.create(**params)
        calls = ToolCallAssembler()
        splitter = ThinkSplitter() if self.vendor.think_tags else None
        hold = MarkupHold() if offered and self.vendor.recover_tool_calls else None
        text: list[str] = []
        reasoning: list[str] = []
        finish_reason = "stop"
        finished = False  # the wire's finish reason arrived: the answer is complete
        usage: dict[str, int] = {}
        call_text: list[str] = []  # (for an estimate of the usage, if the server sends none)
        field = self.vendor.reasoning_field
        try:
            async for chunk in stream:
                error = getattr(chunk, "error", None)
                if error:
                    raise stream_error(error, provider=self.name, model=request.model)
                usage = _chunk_usage(chunk) or usage
                produced = False
                for choice in chunk.choices or []:
                    delta = choice.delta
                    if delta is not None:
                        r = None
                        for name in (field, "reasoning_content", "reasoning"):
                            if name:
                                r = getattr(delta, name, None)
                                if r:
                                    break
                        if isinstance(r, str) and r:
                            reasoning.append(r)
                            produced = True
                            yield ReasoningChunk(r)
                        if delta.content:
                            pieces = splitter.feed(delta.content) if splitter else [TextChunk(delta.content)]
                            for piece in pieces:
                                if isinstance(piece, TextChunk):
                                    text.append(piece.text)
                                    if hold is not None:
                                        shown = hold.feed(piece.text)
                                        if not shown:
                                            continue
                                        piece = TextChunk(shown)
                                else:
                                    reasoning.append(piece.text)
                                produced = True
                                yield piece
                        for tc in delta.tool_calls or []:
                            fn = tc.function
                            call_text.append(((fn.name or "") + (fn.arguments or "")) if fn else "")
                            calls.add(
                                tc.index if tc.index is not None else 0,
                                id=tc.id,
                                name=fn.name if fn else None,
                                arguments=fn.arguments if fn else None,
                            )
                    if choice.finish_reason:
                        finish_reason = choice.finish_reason
                        finished = True
                if not produced:
                    yield None  # wire activity: keeps the stall timer quiet
        finally:
            await stream.close()
        if splitter:
            for piece in splitter.flush():
                (text if isinstance(piece, TextChunk) else reasoning).append(piece.text)
                if isinstance(piece, TextChunk) and hold is not None:
                    if shown := hold.feed(piece.text):
                        yield TextChunk(shown)
                else:
                    yield piece
        if not finished:
            if hold is not None and (rest := hold.release()):
                yield TextChunk(rest)  # nothing of the answer is lost
            empty = not (text or reasoning or calls)
            hint = ""
            if empty and offered and self.compatible_server:
                # Some local servers (llama.cpp's) cannot stream when tools are offered:
                # the next try (and every later call with tools) does not stream.
                self._tools_unstreamed = True
                hint = ("Some servers cannot stream an answer when tools are offered; "
                        "the next try asks without streaming")
            raise incomplete_answer(self.label or self.name, provider=self.name,
                                    model=request.model, empty=empty, hint=hint)
        held = hold.release() if hold is not None else ""
        if self._auto_choice(params, offered, text, reasoning, calls, held):
            async for item in self._complete(_choice_none(params), offered):
                yield item
            return
        usage = usage or _estimate(params, "".join(text + reasoning + call_text))
        for item in self._finish(request, calls, "".join(text), "".join(reasoning), finish_reason,
                                 usage, offered, held=held):
            yield item

    async def _complete(self, params: dict[str, Any], offered: dict[str, Any]) -> AsyncIterator[StreamChunk | None]:
        params.pop("stream_options", None)
        params.pop("stream", None)
        resp = await self.client.chat.completions.create(**params)
        if self._auto_choice(params, offered) and _said_nothing(resp):
            # llama-cpp-python's automatic tool choice: when its model picks "a message"
            # it can only end it (its grammar), so the answer is empty; asked again with
            # ``tool_choice: "none"``, the same server writes the message.
            params = _choice_none(params)
            resp = await self.client.chat.completions.create(**params)
        if isinstance(resp, str):  # the SDK hands back a body that is not JSON as is
            raise not_the_api(self._server(), resp.encode(), "",
                              provider=self.name, model=str(params["model"]))
        choice = resp.choices[0] if resp.choices else None
        if choice is None:
            raise ProviderError("malformed", "the response had no choices", provider=self.name, model=params["model"])
        msg = choice.message
        reasoning = ""
        for name in (self.vendor.reasoning_field, "reasoning_content", "reasoning"):
            value = getattr(msg, name, None) if name else None
            if isinstance(value, str) and value:
                reasoning = value
                break
        text = msg.content or ""
        if self.vendor.think_tags and text:
            splitter = ThinkSplitter()
            pieces = splitter.feed(text) + splitter.flush()
            reasoning += "".join(p.text for p in pieces if isinstance(p, ReasoningChunk))
            text = "".join(p.text for p in pieces if isinstance(p, TextChunk))
        if reasoning:
            yield ReasoningChunk(reasoning)
        held = ""
        shown = text
        if offered and self.vendor.recover_tool_calls:
            hold = MarkupHold()
            shown = hold.feed(text)
            held = hold.release()
        if shown:
            yield TextChunk(shown)
        calls = ToolCallAssembler()
        for i, tc in enumerate(msg.tool_calls or []):
            fn = getattr(tc, "function", None)
            calls.add(i, id=tc.id, name=getattr(fn, "name", None), arguments=getattr(fn, "arguments", None))
        request = ModelRequest(model=str(params["model"]), messages=[])
        usage = _usage(resp.usage) or _chunk_usage(resp)  # (llama.cpp: ``timings``)
        if not usage:
            said = "".join(f"{getattr(getattr(tc, 'function', None), 'name', '') or ''}"
                           f"{getattr(getattr(tc, 'function', None), 'arguments', '') or ''}"
                           for tc in msg.tool_calls or [])
            usage = _estimate(params, (msg.content or "") + reasoning + said)
        for item in self._finish(
            request, calls, text, reasoning, choice.finish_reason or "stop", usage,
            offered, held=held,
        ):
            yield item

    def _auto_choice(self, params: dict[str, Any], offered: dict[str, Any], *said: Any) -> bool:
        """Whether an answer that said nothing (none of ``said``) to ``params`` is worth
        asking once more without the automatic tool choice (a compatible server, tools
        offered, "auto")."""
        return (not any(said) and bool(offered) and self.compatible_server
                and params.get("tool_choice") == "auto")

    def _finish(
        self,
        request: ModelRequest,
        calls: ToolCallAssembler,
        text: str,
        reasoning: str,
        finish_reason: str,
        usage: dict[str, int],
        offered: dict[str, Any],
        *,
        held: str = "",
    ) -> list[StreamChunk]:
        """The end of the answer. ``held``: text a :class:`MarkupHold` kept from the
        user (a call's markup): hidden for good when a call is recovered from it,
        else shown now."""
        out: list[StreamChunk] = []
        replace_text: str | None = None
        recovered: list[ToolCallChunk] = []
        if calls:
            out.extend(calls.complete())
            finish_reason = "tool_calls" if finish_reason in ("stop", "tool_calls", "function_call") else finish_reason
        elif offered and text and self.vendor.recover_tool_calls:
            recovered, replace_text = finish_text_calls(text, offered)
            if recovered:
                out.extend(recovered)
                finish_reason = "tool_calls"
        if held and not recovered:
            out.insert(0, TextChunk(held))
        state: dict[str, Any] = {}
        if reasoning and self.vendor.send_reasoning_back:
            state = {self.name: {"reasoning": reasoning}}
        out.append(FinishChunk(reason=finish_reason, usage=usage, provider_state=state, replace_text=replace_text))
        return out


def _choice_none(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` asking for a message (``tool_choice: "none"``, the tools still
    listed), not streamed."""
    out = {k: v for k, v in params.items() if k not in ("stream", "stream_options")}
    out["tool_choice"] = "none"
    return out


def _said_nothing(resp: Any) -> bool:
    """A chat completion whose first choice has no text and no tool call."""
    choice = resp.choices[0] if getattr(resp, "choices", None) else None
    if choice is None:
        return False
    msg = choice.message
    return not (msg.content or msg.tool_calls or getattr(msg, "reasoning_content", None))
