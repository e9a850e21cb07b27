"""Every turn ends and every session heals, whatever raises inside a turn.

A decider, a questioner or the store raising used to escape the turn: no
``TurnEnded``, a tool call left without a result, the session "running" for
good, and every later request refused by the provider (a tool call without its
result). These run the real engine, session manager and SQLite store; the
faults are injected into the collaborator that raises.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, Decision, QuestionRequest, ToolCallInfo
from openworker_qt.core.audit import AuditLog
from openworker_qt.core.engine import INTERNAL_ERROR_TEXT
from openworker_qt.core.healing import (
    NOT_RUN_AFTER_FAILURE,
    NOT_RUN_CUT_OFF,
    STARTED_BEFORE_FAILURE,
    STARTED_CUT_OFF,
)
from openworker_qt.core.messages import dangling_tool_calls, outbound
from openworker_qt.core.provider_api import ModelRequest
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry
from openworker_qt.domain.messages import Message
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from tests.core.helpers import AllowAll, StaticResolver, collect, fake_tool

TWO_WRITES = [
    {"tool_calls": [
        {"id": "w1", "name": "note", "arguments": {"text": "one"}},
        {"id": "w2", "name": "note", "arguments": {"text": "two"}},
    ]},
    {"text": "Done."},
]


def valid_for_providers(request: ModelRequest) -> None:
    """What OpenAI and Anthropic insist on: each assistant message with tool calls
    is followed at once by exactly one result per call."""
    msgs = request.messages
    for i, msg in enumerate(msgs):
        if msg["role"] != "assistant" or not msg.get("tool_calls"):
            continue
        ids = [c["id"] for c in msg["tool_calls"]]
        following = [m.get("tool_call_id") for m in msgs[i + 1 : i + 1 + len(ids)]]
        assert following == ids, f"calls {ids} are followed by {following}"


class FailingStore(ConversationStore):
    """The real SQLite store, made to fail the way a full disk would: ``append`` raises
    for the messages ``fail_when`` picks (``times`` of them; -1: all)."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.fail_when: Any = lambda m: False
        self.times = 0
        self.fail_status: str | None = None

    def append(self, session_id: str, message: dict[str, Any]) -> None:
        if self.times and self.fail_when(message):
            self.times -= 1
            raise OSError("database or disk is full")
        super().append(session_id, message)

    def update_session(self, session_id: str, **fields: Any) -> None:
        if self.fail_status is not None and fields.get("status") == self.fail_status:
            self.fail_status = None
            raise OSError("database or disk is full")
        super().update_session(session_id, **fields)


class World:
    def __init__(self, tmp: Path, turns: list[dict[str, Any]], *, decider: Any = None,
                 questioner: Any = None, tools: list[Tool] | None = None) -> None:
        self.db = Database(tmp / "state.sqlite3")
        self.store = FailingStore(self.db)
        self.audit = AuditLog(self.db)
        self.provider = ScriptedProvider(turns)
        self.written: list[str] = []

        async def note(args: dict[str, Any], ctx: ToolContext) -> str:
            self.written.append(str(args.get("text")))
            return "noted"

        registry = [fake_tool("note", note, risk=RiskClass.WRITE_LOCAL, concurrent=False)]
        self.manager = SessionManager(
            self.store, StaticResolver(self.provider),
            tools_for=lambda info: ToolRegistry([*registry, *(tools or [])]),
            decider_for=lambda info: decider or AllowAll(),
            questioner_for=lambda info: questioner,
            default_model="scripted", audit=self.audit,
        )
        self.events: list[ev.Event] = []
        self.manager.listeners.append(self.events.append)
        self.session = self.manager.create_session()

    def status(self) -> str:
        info = self.store.get_session(self.session.id)
        assert info is not None
        return info.status

    def results(self) -> dict[str, str]:
        return {m["tool_call_id"]: m["content"] for m in self.store.load(self.session.id)
                if m["role"] == "tool"}


def ended_with_internal_error(events: list[ev.Event]) -> None:
    assert isinstance(events[-1], ev.TurnEnded) and events[-1].status == "error"
    error = next(e for e in events if isinstance(e, ev.ErrorOccurred))
    assert error.kind == "internal" and error.message == INTERNAL_ERROR_TEXT


async def next_turn_is_healthy(world: World) -> None:
    """The session is not wedged: the next message reaches the model in a valid shape
    (the script's next turn is a plain reply)."""
    events = await collect(world.manager.run(world.session.id, "are you there?"))
    assert events[-1].status == "completed"
    valid_for_providers(world.provider.requests[-1])
    assert dangling_tool_calls(world.store.load(world.session.id)) == []
    assert world.status() == "idle"


class RaisingDecider:
    def __init__(self, on_call: str) -> None:
        self.on_call = on_call

    def evaluate(self, call: ToolCallInfo) -> Decision:
        if call.call_id == self.on_call:
            raise KeyError("rules table is corrupt")
        return Decision(allowed=True, rule="test")

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None:
        return None


