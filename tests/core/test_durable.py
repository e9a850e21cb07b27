"""Unattended sessions park in the inbox; a rebuilt engine resumes without asking twice."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest
from openworker_qt.core.approvers import InboxApprover, InboxAsks, InboxQuestioner, outcome_of
from openworker_qt.core.audit import AuditLog
from openworker_qt.core.inbox import Inbox
from openworker_qt.core.messages import pending_tool_calls
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.tools.files import file_tools
from tests.core.helpers import StaticResolver, collect

WRITE = [
    {"tool_calls": [{"id": "w1", "name": "write_file", "arguments": {"path": "g.txt", "content": "buy milk"}}]},
    {"text": "Saved your note."},
]


async def _ask(args: dict[str, Any], ctx: ToolContext) -> str:
    return f"User answered: {args['_answer']}"


ASK = Tool(name="ask_user", description="ask", parameters={"type": "object"}, handler=_ask,
           risk=RiskClass.READ, interaction="question")


class World:
    """One 'process': its own DB connection, inbox, manager (rebuilt to simulate a restart)."""

    def __init__(self, tmp: Path, turns: list[dict[str, Any]], *, wait: bool = True) -> None:
        self.db = Database(tmp / "state.sqlite3")
        self.store = ConversationStore(self.db)
        self.inbox = Inbox(self.db)
        self.audit = AuditLog(self.db)
        self.provider = ScriptedProvider(turns)
        approver = InboxApprover(self.inbox, wait=wait, poll=0.02)
        questioner = InboxQuestioner(self.inbox, wait=wait, poll=0.02)
        self.manager = SessionManager(
            self.store,
            StaticResolver(self.provider),
            tools_for=lambda info: ToolRegistry([*file_tools(), ASK]),
            approver_for=lambda info: approver if info.unattended else None,
            questioner_for=lambda info: questioner if info.unattended else None,
            default_model="scripted",
            audit=self.audit,
            asks=InboxAsks(self.inbox),
        )


def test_outcome_mapping() -> None:
    assert outcome_of("allow") is ApprovalOutcome.ONCE
    assert outcome_of("once") is ApprovalOutcome.ONCE
    assert outcome_of("always") is ApprovalOutcome.ALWAYS
    assert outcome_of("deny") is ApprovalOutcome.DENY
    assert outcome_of("garbage") is ApprovalOutcome.DENY
    assert outcome_of(None) is ApprovalOutcome.DENY


async def test_unattended_write_parks_then_resumes_after_restart(tmp_path: Path) -> None:
    first = World(tmp_path, WRITE)
    info = first.manager.create_session(unattended=True, workspace=str(tmp_path))
    task = first.manager.send(info.id, "note: buy milk")
    assert task is not None
    for _ in range(200):
        if first.inbox.pending(info.id):
            break
        await asyncio.sleep(0.01)
    [item] = first.inbox.pending(info.id)
    assert item.kind == "approval" and item.tool_call_id == "w1" and item.tool == "write_file"
    assert not (tmp_path / "g.txt").exists()
    # "Restart": the first process dies while waiting.
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert first.store.get_session(info.id).status == "running"

    second = World(tmp_path, WRITE[1:])
    second.inbox.resolve(item.id, "allow", by="cli")
    [resumed] = second.manager.resumable()
    assert resumed.id == info.id
    tasks = second.manager.recover()
    statuses = await asyncio.wait_for(asyncio.gather(*tasks), timeout=10)
    assert statuses == ["completed"]
    assert (tmp_path / "g.txt").read_text() == "buy milk"
    assert second.inbox.pending() == []
    assert len(second.inbox.items()) == 1  # nothing was asked twice
    history = second.store.load(info.id)
    assert pending_tool_calls(history) == []
    assert history[-1]["content"] == "Saved your note."
    assert second.store.get_session(info.id).status == "idle"


async def test_deny_after_restart_does_not_execute(tmp_path: Path) -> None:
    first = World(tmp_path, WRITE, wait=False)
    info = first.manager.create_session(unattended=True, workspace=str(tmp_path))
    events = await collect(first.manager.run(info.id, "note"))
    assert events[-1].status == "suspended"
    assert first.store.get_session(info.id).status == "suspended"
    [item] = first.inbox.pending()
    first.inbox.resolve(item.id, "deny")
    second = World(tmp_path, WRITE[1:])
    events = await collect(second.manager.resume(info.id))
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.status == "denied"
    assert not (tmp_path / "g.txt").exists()


async def test_question_parks_and_answer_finishes_the_turn(tmp_path: Path) -> None:
    turns = [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": {"question": "Which color?"}}]},
        {"text": "Blue it is."},
    ]
    first = World(tmp_path, turns, wait=False)
    info = first.manager.create_session(unattended=True)
    events = await collect(first.manager.run(info.id, "paint"))
    assert events[-1].status == "suspended"
    [item] = first.inbox.pending()
    assert item.kind == "question" and item.tool_call_id == "q1" and item.title == "Which color?"
    first.inbox.resolve(item.id, "blue")
    second = World(tmp_path, turns[1:])
    events = await collect(second.manager.resume(info.id))
    assert events[-1].status == "completed"
    history = second.store.load(info.id)
    tool_msg = next(m for m in history if m["role"] == "tool")
    assert tool_msg["content"] == "User answered: blue"
    assert second.inbox.pending() == []


async def test_still_pending_item_suspends_again_without_a_new_item(tmp_path: Path) -> None:
    first = World(tmp_path, WRITE, wait=False)
    info = first.manager.create_session(unattended=True, workspace=str(tmp_path))
    await collect(first.manager.run(info.id, "note"))
    second = World(tmp_path, WRITE[1:], wait=False)
    events = await collect(second.manager.resume(info.id))
    assert events[-1].status == "suspended"
    assert len(second.inbox.items()) == 1


async def test_interrupted_stream_after_crash_gets_a_notice(tmp_path: Path) -> None:
    world = World(tmp_path, [])
    info = world.manager.create_session()
    world.store.append(info.id, {"role": "user", "content": "hi"})
    world.store.update_session(info.id, status="running")  # the process died mid-stream
    assert world.manager.recover() == []
    history = world.store.load(info.id)
    assert history[-1]["role"] == "notice" and history[-1]["kind"] == "error"
    assert world.store.get_session(info.id).status == "idle"


async def test_started_but_unrecorded_call_is_confirmed_before_rerun(tmp_path: Path) -> None:
    # The tool ran (audit says started) but the process died before its result was stored.
    world = World(tmp_path, WRITE[1:], wait=False)
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    world.store.append(info.id, {"role": "user", "content": "note"})
    world.store.append(info.id, {
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "w1", "type": "function", "function": {
            "name": "write_file", "arguments": '{"path": "g.txt", "content": "buy milk"}'}}],
    })
    world.audit.record(info.id, "w1", "write_file", "started")
    world.store.update_session(info.id, status="running")
    events = await collect(world.manager.resume(info.id))
    assert events[-1].status == "suspended"
    [item] = world.inbox.pending()
    assert item.tool_call_id == "w1:rerun" and "may already" in item.reason
    world.inbox.resolve(item.id, "deny")
    events = await collect(world.manager.resume(info.id))
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.status == "denied" and not (tmp_path / "g.txt").exists()
    # The transcript tells the truth: the write may have happened, it was not repeated.
    result = next(m for m in world.store.load(info.id) if m["role"] == "tool")
    assert result["content"] == finished.result
    assert "may already have taken effect" in result["content"]
    assert "not run again" in result["content"].lower()
    assert "not executed" not in result["content"]


async def test_started_call_with_nobody_to_ask_is_not_called_unexecuted(tmp_path: Path) -> None:
    world = World(tmp_path, WRITE[1:], wait=False)
    info = world.manager.create_session(workspace=str(tmp_path))  # attended: no approver here
    world.store.append(info.id, {"role": "user", "content": "note"})
    world.store.append(info.id, {
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "w1", "type": "function", "function": {
            "name": "write_file", "arguments": '{"path": "g.txt", "content": "buy milk"}'}}],
    })
    world.audit.record(info.id, "w1", "write_file", "started")
    world.store.update_session(info.id, status="running")
    events = await collect(world.manager.resume(info.id))
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.status == "denied" and "may already have taken effect" in finished.result
    assert not (tmp_path / "g.txt").exists()


async def test_audit_trail_records_every_stage(tmp_path: Path) -> None:
    world = World(tmp_path, [
        {"tool_calls": [
            {"id": "r1", "name": "list_files", "arguments": {}},
            {"id": "w1", "name": "write_file", "arguments": {"path": "a.txt", "content": "x"}},
        ]},
        {"text": "ok"},
    ])
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    task = world.manager.send(info.id, "go")
    assert task is not None
    for _ in range(300):
        if world.inbox.pending():
            break
        await asyncio.sleep(0.01)
    world.inbox.resolve(world.inbox.pending()[0].id, "once")
    assert await asyncio.wait_for(task, timeout=10) == "completed"
    assert world.audit.stages(info.id, "r1") == ["proposed", "auto_allowed", "started", "finished"]
    assert world.audit.stages(info.id, "w1") == [
        "proposed", "approval_requested", "approval_resolved", "started", "finished",
    ]
    entries = {(e.call_id, e.stage): e for e in world.audit.for_session(info.id)}
    assert entries[("r1", "auto_allowed")].rule == "risk:read"
    assert entries[("w1", "approval_resolved")].detail["outcome"] == "once"


async def test_inbox_approver_direct(tmp_path: Path) -> None:
    from openworker_qt.core.risk import RiskClass

    inbox = Inbox(Database(tmp_path / "x.sqlite3"))
    seen = []
    approver = InboxApprover(inbox, poll=0.02, on_item=seen.append)
    req = ApprovalRequest(session_id="s", call_id="c", tool="send_message",
                          arguments={"channel": "#ops", "text": "hi"}, risk=RiskClass.EXTERNAL,
                          reason="sends a message", target="#ops", can_always=True,
                          standing_target="slack:C1")
    asyncio.get_running_loop().call_later(0.05, lambda: inbox.resolve(seen[0].id, "always"))
    assert await asyncio.wait_for(approver(req), timeout=5) is ApprovalOutcome.ALWAYS
    item = inbox.find("s", "c")
    assert item is not None and item.standing_target == "slack:C1" and item.can_always


async def test_user_stop_withdraws_the_inbox_item(tmp_path: Path) -> None:
    world = World(tmp_path, WRITE)
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    task = world.manager.send(info.id, "note")
    assert task is not None
    for _ in range(300):
        if world.inbox.pending():
            break
        await asyncio.sleep(0.01)
    world.manager.stop(info.id)
    assert await asyncio.wait_for(task, timeout=5) == "interrupted"
    [item] = world.inbox.items()
    assert (item.status, item.resolution, item.resolved_by) == ("resolved", "cancelled", "stop")


async def test_quitting_keeps_a_parked_approval_for_the_next_start(tmp_path: Path) -> None:
    first = World(tmp_path, WRITE)
    info = first.manager.create_session(unattended=True, workspace=str(tmp_path))
    streaming = first.manager.create_session(workspace=str(tmp_path))
    first.manager.send(info.id, "note")
    for _ in range(300):
        if first.inbox.pending():
            break
        await asyncio.sleep(0.01)
    slow = ScriptedProvider([{"chunks": ["x"] * 500, "delay": 0.01}])
    first.manager.engine(streaming.id).resolver = StaticResolver(slow)
    talking = asyncio.Event()
    first.manager.listeners.append(
        lambda e: talking.set() if isinstance(e, ev.AssistantDelta)
        and e.session_id == streaming.id else None)
    first.manager.send(streaming.id, "talk")
    await asyncio.wait_for(talking.wait(), 10)  # it streams
    await first.manager.shutdown(grace=5)
    # The parked ask survives a graceful quit …
    [item] = first.inbox.pending()
    assert first.store.get_session(info.id).status == "running"
    # … while a streaming turn is stopped like the Stop button would.
    assert first.store.get_session(streaming.id).status == "interrupted"
    second = World(tmp_path, WRITE[1:])
    assert [s.id for s in second.manager.resumable()] == [info.id]
    asked = asyncio.Event()
    second.manager.listeners.append(
        lambda e: asked.set() if isinstance(e, ev.PermissionRequired) else None)
    tasks = second.manager.recover()
    await asyncio.wait_for(asked.wait(), 10)  # the resumed turn waits on the same ask
    second.inbox.resolve(item.id, "once")
    assert await asyncio.wait_for(asyncio.gather(*tasks), timeout=10) == ["completed"]
    assert (tmp_path / "g.txt").read_text() == "buy milk"
    assert len(second.inbox.items()) == 1


def _write(cid: str, path: str) -> dict[str, Any]:
    return {"tool_calls": [{"id": cid, "name": "write_file",
                            "arguments": {"path": path, "content": "x"}}]}


async def test_a_reused_vendor_call_id_gets_a_fresh_approval(tmp_path: Path) -> None:
    # Some providers (Gemini, compatible servers) number calls call_0, call_1, … in
    # every response: the second turn's call_0 is another call and must be asked.
    turns = [_write("call_0", "a.txt"), {"text": "Wrote a."},
             _write("call_0", "b.txt"), {"text": "Wrote b."}]
    world = World(tmp_path, turns, wait=False)
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    events = await collect(world.manager.run(info.id, "write a"))
    assert events[-1].status == "suspended"
    [first] = world.inbox.pending()
    world.inbox.resolve(first.id, "once")
    events = await collect(world.manager.resume(info.id))
    assert events[-1].status == "completed" and (tmp_path / "a.txt").exists()

    events = await collect(world.manager.run(info.id, "write b"))
    assert events[-1].status == "suspended"
    assert not (tmp_path / "b.txt").exists()  # not approved by the first turn's answer
    [second] = world.inbox.pending()
    assert second.id != first.id and second.tool_call_id == "call_0"
    assert second.arguments["path"] == "b.txt"

    # A restart re-asks the same item, not a new one.
    again = World(tmp_path, turns[3:], wait=False)
    events = await collect(again.manager.resume(info.id))
    assert events[-1].status == "suspended"
    assert [i.id for i in again.inbox.pending()] == [second.id]
    again.inbox.resolve(second.id, "deny")
    events = await collect(again.manager.resume(info.id))
    assert events[-1].status == "completed"
    assert not (tmp_path / "b.txt").exists() and len(again.inbox.items()) == 2


async def test_a_reused_vendor_call_id_gets_a_fresh_question(tmp_path: Path) -> None:
    ask = {"tool_calls": [{"id": "call_0", "name": "ask_user", "arguments": {"question": "Which?"}}]}
    turns = [ask, {"text": "ok"}, ask, {"text": "ok again"}]
    world = World(tmp_path, turns, wait=False)
    info = world.manager.create_session(unattended=True)
    await collect(world.manager.run(info.id, "one"))
    [first] = world.inbox.pending()
    world.inbox.resolve(first.id, "blue")
    await collect(world.manager.resume(info.id))
    events = await collect(world.manager.run(info.id, "two"))
    assert events[-1].status == "suspended"
    [second] = world.inbox.pending()
    assert second.id != first.id and second.kind == "question"


async def test_items_parked_before_call_keys_existed_are_still_found(tmp_path: Path) -> None:
    """A turn parked by an older version (no step id on its message, an inbox row
    keyed by the vendor id) resumes on the same item after the upgrade."""
    world = World(tmp_path, [{"text": "Saved."}], wait=False)
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    world.store.append(info.id, {"role": "user", "content": "note"})
    world.store.append(info.id, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "w1", "type": "function",
         "function": {"name": "write_file", "arguments": '{"path": "g.txt", "content": "x"}'}}]})
    old = world.inbox.add("approval", info.id, tool_call_id="w1", tool="write_file")
    world.inbox.resolve(old.id, "once")
    events = await collect(world.manager.resume(info.id))
    assert events[-1].status == "completed"
    assert (tmp_path / "g.txt").exists() and len(world.inbox.items()) == 1
