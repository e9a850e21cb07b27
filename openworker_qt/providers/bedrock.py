"""AWS Bedrock adapter: the Converse stream API (boto3 ``bedrock-runtime``).

Contract:
  * canonical history → Converse ``messages``: tool results become ``toolResult``
    blocks in a user turn, consecutive same-role turns are merged, images and
    documents become ``image`` / ``document`` blocks with their bytes;
  * reasoning blocks (with their signature) are kept in
    ``provider_state["bedrock"]["content"]`` and sent back ahead of the text when
    the canonical text and calls still match (Claude wants them on a tool turn);
  * boto3 is synchronous: the call and the event stream run in a worker thread
    that hands events to the loop through a queue; a stopped turn closes the
    stream, the loop thread never blocks;
  * credentials: the standard AWS chain (environment, profile, SSO) with the
    region and profile from settings, or a Bedrock API key (bearer token) from
    the keyring sent as ``Authorization: Bearer``; botocore's retries are off
    (``retry.guarded_stream`` retries);
  * errors: botocore's error codes become the app's error kinds (:func:`bedrock_error`).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
import socket
import threading
from collections.abc import AsyncIterator, Mapping
from fnmatch import fnmatchcase
from typing import Any

from openworker_qt.core.provider_api import (
    ErrorKind,
    FinishChunk,
    ModelRequest,
    ProviderError,
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
    parse_data_url,
    provider_state,
    safe_tool_id,
    tool_specs,
)
from openworker_qt.providers.errors import classify, incomplete_answer, not_the_api
from openworker_qt.providers.guarded import GuardedProvider
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
    current_watch,
)

NAMESPACE = "bedrock"
DEFAULT_REGION = "us-east-1"
DEFAULT_MAX_TOKENS = 8192
#: Models whose extended thinking is asked through ``additionalModelRequestFields``.
CLAUDE_THINKING = ("*anthropic.claude-3-7*", "*anthropic.claude-*-4*", "*anthropic.claude-*-5*")
#: Models that take ``cachePoint`` blocks (prompt caching): system and messages;
#: tools only for Claude. Others would reject the block.
CACHE_MODELS = ("*anthropic.claude-3-7*", "*anthropic.claude-3-5-haiku*", "*anthropic.claude-*-4*",
                "*anthropic.claude-*-5*", "*amazon.nova-*")
_CACHE_POINT = {"cachePoint": {"type": "default"}}
_STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "content_filtered": "content_filter",
    "guardrail_intervened": "content_filter",
}
_IMAGE_FORMATS = {"image/png": "png", "image/jpeg": "jpeg", "image/jpg": "jpeg",
                  "image/gif": "gif", "image/webp": "webp"}
_DOC_FORMATS = {"application/pdf": "pdf", "text/csv": "csv", "text/html": "html",
                "text/plain": "txt", "text/markdown": "md", "application/msword": "doc",
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
                "application/vnd.ms-excel": "xls",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx"}


#: Bedrock's call ids: the same rule as Anthropic's (``_common.safe_tool_id``).
_tool_id = safe_tool_id


def _doc_name(name: str, index: int) -> str:
    """Bedrock allows letters, digits, single spaces, hyphens, parentheses, brackets."""
    stem = name.rsplit(".", 1)[0] if "." in name else name
    clean = re.sub(r"\s+", " ", re.sub(r"[^A-Za-z0-9 ()\[\]-]", "-", stem)).strip()
    return (clean or "document")[:100] + (f" {index}" if index else "")


def _user_blocks(content: Any) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    docs = 0
    for part in content_parts(content):
        kind = part.get("type")
        if kind == "text":
            if part.get("text"):
                blocks.append({"text": str(part["text"])})
        elif kind == "image_url":
            url = str((part.get("image_url") or {}).get("url", ""))
            data = parse_data_url(url)
            if data is None:
                blocks.append({"text": f"[image: {url}]"})
            elif data[0] in _IMAGE_FORMATS:
                blocks.append({"image": {"format": _IMAGE_FORMATS[data[0]], "source": {"bytes": data[1]}}})
        elif kind == "file":
            info = part.get("file") or {}
            data = parse_data_url(str(info.get("file_data", "")))
            if data is not None:
                fmt = _DOC_FORMATS.get(data[0], "txt" if data[0].startswith("text/") else "")
                if fmt:
                    name = _doc_name(str(info.get("filename") or "document"), docs)
                    docs += 1
                    blocks.append({"document": {"format": fmt, "name": name, "source": {"bytes": data[1]}}})
    return blocks


def _assistant_blocks(msg: AssistantMessage) -> list[dict[str, Any]]:
    text = content_text(msg.get("content"))
    calls = msg.get("tool_calls") or []
    canonical: list[dict[str, Any]] = [{"text": text}] if text else []
    for call in calls:
        fn = call.get("function") or {}
        canonical.append({"toolUse": {
            "toolUseId": _tool_id(str(call.get("id"))),
            "name": str(fn.get("name", "")),
            "input": lenient_arguments(str(fn.get("arguments") or "")),
        }})
    stored = provider_state(msg, NAMESPACE).get("content")
    if not isinstance(stored, list) or not stored:
        return canonical
    private = [_unb64(copy.deepcopy(b)) for b in stored if isinstance(b, dict) and "reasoningContent" in b]
    return private + canonical


def _tool_result_block(msg: Message) -> dict[str, Any]:
    text = content_text(msg.get("content")) or "(no output)"
    images = [b for b in _user_blocks(msg.get("attachments")) if "image" in b]
    return {"toolResult": {
        "toolUseId": _tool_id(str(msg.get("tool_call_id"))),
        "content": [{"text": text}, *images],
    }}


def build_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Canonical history → Converse ``messages`` (alternating roles)."""
    return alternating_turns(messages, user=_user_blocks, assistant=_assistant_blocks,
                             tool_result=_tool_result_block, is_result=lambda b: "toolResult" in b)