async def test_decider_raising_ends_the_turn_and_closes_every_call(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    world = World(tmp_path, TWO_WRITES, decider=RaisingDecider("w2"))
    with caplog.at_level(logging.ERROR):
        events = await collect(world.manager.run(world.session.id, "take notes"))
    ended_with_internal_error(events)
    assert world.written == ["one"]
    # w1 ran and has its real result; w2 was never run and says so.
    assert world.results() == {"w1": "noted", "w2": NOT_RUN_AFTER_FAILURE}
    finished = [e for e in events if isinstance(e, ev.ToolFinished)]
    assert [(e.call_id, e.status) for e in finished] == [("w1", "ok"), ("w2", "error")]
    history = world.store.load(world.session.id)
    assert history[-1]["role"] == "notice" and history[-1]["kind"] == "error"
    assert world.status() == "error"  # not "running"
    assert "rules table is corrupt" in caplog.text  # the detail is in the log …
    assert "rules table" not in INTERNAL_ERROR_TEXT  # … not on screen
    await next_turn_is_healthy(world)


async def test_questioner_raising_ends_the_turn(tmp_path: Path) -> None:
    async def broken(request: QuestionRequest) -> str:
        raise RuntimeError("inbox table is locked")

    async def ask(args: dict[str, Any], ctx: ToolContext) -> str:
        return f"answered {args['_answer']}"

    ask_user = Tool(name="ask_user", description="ask", parameters={"type": "object"},
                    handler=ask, interaction="question")
    world = World(tmp_path, [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": {"question": "Which?"}}]},
        {"text": "ok"},
    ], questioner=broken, tools=[ask_user])
    events = await collect(world.manager.run(world.session.id, "ask me"))
    ended_with_internal_error(events)
    assert world.results() == {"q1": NOT_RUN_AFTER_FAILURE}
    assert world.status() == "error"
    assert world.manager.engine(world.session.id).waiting_for_user is False
    await next_turn_is_healthy(world)


async def test_store_failing_mid_step_says_the_call_may_have_run(tmp_path: Path) -> None:
    world = World(tmp_path, TWO_WRITES)
    # The first tool result cannot be stored: w1 has run, its result is lost.
    world.store.fail_when = lambda m: m.get("role") == "tool"
    world.store.times = 1
    events = await collect(world.manager.run(world.session.id, "take notes"))
    ended_with_internal_error(events)
    assert world.written == ["one"]
    assert world.results() == {"w1": STARTED_BEFORE_FAILURE, "w2": NOT_RUN_AFTER_FAILURE}
    assert world.status() == "error"
    await next_turn_is_healthy(world)


async def test_store_failing_for_good_still_ends_the_turn(tmp_path: Path) -> None:
    world = World(tmp_path, TWO_WRITES)
    world.store.fail_when = lambda m: m.get("role") in ("tool", "notice")
    world.store.times = -1  # every tool result and notice fails from now on
    events = await collect(world.manager.run(world.session.id, "take notes"))
    ended_with_internal_error(events)
    assert world.status() == "error"
    assert [c["id"] for c in dangling_tool_calls(world.store.load(world.session.id))] == ["w1", "w2"]
    # The disk is fixed; the next turn heals the calls the failed one could not close.
    world.store.times = 0
    await next_turn_is_healthy(world)
    assert world.results() == {"w1": STARTED_CUT_OFF, "w2": NOT_RUN_CUT_OFF}


async def test_a_session_whose_history_already_dangles_is_healed(tmp_path: Path) -> None:
    # Written by an older version: a call without a result, then two messages that
    # the providers refused with a 400 because of it.
    world = World(tmp_path, [{"text": "Hello again."}])
    sid = world.session.id
    seeded: list[Message] = [
        {"role": "user", "content": "write it"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a1", "type": "function", "function": {"name": "note", "arguments": "{}"}},
            {"id": "a2", "type": "function", "function": {"name": "note", "arguments": "{}"}},
        ]},
        {"role": "user", "content": "hello?"},
        {"role": "notice", "kind": "error", "text": "400: tool_call_id a1 has no response"},
    ]
    for msg in seeded:
        world.store.append(sid, msg)
    world.audit.record(sid, "a1", "note", "started")
    world.store.update_session(sid, status="error")
    events = await collect(world.manager.run(sid, "hello??"))
    assert events[-1].status == "completed"
    request = world.provider.requests[-1]
    valid_for_providers(request)
    assert [m["role"] for m in request.messages] == [
        "user", "assistant", "tool", "tool", "user", "user"]
    assert world.results() == {"a1": STARTED_CUT_OFF, "a2": NOT_RUN_CUT_OFF}
    healed = [e for e in events if isinstance(e, ev.ToolFinished)]
    assert [e.call_id for e in healed] == ["a1", "a2"]
    assert world.written == []  # nothing was run to heal it


def test_a_late_result_goes_next_to_its_call() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "x", "arguments": "{}"}}
    history: list[Message] = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "user", "content": "b"},
        {"role": "tool", "tool_call_id": "c1", "name": "x", "content": "late"},
    ]
    assert [m["role"] for m in outbound(history)] == ["user", "assistant", "tool", "user"]
    # A later message reusing the id is a new call: its result is not pulled up.
    reused: list[Message] = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "user", "content": "b"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "name": "x", "content": "second"},
    ]
    assert [m["role"] for m in outbound(reused)] == [
        "user", "assistant", "user", "assistant", "tool"]
    assert [c["id"] for c in dangling_tool_calls(reused)] == ["c1"]


async def test_a_spawned_turn_that_dies_leaves_running(tmp_path: Path) -> None:
    # The engine ends its turn, then the manager fails to record it: the task dies.
    world = World(tmp_path, [{"text": "hi"}])
    world.store.fail_status = "idle"
    task = world.manager.send(world.session.id, "hello")
    assert task is not None
    await asyncio.gather(task, return_exceptions=True)
    await asyncio.sleep(0)  # done-callbacks run on the next loop pass
    assert task.exception() is not None
    assert world.status() == "error"
    assert not world.manager.is_running(world.session.id)
    *_, ended, free = world.events  # the turn is over, then the session is free
    assert isinstance(ended, ev.TurnEnded) and ended.status == "error"
    assert free == ev.RunningChanged(session_id=world.session.id, running=False)
    assert any(isinstance(e, ev.ErrorOccurred) and e.kind == "internal" for e in world.events)
