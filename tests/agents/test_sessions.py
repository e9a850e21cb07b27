"""The persona, the system prompt and the reminders through a real runtime and a
real session manager (the scripted provider records every request it gets)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.session_fields import SessionControl
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.runtime import Runtime, open_runtime


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    rt = open_runtime()
    yield rt
    rt.close()


def call(name: str, args: dict[str, Any], cid: str) -> dict[str, Any]:
    return {"name": name, "arguments": args, "id": cid}


def script(tmp_path: Path, turns: list[dict[str, Any]]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"turns": turns}), encoding="utf-8")
    return f"scripted:{path}"


def provider(rt: Runtime, model: str) -> ScriptedProvider:
    found, _ = rt.router.resolve(model)
    assert isinstance(found, ScriptedProvider)
    return found


async def turn(rt: Runtime, manager: Any, sid: str, text: str) -> list[ev.Event]:
    events = [e async for e in manager.run(sid, text)]
    assert isinstance(events[-1], ev.TurnEnded) and events[-1].status == "completed", events
    return events


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "project"
    (ws / ".claude" / "skills" / "pdf").mkdir(parents=True)
    (ws / ".claude" / "skills" / "pdf" / "SKILL.md").write_text(
        "---\nname: pdf\ndescription: extract text from PDFs\n---\nUse pdftotext.\n")
    (ws / "AGENTS.md").write_text("Always run `make check`.\n")
    return ws


async def test_the_prompt_carries_agents_md_and_skills_and_stays_the_same(
    runtime: Runtime, tmp_path: Path
) -> None:
    ws = workspace(tmp_path)
    model = script(tmp_path, [{"text": "one"}, {"text": "two"}])
    manager = runtime.session_manager(default_model=model)
    info = manager.create_session(workspace=str(ws), persona="code", mode="interactive")
    await turn(runtime, manager, info.id, "hello")
    await turn(runtime, manager, info.id, "again")
    first, second = provider(runtime, model).requests
    assert first.system == second.system  # cacheable: the same text every turn
    assert "senior software engineer" in first.system
    assert "# Project instructions (AGENTS.md)" in first.system
    assert "Always run `make check`." in first.system
    assert "- pdf: extract text from PDFs" in first.system
    assert f"- Workspace: {ws}" in first.system
    assert "Permission mode: interactive" in first.system
    offered = {t["function"]["name"] for t in first.tools}
    assert {"read_file", "run_shell", "git_status", "explore", "load_skill"} <= offered
    assert "create_deliverable" not in offered


async def test_switching_the_persona_switches_prompt_and_tools(
    runtime: Runtime, tmp_path: Path
) -> None:
    model = script(tmp_path, [{"text": "a"}, {"text": "b"}])
    manager = runtime.session_manager(default_model=model)
    info = manager.create_session(workspace=str(workspace(tmp_path)))
    await turn(runtime, manager, info.id, "hello")
    runtime.conversations.update_session(info.id, persona="chat")
    manager.forget(info.id)  # what the window does when the picker changes
    await turn(runtime, manager, info.id, "and now?")
    cowork, chat = provider(runtime, model).requests
    assert "create_deliverable" in {t["function"]["name"] for t in cowork.tools}
    assert chat.tools == [] and "You have no tools" in chat.system
    assert "OpenWorker in chat mode" in chat.system and "AGENTS.md" not in chat.system


async def test_an_unknown_or_disabled_persona_runs_as_cowork(
    runtime: Runtime, tmp_path: Path
) -> None:
    model = script(tmp_path, [{"text": "a"}])
    manager = runtime.session_manager(default_model=model)
    info = manager.create_session(workspace=str(tmp_path), persona="release-helper")
    await turn(runtime, manager, info.id, "hello")
    request = provider(runtime, model).requests[0]
    assert "capable coworker" in request.system


async def test_reminders_ride_on_the_outbound_copy_only(runtime: Runtime, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    granted = tmp_path / "reference"
    granted.mkdir()
    todos = [{"id": "1", "text": "read the notes", "status": "in_progress"},
             {"id": "2", "text": "write the summary", "status": "pending"}]
    model = script(tmp_path, [
        {"tool_calls": [call("todo_write", {"todos": todos}, "t1")]},
        {"text": "working on it"},
        {"text": "next turn"},
    ])
    manager = runtime.session_manager(default_model=model)
    info = manager.create_session(workspace=str(ws), mode="interactive")
    await turn(runtime, manager, info.id, "plan it")
    first, after_todo = provider(runtime, model).requests
    assert first.messages[-1]["role"] == "user" and "system-reminder" not in str(first.messages)
    reminder = after_todo.messages[-1]
    assert reminder["role"] == "user" and "<system-reminder>" in reminder["content"]
    assert "[>] read the notes\n[ ] write the summary" in reminder["content"]

    # The session's mode changes and a folder is granted between turns (a plan
    # approved, a request_directory answered); the prompt said interactive.
    control = SessionControl(runtime.conversations, info.id)
    engine = manager.engine(info.id)
    control.set_mode("plan")
    control.grant_directory(str(granted), writable=False)
    request = await engine._build_request("m", provider(runtime, model).capabilities("m"))
    note = request.messages[-1]["content"]
    assert "The permission mode is now plan: read-only" in note
    assert f"{granted} (read only)" in note
    assert "Permission mode: interactive" in request.system  # the prompt itself is unchanged

    await turn(runtime, manager, info.id, "go on")  # a new turn: the prompt says plan now
    last = provider(runtime, model).requests[-1]
    assert "Permission mode: plan" in last.system
    assert "permission mode is now" not in last.messages[-1]["content"]
    stored = runtime.conversations.load(info.id)
    assert not any("system-reminder" in json.dumps(m) for m in stored)  # never stored


async def test_a_persona_switched_during_a_turn_counts_from_the_next_turn(
    runtime: Runtime, tmp_path: Path
) -> None:
    model = script(tmp_path, [{"text": "a"}, {"text": "b"}])
    manager = runtime.session_manager(default_model=model)
    info = manager.create_session(workspace=str(tmp_path))
    await turn(runtime, manager, info.id, "hello")
    # The window switched the persona while the turn ran: it could not drop the engine.
    runtime.conversations.update_session(info.id, persona="chat")
    await turn(runtime, manager, info.id, "and now?")
    cowork, chat = provider(runtime, model).requests
    assert cowork.tools and chat.tools == []  # prompt and tools switch together
    assert "OpenWorker in chat mode" in chat.system


async def test_memory_goes_in_the_prompt_once_and_a_notice_rides_each_call(
    runtime: Runtime, tmp_path: Path
) -> None:
    facts = ["- [#1] The user's team is called Falcon."]
    saving = {"on": True}
    runtime.memory_for = lambda info: "\n".join(facts)
    runtime.notice_for = lambda info: "" if saving["on"] else "Saving new memories is turned off."
    model = script(tmp_path, [{"text": "a"}, {"text": "b"}])
    manager = runtime.session_manager(default_model=model)
    info = manager.create_session(workspace=str(tmp_path))
    await turn(runtime, manager, info.id, "hello")
    facts.append("- [#2] Reports go out on Fridays.")  # saved during the session
    saving["on"] = False
    await turn(runtime, manager, info.id, "again")
    first, second = provider(runtime, model).requests
    assert "# Memory\n- [#1] The user's team is called Falcon." in first.system
    assert first.system == second.system  # memory as of the session's start: cacheable
    assert "system-reminder" not in json.dumps(first.messages)
    assert "Saving new memories is turned off." in second.messages[-1]["content"]


async def test_a_fact_remembered_in_one_session_is_in_the_next_sessions_prompt(
    runtime: Runtime, tmp_path: Path
) -> None:
    # The runtime wires the real memory store into the prompt (no hooks set by hand).
    model = script(tmp_path, [
        {"tool_calls": [call("remember", {"content": "Reports go out on Fridays."}, "m1")]},
        {"text": "noted"},
        {"text": "hello again"},
    ])
    manager = runtime.session_manager(default_model=model)
    first = manager.create_session(workspace=str(tmp_path))
    await turn(runtime, manager, first.id, "remember that reports go out on Fridays")
    second = manager.create_session(workspace=str(tmp_path))
    await turn(runtime, manager, second.id, "hi")
    before, _, after = provider(runtime, model).requests
    assert "Reports go out on Fridays." not in before.system
    assert "Reports go out on Fridays." in after.system
