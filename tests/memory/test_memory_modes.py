"""Saving, changing or forgetting a memory is refused in the read-only modes
(discuss, plan), which promise to change nothing; reading memories works there.
In the other modes the memory tools run without asking. Real turns: a scripted
model, the real Runtime (permission engine, SQLite)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.runtime import Runtime, open_runtime


def script(tmp_path: Path, calls: list[dict[str, Any]]) -> str:
    path = tmp_path / f"script{len(list(tmp_path.glob('script*.json')))}.json"
    path.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": calls}, {"text": "Done."}]}), encoding="utf-8")
    return f"scripted:{path}"


async def turn(rt: Runtime, tmp_path: Path, mode: str, calls: list[dict[str, Any]]) -> list[Any]:
    manager = rt.session_manager(default_model=script(tmp_path, calls))
    info = manager.create_session(workspace=str(tmp_path), mode=mode)
    return [e async for e in manager.run(info.id, "keep this in mind")]


@pytest.mark.parametrize("mode", ["discuss", "plan"])
async def test_read_only_modes_refuse_memory_writes_and_still_read(
    tmp_path: Path, mode: str,
) -> None:
    rt = open_runtime()
    kept = rt.memory.add("The user writes British English.", scope="global",
                         workspace=tmp_path, session_id="earlier")
    events = await turn(rt, tmp_path, mode, [
        {"id": "r", "name": "remember", "arguments": {"content": "Deadline is Friday."}},
        {"id": "u", "name": "memory_update", "arguments": {"id": kept.id, "content": "US"}},
        {"id": "f", "name": "memory_forget", "arguments": {"id": kept.id}},
        {"id": "l", "name": "memory_read", "arguments": {}},
    ])
    assert events[-1].status == "completed"
    done = {e.call_id: e for e in events if e.type == "tool_finished"}
    for call in ("r", "u", "f"):
        assert done[call].status == "denied", call
        assert f"{mode} mode is read-only" in done[call].result
        assert "later sessions" in done[call].result
    assert done["l"].status == "ok" and "British English" in done["l"].result
    assert not [e for e in events if e.type == "permission_required"]  # refused, not asked
    facts = rt.memory.facts(tmp_path)
    assert [f.content for f in facts] == ["The user writes British English."]
    rt.close()


@pytest.mark.parametrize("mode", ["interactive", "auto"])
async def test_other_modes_save_without_asking(tmp_path: Path, mode: str) -> None:
    rt = open_runtime()
    events = await turn(rt, tmp_path, mode, [
        {"id": "r", "name": "remember", "arguments": {"content": "Deadline is Friday."}}])
    done = {e.call_id: e for e in events if e.type == "tool_finished"}
    assert done["r"].status == "ok"
    assert not [e for e in events if e.type == "permission_required"]
    assert [f.content for f in rt.memory.facts(tmp_path)] == ["Deadline is Friday."]
    rt.close()
