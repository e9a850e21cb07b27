"""History made by one vendor sent to another mid-session (issue 24 §A7): the real
SDKs against a stub, asserting what goes on the wire."""

from __future__ import annotations

import re
from typing import Any

from openworker_qt.core.provider_api import ModelRequest
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.gemini import GeminiProvider
from tests.providers.helpers import TOOL, collect, fast, user
from tests.providers.stubs import Reply, StubServer, sse


def history(ids: list[str]) -> list[dict[str, Any]]:
    calls = [{"id": i, "type": "function",
              "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}} for i in ids]
    return [
        user("weather in Paris and Tokyo?"),
        {"role": "assistant", "content": "", "tool_calls": calls},
        *[{"role": "tool", "tool_call_id": i, "name": "get_weather", "content": "sunny"} for i in ids],
    ]


async def test_gemini_3_gets_the_documented_placeholder_for_another_models_call(stub: StubServer) -> None:
    path = "/v1beta/models/gemini-3-pro-preview:streamGenerateContent"
    done = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Both sunny."}]},
                            "finishReason": "STOP", "index": 0}]}
    stub.add("POST", path, Reply(body=sse(done, sep="\r\n\r\n"), content_type="text/event-stream"))
    provider = GeminiProvider(api_key="k", base_url=stub.url, **fast())
    # Anthropic made these calls: no Gemini provider_state, no signature.
    out = await collect(provider, ModelRequest("gemini-3-pro-preview", history(["toolu_01", "toolu_02"]),
                                               tools=[TOOL]))
    assert out.text == "Both sunny."
    model_turn = stub.seen[0].body["contents"][1]
    assert model_turn["role"] == "model"
    calls = [p for p in model_turn["parts"] if "functionCall" in p]
    assert calls[0]["thoughtSignature"] == "skip_thought_signature_validator"
    assert "thoughtSignature" not in calls[1]  # Gemini itself signs only a step's first call


async def test_kimi_call_ids_are_mapped_for_anthropic_consistently(stub: StubServer) -> None:
    events = [
        {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
         "model": "claude-haiku-4-5", "content": [], "stop_reason": None, "stop_sequence": None,
         "usage": {"input_tokens": 5, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
         "usage": {"output_tokens": 1}},
        {"type": "message_stop"},
    ]
    reply = Reply(body=sse(*events, event_names=True), content_type="text/event-stream")
    stub.add("POST", "/v1/messages", reply)
    provider = AnthropicProvider(api_key="k", base_url=stub.url, thinking_budget=None, **fast())
    kimi = ["functions.get_weather:0", "functions.get_weather:1", "functions_get_weather_0"]
    request = ModelRequest("claude-haiku-4-5", history(kimi), tools=[TOOL])
    await collect(provider, request)
    await collect(provider, request)  # the same history twice: the same ids
    sent = [s.body["messages"] for s in stub.seen]
    uses = [b["id"] for b in sent[0][1]["content"] if b["type"] == "tool_use"]
    results = [b["tool_use_id"] for b in sent[0][2]["content"] if b["type"] == "tool_result"]
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]+", i) for i in uses)
    assert len(set(uses)) == 3 and uses == results
    assert uses[2] == "functions_get_weather_0"  # a valid id is left as it is
    assert sent[0] == sent[1]
    assert request.messages[1]["tool_calls"][0]["id"] == "functions.get_weather:0"  # history untouched


def test_only_models_that_check_signatures_get_the_placeholder() -> None:
    from openworker_qt.providers.gemini import build_contents

    for model, signed in (("gemini-3-pro-preview", True), ("gemini-3-flash", True),
                          ("gemini-2.5-flash", False), ("gemini-2.0-flash", False)):
        parts = build_contents(history(["toolu_01"]), model)[1]["parts"]
        assert ("thought_signature" in parts[0]) is signed, model
