"""Token usage and cost add up on the recorded provider responses.

Each recording is replayed through the real SDK and our provider (as in
``test_recordings.py``); the expected counts are read from the recorded body by
a naive parser here and converted by hand into the one shape of
``domain.usage`` (input = the whole prompt, cached tokens included; output =
everything produced, thinking included).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.provider_api import ModelRequest
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.domain.usage import Usage
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.pricing import Price, PriceTable, default_prices, format_cost
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.usage import session_usage
from tests.core.helpers import StaticResolver, collect
from tests.providers.helpers import collect as collect_stream
from tests.providers.helpers import fast
from tests.providers.stubs import StubServer, load_recording
from tests.providers.test_recordings import ALL, EXPECT, _replay, gemini_chunks, sse_events

OK = [n for n in ALL if not isinstance(EXPECT[n][2], tuple)]


def _last(events: list[dict[str, Any]], pick: Any) -> dict[str, Any]:
    found = [u for u in (pick(e) for e in events) if u]
    assert found, "the recording carries no usage"
    return found[-1]


def expected_usage(name: str, rec: dict[str, Any]) -> Usage:
    body = rec["response"]["body"]
    is_json = rec["response"]["headers"]["content-type"].startswith("application/json")
    if name.startswith("openai/chat"):
        u = json.loads(body)["usage"] if is_json else _last(sse_events(body), lambda e: e.get("usage"))
        return Usage(
            input_tokens=u["prompt_tokens"], output_tokens=u["completion_tokens"],
            cache_read_tokens=(u.get("prompt_tokens_details") or {}).get("cached_tokens", 0),
            reasoning_tokens=(u.get("completion_tokens_details") or {}).get("reasoning_tokens", 0),
        )
    if name.startswith("openai/responses"):
        u = _last(sse_events(body), lambda e: (e.get("response") or {}).get("usage"))
        return Usage(
            input_tokens=u["input_tokens"], output_tokens=u["output_tokens"],
            cache_read_tokens=u["input_tokens_details"].get("cached_tokens", 0),
            cache_write_tokens=u["input_tokens_details"].get("cache_write_tokens", 0),
            reasoning_tokens=u["output_tokens_details"].get("reasoning_tokens", 0),
        )
    if name.startswith("anthropic/"):
        if is_json:
            u = json.loads(body)["usage"]
        else:  # message_start, then each message_delta updates what it carries
            u = {}
            for e in sse_events(body):
                if e["type"] == "message_start":
                    u.update(e["message"]["usage"])
                elif e["type"] == "message_delta":
                    u.update(e["usage"])
        read = u.get("cache_read_input_tokens") or 0
        write = u.get("cache_creation_input_tokens") or 0
        return Usage(
            input_tokens=u["input_tokens"] + read + write, output_tokens=u["output_tokens"],
            cache_read_tokens=read, cache_write_tokens=write,
            reasoning_tokens=(u.get("output_tokens_details") or {}).get("thinking_tokens", 0),
        )
    assert name.startswith("gemini/")
    u = _last(gemini_chunks(rec), lambda c: c.get("usageMetadata"))
    thoughts = u.get("thoughtsTokenCount", 0)
    return Usage(
        input_tokens=u["promptTokenCount"], output_tokens=u.get("candidatesTokenCount", 0) + thoughts,
        cache_read_tokens=u.get("cachedContentTokenCount", 0), reasoning_tokens=thoughts,
    )


def recorded_model(name: str, rec: dict[str, Any]) -> str:
    if name.startswith("gemini/"):
        return "gemini:" + rec["request"]["path"].split("/models/")[1].split(":")[0]
    provider = name.split("/")[0]
    return f"{provider}:{rec['request']['body']['model']}"


@pytest.mark.asyncio
@pytest.mark.parametrize("name", OK)
async def test_usage_matches_the_recording(stub: StubServer, name: str) -> None:
    rec, _, result = await _replay(stub, name, None)
    got = Usage.of(result.finish.usage)
    want = expected_usage(name, rec)
    assert got == want
    assert got.input_tokens > 0 and got.output_tokens > 0
    assert got.reasoning_tokens <= got.output_tokens
    assert got.cache_read_tokens + got.cache_write_tokens <= got.input_tokens


@pytest.mark.asyncio
@pytest.mark.parametrize("name", OK)
async def test_cost_adds_up_on_the_recording(stub: StubServer, name: str) -> None:
    rec, _, result = await _replay(stub, name, None)
    usage = Usage.of(result.finish.usage)
    model = recorded_model(name, rec)
    price = default_prices()
    table = PriceTable()
    found = table.price(model)
    assert found is not None, f"no default price for {model}"
    assert found in price.values()
    by_hand = (
        (usage.input_tokens - usage.cache_read_tokens - usage.cache_write_tokens) * found.input
        + usage.cache_read_tokens * (found.input if found.cache_read is None else found.cache_read)
        + usage.cache_write_tokens * (found.input if found.cache_write is None else found.cache_write)
        + usage.output_tokens * found.output
    ) / 1e6
    assert table.cost(model, usage) == pytest.approx(by_hand)


def with_cache(rec: dict[str, Any], read: int, write: int) -> dict[str, Any]:
    """The recording as if the prompt had been cached: part of its input read from the
    cache, part written to it (what the API reports on a later call)."""
    rec = copy.deepcopy(rec)
    lines = []
    for line in rec["response"]["body"].split("\n"):
        if line.startswith("data:") and '"message_start"' in line:
            event = json.loads(line[5:])
            event["message"]["usage"].update(
                cache_read_input_tokens=read, cache_creation_input_tokens=write)
            line = "data: " + json.dumps(event)
        lines.append(line)
    rec["response"]["body"] = "\n".join(lines)
    return rec


@pytest.mark.asyncio
async def test_anthropic_cached_tokens_are_counted_and_priced(stub: StubServer) -> None:
    name = "anthropic/messages-stream-text-then-tool-use.json"
    rec = with_cache(load_recording(name), read=1_200, write=300)
    stub.replay(rec)
    provider = AnthropicProvider(api_key="test", base_url=stub.url, stream=True, **fast())
    body = rec["request"]["body"]
    request = ModelRequest(
        model=body["model"], messages=[{"role": "user", "content": "What is the weather?"}],
        tools=[{"type": "function", "function": {"name": "get_weather", "description": "d",
                                                  "parameters": {"type": "object"}}}],
        system="You are helpful.",
    )
    out = await collect_stream(provider, request)
    usage = Usage.of(out.finish.usage)
    # 610 uncached (as recorded) + 1,200 read from the cache + 300 written to it.
    assert usage == Usage(input_tokens=2_110, output_tokens=131,
                          cache_read_tokens=1_200, cache_write_tokens=300)
    assert usage.uncached_input == 610
    # The request that earned them carried the breakpoints: system prompt and last tool.
    sent = stub.seen[-1].body
    assert sent["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert sent["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    # claude-3-opus: $15 in, $1.50 cache read, $18.75 cache write, $75 out per million.
    cost = PriceTable().cost("anthropic:" + body["model"], usage)
    assert cost == pytest.approx((610 * 15 + 1_200 * 1.5 + 300 * 18.75 + 131 * 75) / 1e6)
    # Reading from the cache is what makes a long session cheaper.
    uncached = Usage(input_tokens=2_110, output_tokens=131)
    assert cost is not None and cost < PriceTable().cost("anthropic:" + body["model"], uncached)


def test_price_lookup_and_user_entries() -> None:
    defaults = {"openai:gpt-4o*": Price(2.5, 10.0, 1.25), "openai:gpt-4o-mini*": Price(0.15, 0.6),
                "anthropic:*": Price(1, 1)}
    table = PriceTable(defaults=defaults)
    assert table.price("gpt-4o-2024-08-06") == Price(2.5, 10.0, 1.25)  # bare name: OpenAI
    assert table.price("openai:gpt-4o-mini") == Price(0.15, 0.6)  # the most specific wins
    assert table.price("qwen2.5-coder:32b") is None  # a version tag, not a provider
    assert table.cost("mystery:model", Usage(input_tokens=5)) is None
    user, warnings = PriceTable.from_config(
        {"anthropic:claude-x*": {"input": 2, "output": 4},
         "bad:one": {"input": "cheap", "output": 1}, "bad:two": {"input": 1}}, "settings.toml")
    assert user.price("anthropic:claude-x-1") == Price(2.0, 4.0)
    assert len(warnings) == 2 and all("left out" in w for w in warnings)
    assert "'input' must be a number" in warnings[0] and "both 'input' and 'output'" in warnings[1]
    assert format_cost(0.0423) == "$0.042" and format_cost(12.5) == "$12.50"
    assert format_cost(None) == "" and format_cost(0.0001) == "< $0.001"


@pytest.mark.asyncio
async def test_turn_and_session_usage_add_up(tmp_path: Path) -> None:
    db = Database(tmp_path / "app.db")
    store = ConversationStore(db)
    info = store.create_session(model="anthropic:claude-sonnet-4-5")
    provider = ScriptedProvider([
        {"tool_calls": [{"name": "nothing", "arguments": {}}],
         "usage": {"input_tokens": 1_000, "output_tokens": 50, "cache_read_tokens": 800}},
        {"text": "done", "usage": {"input_tokens": 1_100, "output_tokens": 20,
                                   "cache_read_tokens": 1_000, "reasoning_tokens": 5}},
        {"text": "again", "usage": {"input_tokens": 1_200, "output_tokens": 10,
                                    "cache_write_tokens": 100}},
    ])
    engine = TurnEngine(session_id=info.id, store=store, resolver=StaticResolver(provider),
                        model=info.model, tools=ToolRegistry(), workspace=tmp_path)
    first = await collect(engine.run("go"))
    second = await collect(engine.run("more"))
    turn1, turn2 = first[-1].usage, second[-1].usage
    assert Usage.of(turn1) == Usage(input_tokens=2_100, output_tokens=70,
                                    cache_read_tokens=1_800, reasoning_tokens=5)
    assert Usage.of(turn2) == Usage(input_tokens=1_200, output_tokens=10, cache_write_tokens=100)
    [row] = session_usage(db, info.id)
    assert row.model == "anthropic:claude-sonnet-4-5" and row.calls == 3
    assert row.usage == Usage.of(turn1) + Usage.of(turn2)
    # Usage is for the user only: no provider ever sees it.
    assert all("usage" not in m for r in provider.requests for m in r.messages)
    db.close()


@pytest.mark.asyncio
async def test_deepseek_cache_hits_count_as_cached_input(stub: StubServer) -> None:
    from openworker_qt.providers.compat import VENDORS
    from openworker_qt.providers.openai_chat import OpenAIChatProvider
    from tests.providers.stubs import Reply, sse

    usage = {"prompt_tokens": 1_000, "completion_tokens": 20, "total_tokens": 1_020,
             "prompt_cache_hit_tokens": 900, "prompt_cache_miss_tokens": 100}
    events = [
        {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "deepseek-chat",
         "choices": [{"index": 0, "delta": {"role": "assistant", "content": "hi"},
                      "finish_reason": "stop"}]},
        {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "deepseek-chat",
         "choices": [], "usage": usage},
    ]
    stub.add("POST", "/v1/chat/completions",
             Reply(body=sse(*events) + "data: [DONE]\n\n", content_type="text/event-stream"))
    provider = OpenAIChatProvider(VENDORS["deepseek"], api_key="k", base_url=stub.url + "/v1", **fast())
    out = await collect_stream(provider, ModelRequest("deepseek-chat", [{"role": "user", "content": "x"}]))
    used = Usage.of(out.finish.usage)
    assert used == Usage(input_tokens=1_000, output_tokens=20, cache_read_tokens=900)
    cost = PriceTable().cost("deepseek:deepseek-chat", used)
    assert cost == pytest.approx((100 * 0.28 + 900 * 0.028 + 20 * 0.42) / 1e6)


@pytest.mark.parametrize("pattern", [
    "openai:gpt-4o*", "bedrock:*anthropic.claude-opus-4*", "ollama:*", "*", "**", "a*b*c",
    "openai:gpt-4o", "gemini:gemini-2.?-pro*", "x[ab]*", "*mini", "a*a", "",
])
@pytest.mark.parametrize("name", [
    "openai:gpt-4o", "openai:gpt-4o-mini", "bedrock:us.anthropic.claude-opus-4-5-v1",
    "ollama:llama3", "abc", "abbc", "ac", "a", "aa", "gemini:gemini-2.5-pro", "xb1", "",
    "openai:o4-mini",
])
def test_a_price_pattern_matches_exactly_what_a_shell_glob_would(name: str, pattern: str) -> None:
    from fnmatch import fnmatchcase

    from openworker_qt.providers.pricing import glob_match

    assert glob_match(name, pattern) == fnmatchcase(name, pattern)


def test_the_shipped_prices_are_found_without_compiling_a_pattern() -> None:
    import fnmatch

    fnmatch._compile_pattern.cache_clear()
    table = PriceTable()
    for model in ("openai:gpt-4o-mini", "anthropic:claude-sonnet-4-5", "bedrock:eu.anthropic.claude-haiku-4-5",
                  "gemini:gemini-2.5-flash-lite", "somewhere:unknown"):
        table.price(model)
    assert fnmatch._compile_pattern.cache_info().currsize == 0
    assert table.price("openai:gpt-4o-mini") == default_prices()["openai:gpt-4o-mini*"]