# --- errors -----------------------------------------------------------------------

_CODE_KINDS: dict[str, ErrorKind] = {
    "ThrottlingException": "rate_limit",
    "TooManyRequestsException": "rate_limit",
    "ServiceQuotaExceededException": "rate_limit",
    "AccessDeniedException": "permission",
    "ValidationException": "bad_request",
    "ResourceNotFoundException": "not_found",
    "ModelNotReadyException": "overloaded",
    "ServiceUnavailableException": "overloaded",
    "InternalServerException": "server",
    "ModelStreamErrorException": "server",
    "ModelErrorException": "server",
    "ModelTimeoutException": "timeout",
    "UnrecognizedClientException": "auth",
    "InvalidSignatureException": "auth",
    "ExpiredTokenException": "auth",
    "IncompleteSignature": "auth",
    "MissingAuthenticationTokenException": "auth",
}
_CONTEXT_RE = re.compile(r"too long|too many (input )?tokens|context (length|window)|maximum.*tokens", re.I)
_CREDENTIAL_ERRORS = ("NoCredentialsError", "PartialCredentialsError", "TokenRetrievalError",
                      "SSOTokenLoadError", "UnauthorizedSSOTokenError", "ProfileNotFound",
                      "CredentialRetrievalError", "NoAuthTokenError")


def bedrock_error(exc: BaseException, *, model: str, region: str) -> ProviderError:
    """The app's :class:`ProviderError` for what boto3 raised (a ``ClientError`` with
    an AWS error code, an event-stream error, a credentials or connection problem)."""
    if isinstance(exc, ProviderError):
        return exc
    names = {cls.__name__ for cls in type(exc).__mro__}
    response = getattr(exc, "response", None)
    if isinstance(response, Mapping) and isinstance(response.get("Error"), Mapping):
        error = response["Error"]
        code = str(error.get("Code") or "")
        code = code[:1].upper() + code[1:]  # in-stream exceptions are lowerCamel
        said = str(error.get("Message") or "") or str(exc)
        status = (response.get("ResponseMetadata") or {}).get("HTTPStatusCode")
        status = status if isinstance(status, int) and status >= 400 else None
        kind = _CODE_KINDS.get(code)
        if kind is None:
            kind = "server" if (status or 0) >= 500 else "bad_request" if status else "unknown"
        if code == "ValidationException" and _CONTEXT_RE.search(said):
            kind = "context_length"
        mid = "EventStreamError" in names
        text = {
            "rate_limit": ("AWS Bedrock's service quota for this account was reached "
                           "(ask for a higher quota in the Service Quotas console)"
                           if code == "ServiceQuotaExceededException"
                           else "AWS Bedrock is throttling requests (too many right now)"),
            "permission": (f"your AWS account has no access to model {model} in region "
                           f"{region}: enable it in the Bedrock console (Model access), or "
                           "check that your credentials may call bedrock:InvokeModel"),
            "not_found": f"AWS Bedrock does not know the model id {model} in region {region}",
            "overloaded": f"model {model} on AWS Bedrock is not ready or unavailable right now",
            "server": "AWS Bedrock had an error" + (" mid-answer" if mid else ""),
            "timeout": f"model {model} on AWS Bedrock took too long",
            "auth": "AWS rejected the credentials: check the profile, the keys or the Bedrock API key",
            "context_length": "the conversation is too long for this model's context window",
            "bad_request": "AWS Bedrock rejected the request",
        }.get(kind, "the AWS Bedrock call failed")
        detail = f"{code}: {said}" if code else said
        return ProviderError(kind, f"{text}. {detail}", provider=NAMESPACE, model=model, status=status)
    if names & set(_CREDENTIAL_ERRORS):
        return ProviderError(
            "auth", "no usable AWS credentials: sign in (aws sso login), set a profile or "
            f"access keys, or add a Bedrock API key in Settings → Providers. {exc}",
            provider=NAMESPACE, model=model)
    if "NoRegionError" in names:
        return ProviderError("bad_request", "no AWS region chosen: set one in Settings → Providers",
                             provider=NAMESPACE, model=model)
    if names & {"ReadTimeoutError"}:
        return ProviderError("timeout", f"AWS Bedrock did not answer in time. {exc}",
                             provider=NAMESPACE, model=model)
    if names & {"EndpointConnectionError", "ConnectTimeoutError", "ConnectionClosedError",
                "ResponseStreamingError", "ProtocolError", "IncompleteReadError",
                "HTTPClientError"}:
        return ProviderError("network", f"could not reach AWS Bedrock. {exc}",
                             provider=NAMESPACE, model=model)
    if names & {"ParamValidationError"}:
        return ProviderError("bad_request", f"the request for AWS Bedrock was not valid. {exc}",
                             provider=NAMESPACE, model=model)
    return classify(exc, provider=NAMESPACE, model=model)


