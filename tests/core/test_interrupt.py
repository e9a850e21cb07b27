"""Stop works from every state, and never leaves an orphan tool call."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest, QuestionRequest
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.messages import INTERRUPTED_RESULT
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext
from tests.core.helpers import AllowAll, call, fake_tool, forever, make_engine, types


def assert_no_orphans(engine: TurnEngine) -> None:
    asked = [c["id"] for m in engine.history if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in engine.history if m["role"] == "tool"]
    assert sorted(asked) == sorted(answered)
    assert len(answered) == len(set(answered))


def ends_interrupted(events: list[ev.Event]) -> None:
    assert types(events)[-2:] == ["interrupted", "turn_end"]
    assert events[-1].status == "interrupted"


async def test_stop_mid_stream_keeps_partial_text(tmp_path: Path) -> None:
    chunks = [f"w{i} " for i in range(200)]
    engine, _ = make_engine([{"chunks": chunks, "delay": 0.001}], tmp_path)
    events: list[ev.Event] = []
    async for event in engine.run("write a lot"):
        events.append(event)
        if sum(isinstance(e, ev.AssistantDelta) for e in events) == 10:
            engine.request_interrupt()
    ends_interrupted(events)
    deltas = [e for e in events if isinstance(e, ev.AssistantDelta)]
    assert 10 <= len(deltas) < 100
    partial, note = engine.history[-2], engine.history[-1]
    assert partial["role"] == "assistant" and "tool_calls" not in partial
    assert partial["content"] == "".join(d.text for d in deltas)
    assert note["role"] == "notice" and note["kind"] == "interrupted"


async def test_stop_while_provider_is_silent(tmp_path: Path) -> None:
    # The model takes "forever" before its first chunk: stop must not wait for it.
    engine, _ = make_engine([{"text": "late", "delay": 30}], tmp_path)
    loop = asyncio.get_running_loop()
    loop.call_later(0.05, engine.request_interrupt)
    events = await asyncio.wait_for(_collect(engine), timeout=5)
    ends_interrupted(events)
    assert engine.history[-1]["kind"] == "interrupted"


async def _collect(engine: TurnEngine, text: str = "go") -> list[ev.Event]:
    return [e async for e in engine.run(text)]


async def test_stop_during_thinking_keeps_partial_reasoning(tmp_path: Path) -> None:
    engine, _ = make_engine([{"reasoning": ["a", "b", "c", "d"], "delay": 0.005}], tmp_path)
    events: list[ev.Event] = []
    async for event in engine.run("hmm"):
        events.append(event)
        if isinstance(event, ev.ReasoningDelta) and event.text == "b":
            engine.request_interrupt()
    ends_interrupted(events)
    assert engine.history[-2]["reasoning"] == "ab"


async def test_stop_during_tool_one_of_two(tmp_path: Path) -> None:
    ran: list[str] = []
    cancelled = asyncio.Event()

    async def slow(args: dict[str, Any], ctx: ToolContext) -> str:
        ran.append("slow")
        try:
            await forever()
        finally:
            cancelled.set()
        return "never"

    async def second(args: dict[str, Any], ctx: ToolContext) -> str:
        ran.append("second")
        return "ran"

    engine, provider = make_engine(
        [{"tool_calls": [call("slow", cid="t1"), call("second", cid="t2")]}, {"text": "x"}],
        tmp_path,
        tools=[
            fake_tool("slow", slow, risk=RiskClass.WRITE_LOCAL, concurrent=False),
            fake_tool("second", second, risk=RiskClass.WRITE_LOCAL, concurrent=False),
        ],
        decider=AllowAll(),
    )
    events: list[ev.Event] = []
    async for event in engine.run("go"):
        events.append(event)
        if isinstance(event, ev.ToolStarted) and event.name == "slow":
            asyncio.get_running_loop().call_later(0.02, engine.request_interrupt)
    ends_interrupted(events)
    assert ran == ["slow"] and cancelled.is_set()
    results = {m["tool_call_id"]: m for m in engine.history if m["role"] == "tool"}
    assert results["t1"]["content"] == INTERRUPTED_RESULT
    assert results["t2"]["content"] == INTERRUPTED_RESULT
    assert results["t2"]["status"] == "interrupted"
    assert provider.calls == 1
    assert_no_orphans(engine)


async def test_stop_during_concurrent_reads(tmp_path: Path) -> None:
    async def hang(args: dict[str, Any], ctx: ToolContext) -> str:
        await forever()
        return "never"

    async def quick(args: dict[str, Any], ctx: ToolContext) -> str:
        return "quick"

    engine, _ = make_engine(
        [{"tool_calls": [call("quick"), call("hang"), call("hang")]}],
        tmp_path,
        tools=[fake_tool("hang", hang), fake_tool("quick", quick)],
    )

    async def collect() -> list[ev.Event]:
        seen = []
        async for event in engine.run("go"):
            seen.append(event)
            if isinstance(event, ev.ToolFinished) and event.name == "quick":
                engine.request_interrupt()  # the two hangs still running
        return seen

    events = await asyncio.wait_for(collect(), timeout=30)
    ends_interrupted(events)
    statuses = sorted(e.status for e in events if isinstance(e, ev.ToolFinished))
    assert statuses == ["interrupted", "interrupted", "ok"]
    assert_no_orphans(engine)


async def test_stop_while_waiting_for_approval(tmp_path: Path) -> None:
    async def never_answers(request: ApprovalRequest) -> ApprovalOutcome:
        await forever()
        return ApprovalOutcome.ONCE

    engine, _ = make_engine(
        [{"tool_calls": [call("write_file", {"path": "f.txt", "content": "x"})]}],
        tmp_path,
        approver=never_answers,
    )
    events: list[ev.Event] = []
    async for event in engine.run("go"):
        events.append(event)
        if isinstance(event, ev.PermissionRequired):
            asyncio.get_running_loop().call_later(0.01, engine.request_interrupt)
    ends_interrupted(events)
    assert not (tmp_path / "f.txt").exists()
    assert engine.history[2]["content"] == INTERRUPTED_RESULT
    assert_no_orphans(engine)


async def test_interrupt_raised_inside_the_approver(tmp_path: Path) -> None:
    holder: dict[str, TurnEngine] = {}

    async def approve_then_stop(request: ApprovalRequest) -> ApprovalOutcome:
        holder["e"].request_interrupt()
        return ApprovalOutcome.ONCE

    engine, provider = make_engine(
        [{"tool_calls": [call("write_file", {"path": "f.txt", "content": "x"})]}, {"text": "x"}],
        tmp_path,
        approver=approve_then_stop,
    )
    holder["e"] = engine
    events = await _collect(engine)
    # The user's approval is honoured, then the loop stops.
    assert (tmp_path / "f.txt").read_text() == "x"
    ends_interrupted(events)
    assert provider.calls == 1
    assert_no_orphans(engine)


async def test_stop_while_waiting_for_an_answer(tmp_path: Path) -> None:
    async def ask(args: dict[str, Any], ctx: ToolContext) -> str:
        return args["_answer"]

    ask_user = Tool(
        name="ask_user",
        description="ask",
        parameters={"type": "object", "properties": {"question": {"type": "string"}}},
        handler=ask,
        risk=RiskClass.READ,
        interaction="question",
    )

    async def silent(request: QuestionRequest) -> str:
        await forever()
        return ""

    engine, _ = make_engine(
        [{"tool_calls": [call("ask_user", {"question": "Which file?"})]}],
        tmp_path,
        tools=[ask_user],
        questioner=silent,
    )
    events: list[ev.Event] = []
    async for event in engine.run("go"):
        events.append(event)
        if isinstance(event, ev.QuestionRequested):
            assert event.question == "Which file?"
            asyncio.get_running_loop().call_later(0.01, engine.request_interrupt)
    ends_interrupted(events)
    assert engine.history[2]["content"] == INTERRUPTED_RESULT


async def test_question_answer_becomes_the_result(tmp_path: Path) -> None:
    async def ask(args: dict[str, Any], ctx: ToolContext) -> str:
        return f"User answered: {args['_answer']}"

    ask_user = Tool(
        name="ask_user", description="ask", parameters={"type": "object"}, handler=ask,
        risk=RiskClass.READ, interaction="question",
    )

    async def answer(request: QuestionRequest) -> str:
        return "the blue one"

    engine, _ = make_engine(
        [{"tool_calls": [call("ask_user", {"question": "Which?"})]}, {"text": "ok"}],
        tmp_path, tools=[ask_user], questioner=answer,
    )
    events = await _collect(engine)
    assert engine.history[2]["content"] == "User answered: the blue one"
    assert events[-1].status == "completed"


async def test_stop_between_iterations(tmp_path: Path) -> None:
    engine, provider = make_engine(
        [{"tool_calls": [call("list_files")]}, {"text": "never"}], tmp_path
    )
    events: list[ev.Event] = []
    async for event in engine.run("go"):
        events.append(event)
        if isinstance(event, ev.IterationEnded):
            engine.request_interrupt()
    ends_interrupted(events)
    assert provider.calls == 1
    assert_no_orphans(engine)


async def test_interrupt_hooks_run_synchronously(tmp_path: Path) -> None:
    engine, _ = make_engine([], tmp_path)
    seen: list[str] = []
    engine.interrupt_hooks.append(lambda: seen.append("killed"))
    engine.request_interrupt()
    assert seen == ["killed"]


async def test_next_turn_after_a_stop_runs_normally(tmp_path: Path) -> None:
    engine, _ = make_engine(
        [{"chunks": ["a"] * 50, "delay": 0.001}, {"text": "fresh"}], tmp_path
    )
    async for event in engine.run("one"):
        if isinstance(event, ev.AssistantDelta):
            engine.request_interrupt()
    events = await _collect(engine, "two")
    assert events[-1].status == "completed"
    assert engine.history[-1]["content"] == "fresh"


async def test_a_foreign_cancellation_is_not_mistaken_for_stop(tmp_path: Path) -> None:
    # The app quitting cancels the turn's task: that must propagate as a
    # cancellation (the turn stays resumable), not become an "interrupted" turn.
    engine, _ = make_engine([{"text": "late", "delay": 30}], tmp_path)
    seen: list[ev.Event] = []
    started = asyncio.Event()

    async def consume() -> None:
        async for event in engine.run("go"):
            seen.append(event)
            started.set()

    task = asyncio.ensure_future(consume())
    await started.wait()  # the turn is under way, waiting on the model
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert "interrupted" not in types(seen)
    assert engine.history[-1]["role"] == "user"  # nothing was written on the way out


async def test_stop_and_quit_together_still_propagate_the_quit(tmp_path: Path) -> None:
    engine, _ = make_engine([{"text": "late", "delay": 30}], tmp_path)

    started = asyncio.Event()

    async def consume() -> None:
        async for _ in engine.run("go"):
            started.set()

    task = asyncio.ensure_future(consume())
    await started.wait()  # the turn is under way, waiting on the model
    engine.request_interrupt()
    engine.request_interrupt()  # a second press changes nothing
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_stop_answers_a_call_whose_vendor_id_an_earlier_turn_used(tmp_path: Path) -> None:
    """Providers reuse ids like call_0 in every turn: stopping turn two while its
    call_0 waits for approval still gives that call its result."""
    asked: list[ApprovalRequest] = []

    async def approver(request: ApprovalRequest) -> ApprovalOutcome:
        asked.append(request)
        if len(asked) == 1:
            return ApprovalOutcome.ONCE
        await forever()
        return ApprovalOutcome.DENY

    async def save(args: dict[str, Any], ctx: ToolContext) -> str:
        return "saved"

    engine, _ = make_engine(
        [{"tool_calls": [call("save", {}, "call_0")]}, {"text": "saved once"},
         {"tool_calls": [call("save", {}, "call_0")]}],
        tmp_path, tools=[fake_tool("save", save, risk=RiskClass.WRITE_LOCAL)], approver=approver,
    )
    await _collect(engine)
    events: list[ev.Event] = []
    async for event in engine.run("again"):
        events.append(event)
        if isinstance(event, ev.PermissionRequired):
            asyncio.get_running_loop().call_later(0.01, engine.request_interrupt)
    ends_interrupted(events)
    assert asked[0].call_key != asked[1].call_key  # two call instances, two keys
    last_step = max(i for i, m in enumerate(engine.history) if m["role"] == "assistant")
    results = [m for m in engine.history[last_step:] if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in results] == [("call_0", INTERRUPTED_RESULT)]
