"""Gemini (google-genai) against a stub speaking ``alt=sse`` with ``\\r\\n\\r\\n``."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.domain.arguments import ArgumentsError, parse_arguments
from openworker_qt.providers.gemini import GeminiProvider
from openworker_qt.providers.gemini_transport import JsonArraySplitter
from tests.providers.helpers import TOOL, TOOL2, SleepRecorder, collect, fast, user
from tests.providers.stubs import Reply, StubServer, sse

PATH = "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
USAGE = {"promptTokenCount": 8, "candidatesTokenCount": 4, "thoughtsTokenCount": 2, "totalTokenCount": 14}


def cand(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
    c: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        c["finishReason"] = finish
    return {"candidates": [c], "usageMetadata": USAGE, "modelVersion": "gemini-2.5-flash"}


def reply(*events: dict[str, Any], **kw: Any) -> Reply:
    return Reply(body=sse(*events, sep="\r\n\r\n"), content_type="text/event-stream", **kw)


def provider(stub: StubServer, *, sleep: SleepRecorder | None = None, stall: float = 5.0, **kw: Any) -> GeminiProvider:
    return GeminiProvider(api_key="g-key", base_url=stub.url, **fast(sleep, stall=stall), **kw)


@pytest.mark.asyncio
async def test_thoughts_text_and_parallel_calls(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(
        cand([{"text": "Pondering", "thought": True}]),
        cand([{"text": "Looking "}, {"text": "up."}]),
        cand([{"functionCall": {"name": "get_weather", "args": {"city": "Kyiv"}}, "thoughtSignature": base64.b64encode(b"sig").decode()},
              {"functionCall": {"name": "get_time", "args": {"city": "Kyiv"}}}], "STOP"),
        chunking="random", seed=11,
    ))
    out = await collect(provider(stub), ModelRequest("gemini-2.5-flash", [user("hi")], tools=[TOOL, TOOL2], system="sys"))
    assert (out.reasoning, out.text) == ("Pondering", "Looking up.")
    assert out.parsed_calls == [("get_weather", {"city": "Kyiv"}), ("get_time", {"city": "Kyiv"})]
    assert out.finish.reason == "tool_calls"
    # Output counts the thinking too (4 answer + 2 thought tokens), as domain.usage does.
    assert out.finish.usage == {"input_tokens": 8, "output_tokens": 6, "reasoning_tokens": 2}
    seen = stub.seen[0]
    assert seen.query == {"alt": "sse"} and seen.headers["x-goog-api-key"] == "g-key"
    body = seen.body
    assert body["systemInstruction"]["parts"][0]["text"] == "sys"
    assert [f["name"] for f in body["tools"][0]["functionDeclarations"]] == ["get_weather", "get_time"]
    # google-genai leaves nested keys snake_case; the API's proto JSON accepts both
    assert body["generationConfig"]["thinkingConfig"] in ({"includeThoughts": True}, {"include_thoughts": True})


@pytest.mark.asyncio
async def test_inline_image_and_pdf_and_function_responses(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(cand([{"text": "ok"}], "STOP")))
    pdf = b"%PDF-1.7"
    history = [
        {"role": "user", "content": [
            {"type": "text", "text": "see"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(b"png").decode()}},
            {"type": "file", "file": {"filename": "x.pdf", "file_data": "data:application/pdf;base64," + base64.b64encode(pdf).decode()}},
        ]},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "call_local", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"A"}'}}]},
        {"role": "tool", "tool_call_id": "call_local", "name": "get_weather", "content": "rain"},
    ]
    await collect(provider(stub), ModelRequest("gemini-2.5-flash", history, tools=[TOOL]))
    contents = stub.seen[0].body["contents"]
    parts = contents[0]["parts"]
    inline = parts[1]["inlineData"]
    assert (inline.get("mimeType") or inline.get("mime_type")) == "image/png"
    assert base64.urlsafe_b64decode(parts[2]["inlineData"]["data"]) == pdf
    assert contents[1] == {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "A"}}}]}
    assert contents[2]["parts"][0]["functionResponse"] == {"name": "get_weather", "response": {"output": "rain"}}


@pytest.mark.asyncio
async def test_401_and_429_with_retry_info(stub: StubServer) -> None:
    err = {"error": {"code": 401, "message": "API key not valid", "status": "UNAUTHENTICATED"}}
    stub.add("POST", PATH, Reply(status=401, body=json.dumps(err)))
    with pytest.raises(ProviderError) as e:
        await collect(provider(stub), ModelRequest("gemini-2.5-flash", [user("x")]))
    assert e.value.kind == "auth" and "API key not valid" in str(e.value)

    stub.routes.clear()
    quota = {"error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED", "details": [
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}]}}
    stub.add("POST", PATH, Reply(status=429, body=json.dumps(quota)), reply(cand([{"text": "back"}], "STOP")))
    sleep = SleepRecorder()
    out = await collect(provider(stub, sleep=sleep), ModelRequest("gemini-2.5-flash", [user("x")]))
    assert out.text == "back" and sleep.delays == [7.0]


@pytest.mark.asyncio
async def test_500_then_success(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(status=500, body=json.dumps({"error": {"code": 500, "message": "internal", "status": "INTERNAL"}})), reply(cand([{"text": "ok"}], "STOP")))
    out = await collect(provider(stub), ModelRequest("gemini-2.5-flash", [user("x")]))
    assert out.text == "ok" and len(stub.seen) == 2


@pytest.mark.asyncio
async def test_malformed_and_stalled_streams(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(body="data: {broken\r\n\r\n", content_type="text/event-stream"))
    with pytest.raises(ProviderError) as e:
        await collect(provider(stub), ModelRequest("gemini-2.5-flash", [user("x")]))
    assert e.value.kind == "malformed"
    stub.routes.clear()
    body = sse(cand([{"text": "he"}]), sep="\r\n\r\n")
    stub.add("POST", PATH, Reply(body=body + "data: {", content_type="text/event-stream", stall_after=len(body) + 3))
    with pytest.raises(ProviderError) as e:
        await collect(provider(stub, stall=0.3), ModelRequest("gemini-2.5-flash", [user("x")]))
    assert e.value.kind == "timeout"


@pytest.mark.asyncio
async def test_max_tokens_finish(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(cand([{"text": "cut"}], "MAX_TOKENS")))
    out = await collect(provider(stub), ModelRequest("gemini-2.5-flash", [user("x")]))
    assert out.finish.reason == "length"


def test_json_array_splitter_handles_any_split() -> None:
    doc = json.dumps([{"a": "x}]{\\\"", "b": [1, {"c": 2}]}, {"d": "é"}], indent=2).encode()
    for size in (1, 2, 3, 5, 64):
        s = JsonArraySplitter()
        out: list[str] = []
        for i in range(0, len(doc), size):
            out += s.feed(doc[i : i + size])
        assert [json.loads(o) for o in out] == json.loads(doc)


@pytest.mark.asyncio
async def test_arguments_nested_too_deep_become_that_calls_error(stub: StubServer) -> None:
    deep: Any = "x"
    for _ in range(150):
        deep = [deep]
    stub.add("POST", PATH, reply(
        cand([{"functionCall": {"name": "get_weather", "args": {"city": deep}},
               "thoughtSignature": base64.b64encode(b"sig").decode()}], "STOP"),
    ))
    out = await collect(provider(stub), ModelRequest("gemini-2.5-flash", [user("hi")], tools=[TOOL]))
    [call] = out.calls
    with pytest.raises(ArgumentsError, match="nested too deeply"):
        parse_arguments(call.arguments)
    assert out.finish.provider_state  # the call's signature is kept, its deep value is not
    assert "[[[[" not in json.dumps(out.finish.provider_state)
