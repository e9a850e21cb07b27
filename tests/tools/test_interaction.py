"""ask_user, propose_plan and request_directory through the real runtime + inbox."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.sessions import SessionManager
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.runtime_tools import default_tools


@pytest.fixture
def rt(isolated_state: Path) -> Iterator[Runtime]:
    runtime = open_runtime()
    yield runtime
    runtime.close()


def manager(rt: Runtime, script: Path) -> SessionManager:
    return SessionManager(
        rt.conversations, rt.router, tools_for=default_tools, decider_for=rt.decider_for,
        approver_for=lambda info: InboxApprover(rt.inbox, wait=False),
        questioner_for=lambda info: InboxQuestioner(rt.inbox, wait=False),
        default_model=f"scripted:{script}", audit=rt.audit,
    )


def script(tmp_path: Path, turns: list[dict[str, Any]]) -> Path:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"advance": "history", "turns": turns}))
    return path


async def run(m: SessionManager, sid: str, text: str | None = None) -> list[ev.Event]:
    stream = m.run(sid, text) if text is not None else m.resume(sid)
    return [e async for e in stream]


async def test_plan_mode_plan_approval_unlocks_execution(rt: Runtime, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    s = script(tmp_path, [
        {"tool_calls": [{"id": "w0", "name": "write_file", "arguments": {"path": "a.md", "content": "x"}}]},
        {"tool_calls": [{"id": "p1", "name": "propose_plan", "arguments": {"plan": "1. write a.md"}}]},
        {"tool_calls": [{"id": "w1", "name": "write_file", "arguments": {"path": "a.md", "content": "x"}}]},
        {"text": "Done."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(ws), mode="plan", unattended=True)
    events = await run(m, info.id, "write a.md")
    first = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert first.status == "denied" and "read-only" in first.result  # plan mode refuses writes
    assert any(isinstance(e, ev.PlanRequested) and e.plan == "1. write a.md" for e in events)
    assert events[-1].status == "suspended"
    [plan] = rt.inbox.pending()
    assert plan.kind == "plan" and plan.title == "1. write a.md"
    rt.inbox.resolve(plan.id, "approve:auto", by="test")
    events = await run(m, info.id)
    assert rt.conversations.get_session(info.id).mode == "auto"
    results = [e for e in events if isinstance(e, ev.ToolFinished)]
    assert "approved the plan" in results[0].result
    assert results[1].status == "ok"  # auto mode now: the write inside the workspace runs
    assert (ws / "a.md").read_text() == "x"
    assert events[-1].status == "completed"


async def test_rejected_plan_keeps_plan_mode_and_passes_feedback(rt: Runtime, tmp_path: Path) -> None:
    s = script(tmp_path, [
        {"tool_calls": [{"id": "p1", "name": "propose_plan", "arguments": {"plan": "1. delete all"}}]},
        {"text": "Revised."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), mode="plan", unattended=True)
    await run(m, info.id, "clean up")
    [plan] = rt.inbox.pending()
    rt.inbox.resolve(plan.id, "deny: keep the archive folder")
    events = await run(m, info.id)
    result = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert "did not approve" in result.result and "keep the archive folder" in result.result
    assert rt.conversations.get_session(info.id).mode == "plan"


async def test_granted_directory_becomes_a_writable_root(rt: Runtime, tmp_path: Path) -> None:
    ws, elsewhere = tmp_path / "ws", tmp_path / "reports"
    ws.mkdir()
    elsewhere.mkdir()
    target = str(elsewhere / "q3.md")
    s = script(tmp_path, [
        {"tool_calls": [{"id": "w0", "name": "write_file", "arguments": {"path": target, "content": "a"}}]},
        {"tool_calls": [{"id": "d1", "name": "request_directory",
                         "arguments": {"path": str(elsewhere), "writable": True, "reason": "save the report"}}]},
        {"tool_calls": [{"id": "w1", "name": "write_file", "arguments": {"path": target, "content": "b"}}]},
        {"text": "Saved."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(ws), mode="auto", unattended=True)
    events = await run(m, info.id, "save the report there")
    first = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert first.status == "denied" and "outside" in first.result
    assert any(isinstance(e, ev.DirectoryRequested) and e.writable for e in events)
    [item] = rt.inbox.pending()
    assert item.kind == "directory"
    rt.inbox.resolve(item.id, "approve")
    events = await run(m, info.id)
    assert [e.status for e in events if isinstance(e, ev.ToolFinished)] == ["ok", "ok"]
    assert (elsewhere / "q3.md").read_text() == "b"


async def test_read_only_grant_does_not_allow_writes(rt: Runtime, tmp_path: Path) -> None:
    elsewhere = tmp_path / "ref"
    elsewhere.mkdir()
    s = script(tmp_path, [
        {"tool_calls": [{"id": "d1", "name": "request_directory",
                         "arguments": {"path": str(elsewhere), "writable": True, "reason": "x"}}]},
        {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": str(elsewhere / "n.md"), "content": "b"}}]},
        {"text": "ok"},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path / "ws"), mode="auto", unattended=True)
    (tmp_path / "ws").mkdir()
    await run(m, info.id, "go")
    rt.inbox.resolve(rt.inbox.pending()[0].id, "grant_readonly")
    events = await run(m, info.id)
    statuses = [e.status for e in events if isinstance(e, ev.ToolFinished)]
    assert statuses == ["ok", "denied"]
    assert not (elsewhere / "n.md").exists()


async def test_ask_user_answer_reaches_the_model(rt: Runtime, tmp_path: Path) -> None:
    s = script(tmp_path, [
        {"tool_calls": [{"id": "q1", "name": "ask_user",
                         "arguments": {"question": "Which quarter?", "options": ["Q3", "Q4"]}}]},
        {"text": "Q4 it is."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), unattended=True)
    events = await run(m, info.id, "report")
    question = next(e for e in events if isinstance(e, ev.QuestionRequested))
    assert question.options == ("Q3", "Q4")
    [item] = rt.inbox.pending()
    assert item.options == ("Q3", "Q4")
    rt.inbox.resolve(item.id, "Q4")
    await asyncio.sleep(0)
    events = await run(m, info.id)
    provider, _ = rt.router.resolve(f"scripted:{s}")
    last_request = provider.requests[-1].messages
    assert last_request[-1]["content"] == "The user chose: Q4."


async def test_ask_user_with_choices_tells_the_model_what_was_typed_instead(
    rt: Runtime, tmp_path: Path
) -> None:
    s = script(tmp_path, [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": {
            "question": "Which quarter?",
            "options": [{"label": "Q3", "description": "July to September"}, {"label": "Q4"}]}}]},
        {"text": "Both then."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), unattended=True)
    await run(m, info.id, "report")
    [item] = rt.inbox.pending()
    assert item.options == ("Q3", "Q4")  # the labels, not the objects
    rt.inbox.respond(item.id, "answer", "the whole second half")
    await asyncio.sleep(0)
    await run(m, info.id)
    provider, _ = rt.router.resolve(f"scripted:{s}")
    assert provider.requests[-1].messages[-1]["content"] == (
        "The user chose none of the options and answered in their own words: "
        "the whole second half")


OFFSITE = {"question": "A few details for the offsite", "questions": [
    {"question": "Which day?", "options": ["Thursday", "Friday"]},
    {"question": "Which rooms?", "options": ["A", "B", "C"], "multiple": True},
    {"question": "Anything else?"}]}


async def test_grouped_questions_park_as_one_item_and_reach_the_model_as_one_readable_result(
    rt: Runtime, tmp_path: Path
) -> None:
    s = script(tmp_path, [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": OFFSITE}]},
        {"text": "Booked."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), unattended=True)
    events = await run(m, info.id, "plan the offsite")
    assert [e.status for e in events if isinstance(e, ev.TurnEnded)] == ["suspended"]
    [item] = rt.inbox.pending()
    assert item.title == "A few details for the offsite" and item.arguments["questions"]
    rt.inbox.respond(item.id, "answer", "1: 2\n2: 1,3\n3: vegetarian lunch")
    await asyncio.sleep(0)
    await run(m, info.id)
    provider, _ = rt.router.resolve(f"scripted:{s}")
    assert provider.requests[-1].messages[-1]["content"] == (
        "The user answered 3 questions:\n"
        "1. Which day? — chose Friday\n"
        "2. Which rooms? — chose A; C\n"
        "3. Anything else? — answered: vegetarian lunch")


async def test_questions_the_model_got_wrong_are_its_error_and_nobody_is_asked(
    rt: Runtime, tmp_path: Path
) -> None:
    broken = {"question": "Details", "questions": [{"question": "Day?", "options": "Thu or Fri"}]}
    s = script(tmp_path, [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": broken}]},
        {"text": "Let me ask properly."},
    ])
    m = manager(rt, s)
    info = m.create_session(workspace=str(tmp_path), unattended=True)
    events = await run(m, info.id, "plan")
    assert not [e for e in events if isinstance(e, ev.QuestionRequested)]
    assert rt.inbox.pending() == []
    provider, _ = rt.router.resolve(f"scripted:{s}")
    assert provider.requests[-1].messages[-1]["content"] == (
        "Error: question 1: options must be a list of options. The tool was not run.")


def test_grants_are_per_session_and_revocable(rt: Runtime, tmp_path: Path) -> None:
    from openworker_qt.core.approvals import ToolCallInfo
    from openworker_qt.core.risk import RiskClass
    from openworker_qt.core.session_fields import SessionControl

    folder = tmp_path / "team-folder"
    folder.mkdir()
    one = rt.conversations.create_session(workspace=str(tmp_path / "a"), mode="auto")
    two = rt.conversations.create_session(workspace=str(tmp_path / "b"), mode="auto")
    SessionControl(rt.conversations, one.id).grant_directory(str(folder), True)

    deciders = {info.id: rt.decider_for(info) for info in (one, two)}

    def verdict(info) -> bool:
        call = ToolCallInfo(session_id=info.id, call_id="c", name="write_file",
                            arguments={"path": str(folder / "x.md")}, risk=RiskClass.WRITE_LOCAL,
                            target=str(folder / "x.md"))
        return deciders[info.id].evaluate(call).allowed

    assert verdict(one) is True and verdict(two) is False
    control = SessionControl(rt.conversations, one.id)
    assert control.revoke_directory(str(folder)) is True
    assert control.revoke_directory(str(folder)) is False
    assert verdict(one) is False  # the live engine sees the revocation on its next check