# --- usage ------------------------------------------------------------------------

def _usage(raw: Mapping[str, Any]) -> dict[str, int]:
    """Converse's ``usage`` in the shape of ``domain.usage`` (input counts the whole
    prompt: Bedrock counts cache reads and writes apart from ``inputTokens``)."""
    def num(key: str) -> int:
        value = raw.get(key)
        return value if isinstance(value, int) else 0

    out = {"output_tokens": num("outputTokens"),
           "cache_read_tokens": num("cacheReadInputTokens"),
           "cache_write_tokens": num("cacheWriteInputTokens")}
    out = {k: v for k, v in out.items() if v}
    out["input_tokens"] = num("inputTokens") + num("cacheReadInputTokens") + num("cacheWriteInputTokens")
    return out


_DONE = object()


class BedrockProvider(GuardedProvider):
    """Streams Converse through boto3 in a worker thread."""

    name = "bedrock"
    label = "AWS Bedrock"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        region: str | None = None,
        profile: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        thinking_budget: int | None = 4096,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool = True,
        credentials: Mapping[str, str] | None = None,
        cache: bool = True,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, caps_overrides=caps_overrides,
                         retry=retry, timeouts=timeouts, sleep=sleep, stream=stream)
        self._region = region or None
        self._profile = profile or None
        self._thinking_budget = thinking_budget
        self._credentials = dict(credentials or {})  # tests: static keys
        self._cache = cache

    @property
    def region(self) -> str:
        client = self._client
        if client is not None:
            return str(client.meta.region_name)
        return self._region or DEFAULT_REGION

    def _make_client(self) -> Any:
        import boto3
        from botocore.config import Config

        session = boto3.session.Session(profile_name=self._profile, **self._credentials)
        region = self._region or session.region_name or DEFAULT_REGION
        config: dict[str, Any] = {
            "retries": {"total_max_attempts": 1, "mode": "standard"},
            "connect_timeout": self._timeouts.connect,
            # our stall watch is the read deadline; botocore's only catches a lost thread
            "read_timeout": max(self._timeouts.first_event, self._timeouts.stall) + 60,
            "user_agent_extra": "openworker-qt",
        }
        if self._api_key:
            from botocore import UNSIGNED

            config["signature_version"] = UNSIGNED
        client = session.client("bedrock-runtime", region_name=region,
                                endpoint_url=self._base_url, config=Config(**config))
        if self._api_key:
            token = self._api_key

            def bearer(request: Any, **_: Any) -> None:
                request.headers["Authorization"] = f"Bearer {token}"

            client.meta.events.register("before-send.bedrock-runtime", bearer)
        return client

    def build_params(self, request: ModelRequest) -> dict[str, Any]:
        caps = self.capabilities(request.model)
        params: dict[str, Any] = {
            "modelId": request.model,
            "messages": build_messages(request.messages),
            "inferenceConfig": {"maxTokens": request.max_tokens or DEFAULT_MAX_TOKENS},
        }
        cache = self._cache and any(fnmatchcase(request.model, g) for g in CACHE_MODELS)
        if request.system:
            params["system"] = [{"text": request.system}, *([_CACHE_POINT] if cache else [])]
        specs = tool_specs(request.tools)
        if specs and caps.tools:
            tools: list[dict[str, Any]] = [
                {"toolSpec": {"name": s.name, "description": s.description or s.name,
                              "inputSchema": {"json": object_schema(s.parameters)}}}
                for s in specs
            ]
            if cache and "anthropic." in request.model:
                tools.append(dict(_CACHE_POINT))
            params["toolConfig"] = {"tools": tools}
        if cache and params["messages"]:  # the stable prefix grows turn by turn
            params["messages"][-1]["content"].append(dict(_CACHE_POINT))
        thinking = (caps.reasoning and self._thinking_budget
                    and any(fnmatchcase(request.model, g) for g in CLAUDE_THINKING))
        if thinking:
            budget = int(self._thinking_budget or 0)
            params["additionalModelRequestFields"] = {
                "thinking": {"type": "enabled", "budget_tokens": budget}}
            params["inferenceConfig"]["maxTokens"] = max(
                params["inferenceConfig"]["maxTokens"], budget + 4096)
        elif request.temperature is not None:
            params["inferenceConfig"]["temperature"] = request.temperature
        return params

    async def _events(self, params: Mapping[str, Any]) -> AsyncIterator[Any]:
        """The call and its event stream, run in a worker thread; yields ``None``
        once the answer opened, then each event. Closing this iterator (a stopped
        turn, a stall) closes the stream and lets the thread end."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        stop = threading.Event()
        holder: dict[str, Any] = {}
        client = self.client

        def put(item: tuple[str, Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone
                loop.call_soon_threadsafe(queue.put_nowait, item)

        def work() -> None:
            try:
                response = client.converse_stream(**params)
                holder["stream"] = response["stream"]
                if stop.is_set():
                    return
                headers = (response.get("ResponseMetadata") or {}).get("HTTPHeaders") or {}
                ctype = str(headers.get("content-type") or "")
                if ctype and "eventstream" not in ctype:  # a proxy's page, a sign-in portal
                    raw = getattr(response["stream"], "_raw_stream", None)
                    body = raw.read(65536) if raw is not None else b""
                    put(("error", not_the_api(_host(client), body, ctype, provider=NAMESPACE,
                                              model=str(params.get("modelId") or ""))))
                    return
                put(("open", None))
                for event in response["stream"]:
                    if stop.is_set():
                        return
                    put(("event", event))
                put(("end", None))
            except BaseException as exc:  # handed to the loop, raised there
                if not stop.is_set():
                    put(("error", exc))
            finally:
                with contextlib.suppress(Exception):
                    if "stream" in holder:
                        holder["stream"].close()

        watch = current_watch()
        if watch is not None:
            watch.sent()
        threading.Thread(target=work, name="bedrock-stream", daemon=True).start()
        try:
            while True:
                what, value = await queue.get()
                if what == "open":
                    yield None
                elif what == "event":
                    yield value
                elif what == "end":
                    return
                else:
                    raise value
        finally:
            stop.set()
            _abort(holder.get("stream"))

    async def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        params = self.build_params(request)
        blocks: dict[int, dict[str, Any]] = {}
        inputs: dict[int, list[str]] = {}
        usage: dict[str, int] = {}
        stop_reason: str | None = None
        shown = False
        events = self._events(params)
        try:
            async for event in events:
                if event is None:
                    yield None
                    continue
                if "messageStop" in event:
                    stop_reason = str(event["messageStop"].get("stopReason") or "end_turn")
                    yield None
                    continue
                chunk = self._event(event, blocks, inputs)
                if "metadata" in event:
                    usage = _usage(event["metadata"].get("usage") or {})
                if chunk is not None:
                    shown = True
                yield chunk
        except ProviderError:
            raise
        except Exception as exc:
            raise bedrock_error(exc, model=request.model, region=self.region) from exc
        finally:
            await close_stream(events)
        if stop_reason is None:
            raise incomplete_answer(self.label, provider=self.name, model=request.model,
                                    empty=not shown)
        if stop_reason in ("content_filtered", "guardrail_intervened") and not any(
                "text" in b or "toolUse" in b for b in blocks.values()):
            what = "a guardrail" if stop_reason == "guardrail_intervened" else "its content filter"
            raise ProviderError("bad_request", f"AWS Bedrock stopped the answer: {what} blocked it "
                                f"({stop_reason})", provider=self.name, model=request.model)
        for item in self._finish(blocks, inputs, stop_reason, usage):
            yield item

    @staticmethod
    def _event(event: Mapping[str, Any], blocks: dict[int, dict[str, Any]],
               inputs: dict[int, list[str]]) -> StreamChunk | None:
        if "contentBlockStart" in event:
            start = event["contentBlockStart"]
            tool = (start.get("start") or {}).get("toolUse")
            if tool:
                index = int(start.get("contentBlockIndex", len(blocks)))
                blocks[index] = {"toolUse": {"toolUseId": tool.get("toolUseId"), "name": tool.get("name")}}
                inputs[index] = []
            return None
        if "contentBlockDelta" in event:
            body = event["contentBlockDelta"]
            index = int(body.get("contentBlockIndex", 0))
            delta = body.get("delta") or {}
            if "text" in delta:
                block = blocks.setdefault(index, {"text": ""})
                block["text"] = block.get("text", "") + delta["text"]
                return TextChunk(delta["text"]) if delta["text"] else None
            if "toolUse" in delta:
                inputs.setdefault(index, []).append(str(delta["toolUse"].get("input") or ""))
                return None
            if "reasoningContent" in delta:
                piece = delta["reasoningContent"]
                block = blocks.setdefault(index, {"reasoningContent": {"reasoningText": {"text": ""}}})
                content = block.setdefault("reasoningContent", {})
                if "text" in piece:
                    rt = content.setdefault("reasoningText", {"text": ""})
                    rt["text"] = rt.get("text", "") + piece["text"]
                    return ReasoningChunk(piece["text"]) if piece["text"] else None
                if "signature" in piece:
                    rt = content.setdefault("reasoningText", {"text": ""})
                    rt["signature"] = rt.get("signature", "") + piece["signature"]
                if "redactedContent" in piece:
                    content.pop("reasoningText", None)
                    content["redactedContent"] = piece["redactedContent"]
            return None
        return None

    def _finish(self, blocks: dict[int, dict[str, Any]], inputs: dict[int, list[str]],
                stop_reason: str, usage: dict[str, int]) -> list[StreamChunk]:
        out: list[StreamChunk] = []
        ordered = [blocks[i] for i in sorted(blocks)]
        for index in sorted(blocks):
            tool = blocks[index].get("toolUse")
            if tool is not None:
                raw = "".join(inputs.get(index, [])) or "{}"
                tool["input"] = lenient_arguments(raw)
                out.append(ToolCallChunk(id=str(tool["toolUseId"]), name=str(tool["name"]), arguments=raw))
        reason = _STOP_REASONS.get(stop_reason, stop_reason)
        if out and reason == "stop":
            reason = "tool_calls"
        reasoning = [b for b in ordered if "reasoningContent" in b]
        state = {NAMESPACE: {"content": json.loads(json.dumps(reasoning, default=_b64))}} if reasoning else {}
        out.append(FinishChunk(reason=reason, usage=usage, provider_state=state))
        return out

    async def aclose(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            with contextlib.suppress(Exception):
                client.close()


def _b64(value: Any) -> Any:
    """Redacted reasoning arrives as bytes: kept as base64 text in the history."""
    if isinstance(value, bytes | bytearray):
        import base64

        return {"__bytes__": base64.b64encode(bytes(value)).decode()}
    raise TypeError(type(value).__name__)


def _host(client: Any) -> str:
    from urllib.parse import urlsplit

    return urlsplit(str(client.meta.endpoint_url)).netloc or "the server"


def _abort(stream: Any) -> None:
    """Stop the worker's read of ``stream`` without blocking the loop thread.

    Closing the response here would wait for the buffer's lock, which the worker
    holds while it reads (measured: until botocore's read timeout); shutting the
    socket down makes that read return at once, and the worker closes the rest."""
    if stream is None:
        return
    raw = getattr(stream, "_raw_stream", None)
    conn = getattr(raw, "_connection", None) or getattr(raw, "connection", None)
    sock = getattr(conn, "sock", None)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        return
    threading.Thread(target=lambda: _close_quietly(stream), name="bedrock-close", daemon=True).start()


def _close_quietly(stream: Any) -> None:
    with contextlib.suppress(Exception):
        stream.close()


def _unb64(block: dict[str, Any]) -> dict[str, Any]:
    content = block.get("reasoningContent") or {}
    redacted = content.get("redactedContent")
    if isinstance(redacted, Mapping) and "__bytes__" in redacted:
        import base64

        content["redactedContent"] = base64.b64decode(str(redacted["__bytes__"]))
    return block
