"""A session shows the same rows live and reopened, for every kind of event.

Each scenario drives a real turn engine (through the session manager the app
uses) with a scripted model into a real SQLite store, with the real permission
engine, inbox approver and questioner, and tools. The rows are then built four
ways and compared field by field (ids and timestamps aside):

* live: the events and inbox changes, in the order they happened, through the
  pure :class:`TranscriptReducer`;
* on screen: a :class:`TranscriptModel` wired to the real :class:`EngineBridge`
  and :class:`InboxBridge` the way the window wires them (coalesced deltas);
* stored: the session's history reloaded from the store, plus the inbox's
  pending items, as the window does when it opens a session;
* stored in pages: the newest page first, then the older messages, through the
  model's paging.
"""

from __future__ import annotations

import asyncio
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.inbox import InboxItem
from openworker_qt.core.messages import Capabilities
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.inbox_bridge import InboxBridge
from openworker_qt.qt.session_panels import fold, stored_results
from openworker_qt.qt.transcript_items import TranscriptItem
from openworker_qt.qt.transcript_model import TranscriptModel
from openworker_qt.qt.transcript_pages import session_head
from openworker_qt.qt.transcript_reducer import TranscriptReducer
from openworker_qt.tools.todo import TODO_WRITE, todos_from_display
from tests.core.helpers import fake_tool, forever
from tests.qt.helpers import SECRET, World, fields_of, until


class Overlay(typing.Protocol):
    def mark_awaiting(self, call_id: str, item_id: int, *, reason: str = "",
                      target: str = "") -> object: ...

    def mark_resolved(self, call_id: str, item_id: int) -> object: ...


def overlay(target: Overlay, item: InboxItem) -> None:
    """What the window does with an inbox item of the session it shows."""
    call_id = item.tool_call_id or ""
    if item.pending:
        target.mark_awaiting(call_id, item.id, reason=item.reason, target=item.target or "")
    else:
        target.mark_resolved(call_id, item.id)


def live_rows(world: World, sid: str) -> list[TranscriptItem]:
    reducer = TranscriptReducer()
    for kind, x in world.log:
        if x.session_id != sid:
            continue
        if kind == "event":
            reducer.apply_event(x)
        else:
            overlay(reducer, x)
    return reducer.rows


def stored_rows(world: World, sid: str) -> list[TranscriptItem]:
    reducer = TranscriptReducer()
    reducer.apply_messages(world.store.load(sid))
    for item in world.inbox.pending(sid):
        overlay(reducer, item)
    return reducer.rows


def paged_rows(world: World, sid: str, limit: int = 4) -> list[TranscriptItem]:
    """The rows a window shows of the session read as a long one: its newest
    ``limit``-odd messages first, the older page read in a worker, the inbox laid
    over rows not read yet."""
    from PySide6.QtCore import QCoreApplication

    model = TranscriptModel()
    page, pages = session_head(world.store, sid, limit)
    model.reset(sid, page, pages=pages)
    for item in world.inbox.pending(sid):
        overlay(model, item)
    model.request_units(0)
    for _ in range(1000):
        model.wait_pages()
        QCoreApplication.processEvents()
        if not model.reading() and not model._locating:
            break
    assert model.at_end() and not model.has_older()
    return model.items


class Screen:
    """The window's wiring of its transcript, without the window."""

    def __init__(self, world: World, sid: str) -> None:
        self.model = TranscriptModel()
        self.model.reset(sid, [])
        self.engine = EngineBridge(world.manager)
        self.inbox = InboxBridge(world.inbox, poll_ms=20)
        shown = self.model.session_id
        self.engine.text_appended.connect(
            lambda s, t: self.model.append_text(t) if s == shown else None)
        self.engine.reasoning_appended.connect(
            lambda s, t: self.model.append_reasoning(t) if s == shown else None)
        self.engine.event_received.connect(
            lambda e: self.model.apply(e) if e.session_id == shown else None)
        self.inbox.item_added.connect(
            lambda i: overlay(self.model, i) if i.session_id == shown else None)
        self.inbox.item_resolved.connect(
            lambda i: overlay(self.model, i) if i.session_id == shown else None)

    def close(self) -> None:
        self.engine.detach()
        self.inbox.detach()


