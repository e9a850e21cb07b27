"""Two calls sharing an id in one model message: the engine gives the second a fresh
id before anything is stored, so each call is asked about, run, audited and answered
on its own (and the provider hears back about each under its own id).

End to end: a scripted model, the real Runtime (engine, SQLite store, audit, inbox)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from openworker_qt.core.approvers import InboxApprover
from openworker_qt.core.tool_calls import RERUN_REASON
from openworker_qt.providers.anthropic import build_messages
from openworker_qt.providers.openai_responses import build_input
from openworker_qt.runtime import open_runtime


def script(tmp_path: Path, turns: list[dict[str, Any]]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"advance": "history", "turns": turns}), encoding="utf-8")
    return f"scripted:{path}"


TWO_WRITES = [
    {"tool_calls": [
        {"id": "call_0", "name": "write_file", "arguments": {"path": "a.txt", "content": "A"}},
        {"id": "call_0", "name": "write_file", "arguments": {"path": "b.txt", "content": "B"}},
        {"id": "call_0_2", "name": "write_file", "arguments": {"path": "c.txt", "content": "C"}},
    ]},
    {"text": "Both written."},
]


async def test_a_reused_id_is_rekeyed_and_each_call_asks_for_itself(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    rt = open_runtime()
    manager = rt.session_manager(approver_for=lambda _i: InboxApprover(rt.inbox, wait=False),
                                 default_model=script(tmp_path, TWO_WRITES))
    info = manager.create_session(workspace=str(ws), mode="interactive")
    events = [e async for e in manager.run(info.id, "write a, b and c")]
    assert events[-1].status == "suspended"
    reasons = []
    for _ in range(3):  # each call asks in turn, each after a restart of the turn
        [item] = rt.inbox.pending(info.id)
        reasons.append(item.reason)
        rt.inbox.resolve(item.id, "once", by="cli")
        events = [e async for e in manager.resume(info.id)]
    assert events[-1].status == "completed"
    assert RERUN_REASON not in reasons
    assert [r.rsplit("/", 1)[-1] for r in reasons] == ["a.txt", "b.txt", "c.txt"]
    assert [(ws / n).read_text() for n in ("a.txt", "b.txt", "c.txt")] == ["A", "B", "C"]

    stored = rt.conversations.load(info.id)
    [asked] = [m for m in stored if m.get("tool_calls")]
    ids = [c["id"] for c in asked["tool_calls"]]
    assert ids[0] == "call_0" and len(set(ids)) == 3 and ids[2] == "call_0_2"
    results = [m for m in stored if m["role"] == "tool"]
    assert [r["tool_call_id"] for r in results] == ids  # one result per call, in order
    assert all(r["status"] == "ok" for r in results)
    # The audit keeps the three calls apart.
    started = {a.call_id for a in rt.audit.for_session(info.id) if a.stage == "started"}
    assert started == set(ids)
    # What each provider would be sent pairs every call with its own result.
    anthropic = build_messages(stored)
    uses = [b["id"] for m in anthropic for b in m["content"]
            if isinstance(b, dict) and b.get("type") == "tool_use"]
    answered = [b["tool_use_id"] for m in anthropic for b in m["content"]
                if isinstance(b, dict) and b.get("type") == "tool_result"]
    assert uses == answered == ids
    items = build_input(stored)
    assert [i["call_id"] for i in items if i.get("type") == "function_call"] == ids
    assert [i["call_id"] for i in items if i.get("type") == "function_call_output"] == ids
    rt.close()


async def test_a_reused_id_in_auto_mode_runs_both_calls(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    rt = open_runtime()
    manager = rt.session_manager(default_model=script(tmp_path, TWO_WRITES))
    info = manager.create_session(workspace=str(ws), mode="auto")
    events = [e async for e in manager.run(info.id, "write a, b and c")]
    assert events[-1].status == "completed"
    finished = [e for e in events if e.type == "tool_finished"]
    assert [e.status for e in finished] == ["ok", "ok", "ok"]
    assert len({e.call_id for e in finished}) == 3
    assert [(ws / n).read_text() for n in ("a.txt", "b.txt", "c.txt")] == ["A", "B", "C"]
    rt.close()


def test_ids_are_made_unique_within_one_message() -> None:
    from openworker_qt.core.tool_calls import unique_ids

    calls: list[Any] = [{"id": i, "type": "function", "function": {"name": "x", "arguments": ""}}
                        for i in ("a", "a", "a_2", "", "", "b", "a")]
    unique_ids(calls)
    ids = [c["id"] for c in calls]
    assert ids[:3] == ["a", "a_3", "a_2"] and ids[5] == "b" and ids[6] == "a_4"
    assert all(ids) and len(set(ids)) == len(ids)
