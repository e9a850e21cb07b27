"""TurnEngine behaviour: event order, tools, approvals, steering, cap, errors, retry."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome
from openworker_qt.core.history import MemoryHistory
from openworker_qt.core.messages import Capabilities
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolContext, ToolResult
from tests.core.helpers import (
    AllowAll,
    answering,
    call,
    collect,
    fake_tool,
    make_engine,
    types,
)


async def test_text_only_reply_event_order(tmp_path: Path) -> None:
    engine, provider = make_engine([{"chunks": ["Hel", "lo"]}], tmp_path)
    events = await collect(engine.run("hi"))
    assert types(events) == [
        "turn_start",
        "user_message",
        "assistant_delta",
        "assistant_delta",
        "assistant_message",
        "turn_end",
    ]
    assert [e.text for e in events if isinstance(e, ev.AssistantDelta)] == ["Hel", "lo"]
    end = events[-1]
    assert isinstance(end, ev.TurnEnded) and end.status == "completed" and end.iterations == 1
    assert [m["role"] for m in engine.history] == ["user", "assistant"]
    assert engine.history[1]["content"] == "Hello"
    assert provider.calls == 1


async def test_read_tool_event_order_and_history(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\nbeta\n")
    engine, provider = make_engine(
        [{"tool_calls": [call("read_file", {"path": "a.txt"}, "c1")]}, {"text": "It says alpha."}],
        tmp_path,
    )
    events = await collect(engine.run("what is in a.txt?"))
    assert types(events) == [
        "turn_start",
        "user_message",
        "assistant_message",
        "tool_proposed",
        "tool_started",
        "tool_finished",
        "iteration_end",
        "assistant_delta",
        "assistant_message",
        "turn_end",
    ]
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.status == "ok" and "alpha" in finished.result
    tool_msg = engine.history[2]
    assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == "c1"
    # The second model call saw the tool result.
    second = provider.requests[1].messages
    assert second[-1]["role"] == "tool" and "alpha" in second[-1]["content"]


@pytest.mark.parametrize(
    ("outcome", "written", "status"),
    [(ApprovalOutcome.ONCE, True, "ok"), (ApprovalOutcome.DENY, False, "denied")],
)
async def test_write_asks_and_obeys_the_answer(
    tmp_path: Path, outcome: ApprovalOutcome, written: bool, status: str
) -> None:
    approver = answering(outcome)
    engine, _ = make_engine(
        [
            {"tool_calls": [call("write_file", {"path": "g.txt", "content": "buy milk"})]},
            {"text": "ok"},
        ],
        tmp_path,
        approver=approver,
    )
    events = await collect(engine.run("note it"))
    assert "permission_required" in types(events)
    req = approver.seen[0]
    assert req.tool == "write_file" and req.risk is RiskClass.WRITE_LOCAL and req.target == "g.txt"
    assert (tmp_path / "g.txt").exists() is written
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.status == status
    if not written:
        assert "not executed" in engine.history[2]["content"]
    assert events[-1].status == "completed"


async def test_no_approver_means_denied_not_hung(tmp_path: Path) -> None:
    engine, _ = make_engine(
        [{"tool_calls": [call("write_file", {"path": "x", "content": "y"})]}, {"text": "ok"}],
        tmp_path,
    )
    events = await collect(engine.run("go"))
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.status == "denied" and not (tmp_path / "x").exists()


async def test_reads_run_concurrently(tmp_path: Path) -> None:
    barrier = asyncio.Barrier(3)

    async def meet(args: dict[str, Any], ctx: ToolContext) -> str:
        # Serial execution would wait here forever; the timeout turns that into a failure.
        await asyncio.wait_for(barrier.wait(), timeout=5)
        return "met"

    tools = [fake_tool(f"r{i}", meet) for i in range(3)]
    engine, _ = make_engine(
        [{"tool_calls": [call("r0"), call("r1"), call("r2")]}, {"text": "done"}],
        tmp_path,
        tools=tools,
    )
    events = await collect(engine.run("go"))
    results = [e for e in events if isinstance(e, ev.ToolFinished)]
    assert [r.status for r in results] == ["ok", "ok", "ok"]
    # Every call id has exactly one result.
    ids = [m["tool_call_id"] for m in engine.history if m["role"] == "tool"]
    assert sorted(ids) == sorted(c["id"] for c in engine.history[1]["tool_calls"])


async def test_writes_run_one_at_a_time_in_call_order(tmp_path: Path) -> None:
    log: list[str] = []
    active = 0
    overlap = False

    def writer(tag: str):
        async def run(args: dict[str, Any], ctx: ToolContext) -> str:
            nonlocal active, overlap
            active += 1
            overlap = overlap or active > 1
            log.append(f"start {tag}")
            await asyncio.sleep(0.01)
            log.append(f"end {tag}")
            active -= 1
            return tag

        return run

    tools = [
        fake_tool(f"w{i}", writer(str(i)), risk=RiskClass.WRITE_LOCAL, concurrent=True)
        for i in range(3)
    ]
    engine, _ = make_engine(
        [{"tool_calls": [call("w0"), call("w1"), call("w2")]}, {"text": "done"}],
        tmp_path,
        tools=tools,
        decider=AllowAll(),
    )
    await collect(engine.run("go"))
    assert not overlap
    assert log == ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]


async def test_mixed_batch_keeps_authorisation_serial(tmp_path: Path) -> None:
    order: list[str] = []

    async def note(args: dict[str, Any], ctx: ToolContext) -> str:
        order.append(args["tag"])
        return "ok"

    read = fake_tool("look", note)
    write = fake_tool("change", note, risk=RiskClass.WRITE_LOCAL, concurrent=False)
    approver = answering(ApprovalOutcome.ONCE)
    engine, _ = make_engine(
        [
            {
                "tool_calls": [
                    call("look", {"tag": "r1"}),
                    call("change", {"tag": "w1"}),
                    call("look", {"tag": "r2"}),
                    call("change", {"tag": "w2"}),
                ]
            },
            {"text": "done"},
        ],
        tmp_path,
        tools=[read, write],
        approver=approver,
    )
    events = await collect(engine.run("go"))
    assert order == ["r1", "w1", "r2", "w2"]
    asked = [r.arguments["tag"] for r in approver.seen]
    assert asked == ["w1", "w2"]
    assert types(events).count("permission_required") == 2


async def test_iteration_cap(tmp_path: Path) -> None:
    engine, provider = make_engine(
        [{"tool_calls": [call("list_files")], "repeat": True}], tmp_path, max_iterations=3
    )
    events = await collect(engine.run("loop forever"))
    end = events[-1]
    assert isinstance(end, ev.TurnEnded) and end.status == "max_iterations"
    assert provider.calls == 3
    assert engine.history[-1]["role"] == "notice" and engine.history[-1]["kind"] == "max_iterations"


async def test_steering_is_injected_after_the_current_step(tmp_path: Path) -> None:
    engine, provider = make_engine(
        [{"chunks": ["a", "b", "c"], "delay": 0.001}, {"text": "also in French: bonjour"}],
        tmp_path,
    )
    events: list[ev.Event] = []
    async for event in engine.run("say hello"):
        events.append(event)
        if isinstance(event, ev.AssistantDelta) and event.text == "a":
            engine.queue_steering("and in French too")
    assert provider.calls == 2
    roles = [(m["role"], m.get("source")) for m in engine.history]
    assert roles == [
        ("user", "user"),
        ("assistant", None),
        ("user", "steering"),
        ("assistant", None),
    ]
    assert provider.requests[1].messages[-1] == {"role": "user", "content": "and in French too"}
    assert events[-1].status == "completed"
    steered = [e for e in events if isinstance(e, ev.UserMessageAdded)]
    assert [m.message["source"] for m in steered] == ["user", "steering"]


async def test_steering_can_carry_attachments(tmp_path: Path) -> None:
    engine, provider = make_engine(
        [{"chunks": ["a", "b"], "delay": 0.001}, {"text": "seen"}], tmp_path,
        caps=Capabilities(vision=True),
    )
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    async for event in engine.run("look"):
        if isinstance(event, ev.AssistantDelta) and event.text == "a":
            engine.queue_steering([image, {"type": "text", "text": "and this one"}])
    assert provider.requests[1].messages[-1]["content"][0] == image
    assert engine.history[2]["source"] == "steering"


async def test_steering_left_by_a_stopped_turn_is_handed_back_not_sent_later(tmp_path: Path) -> None:
    """Queued while the turn ran, the turn stopped before taking it in: the next
    turn never injects it (it was meant for the stopped one); take_steering hands
    it back, once."""
    engine, provider = make_engine(
        [{"tool_calls": [call("slow")]}, {"text": "first"}, {"text": "second"}], tmp_path,
        tools=[fake_tool("slow", slow_until_stopped := _stoppable())],
    )
    async for event in engine.run("go"):
        if isinstance(event, ev.ToolStarted):
            engine.queue_steering("use the blue one")
            engine.request_interrupt()
            slow_until_stopped.release()
    assert engine.history[-1]["role"] == "notice"  # stopped
    events = await collect(engine.run("something else"))
    assert events[-1].status == "completed"
    assert not any("blue" in str(m.get("content")) for m in provider.requests[-1].messages)
    assert not any("blue" in str(m.get("content")) for m in engine.history)
    assert engine.take_steering() == ["use the blue one"]
    assert engine.take_steering() == []


class _stoppable:  # noqa: N801 (a tool body)
    def __init__(self) -> None:
        self.gate = asyncio.Event()

    def release(self) -> None:
        self.gate.set()

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> str:
        await self.gate.wait()
        return "slow done"


async def test_steering_during_tools_lands_before_next_call(tmp_path: Path) -> None:
    gate = asyncio.Event()

    async def slow(args: dict[str, Any], ctx: ToolContext) -> str:
        await gate.wait()
        return "slow done"

    engine, provider = make_engine(
        [{"tool_calls": [call("slow")]}, {"text": "ok"}], tmp_path, tools=[fake_tool("slow", slow)]
    )
    async for event in engine.run("go"):
        if isinstance(event, ev.ToolStarted):
            engine.queue_steering("use the blue one")
            gate.set()
    second = provider.requests[1].messages
    assert second[-2]["role"] == "tool"
    assert second[-1] == {"role": "user", "content": "use the blue one"}


async def test_invalid_tool_arguments_become_an_error_result(tmp_path: Path) -> None:
    engine, _ = make_engine(
        [
            {"tool_calls": [{"name": "write_file", "arguments": '{"path": "x", "content": '}]},
            {"text": "sorry"},
        ],
        tmp_path,
        approver=answering(ApprovalOutcome.ONCE),
    )
    events = await collect(engine.run("go"))
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.status == "error" and "not valid JSON" in finished.result
    assert "permission_required" not in types(events)
    assert not (tmp_path / "x").exists()
    assert events[-1].status == "completed"


async def test_unknown_tool_and_failing_tool(tmp_path: Path) -> None:
    async def boom(args: dict[str, Any], ctx: ToolContext) -> str:
        raise RuntimeError("disk on fire")

    engine, _ = make_engine(
        [{"tool_calls": [call("nope"), call("boom")]}, {"text": "ok"}],
        tmp_path,
        tools=[fake_tool("boom", boom)],
    )
    events = await collect(engine.run("go"))
    results = {e.name: e for e in events if isinstance(e, ev.ToolFinished)}
    assert results["nope"].status == "error" and "unknown tool 'nope'" in results["nope"].result
    assert results["boom"].status == "error" and "disk on fire" in results["boom"].result


async def test_display_side_channel_reaches_events_not_provider(tmp_path: Path) -> None:
    async def search(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult("3 results", display={"hidden_by_filter": 2})

    engine, provider = make_engine(
        [{"tool_calls": [call("search")]}, {"text": "ok"}], tmp_path, tools=[fake_tool("search", search)]
    )
    events = await collect(engine.run("go"))
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert finished.display and finished.display["hidden_by_filter"] == 2
    assert engine.history[2]["_display"]["hidden_by_filter"] == 2
    payload = json.dumps([m for r in provider.requests for m in r.messages])
    assert "hidden_by_filter" not in payload and "_display" not in payload


async def test_huge_tool_result_is_truncated_keeping_both_ends(tmp_path: Path) -> None:
    async def flood(args: dict[str, Any], ctx: ToolContext) -> str:
        return "HEAD" + "x" * 200_000 + "TAIL"

    engine, _ = make_engine(
        [{"tool_calls": [call("flood")]}, {"text": "ok"}], tmp_path, tools=[fake_tool("flood", flood)]
    )
    await collect(engine.run("go"))
    content = engine.history[2]["content"]
    assert content.startswith("HEAD") and content.endswith("TAIL")
    assert "characters omitted" in content and len(content) < 70_000


async def test_reasoning_streams_is_kept_and_never_sent_back(tmp_path: Path) -> None:
    engine, provider = make_engine(
        [
            {"reasoning": ["let me ", "think"], "tool_calls": [call("list_files")]},
            {"text": "done"},
        ],
        tmp_path,
    )
    events = await collect(engine.run("go"))
    deltas = [e.text for e in events if isinstance(e, ev.ReasoningDelta)]
    assert deltas == ["let me ", "think"]
    message = next(e for e in events if isinstance(e, ev.AssistantMessage)).message
    assert message["reasoning"] == "let me think"
    assert engine.history[1]["reasoning"] == "let me think"
    for request in provider.requests:
        assert "reasoning" not in json.dumps(request.messages)
        assert "let me" not in json.dumps(request.messages)


async def test_provider_error_keeps_partial_text_and_retry_reruns(tmp_path: Path) -> None:
    engine, provider = make_engine(
        [
            {"chunks": ["partial ", "answer"], "error": "upstream exploded", "error_kind": "server"},
            {"text": "full answer"},
        ],
        tmp_path,
    )
    events = await collect(engine.run("question"))
    assert types(events)[-2:] == ["error", "turn_end"]
    err = next(e for e in events if isinstance(e, ev.ErrorOccurred))
    assert "upstream exploded" in err.message and err.kind == "server"
    assert events[-1].status == "error"
    partial, note = engine.history[-2], engine.history[-1]
    assert partial["role"] == "assistant" and partial["content"] == "partial answer"
    assert "tool_calls" not in partial
    assert note["role"] == "notice" and note["kind"] == "error"
    assert "upstream exploded" in note["text"]

    user_count = sum(1 for m in engine.history if m["role"] == "user")
    retried = await collect(engine.retry())
    assert retried[-1].status == "completed"
    assert sum(1 for m in engine.history if m["role"] == "user") == user_count
    # The failed partial answer is not sent back to the model on retry.
    assert "partial answer" not in json.dumps(provider.requests[1].messages)
    assert engine.history[-1]["content"] == "full answer"


async def test_retry_yields_nothing_without_an_error(tmp_path: Path) -> None:
    engine, provider = make_engine([{"text": "fine"}], tmp_path)
    await collect(engine.run("hi"))
    assert await collect(engine.retry()) == []
    assert provider.calls == 1


async def test_retry_after_switch_uses_the_new_model(tmp_path: Path) -> None:
    from openworker_qt.providers.scripted import ScriptedProvider
    from tests.core.helpers import StaticResolver

    first = ScriptedProvider([{"error": "rate limited", "error_kind": "rate_limit"}])
    second = ScriptedProvider([{"text": "from the other model"}])
    engine, _ = make_engine([], tmp_path, model="one:m")
    engine.resolver = StaticResolver(first, one=first, two=second)
    await collect(engine.run("hi"))
    engine.switch_model("two:m")
    events = await collect(engine.retry())
    assert events[-1].status == "completed"
    assert second.calls == 1 and engine.history[-1]["content"] == "from the other model"


def test_switch_model_notice_semantics(tmp_path: Path) -> None:
    engine, _ = make_engine([], tmp_path, model="")
    assert engine.switch_model("a") is None  # first bind is silent
    assert engine.switch_model("a") is None  # same model: no-op
    marker = engine.switch_model("b")
    assert marker is not None and marker["kind"] == "model_switch" and "images" not in marker["text"]
    assert engine.history[-1] is marker


def test_switch_model_warns_about_images(tmp_path: Path) -> None:
    engine, _ = make_engine([], tmp_path, model="a", caps=Capabilities(vision=False))
    engine._append(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "look"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            ],
        }
    )
    marker = engine.switch_model("b")
    assert marker is not None and "images" in marker["text"]


async def test_notices_never_reach_the_provider(tmp_path: Path) -> None:
    engine, provider = make_engine([{"text": "one"}, {"text": "two"}], tmp_path, model="a")
    await collect(engine.run("hi"))
    engine.switch_model("b")
    await collect(engine.run("again"))
    assert all(m["role"] != "notice" for m in provider.requests[1].messages)
    assert provider.requests[1].messages[-1] == {"role": "user", "content": "again"}


async def test_messages_are_committed_before_their_event(tmp_path: Path) -> None:
    from openworker_qt.storage.conversations import ConversationStore
    from openworker_qt.storage.db import Database

    db_path = tmp_path / "db.sqlite3"
    store = ConversationStore(Database(db_path))
    store.create_session(session_id="s1")
    reader = ConversationStore(Database(db_path))  # a second connection sees only commits
    engine, _ = make_engine(
        [{"tool_calls": [call("list_files", {}, "c1")]}, {"text": "done"}], tmp_path, store=store
    )
    async for event in engine.run("go"):
        stored = reader.load("s1")
        if isinstance(event, ev.AssistantMessage):
            assert stored[-1]["role"] == "assistant"
            assert stored[-1]["content"] == event.message["content"]
        if isinstance(event, ev.ToolFinished):
            assert stored[-1]["role"] == "tool" and stored[-1]["tool_call_id"] == event.call_id


async def test_a_step_and_its_proposals_commit_together_before_it_is_announced(
    tmp_path: Path,
) -> None:
    # One commit for the assistant message and the audit rows proposing its calls:
    # when the message is announced, a second connection sees both.
    from openworker_qt.core.audit import AuditLog
    from openworker_qt.storage.conversations import ConversationStore
    from openworker_qt.storage.db import Database

    db_path = tmp_path / "db.sqlite3"
    db = Database(db_path)
    store = ConversationStore(db)
    store.create_session(session_id="s1")
    reader = Database(db_path)
    reader_audit = AuditLog(reader)
    calls = [call("list_files", {}, "c1"), call("list_files", {}, "c2")]
    engine, _ = make_engine([{"tool_calls": calls}, {"text": "done"}], tmp_path, store=store,
                            audit=AuditLog(db))
    seen = 0
    async for event in engine.run("go"):
        if isinstance(event, ev.AssistantMessage) and event.message.get("tool_calls"):
            assert ConversationStore(reader).load("s1")[-1]["step_id"] == event.message["step_id"]
            for call_id in ("c1", "c2"):
                assert reader_audit.stages("s1", call_id) == ["proposed"]
            seen += 1
        if isinstance(event, ev.ToolProposed):
            assert "proposed" in reader_audit.stages("s1", event.call_id)
    assert seen == 1
    for call_id in ("c1", "c2"):  # proposed once only
        assert reader_audit.stages("s1", call_id).count("proposed") == 1


async def test_resume_runs_only_unanswered_calls(tmp_path: Path) -> None:
    ran: list[str] = []

    async def act(args: dict[str, Any], ctx: ToolContext) -> str:
        ran.append(args["tag"])
        return "done " + args["tag"]

    store = MemoryHistory()
    store.append("s1", {"role": "user", "content": "do two things"})
    store.append(
        "s1",
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "act", "arguments": '{"tag": "A"}'}},
                {"id": "b", "type": "function", "function": {"name": "act", "arguments": '{"tag": "B"}'}},
            ],
        },
    )
    store.append("s1", {"role": "tool", "tool_call_id": "a", "name": "act", "content": "done A"})
    engine, provider = make_engine(
        [{"text": "both done"}], tmp_path, store=store, tools=[fake_tool("act", act)]
    )
    events = await collect(engine.resume())
    assert ran == ["B"]
    assert events[0].reason == "resume"
    assert events[-1].status == "completed"
    assert provider.calls == 1
    assert await collect(engine.resume()) == []  # nothing pending any more
