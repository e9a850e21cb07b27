"""The block APIs' shared turn builder (``_common.alternating_turns``): Anthropic and
Bedrock Converse get the same alternating turns, tool results first, and the same
call ids for ids another vendor made."""

from __future__ import annotations

from typing import Any

from openworker_qt.providers import anthropic, bedrock
from openworker_qt.providers._common import safe_tool_id

HISTORY: list[Any] = [
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": "Looking.", "tool_calls": [
        {"id": "functions.get_weather:0", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}},
        {"id": "c2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "rain"},
    {"role": "user", "content": "and tomorrow?"},  # typed while the tools ran
    {"role": "tool", "tool_call_id": "c2", "content": "09:00"},
]


def test_both_adapters_build_the_same_turns() -> None:
    a = anthropic.build_messages(HISTORY)
    b = bedrock.build_messages(HISTORY)
    assert [t["role"] for t in a] == [t["role"] for t in b] == ["user", "assistant", "user"]
    assert [blk["type"] for blk in a[2]["content"]] == ["tool_result", "tool_result", "text"]
    assert [next(iter(blk)) for blk in b[2]["content"]] == ["toolResult", "toolResult", "text"]
    weird = safe_tool_id("functions.get_weather:0")
    assert weird.startswith("functions_get_weather_0_") and safe_tool_id("c2") == "c2"
    assert a[1]["content"][1]["id"] == b[1]["content"][1]["toolUse"]["toolUseId"] == weird
    assert a[2]["content"][0]["tool_use_id"] == b[2]["content"][0]["toolResult"]["toolUseId"] == weird
