"""The tool step on its own: explicit inputs in, events and how it ended out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import AskForConsequential
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.core.audit import MemoryAudit
from openworker_qt.core.history import MemoryHistory, SessionHistory
from openworker_qt.core.inbox import Inbox
from openworker_qt.core.messages import INTERRUPTED_RESULT
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.stop import StopSignal
from openworker_qt.core.tool_api import ToolContext, ToolRegistry
from openworker_qt.core.tool_step import StepEnd, ToolStep
from openworker_qt.storage.db import Database
from tests.core.helpers import AllowAll, fake_tool


async def _echo(args: dict[str, Any], ctx: ToolContext) -> str:
    return f"echo {args.get('x')} in {ctx.workspace.name}"


def raw(cid: str, name: str = "echo", **args: Any) -> dict[str, Any]:
    import json

    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def make_step(tmp_path: Path, *, approver: Any = None, **kw: Any) -> tuple[ToolStep, SessionHistory]:
    log = SessionHistory(MemoryHistory(), "s1", None)
    tools = ToolRegistry([
        fake_tool("echo", _echo),
        fake_tool("write", _echo, risk=RiskClass.WRITE_LOCAL, concurrent=False),
    ])
    step = ToolStep(
        session_id="s1", log=log, tools=tools, decider=kw.pop("decider", AllowAll()),
        approver=approver, questioner=None, audit=MemoryAudit(), workspace=tmp_path,
        tool_state={}, stop=StopSignal(), **kw,
    )
    return step, log


async def run(step: ToolStep, calls: list[dict[str, Any]], **kw: Any) -> tuple[list[ev.Event], StepEnd]:
    items = [item async for item in step.run(calls, **kw)]
    *events, end = items
    assert isinstance(end, StepEnd)
    assert not any(isinstance(e, StepEnd) for e in events)
    return events, end


async def test_a_step_returns_how_it_ended_and_writes_only_its_log(tmp_path: Path) -> None:
    step, log = make_step(tmp_path)
    events, end = await run(step, [raw("a", x=1), raw("b", x=2)])
    assert end == StepEnd("done")
    assert {m["tool_call_id"]: m["content"] for m in log.messages} == {
        "a": f"echo 1 in {tmp_path.name}", "b": f"echo 2 in {tmp_path.name}"}
    assert step.started == {"a", "b"} and step.answered == {"a", "b"}
    assert [e.type for e in events].count("tool_finished") == 2


async def test_a_stop_before_the_step_answers_every_call(tmp_path: Path) -> None:
    step, log = make_step(tmp_path)
    step.stop.set()
    _, end = await run(step, [raw("a"), raw("b", "write")])
    assert end == StepEnd("interrupted")
    results = [m for m in log.messages if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in results] == [
        ("a", INTERRUPTED_RESULT), ("b", INTERRUPTED_RESULT)]
    assert step.started == set()


async def test_a_parked_approval_suspends_the_step_and_leaves_the_call_open(tmp_path: Path) -> None:
    inbox = Inbox(Database(tmp_path / "state.sqlite3"))
    parks = InboxApprover(inbox, wait=False)  # this process will not wait for the answer
    step, log = make_step(tmp_path, approver=parks, decider=AskForConsequential())
    events, end = await run(step, [raw("w", "write")])
    assert end == StepEnd("suspended")
    assert [m for m in log.messages if m["role"] == "tool"] == []
    assert isinstance(events[-1], ev.NoticeAdded) and events[-1].kind == "suspended"
    assert step.waiting_for_user is False
    [item] = inbox.pending()
    assert item.tool_call_id == "w"


async def test_concurrent_reads_stream_their_progress_into_their_own_cards(tmp_path: Path) -> None:
    import asyncio

    release = asyncio.Event()

    async def chatty(args: dict[str, Any], ctx: ToolContext) -> str:
        ctx.report(f"working on {args['x']}")
        await asyncio.wait_for(release.wait(), 10)  # set once both reports were shown
        return f"done {args['x']}"

    step, _log = make_step(tmp_path)
    step.tools.add(fake_tool("chatty", chatty))
    events: list[Any] = []
    async for item in step.run([raw("a", "chatty", x=1), raw("b", "chatty", x=2)]):
        events.append(item)
        if sum(isinstance(e, ev.ToolProgress) for e in events) == 2:
            release.set()
    assert events[-1] == StepEnd("done")
    progress = [(e.call_id, e.text) for e in events if isinstance(e, ev.ToolProgress)]
    assert sorted(progress) == [("a", "working on 1"), ("b", "working on 2")]
    finished = {e.call_id: e.result for e in events if isinstance(e, ev.ToolFinished)}
    assert finished == {"a": "done 1", "b": "done 2"}
