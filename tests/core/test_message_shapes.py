"""Every message the engine stores has the shape its type declares.

``openworker_qt.domain.messages`` types a session's history (one TypedDict per
role); mypy checks the code that builds messages, this test checks what really
reaches the database: turns with reasoning, tool calls (run, failed, unknown,
denied, with a display payload), steering, a provider error, a stop, a model
switch and the iteration cap, read back from a real SQLite store. A key the
engine writes without declaring it (or a required key it leaves out) fails here.
"""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.domain import messages
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.tools.files import file_tools
from tests.core.helpers import answering, call, collect, fake_tool, make_engine

SHAPES: dict[str, type] = {
    typing.get_type_hints(shape)["role"].__args__[0]: shape
    for shape in typing.get_args(messages.Message)
}


def _problems(msg: dict[str, Any]) -> list[str]:
    shape = SHAPES.get(msg.get("role"))
    if shape is None:
        return [f"unknown role {msg.get('role')!r}"]
    required: frozenset[str] = shape.__required_keys__
    optional: frozenset[str] = shape.__optional_keys__
    out = [f"{msg['role']}: missing {k!r}" for k in sorted(required - set(msg))]
    out += [f"{msg['role']}: undeclared {k!r}" for k in sorted(set(msg) - required - optional)]
    for call_ in msg.get("tool_calls") or ():
        if set(call_) != set(messages.ToolCall.__required_keys__):
            out.append(f"tool call keys {sorted(call_)}")
        elif set(call_["function"]) != set(messages.ToolCallFunction.__required_keys__):
            out.append(f"tool call function keys {sorted(call_['function'])}")
        elif not isinstance(call_["function"]["arguments"], str):
            out.append("tool call arguments not the raw JSON string")
    if not isinstance(msg.get("ts"), float):
        out.append(f"{msg['role']}: ts {msg.get('ts')!r}")
    return out


def _engine(tmp_path: Path, turns: list[dict[str, Any]], **kw: Any) -> tuple[TurnEngine, ConversationStore]:
    store = ConversationStore(Database(tmp_path / "state.sqlite3"))
    info = store.create_session(title="shapes")

    async def shown(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult("2 found", display={"files": ["a", "b"]})

    async def broken(args: dict[str, Any], ctx: ToolContext) -> str:
        raise RuntimeError("disk on fire")

    engine, _ = make_engine(
        turns, tmp_path, store=store, session_id=info.id,
        tools=[fake_tool("shown", shown), fake_tool("broken", broken), *file_tools()],
        approver=answering(ApprovalOutcome.DENY), **kw,
    )
    return engine, store


async def test_every_stored_message_matches_its_declared_shape(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    turns: list[dict[str, Any]] = [
        {"reasoning": "look first", "chunks": ["Let me ", "look."], "delay": 0.001,
         "tool_calls": [call("read_file", {"path": "a.txt"}, "c1"), call("shown", {}, "c2"),
                        call("broken", {}, "c3"), call("made_up", {}, "c4"),
                        call("write_file", {"path": "b.txt", "content": "x"}, "c5")]},
        {"text": "Done, and in French: fini."},
        {"chunks": ["half "], "error": "upstream exploded", "error_kind": "server"},
        {"chunks": ["word "] * 200, "delay": 0.002},
        {"tool_calls": [call("list_files", {}, "c6")], "repeat": True},
    ]
    engine, store = _engine(tmp_path, turns, max_iterations=2)

    async for event in engine.run("what is in a.txt?"):
        if isinstance(event, ev.AssistantDelta) and event.text == "Let me ":
            engine.queue_steering("and say it in French")
    engine.switch_model("scripted-other")
    await collect(engine.run("again"))  # the provider fails after "half "
    async for event in engine.run("talk a lot"):
        if isinstance(event, ev.AssistantDelta):
            engine.request_interrupt()
    await collect(engine.run("loop"))  # stops at the iteration cap

    stored = store.load(engine.session_id)
    kinds = {(m["role"], m.get("kind") or m.get("partial") or m.get("status") or m.get("source"))
             for m in stored}
    assert kinds >= {
        ("user", "user"), ("user", "steering"), ("tool", "ok"), ("tool", "error"),
        ("tool", "denied"), ("assistant", "error"), ("assistant", "interrupted"),
        ("notice", "model_switch"), ("notice", "error"), ("notice", "interrupted"),
        ("notice", "max_iterations"),
    }, kinds
    assert any(m.get("_display") for m in stored) and any(m.get("reasoning") for m in stored)
    assert [p for m in stored for p in _problems(dict(m))] == []
    assert stored == engine.history  # what the engine holds is what was stored


def test_a_stray_key_is_reported(tmp_path: Path) -> None:
    """The check itself: an undeclared key, a missing one, a mangled call."""
    assert _problems({"role": "notice", "kind": "error", "text": "x", "ts": 1.0, "colour": "red"}) == [
        "notice: undeclared 'colour'"]
    assert _problems({"role": "tool", "content": "x", "ts": 1.0}) == ["tool: missing 'tool_call_id'"]
    bad_call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}
    assert _problems({"role": "assistant", "content": None, "ts": 1.0, "tool_calls": [bad_call]}) == [
        "tool call arguments not the raw JSON string"]
