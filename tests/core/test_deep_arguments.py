"""Arguments nested absurdly deep are that one call's invalid arguments, never a
crashed turn: parsing, redaction, storage, the outbound copies and the recovery of
calls written as text all survive them (scripted models, a real SQLite store)."""

from __future__ import annotations

import json
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.history import MemoryHistory, SessionHistory
from openworker_qt.core.messages import Capabilities, outbound_message
from openworker_qt.domain.arguments import MAX_DEPTH, map_json, parse_arguments, too_deep
from openworker_qt.providers._common import lenient_arguments
from openworker_qt.providers.recovery import recover_tool_calls
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from tests.core.helpers import AllowAll, collect, make_engine


def nested(depth: int) -> str:
    return '{"path": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def deep_value(depth: int) -> dict[str, object]:
    value: object = "sk-secret-value"
    for _ in range(depth):
        value = [value]
    return {"k": value}


async def run_with(arguments: str, tmp_path: Path) -> tuple[list[ev.Event], ConversationStore]:
    store = ConversationStore(Database(tmp_path / "deep.sqlite3"))
    store.create_session(session_id="s1", workspace=str(tmp_path))
    (tmp_path / "a.txt").write_text("hello\n")
    engine, provider = make_engine(
        [
            {"tool_calls": [
                {"id": "deep", "name": "read_file", "arguments": arguments},
                {"id": "fine", "name": "read_file", "arguments": {"path": "a.txt"}},
            ]},
            {"text": "Sorry, that went wrong."},
        ],
        tmp_path, store=store, decider=AllowAll(), redact=lambda s: s.replace("sk-", "[k]"),
    )
    events = await collect(engine.run("read it"))
    assert len(provider.requests) == 2  # the model heard back about both calls
    return events, store


async def test_arguments_too_deep_to_parse_fail_that_call_only(tmp_path: Path) -> None:
    events, store = await run_with(nested(5000), tmp_path)
    results = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
    assert results["deep"].status == "error"
    assert "nested too deeply" in results["deep"].result
    assert results["fine"].status == "ok" and "hello" in results["fine"].result
    assert events[-1] == ev.TurnEnded(session_id="s1", status="completed", iterations=2,
                                      usage={"input_tokens": 0, "output_tokens": 0})
    assert [m["role"] for m in store.load("s1")] == [
        "user", "assistant", "tool", "tool", "assistant"]


async def test_arguments_that_parse_but_nest_too_deep_fail_that_call_only(
    tmp_path: Path,
) -> None:
    events, store = await run_with(nested(900), tmp_path)
    results = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
    assert results["deep"].status == "error" and "nested too deeply" in results["deep"].result
    assert events[-1].status == "completed"
    assert store.load("s1")[-1]["content"] == "Sorry, that went wrong."


def test_the_limit_is_exact() -> None:
    assert parse_arguments(nested(MAX_DEPTH)) == json.loads(nested(MAX_DEPTH))
    assert too_deep(json.loads(nested(MAX_DEPTH + 1)))


def test_redaction_and_outbound_copies_survive_deep_structures() -> None:
    # (The arguments above never get this far; other data, e.g. a vendor's state, may.)
    history = SessionHistory(MemoryHistory(), "s1", redact=lambda s: s.replace("sk-", "[k]"))
    deep = deep_value(5000)
    msg = history.append({"role": "assistant", "content": "x", "ts": 1.0,
                          "provider_state": {"vendor": deep}})

    def bottom(message: object) -> object:
        inner = message["provider_state"]["vendor"]["k"]
        for _ in range(5000):
            inner = inner[0]
        return inner

    assert bottom(msg) == "[k]secret-value"  # redacted all the way down
    copy = outbound_message(msg, Capabilities())
    assert copy is not None and bottom(copy) == "[k]secret-value"
    assert copy["provider_state"] is not msg["provider_state"]
    assert map_json([1, {"a": [2, "s"]}], str) == ["1", {"a": ["2", "s"]}]


def test_providers_and_recovery_refuse_deep_arguments_without_crashing() -> None:
    text = nested(5000)
    assert lenient_arguments(text) == {"_raw": text}  # what the wire formats send back
    assert lenient_arguments(nested(900)) == {"_raw": nested(900)}
    offered = ["read_file"]
    assert recover_tool_calls('read_file {"path": ' + "[" * 5000, offered) is None
    assert recover_tool_calls(
        '<tool_call>{"name": "read_file", "arguments": ' + nested(5000) + "}</tool_call>",
        offered) is None
    assert recover_tool_calls(
        '{"name": "read_file", "arguments": ' + nested(900) + "}", offered) is None
    ok = recover_tool_calls('{"name": "read_file", "arguments": {"path": "a"}}', offered)
    assert ok is not None and json.loads(ok.calls[0].arguments) == {"path": "a"}
