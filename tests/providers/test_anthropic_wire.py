"""Anthropic Messages against a stub speaking its SSE (``event:`` + ``data:``)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.providers.anthropic import AnthropicProvider
from tests.providers.helpers import TOOL, TOOL2, SleepRecorder, collect, drain_into, fast, user
from tests.providers.stubs import Reply, StubServer, sse

pytestmark = pytest.mark.asyncio
PATH = "/v1/messages"
START = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6", "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 20, "output_tokens": 1, "cache_read_input_tokens": 12}}}


def block_start(i: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": i, "content_block": block}


def delta(i: int, d: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": i, "delta": d}


def stop(i: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": i}


def end(reason: str, out: int = 9) -> list[dict[str, Any]]:
    return [{"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None}, "usage": {"output_tokens": out}}, {"type": "message_stop"}]


def reply(*events: dict[str, Any], **kw: Any) -> Reply:
    return Reply(body=sse(*events, event_names=True), content_type="text/event-stream", **kw)


def provider(stub: StubServer, *, sleep: SleepRecorder | None = None, stall: float = 5.0, **kw: Any) -> AnthropicProvider:
    return AnthropicProvider(api_key="sk-ant", base_url=stub.url, **fast(sleep, stall=stall), **kw)


async def test_text_thinking_and_parallel_tool_use_split_fragments(stub: StubServer) -> None:
    events = [
        START,
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, {"type": "thinking_delta", "thinking": "Two cities"}),
        delta(0, {"type": "signature_delta", "signature": "c2lnLTE="}),
        stop(0),
        block_start(1, {"type": "text", "text": ""}),
        delta(1, {"type": "text_delta", "text": "Checking "}),
        delta(1, {"type": "text_delta", "text": "both."}),
        stop(1),
        block_start(2, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
        *[delta(2, {"type": "input_json_delta", "partial_json": p}) for p in ["", '{"ci', 'ty": "Lima"}']],
        stop(2),
        block_start(3, {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {}}),
        delta(3, {"type": "input_json_delta", "partial_json": '{"city": "Quito"}'}),
        stop(3),
        *end("tool_use"),
    ]
    stub.add("POST", PATH, reply(*events, chunking="random", seed=4))
    out = await collect(provider(stub), ModelRequest("claude-haiku-4-5", [user("go")], tools=[TOOL, TOOL2], system="sys"))
    assert (out.reasoning, out.text) == ("Two cities", "Checking both.")
    assert out.parsed_calls == [("get_weather", {"city": "Lima"}), ("get_time", {"city": "Quito"})]
    assert out.finish.reason == "tool_calls"
    # The prompt's total (20 uncached + 12 read from the cache), as domain.usage counts it.
    assert out.finish.usage == {"input_tokens": 32, "output_tokens": 9, "cache_read_tokens": 12}
    blocks = out.finish.provider_state["anthropic"]["content"]
    assert blocks[0] == {"type": "thinking", "thinking": "Two cities", "signature": "c2lnLTE="}
    body = stub.seen[0].body
    assert body["system"] == [{"type": "text", "text": "sys", "cache_control": {"type": "ephemeral"}}]
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"} and "cache_control" not in body["tools"][0]
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 4096}
    headers = stub.seen[0].headers
    assert headers.get("x-api-key") == "sk-ant" or headers.get("authorization") == "Bearer sk-ant"


async def test_tool_results_grouped_and_images_pdfs_as_blocks(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(START, block_start(0, {"type": "text", "text": ""}), delta(0, {"type": "text_delta", "text": "ok"}), stop(0), *end("end_turn")))
    pdf = "data:application/pdf;base64," + base64.b64encode(b"%PDF").decode()
    history = [
        {"role": "user", "content": [
            {"type": "text", "text": "see"},
            {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/"}},
            {"type": "file", "file": {"filename": "r.pdf", "file_data": pdf}},
        ]},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "t1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"A"}'}},
            {"id": "t2", "type": "function", "function": {"name": "get_time", "arguments": '{"city":"B"}'}},
        ]},
        {"role": "tool", "tool_call_id": "t1", "name": "get_weather", "content": "sun"},
        {"role": "tool", "tool_call_id": "t2", "name": "get_time", "content": "noon"},
        user("and now?"),
    ]
    await collect(provider(stub), ModelRequest("claude-3-5-haiku-latest", history, tools=[TOOL, TOOL2]))
    msgs = stub.seen[0].body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    assert [b["type"] for b in msgs[0]["content"]] == ["text", "image", "document"]
    assert msgs[0]["content"][1]["source"] == {"type": "base64", "media_type": "image/jpeg", "data": "/9j/"}
    assert msgs[1]["content"] == [
        {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "A"}},
        {"type": "tool_use", "id": "t2", "name": "get_time", "input": {"city": "B"}},
    ]
    assert [b["type"] for b in msgs[2]["content"]] == ["tool_result", "tool_result", "text"]
    assert "thinking" not in stub.seen[0].body  # claude-3-5 has no extended thinking


async def test_401_auth(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(status=401, body=json.dumps({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}})))
    with pytest.raises(ProviderError) as err:
        await collect(provider(stub), ModelRequest("claude-haiku-4-5", [user("x")]))
    assert err.value.kind == "auth" and "invalid x-api-key" in str(err.value) and len(stub.seen) == 1


async def test_429_retry_after_then_success(stub: StubServer) -> None:
    stub.add("POST", PATH,
             Reply(status=429, body=json.dumps({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}), headers={"retry-after": "3"}),
             reply(START, block_start(0, {"type": "text", "text": ""}), delta(0, {"type": "text_delta", "text": "ok"}), stop(0), *end("end_turn")))
    sleep = SleepRecorder()
    out = await collect(provider(stub, sleep=sleep), ModelRequest("claude-haiku-4-5", [user("x")]))
    assert out.text == "ok" and sleep.delays == [3.0]


async def test_500_then_success(stub: StubServer) -> None:
    stub.add("POST", PATH,
             Reply(status=529, body=json.dumps({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})),
             reply(START, block_start(0, {"type": "text", "text": ""}), delta(0, {"type": "text_delta", "text": "ok"}), stop(0), *end("end_turn")))
    sleep = SleepRecorder()
    out = await collect(provider(stub, sleep=sleep), ModelRequest("claude-haiku-4-5", [user("x")]))
    assert out.text == "ok" and len(sleep.delays) == 1 and len(stub.seen) == 2


async def test_error_event_mid_stream_surfaces_after_text(stub: StubServer) -> None:
    events = [START, block_start(0, {"type": "text", "text": ""}), delta(0, {"type": "text_delta", "text": "partial"}),
              {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}]
    stub.add("POST", PATH, reply(*events))
    chunks: list[Any] = []
    with pytest.raises(ProviderError) as err:
        await drain_into(provider(stub).stream(ModelRequest("claude-haiku-4-5", [user("x")])), chunks)
    assert err.value.kind == "overloaded" and "Overloaded" in str(err.value)
    # (message_start before the text: the answer opened, said once, then the words)
    assert [type(c).__name__ for c in chunks] == ["OpenedChunk", "TextChunk"]
    assert chunks[1].text == "partial" and len(stub.seen) == 1


async def test_malformed_stream(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(body="event: message_start\ndata: {oops\n\n", content_type="text/event-stream"))
    with pytest.raises(ProviderError) as err:
        await collect(provider(stub), ModelRequest("claude-haiku-4-5", [user("x")]))
    assert err.value.kind == "malformed"


async def test_stall_mid_stream(stub: StubServer) -> None:
    body = sse(START, block_start(0, {"type": "text", "text": ""}), delta(0, {"type": "text_delta", "text": "hi"}), event_names=True)
    stub.add("POST", PATH, Reply(body=body + "event: ping\n", content_type="text/event-stream", stall_after=len(body.encode())))
    with pytest.raises(ProviderError) as err:
        await collect(provider(stub, stall=0.3), ModelRequest("claude-haiku-4-5", [user("x")]))
    assert err.value.kind == "timeout"


async def test_truncated_tool_input_at_max_tokens(stub: StubServer) -> None:
    events = [START, block_start(0, {"type": "tool_use", "id": "toolu_x", "name": "get_weather", "input": {}}),
              delta(0, {"type": "input_json_delta", "partial_json": '{"city": "Ber'}), *end("max_tokens")]
    stub.add("POST", PATH, reply(*events))
    out = await collect(provider(stub), ModelRequest("claude-haiku-4-5", [user("x")], tools=[TOOL]))
    assert out.calls[0].arguments == '{"city": "Ber' and out.finish.reason == "length"
    # sent back later, the malformed input is kept rather than silently dropped
    stub.add("POST", PATH, reply(START, *end("end_turn")))
    history = [user("x"), out.assistant_message(), {"role": "tool", "tool_call_id": "toolu_x", "content": "bad args"}]
    await collect(provider(stub), ModelRequest("claude-haiku-4-5", history, tools=[TOOL]))
    assert stub.seen[-1].body["messages"][1]["content"][0]["input"] == {"_raw": '{"city": "Ber'}


async def test_adaptive_thinking_for_newest_models(stub: StubServer) -> None:
    stub.add("POST", PATH, reply(START, *end("end_turn")))
    await collect(provider(stub), ModelRequest("claude-opus-4-6", [user("x")]))
    assert stub.seen[0].body["thinking"]["type"] == "adaptive"
