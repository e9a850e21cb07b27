"""The provider failures of issue 24 §A, per vendor, as the user meets them.

Each case runs one turn of the real engine, with the real SDK, against a stub on
127.0.0.1 that misbehaves in one way; :func:`run_case` returns what the user is
shown (the turn's status, the error line, the text that had appeared, what was
kept). ``tests/providers/test_failure_matrix.py`` asserts the table and
``bench/providers.py --failures`` prints it.

Failures:
  * ``cut``: the stream stops cleanly after some text, without the vendor's end
    marker (no finish reason, no ``message_stop``, no ``response.completed``);
  * ``empty``: HTTP 200, an event-stream content type, then no body at all;
  * ``html-stream`` / ``html-plain``: a 200 whose body is a web page (a proxy, a
    captive portal, a wrong base URL), streaming and non-streaming;
  * ``silent``: one empty event (a role-only chunk, ``message_start``,
    ``response.created``, a candidate without parts), then nothing.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.history import MemoryHistory
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.azure import AzureProvider
from openworker_qt.providers.compat import VENDORS
from openworker_qt.providers.gemini import GeminiProvider
from openworker_qt.providers.openai_chat import OPENAI, OpenAIChatProvider
from openworker_qt.providers.openai_responses import OpenAIResponsesProvider
from openworker_qt.providers.retry import RetryPolicy, StreamTimeouts
from openworker_qt.providers.vertex import VertexProvider
from tests.core.helpers import StaticResolver
from tests.providers.stubs import Reply, StubServer, sse

FAILURES = ("cut", "empty", "html-stream", "html-plain", "silent")
#: A short first-byte limit for the silent case, so a silent server is given up on
#: quickly (never asserted as a time); the other cases keep a roomy one, so a slow
#: machine does not turn them into timeouts.
FIRST_EVENT = 1.0
ROOMY = 30.0
ATTEMPTS = 2
PAGE = ("<!DOCTYPE html><html><head><title>Sign in to Hotel WiFi</title></head>"
        "<body><p>Please accept the terms to continue.</p></body></html>")


def _chat_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _chat_events(text: str) -> list[dict[str, Any]]:
    return [_chat_chunk({"role": "assistant", "content": ""}), _chat_chunk({"content": text})]


_A_START = {"type": "message_start", "message": {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
    "content": [], "stop_reason": None, "stop_sequence": None,
    "usage": {"input_tokens": 5, "output_tokens": 1}}}


def _anthropic_events(text: str) -> list[dict[str, Any]]:
    return [
        _A_START,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
    ]


_R_CREATED = {"type": "response.created", "sequence_number": 0, "response": {
    "id": "resp_1", "object": "response", "created_at": 1, "status": "in_progress",
    "model": "gpt-5", "output": [], "parallel_tool_calls": True, "tool_choice": "auto",
    "tools": []}}


def _responses_events(text: str) -> list[dict[str, Any]]:
    return [_R_CREATED, {"type": "response.output_text.delta", "sequence_number": 1,
                         "item_id": "msg_1", "output_index": 0, "content_index": 0,
                         "delta": text}]


def _gemini_events(text: str) -> list[dict[str, Any]]:
    return [{"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}]}]


BEDROCK_MODEL = "anthropic.claude-haiku-4-5-20251001-v1:0"


def _bedrock_events(text: str) -> list[dict[str, Any]]:
    return [{"messageStart": {"role": "assistant"}},
            {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": text}}}]


def _bedrock_frames(events: list[dict[str, Any]]) -> bytes:
    from tests.providers.eventstream import stream

    return stream(*(next(iter(e.items())) for e in events))


def _bedrock(stub: StubServer, *, stream: bool = True, **kw: Any) -> Any:
    from openworker_qt.providers.bedrock import BedrockProvider

    return BedrockProvider(base_url=stub.url, region="us-east-1", thinking_budget=None,
                           credentials={"aws_access_key_id": "AKIDEXAMPLE",
                                        "aws_secret_access_key": "secret"}, **kw)


@dataclass(frozen=True)
class Vendor:
    name: str
    make: Callable[..., Any]  # (stub, stream=..., **guard options) -> provider
    model: str
    stream_path: str
    plain_path: str | None  # None: this API is only called streaming here
    events: Callable[[str], list[dict[str, Any]]]
    empty_event: dict[str, Any]
    event_names: bool = False
    sep: str = "\n\n"
    #: Bodies framed otherwise than SSE (Bedrock's event stream): events → bytes.
    encode: Callable[[list[dict[str, Any]]], bytes] | None = None
    content_type: str = "text/event-stream"


def _chat(vendor: str) -> Callable[..., Any]:
    def make(stub: StubServer, **kw: Any) -> Any:
        return OpenAIChatProvider(VENDORS.get(vendor, OPENAI), api_key="k",
                                  base_url=stub.url + "/v1", **kw)
    return make


def _responses(stub: StubServer, *, stream: bool = True, **kw: Any) -> Any:
    return OpenAIResponsesProvider(api_key="k", base_url=stub.url + "/v1", **kw)


_VERTEX = "/v1/projects/p/locations/global/publishers"


def _static_google_token() -> Any:
    from google.oauth2.credentials import Credentials

    return Credentials(token="t")  # type: ignore[no-untyped-call]


VENDOR_CASES: dict[str, Vendor] = {
    v.name: v
    for v in (
        Vendor("openai-chat", _chat("openai"), "gpt-4o", "/v1/chat/completions",
               "/v1/chat/completions", _chat_events, _chat_chunk({"role": "assistant"})),
        Vendor("openai-responses", _responses, "gpt-5", "/v1/responses", None,
               _responses_events, _R_CREATED, event_names=True),
        Vendor("anthropic", lambda stub, **kw: AnthropicProvider(
                   api_key="k", base_url=stub.url, thinking_budget=None, **kw),
               "claude-haiku-4-5", "/v1/messages", "/v1/messages", _anthropic_events,
               _A_START, event_names=True),
        Vendor("gemini", lambda stub, **kw: GeminiProvider(
                   api_key="k", base_url=stub.url, include_thoughts=False, **kw),
               "gemini-2.5-flash", "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
               "/v1beta/models/gemini-2.5-flash:generateContent", _gemini_events,
               {"candidates": [{"content": {"role": "model", "parts": []}, "index": 0}]},
               sep="\r\n\r\n"),
        # --- cloud platforms (Azure OpenAI, Vertex AI) at their REST paths ---
        Vendor("azure", lambda stub, **kw: AzureProvider(endpoint=stub.url, api_key="k", **kw),
               "my-gpt", "/openai/deployments/my-gpt/chat/completions",
               "/openai/deployments/my-gpt/chat/completions", _chat_events,
               _chat_chunk({"role": "assistant"})),
        Vendor("vertex-gemini", lambda stub, **kw: VertexProvider(
                   project="p", location="global", base_url=stub.url, include_thoughts=False,
                   credentials=_static_google_token(), **kw),
               "gemini-2.5-flash",
               f"{_VERTEX}/google/models/gemini-2.5-flash:streamGenerateContent",
               f"{_VERTEX}/google/models/gemini-2.5-flash:generateContent", _gemini_events,
               {"candidates": [{"content": {"role": "model", "parts": []}, "index": 0}]},
               sep="\r\n\r\n"),
        Vendor("vertex-claude", lambda stub, **kw: VertexProvider(
                   project="p", location="global", base_url=stub.url, thinking_budget=None,
                   access_token="t", **kw),
               "claude-haiku-4-5", f"{_VERTEX}/anthropic/models/claude-haiku-4-5:streamRawPredict",
               f"{_VERTEX}/anthropic/models/claude-haiku-4-5:rawPredict", _anthropic_events,
               _A_START, event_names=True),
        # --- end cloud platforms ---
        Vendor("bedrock", _bedrock, BEDROCK_MODEL, f"/model/{BEDROCK_MODEL}/converse-stream", None,
               _bedrock_events, {"messageStart": {"role": "assistant"}},
               encode=_bedrock_frames, content_type="application/vnd.amazon.eventstream"),
        Vendor("deepseek", _chat("deepseek"), "deepseek-chat", "/v1/chat/completions",
               "/v1/chat/completions", _chat_events, _chat_chunk({"role": "assistant"})),
        Vendor("ollama", _chat("ollama"), "llama3.2", "/v1/chat/completions",
               "/v1/chat/completions", _chat_events, _chat_chunk({"role": "assistant"})),
    )
}


@dataclass(frozen=True)
class Outcome:
    status: str  # the turn's end: completed / error
    error: str  # the error line the user is shown ("" when none)
    retryable: bool  # Retry is offered
    shown: str  # the answer's text that appeared
    kept: str | None  # the partial answer kept in the session (None: nothing kept)
    requests: int  # how many times the server was asked
    waiting: tuple[str, ...] = ()  # the waiting lines shown between two tries

    def describe(self) -> str:
        if self.status != "error":
            return f"{self.status} (shown: {self.shown!r})"
        kept = f"; kept {self.kept!r}" if self.kept else ""
        retry = "; Retry offered" if self.retryable else ""
        waits = "".join(f"{w!r} then " for w in self.waiting)
        return f"{waits}error after {self.requests} request(s): {self.error}{kept}{retry}"


def applies(vendor: str, failure: str) -> bool:
    return not (failure == "html-plain" and VENDOR_CASES[vendor].plain_path is None)


def _replies(v: Vendor, failure: str) -> tuple[str, Reply, bool]:
    """The route to answer, its reply, and whether the provider streams."""
    stream_reply = lambda body, **kw: Reply(body=body, content_type=v.content_type, **kw)  # noqa: E731
    if v.encode is not None and failure in ("cut", "silent"):
        body = v.encode(v.events("Hel") if failure == "cut" else [v.empty_event])
        if failure == "cut":
            return v.stream_path, stream_reply(body), True
        return v.stream_path, stream_reply(body + body, stall_after=len(body)), True
    if failure == "cut":
        return v.stream_path, stream_reply(sse(*v.events("Hel"), event_names=v.event_names,
                                                 sep=v.sep)), True
    if failure == "empty":
        return v.stream_path, stream_reply(""), True
    if failure == "html-stream":
        return v.stream_path, Reply(body=PAGE, content_type="text/html; charset=utf-8"), True
    if failure == "html-plain":
        assert v.plain_path is not None
        return v.plain_path, Reply(body=PAGE, content_type="text/html; charset=utf-8"), False
    if failure == "silent":
        body = sse(v.empty_event, event_names=v.event_names, sep=v.sep)
        return v.stream_path, stream_reply(body + body, stall_after=len(body)), True
    raise ValueError(failure)


async def run_case(vendor: str, failure: str) -> Outcome:
    """One turn against a stub failing as ``failure``; what the user is shown."""
    v = VENDOR_CASES[vendor]
    stub = StubServer()
    await stub.start()
    provider: Any = None
    try:
        path, reply, streaming = _replies(v, failure)
        stub.add("POST", path, reply)
        options: dict[str, Any] = {
            "retry": RetryPolicy(attempts=ATTEMPTS, base_delay=0.001, max_delay=0.01),
            "timeouts": StreamTimeouts(first_event=FIRST_EVENT if failure == "silent" else ROOMY,
                                       stall=ROOMY),
        }
        if not streaming:
            options["stream"] = False
        provider = v.make(stub, **options)
        with tempfile.TemporaryDirectory() as tmp:
            engine = TurnEngine(session_id="s1", store=MemoryHistory(), workspace=Path(tmp),
                                resolver=StaticResolver(provider), model=v.model)
            events = [e async for e in engine.run("hi")]
        errors = [e for e in events if isinstance(e, ev.ErrorOccurred)]
        end = events[-1]
        assert isinstance(end, ev.TurnEnded)
        answers = [m for m in engine.history if m.get("role") == "assistant"]
        kept = answers[-1].get("content") if answers and answers[-1].get("partial") else None
        return Outcome(
            status=end.status,
            error=errors[-1].message if errors else "",
            retryable=bool(errors and errors[-1].retryable),
            shown="".join(e.text for e in events if isinstance(e, ev.AssistantDelta)),
            kept=str(kept) if kept is not None else None,
            requests=len(stub.seen),
            waiting=tuple(e.text() for e in events if isinstance(e, ev.ProviderRetrying)),
        )
    finally:
        if provider is not None:
            await provider.aclose()
        await stub.stop()


def table_rows(outcomes: dict[tuple[str, str], Outcome]) -> list[str]:
    """The table as text lines: one block per vendor, one line per failure."""
    lines = []
    for vendor in VENDOR_CASES:
        lines.append(vendor)
        for failure in FAILURES:
            outcome = outcomes.get((vendor, failure))
            text = outcome.describe() if outcome else "(not applicable: this API always streams)"
            lines.append(f"  {failure:<12} {text}")
    return lines


def dump(outcomes: dict[tuple[str, str], Outcome]) -> str:
    return json.dumps({f"{v}/{f}": o.__dict__ for (v, f), o in outcomes.items()}, indent=1)