def assert_same_rows(world: World, sid: str, screen: Screen) -> list[TranscriptItem]:
    live = fields_of(live_rows(world, sid))
    stored = stored_rows(world, sid)
    assert fields_of(stored) == live
    assert fields_of(screen.model.items) == live
    assert fields_of(paged_rows(world, sid)) == live
    assert not any(r.streaming for r in stored)
    return stored


# ------------------------------------------------------------------ scenarios


async def _turn(world: World, sid: str, text: str) -> ev.TurnStatus | None:
    task = world.manager.send(sid, text)
    assert task is not None
    return await task


def _seen(world: World, kind: type) -> Callable[[], bool]:
    return lambda: any(isinstance(e, kind) for e in world.events())


async def _echo_secret(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult(f"The token is {SECRET}.", display={"lines": 1, "note": SECRET})


async def _broken(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    raise RuntimeError(f"cannot reach the service with {SECRET}")


async def _slow(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    await forever()
    return ToolResult("never")


async def _chatty(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    ctx.report("step 1\n")
    await asyncio.sleep(0.05)  # its own frame: the bridge coalesces pieces per frame
    ctx.report(f"step 2 with {SECRET}\n")
    await asyncio.sleep(0.05)
    return ToolResult("two steps done")


TOOLS: list[Tool] = [
    fake_tool("chatty", _chatty, concurrent=False),
    fake_tool("echo_secret", _echo_secret),
    fake_tool("broken", _broken),
    fake_tool("slow", _slow, risk=RiskClass.READ),
    TODO_WRITE,
]

Script = Callable[[World, str, Callable[[], None]], Awaitable[None]]


@dataclass
class Scenario:
    turns: list[dict[str, Any]]
    script: Script
    types: set[str]  # event kinds the scenario must produce
    answers: dict[str, str] = field(default_factory=dict)
    session: dict[str, Any] = field(default_factory=dict)
    world: dict[str, Any] = field(default_factory=dict)
    statuses: set[str] = field(default_factory=set)  # tool statuses it must end with
    notices: set[str] = field(default_factory=set)  # notice kinds it must show


async def _stream(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "hi") == "completed"


async def _progress(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "go step by step") == "completed"
    shown = [e for e in world.events() if isinstance(e, ev.ToolProgress)]
    assert "".join(e.text for e in shown) == "step 1\nstep 2 with [redacted]\n"


async def _tools(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "do the chores") == "completed"


async def _interaction(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "plan the notes") == "completed"


async def _todo(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "plan the brief") == "completed"
    # The list the window shows live (the last good call's result) is the stored one.
    live = [todos_from_display(e.display) for e in world.events()
            if isinstance(e, ev.ToolFinished) and e.name == "todo_write" and e.status == "ok"]
    assert live[-1] is not None
    assert tuple(live[-1]) == fold(stored_results(world.store, sid)).todos
    assert [i.status for i in live[-1]] == ["done", "in_progress"]


async def _stop_mid_stream(world: World, sid: str, check: Callable[[], None]) -> None:
    task = world.manager.send(sid, "talk")
    assert task is not None
    await until(_seen(world, ev.AssistantDelta), what="streaming")
    world.manager.stop(sid)
    assert await task == "interrupted"


async def _stop_mid_tool(world: World, sid: str, check: Callable[[], None]) -> None:
    task = world.manager.send(sid, "wait")
    assert task is not None
    await until(_seen(world, ev.ToolStarted), what="tool start")
    world.manager.stop(sid)
    assert await task == "interrupted"


async def _stop_while_asking(world: World, sid: str, check: Callable[[], None]) -> None:
    task = world.manager.send(sid, "write")
    assert task is not None
    await until(lambda: world.inbox.pending(sid), what="approval item")
    await asyncio.sleep(0.05)  # the on-screen bridge shows it
    check()  # waiting for the user: the same rows everywhere
    world.manager.stop(sid)
    assert await task == "interrupted"


async def _error_and_retry(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "try") == "error"
    check()
    task = world.manager.start_retry(sid)
    assert task is not None
    assert await task == "completed"
    assert any(isinstance(e, ev.TurnStarted) and e.reason == "retry" for e in world.events())


async def _retrying(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "hello") == "completed"
    # The "waiting · retrying" row is transient: shown while it waits, never stored,
    # and gone once the answer arrives, so the finished rows match the stored ones.
    assert any(isinstance(e, ev.ProviderRetrying) for e in world.events())


async def _notices(world: World, sid: str, check: Callable[[], None]) -> None:
    world.manager.switch_model(sid, "scripted-two")
    assert await _turn(world, sid, "hi") == "completed"
    assert await _turn(world, sid, "z" * 6000) == "completed"
    assert await _turn(world, sid, "list forever") == "max_iterations"


async def _suspended(world: World, sid: str, check: Callable[[], None]) -> None:
    assert await _turn(world, sid, "note") == "suspended"
    await asyncio.sleep(0.05)
    check()  # parked in the inbox: the call waits, live and reopened
    [item] = world.inbox.pending(sid)
    world.inbox.resolve(item.id, "once", by="test")
    task = world.manager.start_resume(sid)
    assert task is not None
    assert await task == "completed"


async def _steering(world: World, sid: str, check: Callable[[], None]) -> None:
    task = world.manager.send(sid, "draft")
    assert task is not None
    await until(_seen(world, ev.AssistantDelta), what="streaming")
    assert world.manager.send(sid, "make it shorter") is None  # steering
    assert await task == "completed"


WRITE_G = {"id": "w1", "name": "write_file", "arguments": {"path": "g.txt", "content": "milk"}}

SCENARIOS: dict[str, Scenario] = {
    "stream": Scenario(
        turns=[{"reasoning": ["Weighing ", "options."], "chunks": ["Hello ", "**world**."]}],
        script=_stream,
        types={"turn_start", "user_message", "reasoning_delta", "assistant_delta",
               "assistant_message", "turn_end", "running_changed"},
    ),
    "progress": Scenario(
        turns=[{"tool_calls": [{"id": "c1", "name": "chatty", "arguments": {}}]},
               {"text": "Both steps ran."}],
        script=_progress,
        types={"tool_started", "tool_progress", "tool_finished"},
        statuses={"ok"},
    ),
    "tools": Scenario(
        turns=[
            {"text": "Working on it.", "tool_calls": [
                {"id": "r1", "name": "list_files", "arguments": {}},
                {"id": "r2", "name": "echo_secret", "arguments": {}},
                {"id": "e1", "name": "broken", "arguments": {}},
                {"id": "u1", "name": "no_such_tool", "arguments": {}},
                {"id": "j1", "name": "read_file", "arguments": "{not json"},
                {"id": "w1", "name": "write_file", "arguments": {"path": "a.txt", "content": "A"}},
                {"id": "w2", "name": "write_file", "arguments": {"path": "b.txt", "content": "B"}},
            ]},
            {"text": "Wrote a.txt; b.txt was refused."},
        ],
        answers={"w1": "once", "w2": "deny"},
        script=_tools,
        types={"tool_proposed", "permission_required", "tool_started", "tool_finished",
               "iteration_end"},
        statuses={"ok", "error", "denied"},
    ),
    "interaction": Scenario(
        turns=[
            {"tool_calls": [{"id": "w0", "name": "write_file",
                             "arguments": {"path": "x.md", "content": "x"}}]},
            {"tool_calls": [{"id": "p1", "name": "propose_plan",
                             "arguments": {"plan": "1. Ask.\n2. Read the notes."}}]},
            {"tool_calls": [{"id": "q1", "name": "ask_user",
                             "arguments": {"question": "Which colour?", "options": ["blue", "red"]}}]},
            {"tool_calls": [{"id": "d1", "name": "request_directory",
                             "arguments": {"path": "/srv/notes", "reason": "to read your notes"}}]},
            {"text": "Done."},
        ],
        answers={"p1": "approve", "q1": "blue", "d1": "grant_readonly"},
        session={"mode": "plan"},
        script=_interaction,
        types={"plan_requested", "question_requested", "directory_requested"},
        statuses={"denied", "ok"},
    ),
    "stop_mid_stream": Scenario(
        turns=[{"chunks": [f"word{i} " for i in range(300)], "delay": 0.01}],
        script=_stop_mid_stream,
        types={"assistant_delta", "interrupted"},
        notices={"interrupted"},
    ),
    "stop_mid_tool": Scenario(
        turns=[{"text": "Starting.", "tool_calls": [{"id": "s1", "name": "slow", "arguments": {}}]}],
        script=_stop_mid_tool,
        types={"tool_started", "interrupted"},
        statuses={"interrupted"},
    ),
    "stop_while_asking": Scenario(
        turns=[{"tool_calls": [WRITE_G]}],
        script=_stop_while_asking,
        types={"permission_required", "interrupted"},
        statuses={"interrupted"},
    ),
    "error_and_retry": Scenario(
        turns=[
            {"chunks": ["Partial ", "answer "], "error": f"upstream 503 (key {SECRET})",
             "error_kind": "server"},
            {"text": "Recovered."},
        ],
        script=_error_and_retry,
        types={"error"},
        notices={"error"},
    ),
    "retrying": Scenario(
        turns=[{"retries": 2, "opened": True, "chunks": ["Back ", "again."]}],
        script=_retrying,
        types={"provider_retrying", "answer_opened", "assistant_delta", "assistant_message"},
    ),
    "notices": Scenario(
        turns=[
            {"text": "Hello."},
            {"text": "Noted."},
            {"text": "Again.", "tool_calls": [{"name": "list_files", "arguments": {}}], "repeat": True},
        ],
        world={"caps": Capabilities(context_window=2000), "max_iterations": 2},
        script=_notices,
        types={"notice"},
        notices={"model_switch", "context_trimmed", "max_iterations"},
    ),
    "suspended": Scenario(
        turns=[{"tool_calls": [WRITE_G]}, {"text": "Saved."}],
        world={"wait": False},
        script=_suspended,
        types={"notice", "tool_proposed", "tool_finished"},
        statuses={"ok"},
        notices={"suspended"},
    ),
    "steering": Scenario(
        turns=[
            {"chunks": [f"w{i} " for i in range(40)], "delay": 0.01,
             "tool_calls": [{"id": "r1", "name": "list_files", "arguments": {}}]},
            {"text": "Adjusted."},
        ],
        script=_steering,
        types={"user_message", "iteration_end"},
    ),
    "todo": Scenario(
        turns=[
            {"tool_calls": [{"id": "t1", "name": "todo_write", "arguments": {"todos": [
                {"id": "1", "text": "Read", "status": "in_progress"},
                {"id": "2", "text": "Write", "status": "pending"}]}}]},
            {"tool_calls": [{"id": "t2", "name": "todo_write", "arguments": {"todos": [
                {"id": "1", "text": "Read", "status": "done"},
                {"id": "2", "text": "Write", "status": "in_progress"}]}}]},
            {"tool_calls": [{"id": "t3", "name": "todo_write", "arguments": {"todos": "not a list"}}]},
            {"text": "Writing now."},
        ],
        script=_todo,
        types={"tool_started", "tool_finished"},
        statuses={"ok", "error"},
    ),
}


def test_the_scenarios_cover_every_event_kind() -> None:
    every = {typing.get_type_hints(cls)["type"].__args__[0] for cls in typing.get_args(ev.Event)}
    covered = set().union(*(s.types for s in SCENARIOS.values()))
    # A new event kind needs a scenario here: the reducer ignores kinds it does not
    # know, which is right only if the kind announces nothing the store keeps.
    assert every - covered == set(), "event kinds no scenario produces"


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_live_and_stored_rows_are_the_same(name: str, qloop, tmp_path: Path) -> None:
    scenario = SCENARIOS[name]
    world = World(tmp_path, scenario.turns, tools=TOOLS, **scenario.world)
    world.answers.update(scenario.answers)
    sid = world.session(**scenario.session)
    screen = Screen(world, sid)
    try:
        qloop.run_until_complete(scenario.script(world, sid, lambda: assert_same_rows(world, sid, screen)))
        qloop.run_until_complete(asyncio.sleep(0.05))  # the inbox bridge's poll settles
        rows = assert_same_rows(world, sid, screen)
    finally:
        screen.close()
        world.close()
    assert scenario.types <= world.types()
    assert scenario.statuses <= {r.status for r in rows if r.kind == "tool"}
    assert scenario.notices <= {r.notice_kind for r in rows if r.kind == "notice"}
    assert all(SECRET not in repr(r) for r in rows)  # redacted live as in the store
