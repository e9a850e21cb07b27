"""OpenAI Chat Completions (and compat vendors) against a stub speaking SSE."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest

from openworker_qt.core.messages import IMAGE_PLACEHOLDER, Capabilities, outbound
from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.providers.compat import VENDORS
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from tests.providers.helpers import TOOL, TOOL2, SleepRecorder, collect, drain_into, fast, user
from tests.providers.stubs import Reply, StubServer, sse

pytestmark = pytest.mark.asyncio
PATH = "/v1/chat/completions"


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": choices, **extra}


def stream_reply(*events: Any, **kw: Any) -> Reply:
    return Reply(body=sse(*events) + "data: [DONE]\n\n", content_type="text/event-stream", **kw)


USAGE = chunk(None, usage={"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18})


def provider(stub: StubServer, vendor: str | None = None, *, sleep: SleepRecorder | None = None, stall: float = 5.0, **kw: Any) -> OpenAIChatProvider:
    args = {**fast(sleep, stall=stall), **kw}
    if vendor:
        return OpenAIChatProvider(VENDORS[vendor], api_key="k", base_url=stub.url + "/v1", **args)
    return OpenAIChatProvider(api_key="k", base_url=stub.url + "/v1", **args)


async def test_streamed_text_and_usage(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"role": "assistant", "content": ""}), chunk({"content": "Hel"}), chunk({"content": "lo ✓"}), chunk({}, "stop"), USAGE, chunking="random"))
    out = await collect(provider(stub), ModelRequest("gpt-4o", [user("hi")], system="Be brief."))
    assert out.text == "Hello ✓"
    assert out.finish.reason == "stop" and out.finish.usage == {"input_tokens": 11, "output_tokens": 7}
    body = stub.seen[0].body
    assert body["messages"][0] == {"role": "system", "content": "Be brief."}
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert stub.seen[0].headers["authorization"] == "Bearer k"


async def test_tool_call_arguments_split_across_chunks_and_parallel_calls(stub: StubServer) -> None:
    frags = ['{"ci', 'ty": "Pa', 'ris"}']
    events = [chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]})]
    events += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": f}}]}) for f in frags]
    events += [chunk({"tool_calls": [{"index": 1, "id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": '{"city":'}}]})]
    events += [chunk({"tool_calls": [{"index": 1, "function": {"arguments": ' "Rome"}'}}]}), chunk({}, "tool_calls"), USAGE]
    stub.add("POST", PATH, stream_reply(*events, chunking=3))
    out = await collect(provider(stub), ModelRequest("gpt-4o", [user("x")], tools=[TOOL, TOOL2]))
    assert [(c.id, c.name, json.loads(c.arguments)) for c in out.calls] == [
        ("call_a", "get_weather", {"city": "Paris"}),
        ("call_b", "get_time", {"city": "Rome"}),
    ]
    assert out.finish.reason == "tool_calls"
    sent = stub.seen[0].body["tools"]
    assert [t["function"]["name"] for t in sent] == ["get_weather", "get_time"]


async def test_reasoning_content_of_deepseek_streams_as_reasoning(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"reasoning_content": "Think "}), chunk({"reasoning_content": "hard."}), chunk({"content": "42"}), chunk({}, "stop"), USAGE))
    out = await collect(provider(stub, "deepseek"), ModelRequest("deepseek-reasoner", [user("q")]))
    assert (out.reasoning, out.text) == ("Think hard.", "42")
    assert out.finish.provider_state == {}  # DeepSeek rejects reasoning sent back


async def test_think_tags_split_across_deltas_on_ollama(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(*[chunk({"content": p}) for p in ["<thi", "nk>plan it</th", "ink>Done", "."]], chunk({}, "stop")))
    out = await collect(provider(stub, "ollama"), ModelRequest("qwen3:8b", [user("q")]))
    assert (out.reasoning, out.text) == ("plan it", "Done.")


async def test_kimi_gets_its_reasoning_back(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"reasoning_content": "r1"}), chunk({"content": "ok"}), chunk({}, "stop")))
    p = provider(stub, "kimi")
    first = await collect(p, ModelRequest("kimi-k2-thinking", [user("q")]))
    await collect(p, ModelRequest("kimi-k2-thinking", [user("q"), first.assistant_message(), user("more")]))
    assert stub.seen[1].body["messages"][1]["reasoning_content"] == "r1"


async def test_images_and_pdf_native_for_openai(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"content": "seen"}), chunk({}, "stop")))
    pdf = "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.4 fake").decode()
    history = [{"role": "user", "content": [
        {"type": "text", "text": "look"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "file", "file": {"filename": "a.pdf", "file_data": pdf}},
    ], "ts": 1.0, "source": "user"}]
    p = provider(stub)
    await collect(p, ModelRequest("gpt-4o", outbound(history, p.capabilities("gpt-4o"))))
    parts = stub.seen[0].body["messages"][0]["content"]
    assert [x["type"] for x in parts] == ["text", "image_url", "file"]
    assert parts[2]["file"]["file_data"] == pdf


async def test_image_and_pdf_fallback_for_ollama(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"content": "ok"}), chunk({}, "stop")))
    pdf = "data:application/pdf;base64," + base64.b64encode(b"not really a pdf").decode()
    history = [{"role": "user", "content": [
        {"type": "text", "text": "look"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "file", "file": {"filename": "a.pdf", "file_data": pdf}},
    ]}]
    before = copy.deepcopy(history)
    p = provider(stub, "ollama")
    caps = p.capabilities("llama3.2")
    assert caps == Capabilities(tools=True, vision=False, pdf=False, parallel_tools=False, reasoning=False, context_window=32_000)
    await collect(p, ModelRequest("llama3.2", outbound(history, caps)))
    assert history == before
    content = stub.seen[0].body["messages"][0]["content"]
    assert isinstance(content, str)  # text-only parts flattened for compat servers
    assert IMAGE_PLACEHOLDER in content and "[Attached PDF: a.pdf]" in content


async def test_401_is_auth_and_not_retried(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(status=401, body=json.dumps({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}})))
    sleep = SleepRecorder()
    with pytest.raises(ProviderError) as err:
        await collect(provider(stub, sleep=sleep), ModelRequest("gpt-4o", [user("x")]))
    assert err.value.kind == "auth" and err.value.status == 401
    assert "Incorrect API key" in str(err.value) and str(err.value).startswith("[openai:gpt-4o] auth:")
    assert len(stub.seen) == 1 and sleep.delays == []


async def test_429_honours_retry_after_then_succeeds(stub: StubServer) -> None:
    stub.add(
        "POST", PATH,
        Reply(status=429, body=json.dumps({"error": {"message": "Rate limit reached", "type": "requests"}}), headers={"retry-after": "2"}),
        stream_reply(chunk({"content": "finally"}), chunk({}, "stop")),
    )
    sleep = SleepRecorder()
    out = await collect(provider(stub, sleep=sleep), ModelRequest("gpt-4o", [user("x")]))
    assert out.text == "finally" and sleep.delays == [2.0] and len(stub.seen) == 2


async def test_429_retry_after_ms(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(status=429, body="{}", headers={"retry-after-ms": "1500"}), stream_reply(chunk({"content": "y"}), chunk({}, "stop")))
    sleep = SleepRecorder()
    await collect(provider(stub, sleep=sleep), ModelRequest("gpt-4o", [user("x")]))
    assert sleep.delays == [1.5]


async def test_500_then_success_with_backoff(stub: StubServer) -> None:
    err = Reply(status=500, body=json.dumps({"error": {"message": "boom", "type": "server_error"}}))
    stub.add("POST", PATH, err, err, stream_reply(chunk({"content": "ok"}), chunk({}, "stop")))
    sleep = SleepRecorder()
    out = await collect(provider(stub, sleep=sleep), ModelRequest("gpt-4o", [user("x")]))
    assert out.text == "ok" and len(sleep.delays) == 2 and len(stub.seen) == 3
    assert all(0 < d <= 0.01 for d in sleep.delays)


async def test_500_gives_up_after_bounded_attempts(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(status=503, body="upstream down", content_type="text/plain"))
    sleep = SleepRecorder()
    with pytest.raises(ProviderError) as err:
        await collect(provider(stub, sleep=sleep), ModelRequest("gpt-4o", [user("x")]))
    assert err.value.kind == "server" and err.value.status == 503
    assert len(stub.seen) == 3 and len(sleep.delays) == 2


async def test_context_length_error_is_classified(stub: StubServer) -> None:
    body = {"error": {"message": "This model's maximum context length is 128000 tokens.", "type": "invalid_request_error", "code": "context_length_exceeded"}}
    stub.add("POST", PATH, Reply(status=400, body=json.dumps(body)))
    with pytest.raises(ProviderError) as err:
        await collect(provider(stub), ModelRequest("gpt-4o", [user("x")]))
    assert err.value.kind == "context_length" and not err.value.transient


async def test_malformed_stream(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(body="data: {this is not json\n\n", content_type="text/event-stream"))
    with pytest.raises(ProviderError) as err:
        await collect(provider(stub), ModelRequest("gpt-4o", [user("x")]))
    assert err.value.kind == "malformed" and len(stub.seen) == 1


async def test_stream_that_stalls_is_abandoned(stub: StubServer) -> None:
    body = sse(chunk({"content": "Hel"}), chunk({"content": "lo"}))
    stub.add("POST", PATH, Reply(body=body, content_type="text/event-stream", stall_after=len(body.encode()) - 5, chunking=8))
    seen: list[Any] = []
    with pytest.raises(ProviderError) as err:
        await drain_into(provider(stub, stall=0.3).stream(ModelRequest("gpt-4o", [user("x")])), seen)
    assert err.value.kind == "timeout" and "stopped sending mid-answer" in str(err.value)
    assert "".join(getattr(c, "text", "") for c in seen) == "Hel" and len(stub.seen) == 1  # text was shown: no silent replay


async def test_stall_before_first_event_is_retried(stub: StubServer) -> None:
    stub.add("POST", PATH, Reply(body="data: ", content_type="text/event-stream", stall_after=0), stream_reply(chunk({"content": "ok"}), chunk({}, "stop")))
    out = await collect(provider(stub, stall=0.3), ModelRequest("gpt-4o", [user("x")]))
    assert out.text == "ok" and len(stub.seen) == 2


async def test_connection_cut_before_any_chunk_is_retried(stub: StubServer) -> None:
    body = sse(chunk({"content": "never seen"}))
    stub.add("POST", PATH, Reply(body=body, content_type="text/event-stream", cut_after=10), stream_reply(chunk({"content": "ok"}), chunk({}, "stop")))
    out = await collect(provider(stub), ModelRequest("gpt-4o", [user("x")]))
    assert out.text == "ok" and len(stub.seen) == 2


async def test_truncated_json_tool_argument_is_passed_raw(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(
        chunk({"tool_calls": [{"index": 0, "id": "call_t", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Par'}}]}),
        chunk({}, "length"),
    ))
    out = await collect(provider(stub), ModelRequest("gpt-4o", [user("x")], tools=[TOOL]))
    assert out.calls[0].arguments == '{"city": "Par'
    assert out.finish.reason == "length"


async def test_text_tool_call_recovered_for_ollama_only_when_offered(stub: StubServer) -> None:
    text = 'Let me check.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    stub.add("POST", PATH, stream_reply(chunk({"content": text}), chunk({}, "stop")))
    p = provider(stub, "ollama")
    out = await collect(p, ModelRequest("llama3.2", [user("x")], tools=[TOOL]))
    assert out.parsed_calls == [("get_weather", {"city": "Oslo"})]
    assert out.finish.replace_text == "Let me check." and out.finish.reason == "tool_calls"
    no_tools = await collect(p, ModelRequest("llama3.2", [user("x")]))
    assert no_tools.calls == [] and no_tools.finish.replace_text is None and no_tools.text == text


async def test_mistral_gets_nine_char_tool_ids(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"content": "ok"}), chunk({}, "stop")))
    history = [
        user("x"),
        {"role": "assistant", "content": "", "tool_calls": [{"id": "toolu_01ABCDEFGHIJK", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "toolu_01ABCDEFGHIJK", "name": "get_weather", "content": "sunny"},
    ]
    await collect(provider(stub, "mistral"), ModelRequest("mistral-large-latest", history, tools=[TOOL]))
    msgs = stub.seen[0].body["messages"]
    sent_id = msgs[1]["tool_calls"][0]["id"]
    assert len(sent_id) == 9 and sent_id.isalnum() and msgs[2]["tool_call_id"] == sent_id
    assert "stream_options" not in stub.seen[0].body


async def test_non_streaming_mode_replays_as_chunks(stub: StubServer) -> None:
    resp = {"id": "x", "object": "chat.completion", "created": 1, "model": "m", "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "<think>hmm</think>answer"}}], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}
    stub.add("POST", PATH, Reply(body=json.dumps(resp)))
    out = await collect(provider(stub, "minimax", stream=False), ModelRequest("MiniMax-M2", [user("x")]))
    assert (out.reasoning, out.text) == ("hmm", "answer")
    assert stub.seen[0].body.get("stream") in (None, False)
