"""A lone surrogate from the model (or in a tool's output) never ends a turn: every
string is made storable where it enters, and everything stored reads back.

End to end: a scripted model, the real Runtime (engine, SQLite store, audit trail,
inbox) in the test's own state folder."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from openworker_qt.core.approvers import InboxApprover
from openworker_qt.domain.text import storable, storable_text
from openworker_qt.runtime import Runtime, open_runtime

BAD = "\ud800"
FFFD = "\ufffd"


def script(tmp_path: Path, turns: list[dict[str, Any]]) -> str:
    path = tmp_path / "script.json"
    # json.dumps escapes the surrogate ("\ud800"): loading the script gives it back as
    # a real lone surrogate, as an SDK's JSON parser hands one to a provider.
    path.write_text(json.dumps({"advance": "history", "turns": turns}), encoding="utf-8")
    return f"scripted:{path}"


async def run_turn(rt: Runtime, tmp_path: Path, turns: list[dict[str, Any]], *,
                   mode: str = "auto") -> tuple[str, list[Any]]:
    manager = rt.session_manager(
        approver_for=lambda _i: InboxApprover(rt.inbox, wait=False),
        default_model=script(tmp_path, turns))
    info = manager.create_session(workspace=str(tmp_path / "ws"), mode=mode)
    events = [e async for e in manager.run(info.id, f"go {BAD}")]
    return info.id, events


def surrogate_free(value: Any) -> bool:
    text = json.dumps(value, ensure_ascii=False)
    text.encode("utf-8")  # raises if a surrogate is left
    return "\\ud800" not in text.lower() and "\\udc00" not in text.lower()


def test_storable_text_replaces_lone_surrogates_and_joins_pairs() -> None:
    assert storable_text("a\ud800b") == f"a{FFFD}b"
    assert storable_text("\udc00") == FFFD
    assert storable_text("\ud83d\ude00") == "😀"  # a pair is the character it encodes
    plain = "plain ünïcode 😀"
    assert storable_text(plain) is plain
    value = {"a": [1, {"k": "v"}], "b": None}
    assert storable(value) is value  # nothing to do: no copy
    assert storable({"k\ud800": ["x\udfff", ("y\ud800",)], "n": 3}) == {
        f"k{FFFD}": [f"x{FFFD}", (f"y{FFFD}",)], "n": 3}
    deep: Any = "\ud800"
    for _ in range(5000):  # any depth (iterative)
        deep = [deep]
    out = storable(deep)
    for _ in range(5000):
        out = out[0]
    assert out == FFFD


async def test_surrogates_from_the_model_end_in_normal_results(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "a.txt").write_text("hello\n")
    rt = open_runtime()
    sid, events = await run_turn(rt, tmp_path, [
        {"text": f"Looking {BAD} now", "reasoning": f"think {BAD}", "tool_calls": [
            # in a path (arguments as the SDK parsed them: escaped in the JSON text)
            {"id": "w", "name": "write_file", "arguments": {"path": f"n{BAD}.txt",
                                                            "content": f"x{BAD}y"}},
            # a literal surrogate in the raw arguments text
            {"id": "r", "name": "read_file", "arguments": '{"path": "a' + BAD + '.txt"}'},
            # in a tool name
            {"id": "t", "name": f"read_{BAD}", "arguments": {"path": "a.txt"}},
            # in a nested dict key
            {"id": "k", "name": "todo_write", "arguments": {"todos": [{f"id{BAD}": "1"}]}},
            # in an id
            {"id": f"i{BAD}", "name": "read_file", "arguments": {"path": "a.txt"}},
        ]},
        {"text": "Done."},
    ])
    assert events[-1].type == "turn_end" and events[-1].status == "completed"
    assert not any(e.type == "error" for e in events)
    results = {e.call_id: e for e in events if e.type == "tool_finished"}
    assert results["w"].status == "ok"
    assert (tmp_path / "ws" / f"n{FFFD}.txt").read_text() == f"x{FFFD}y"
    assert results["r"].status == "error" and "a\ufffd.txt" in results["r"].result
    assert results["t"].status == "error" and f"unknown tool 'read_{FFFD}'" in results["t"].result
    assert results["k"].status == "error"  # todo_write's own refusal, not a crash
    assert results[f"i{FFFD}"].status == "ok" and "hello" in results[f"i{FFFD}"].result
    # Everything stored reads back, without a surrogate.
    rt.close()
    rt = open_runtime()
    stored = rt.conversations.load(sid)
    assert surrogate_free(stored)
    [reply] = [m for m in stored if m["role"] == "assistant" and m.get("tool_calls")]
    assert reply["content"] == f"Looking {FFFD} now" and reply["reasoning"] == f"think {FFFD}"
    names = [c["function"]["name"] for c in reply["tool_calls"]]
    assert names[2] == f"read_{FFFD}"
    # the stored arguments say what the tool was given
    assert json.loads(reply["tool_calls"][0]["function"]["arguments"])["path"] == f"n{FFFD}.txt"
    assert stored[0]["content"] == f"go {BAD}".replace(BAD, FFFD)
    audit = rt.audit.for_session(sid)
    assert surrogate_free([(a.tool, a.call_id, a.detail) for a in audit])
    assert {a.tool for a in audit} >= {"write_file", f"read_{FFFD}", "todo_write"}
    rt.close()


async def test_a_surrogate_in_an_asked_call_reaches_the_inbox_storable(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    rt = open_runtime()
    sid, events = await run_turn(rt, tmp_path, [
        {"tool_calls": [{"name": "write_file", "arguments": {
            "path": f"notes/{BAD}.md", "content": "x", f"extra{BAD}": {f"k{BAD}": BAD}}}]},
        {"text": "Done."},
    ], mode="interactive")
    assert events[-1].status == "suspended"
    rt.close()
    rt = open_runtime()
    [item] = rt.inbox.pending(sid)
    assert item.arguments["path"] == f"notes/{FFFD}.md"
    assert item.arguments[f"extra{FFFD}"] == {f"k{FFFD}": FFFD}
    assert surrogate_free([item.arguments, item.args_preview, item.reason])
    rt.close()


async def test_a_file_name_that_is_not_utf8_is_listed_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    with open(os.fsencode(tmp_path / "ws") + b"/bad\xff.txt", "wb") as f:
        f.write(b"hello\n")
    rt = open_runtime()
    sid, events = await run_turn(rt, tmp_path, [
        {"tool_calls": [{"id": "l", "name": "list_files", "arguments": {}},
                        {"id": "g", "name": "grep", "arguments": {"pattern": "hello"}}]},
        {"text": "Done."},
    ])
    assert events[-1].status == "completed"
    results = {e.call_id: e for e in events if e.type == "tool_finished"}
    assert results["l"].status == "ok" and f"bad{FFFD}.txt" in results["l"].result
    assert results["g"].status == "ok" and f"bad{FFFD}.txt" in results["g"].result
    assert surrogate_free(rt.conversations.load(sid))
    rt.close()
