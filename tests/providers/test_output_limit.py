"""An answer cut at the model's output limit in the middle of a tool call: the call
is not run, the user is told, and the model is told so it can try again (issue 24
§A6). The real SDKs against a stub; the real engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.history import MemoryHistory
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from tests.core.helpers import StaticResolver, fake_tool
from tests.providers.helpers import OPEN_PROVIDERS, fast
from tests.providers.stubs import Reply, StubServer, sse


def _chat(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def openai_replies() -> list[Reply]:
    cut = sse(_chat({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                     "function": {"name": "write_note", "arguments": '{"text": "a very long no'}}]}),
              _chat({}, "length")) + "data: [DONE]\n\n"
    retry = sse(_chat({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_2", "type": "function",
                       "function": {"name": "write_note", "arguments": '{"text": "short"}'}}]}),
                _chat({}, "tool_calls")) + "data: [DONE]\n\n"
    done = sse(_chat({"content": "Written."}), _chat({}, "stop")) + "data: [DONE]\n\n"
    return [Reply(body=b, content_type="text/event-stream") for b in (cut, retry, done)]


def _anthropic(*events: dict[str, Any]) -> Reply:
    start = {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
             "model": "claude-haiku-4-5", "content": [], "stop_reason": None, "stop_sequence": None,
             "usage": {"input_tokens": 5, "output_tokens": 1}}}
    return Reply(body=sse(start, *events, {"type": "message_stop"}, event_names=True),
                 content_type="text/event-stream")


def anthropic_replies() -> list[Reply]:
    def tool(cid: str, pieces: list[str], stop: str, closed: bool) -> Reply:
        events: list[dict[str, Any]] = [{"type": "content_block_start", "index": 0, "content_block": {
            "type": "tool_use", "id": cid, "name": "write_note", "input": {}}}]
        events += [{"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": p}} for p in pieces]
        if closed:
            events.append({"type": "content_block_stop", "index": 0})
        events.append({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                       "usage": {"output_tokens": 9}})
        return _anthropic(*events)

    text = _anthropic({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                      {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Written."}},
                      {"type": "content_block_stop", "index": 0},
                      {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                       "usage": {"output_tokens": 2}})
    return [tool("toolu_1", ['{"text": "a very', " long no"], "max_tokens", False),
            tool("toolu_2", ['{"text": "short"}'], "tool_use", True), text]


CASES = {
    "openai": ("/v1/chat/completions", openai_replies,
               lambda stub: OpenAIChatProvider(api_key="k", base_url=stub.url + "/v1", **fast()), "gpt-4o"),
    "anthropic": ("/v1/messages", anthropic_replies,
                  lambda stub: AnthropicProvider(api_key="k", base_url=stub.url, thinking_budget=None, **fast()),
                  "claude-haiku-4-5"),
}


@pytest.mark.parametrize("vendor", list(CASES))
async def test_a_call_cut_at_the_output_limit_is_not_run_and_the_model_retries(
    stub: StubServer, tmp_path: Path, vendor: str
) -> None:
    path, replies, make, model = CASES[vendor]
    stub.add("POST", path, *replies())
    ran: list[dict[str, Any]] = []

    async def write_note(args: dict[str, Any], ctx: Any) -> str:
        ran.append(args)
        return "ok"

    provider = make(stub)
    OPEN_PROVIDERS.append(provider)
    engine = TurnEngine(session_id="s1", store=MemoryHistory(), workspace=tmp_path,
                        resolver=StaticResolver(provider), model=model,
                        tools=ToolRegistry([fake_tool("write_note", write_note)]))
    events = [e async for e in engine.run("write a note")]

    assert ran == [{"text": "short"}]  # only the retried, complete call ran
    notices = [e for e in events if isinstance(e, ev.NoticeAdded) and e.kind == "output_limit"]
    assert len(notices) == 1
    assert "The model's answer was cut at its output limit" in notices[0].text
    assert "The call was not run" in notices[0].text
    results = [m for m in engine.history if m["role"] == "tool"]
    assert "cut at its output limit" in str(results[0]["content"])
    assert "call it again with shorter arguments" in str(results[0]["content"])
    assert "was not run" in str(results[0]["content"])
    assert events[-1].status == "completed"
    # the model was told: its second request carries the error result
    second = stub.seen[1].body
    assert "cut at its output limit" in json.dumps(second)
    stored = [m for m in engine.history if m.get("role") == "notice" and m.get("kind") == "output_limit"]
    assert len(stored) == 1
