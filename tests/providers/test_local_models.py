"""What local OpenAI-compatible servers (Ollama, llama.cpp, LM Studio, vLLM) do
that hosted APIs do not: parallel calls on one index, tool calls printed as text in
each model family's own markup, and their request quirks. The real openai SDK
against a stub on 127.0.0.1."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from openworker_qt.core.provider_api import ModelRequest, TextChunk
from openworker_qt.providers.compat import VENDORS, custom_vendor
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from tests.providers.helpers import OPEN_PROVIDERS, TOOL, TOOL2, collect, fast, user
from tests.providers.stubs import Reply, StubServer, sse

PATH = "/v1/chat/completions"


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": choices, **extra}


def stream_reply(*events: Any, **kw: Any) -> Reply:
    return Reply(body=sse(*events) + "data: [DONE]\n\n", content_type="text/event-stream", **kw)


def ollama(stub: StubServer, vendor: str = "ollama", **kw: Any) -> OpenAIChatProvider:
    provider = OpenAIChatProvider(VENDORS[vendor], base_url=stub.url + "/v1", **{**fast(), **kw})
    OPEN_PROVIDERS.append(provider)  # closed with the stub (an engine's too, not only collect's)
    return provider


def small_pieces(text: str, seed: int = 7) -> list[str]:
    """``text`` cut into pieces of 1 to 3 characters (as a slow local server streams)."""
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(text):
        n = rng.randint(1, 3)
        out.append(text[i : i + n])
        i += n
    return out


# ------------------------------------------------------ parallel calls, one index


@pytest.mark.parametrize("index", [0, None], ids=["index-0-reused", "no-index"])
async def test_ollama_parallel_calls_on_one_index_stay_two_calls(stub: StubServer, index: int | None) -> None:
    def call(cid: str, city: str) -> dict[str, Any]:
        tc: dict[str, Any] = {"id": cid, "type": "function",
                              "function": {"name": "get_weather", "arguments": json.dumps({"city": city})}}
        if index is not None:
            tc["index"] = index
        return chunk({"role": "assistant", "tool_calls": [tc]})

    stub.add("POST", PATH, stream_reply(call("call_p", "Paris"), call("call_t", "Tokyo"),
                                        chunk({}, "tool_calls")))
    out = await collect(ollama(stub), ModelRequest("qwen3:8b", [user("weather?")], tools=[TOOL]))
    assert [(c.id, c.name, json.loads(c.arguments)) for c in out.calls] == [
        ("call_p", "get_weather", {"city": "Paris"}),
        ("call_t", "get_weather", {"city": "Tokyo"}),
    ]


async def test_parallel_calls_without_ids_split_on_a_new_name(stub: StubServer) -> None:
    def call(name: str, city: str) -> dict[str, Any]:
        return chunk({"tool_calls": [{"index": 0, "function": {"name": name, "arguments": json.dumps({"city": city})}}]})

    stub.add("POST", PATH, stream_reply(call("get_weather", "Paris"), call("get_time", "Tokyo"),
                                        chunk({}, "tool_calls")))
    out = await collect(ollama(stub), ModelRequest("qwen3:8b", [user("?")], tools=[TOOL, TOOL2]))
    assert out.parsed_calls == [("get_weather", {"city": "Paris"}), ("get_time", {"city": "Tokyo"})]
    assert len({c.id for c in out.calls}) == 2


async def test_calls_nothing_tells_apart_are_an_error_for_the_model_not_run(stub: StubServer, tmp_path: Any) -> None:
    from openworker_qt.core.engine import TurnEngine
    from openworker_qt.core.history import MemoryHistory
    from openworker_qt.core.tool_api import ToolRegistry
    from tests.core.helpers import StaticResolver, fake_tool

    ran: list[dict[str, Any]] = []

    async def weather(args: dict[str, Any], ctx: Any) -> str:
        ran.append(args)
        return "sunny"

    frag = lambda args: chunk({"tool_calls": [{"index": 0, "function": {"name": "get_weather", "arguments": args}}]})  # noqa: E731
    stub.add("POST", PATH,
             stream_reply(frag('{"city":"Paris"}'), frag('{"city":"Tokyo"}'), chunk({}, "tool_calls")),
             stream_reply(chunk({"content": "Sorry."}), chunk({}, "stop")))
    engine = TurnEngine(session_id="s1", store=MemoryHistory(), workspace=tmp_path,
                        resolver=StaticResolver(ollama(stub)), model="qwen3:8b",
                        tools=ToolRegistry([fake_tool("get_weather", weather)]))
    events = [e async for e in engine.run("weather?")]
    assert events[-1].status == "completed"
    assert ran == []  # concatenated JSON never runs
    result = next(m for m in engine.history if m["role"] == "tool")
    assert "several JSON objects one after another" in str(result["content"])
    assert "make one call per set of arguments" in str(result["content"])


# ------------------------------------------------ tool calls printed as text

FORMATS: dict[str, tuple[str, str]] = {
    # name: (what the model prints, the prose that stays visible)
    "hermes-qwen-json": (
        'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
        "Let me check."),
    "qwen3-coder-xml": (
        "Checking.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
        "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
        "Checking."),
    "qwen3-coder-xml-bare": (
        "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n"
        "</parameter>\n</function>",
        ""),
    "llama-python-tag": (
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}', ""),
    "llama-python-tag-eom": (
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>', ""),
    "llama-python-tag-eot": (
        'Sure. <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eot_id|>',
        "Sure."),
    "mistral-json": (
        '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]', ""),
    "mistral-args": (
        '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', ""),
    "deepseek-v3": (
        "I will look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
        '```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        "I will look."),
    "deepseek-v31": (
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}'
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        ""),
}
WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                   "days": {"type": "integer"}}}}}
MARKUP = ("<tool_call>", "</tool_call>", "<function", "<parameter", "<|", "[TOOL_CALLS]",
          "[ARGS]", "｜", "```")


@pytest.mark.parametrize("fmt", list(FORMATS))
async def test_tool_calls_printed_as_text_are_recovered_and_no_markup_is_shown(
    stub: StubServer, fmt: str
) -> None:
    printed, prose = FORMATS[fmt]
    deltas = [chunk({"content": p}) for p in small_pieces(printed)]
    stub.add("POST", PATH, stream_reply(chunk({"role": "assistant"}), *deltas, chunk({}, "stop")))
    out = await collect(ollama(stub), ModelRequest("local", [user("weather?")], tools=[WEATHER]))
    expected = {"city": "Paris", "days": 3} if "xml" in fmt else {"city": "Paris"}
    assert out.parsed_calls == [("get_weather", expected)]
    assert out.finish.reason == "tool_calls"
    shown = out.text  # everything that streamed to the user
    assert not any(m in shown for m in MARKUP), shown
    assert (out.finish.replace_text or "") == prose
    assert prose.startswith(shown.strip()) or shown.strip() == prose


@pytest.mark.parametrize("fmt", ["qwen3-coder-xml", "llama-python-tag", "deepseek-v31"])
async def test_a_printed_call_to_a_tool_not_offered_is_left_as_text(stub: StubServer, fmt: str) -> None:
    printed, _ = FORMATS[fmt]
    printed = printed.replace("get_weather", "get_time")  # offered: get_weather only
    stub.add("POST", PATH, stream_reply(*[chunk({"content": p}) for p in small_pieces(printed)],
                                        chunk({}, "stop")))
    out = await collect(ollama(stub), ModelRequest("local", [user("?")], tools=[WEATHER]))
    assert out.calls == [] and out.finish.reason == "stop"
    assert out.text == printed and out.finish.replace_text is None  # nothing lost


async def test_markup_is_held_only_while_a_call_may_be_written(stub: StubServer) -> None:
    # Prose streams as it comes; text after a marker that turns out not to be a call
    # is shown at the end, whole.
    text = "Use the <tool_call> tag like this: nothing more."
    pieces = small_pieces(text)
    stub.add("POST", PATH, stream_reply(*[chunk({"content": p}) for p in pieces], chunk({}, "stop")))
    out = await collect(ollama(stub), ModelRequest("local", [user("?")], tools=[WEATHER]))
    texts = [c.text for c in out.chunks if isinstance(c, TextChunk)]
    assert "".join(texts) == text and texts[-1] == "<tool_call> tag like this: nothing more."
    assert out.calls == []


def test_a_custom_local_server_recovers_calls_by_default() -> None:
    assert custom_vendor("llamacpp", {"base_url": "http://127.0.0.1:8080/v1"}).recover_tool_calls


# ------------------------------------------------------------------ usage


async def test_groq_usage_is_read_from_x_groq_when_top_level_usage_is_absent(stub: StubServer) -> None:
    last = chunk({}, "stop", x_groq={"id": "req_1", "usage": {
        "queue_time": 0.01, "prompt_tokens": 21, "completion_tokens": 4, "total_tokens": 25}})
    stub.add("POST", PATH, stream_reply(chunk({"role": "assistant", "content": "Hi"}), last))
    groq = custom_vendor("groq", {"base_url": stub.url + "/openai/v1"})
    provider = OpenAIChatProvider(groq, api_key="k", base_url=stub.url + "/v1", **fast())
    out = await collect(provider, ModelRequest("llama-3.3-70b-versatile", [user("hi")]))
    assert out.finish.usage == {"input_tokens": 21, "output_tokens": 4}


async def test_llama_cpp_timings_stand_in_for_usage(stub: StubServer) -> None:
    last = chunk({}, "stop", timings={"prompt_n": 12, "predicted_n": 7, "predicted_ms": 80.5})
    stub.add("POST", PATH, stream_reply(chunk({"role": "assistant", "content": "Hi"}), last))
    local = custom_vendor("llamacpp", {"base_url": stub.url + "/v1"})
    out = await collect(OpenAIChatProvider(local, **fast()), ModelRequest("gemma", [user("hi")]))
    assert out.finish.usage == {"input_tokens": 12, "output_tokens": 7}
    assert stub.seen[0].body["stream_options"] == {"include_usage": True}


# ------------------------------------------------------------- request shape


async def test_tools_go_with_tool_choice_auto_and_calls_with_a_string_content(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"content": "ok"}), chunk({}, "stop")))
    local = custom_vendor("llamacpp", {"base_url": stub.url + "/v1"})
    history = [user("weather?"),
               {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
               {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "sunny"}]
    await collect(OpenAIChatProvider(local, **fast()), ModelRequest("gemma", history, tools=[WEATHER]))
    body = stub.seen[0].body
    assert body["tool_choice"] == "auto"
    assert body["messages"][1]["content"] == "" and body["messages"][1]["tool_calls"]


async def test_no_tool_choice_without_tools(stub: StubServer) -> None:
    stub.add("POST", PATH, stream_reply(chunk({"content": "ok"}), chunk({}, "stop")))
    await collect(ollama(stub), ModelRequest("llama3.2", [user("hi")]))
    assert "tool_choice" not in stub.seen[0].body


async def test_a_server_that_cannot_stream_with_tools_is_asked_again_without_streaming(stub: StubServer) -> None:
    # llama-cpp-python with tool_choice "auto": HTTP 200, then nothing at all.
    answer = {"id": "x", "object": "chat.completion", "created": 1, "model": "gemma",
              "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                  "role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
                  "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]}}],
              "usage": {"prompt_tokens": 30, "completion_tokens": 9, "total_tokens": 39}}
    stub.add("POST", PATH, Reply(body="", content_type="text/event-stream"), Reply(body=json.dumps(answer)))
    local = custom_vendor("llamacpp", {"base_url": stub.url + "/v1"})
    provider = OpenAIChatProvider(local, **fast())
    out = await collect(provider, ModelRequest("gemma", [user("weather?")], tools=[WEATHER]))
    assert out.parsed_calls == [("get_weather", {"city": "Paris"})]
    assert out.finish.usage == {"input_tokens": 30, "output_tokens": 9}
    assert [s.body.get("stream") for s in stub.seen] == [True, None]
    assert "stream_options" not in stub.seen[1].body
    # later calls with tools do not stream either; calls without tools still do
    stub.add("POST", PATH, Reply(body=json.dumps(answer)))
    await collect(provider, ModelRequest("gemma", [user("again")], tools=[WEATHER]))
    assert stub.seen[2].body.get("stream") is None


LLAMA_CPP_VALIDATION = (
    "3 validation errors:\n"
    "  {'type': 'string_type', 'loc': ('body', 'messages', 1, 'typed-dict', 'content'), "
    "'msg': 'Input should be a valid string', 'input': None}\n"
    "  {'type': 'missing', 'loc': ('body', 'messages', 1, 'typed-dict', 'function_call'), "
    "'msg': 'Field required', 'input': {'role': 'assistant', 'content': None}}\n"
    "  {'type': 'literal_error', 'loc': ('body', 'messages', 1, 'typed-dict', 'role'), "
    "'msg': \"Input should be 'tool'\", 'input': 'assistant', 'ctx': {'expected': \"'tool'\"}}"
)


@pytest.mark.parametrize("status", [500, 400])
async def test_a_request_the_server_says_is_invalid_is_not_retried_and_reads_whole(
    stub: StubServer, status: int
) -> None:
    from openworker_qt.core.provider_api import ProviderError

    body = {"error": {"message": LLAMA_CPP_VALIDATION, "type": "internal_server_error",
                      "param": None, "code": None}}
    stub.add("POST", PATH, Reply(status=status, body=json.dumps(body)))
    local = custom_vendor("llamacpp", {"base_url": stub.url + "/v1"})
    with pytest.raises(ProviderError) as info:
        await collect(OpenAIChatProvider(local, **fast(attempts=4)),
                      ModelRequest("gemma", [user("hi")]))
    err = info.value
    assert len(stub.seen) == 1 and err.kind == "bad_request"
    assert "tried" not in err.message
    assert err.message.splitlines() == [
        f"the server rejected the request as invalid (HTTP {status}, 3 problems); trying again "
        "would fail the same way:",
        "  - messages.1.typed-dict.content: Input should be a valid string",
        "  - messages.1.typed-dict.function_call: Field required",
        "  - messages.1.typed-dict.role: Input should be 'tool'",
    ]


async def test_fastapi_422_detail_list_reads_as_lines(stub: StubServer) -> None:
    from openworker_qt.core.provider_api import ProviderError

    detail = {"detail": [{"type": "missing", "loc": ["body", "model"], "msg": "Field required"}]}
    stub.add("POST", PATH, Reply(status=422, body=json.dumps(detail)))
    with pytest.raises(ProviderError) as info:
        await collect(ollama(stub), ModelRequest("m", [user("hi")]))
    assert info.value.kind == "bad_request" and len(stub.seen) == 1
    assert info.value.message.splitlines()[1:] == ["  - model: Field required"]


async def test_a_server_refusing_stream_options_is_asked_without_them(stub: StubServer) -> None:
    refusal = {"error": {"message": "Unrecognized request argument supplied: stream_options",
                         "type": "invalid_request_error"}}
    last = chunk({}, "stop", usage={"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7})
    stub.add("POST", PATH, Reply(status=400, body=json.dumps(refusal)),
             stream_reply(chunk({"content": "Hi"}), last))
    local = custom_vendor("oldserver", {"base_url": stub.url + "/v1"})
    provider = OpenAIChatProvider(local, **fast())
    out = await collect(provider, ModelRequest("m", [user("hi")]))
    assert out.text == "Hi" and out.finish.usage == {"input_tokens": 5, "output_tokens": 2}
    assert "stream_options" in stub.seen[0].body and "stream_options" not in stub.seen[1].body
    await collect(provider, ModelRequest("m", [user("again")]))
    assert "stream_options" not in stub.seen[2].body  # remembered


def test_the_openai_provider_pointed_at_a_local_server_is_treated_as_one() -> None:
    history = [user("q"), {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
               "function": {"name": "get_weather", "arguments": "{}"}}]},
               {"role": "tool", "tool_call_id": "c1", "name": "get_weather", "content": "sunny"}]
    request = ModelRequest("gpt-4o", history, tools=[WEATHER])
    hosted = OpenAIChatProvider(api_key="k").build_params(request)
    assert "tool_choice" not in hosted and hosted["messages"][1]["content"] is None
    lm_studio = OpenAIChatProvider(api_key="k", base_url="http://127.0.0.1:1234/v1").build_params(request)
    assert lm_studio["tool_choice"] == "auto" and lm_studio["messages"][1]["content"] == ""
