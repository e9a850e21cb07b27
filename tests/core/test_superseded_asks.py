"""A new message closes the calls a parked turn left waiting, and their asks.

The asks (approvals, questions, re-run confirmations) are resolved "superseded" by
the engine, so no surface keeps showing them and a late answer runs nothing.
"""

from __future__ import annotations

from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.healing import NOT_RUN_CUT_OFF, NOT_RUN_SUPERSEDED
from openworker_qt.core.inbox import SUPERSEDED, closed_by_app
from openworker_qt.core.messages import dangling_tool_calls
from tests.core.helpers import collect
from tests.core.test_durable import WRITE, World

MOVED_ON = [WRITE[0], {"text": "Fine, no note then."}]


async def test_a_new_message_supersedes_the_parked_approval(tmp_path: Path) -> None:
    world = World(tmp_path, MOVED_ON, wait=False)
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    events = await collect(world.manager.run(info.id, "note: buy milk"))
    assert events[-1].status == "suspended"
    [item] = world.inbox.pending(info.id)

    events = await collect(world.manager.run(info.id, "never mind, tell me a joke"))
    assert events[-1].status == "completed"
    assert world.inbox.pending() == []
    closed = world.inbox.get(item.id)
    assert closed is not None
    assert (closed.resolution, closed.resolved_by) == (SUPERSEDED, "engine")
    # The healed call says why it did not run, before the new message.
    healed = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert healed.call_id == "w1" and healed.result == NOT_RUN_SUPERSEDED
    history = world.store.load(info.id)
    result = next(m for m in history if m["role"] == "tool")
    assert result["content"] == NOT_RUN_SUPERSEDED
    assert history.index(result) < next(
        i for i, m in enumerate(history) if m.get("content") == "never mind, tell me a joke")
    assert dangling_tool_calls(history) == []

    # A late answer changes nothing, says why, and nothing runs.
    assert world.inbox.respond(item.id, "approve", by="cli") is False
    message = closed_by_app(world.inbox.get(item.id))
    assert message is not None and "conversation moved on" in message
    assert await collect(world.manager.resume(info.id)) == []
    assert world.manager.resumable() == []
    assert not (tmp_path / "g.txt").exists()


async def test_a_parked_question_and_a_rerun_confirmation_are_superseded(tmp_path: Path) -> None:
    world = World(tmp_path, [{"text": "Moving on."}], wait=False)
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    world.store.append(info.id, {"role": "user", "content": "two things"})
    world.store.append(info.id, {
        "role": "assistant", "content": None, "step_id": "s1",
        "tool_calls": [
            {"id": "q1", "type": "function",
             "function": {"name": "ask_user", "arguments": '{"question": "Which?"}'}},
            {"id": "w1", "type": "function",
             "function": {"name": "write_file", "arguments": '{"path": "g.txt", "content": "x"}'}},
        ],
    })
    question = world.inbox.add("question", info.id, tool_call_id="q1", call_key="s1/q1")
    rerun = world.inbox.add("approval", info.id, tool_call_id="w1:rerun", call_key="s1/w1:rerun")
    world.audit.record(info.id, "w1", "write_file", "started", call_key="s1/w1")
    other = world.inbox.add("approval", "another-session", tool_call_id="q1", call_key="s1/q1")

    events = await collect(world.manager.run(info.id, "forget it"))
    assert events[-1].status == "completed"
    assert [i.id for i in world.inbox.pending()] == [other.id]  # only this session's
    for item in (question, rerun):
        assert world.inbox.get(item.id).resolution == SUPERSEDED
    results = {m["tool_call_id"]: m["content"] for m in world.store.load(info.id)
               if m["role"] == "tool"}
    assert results["q1"] == NOT_RUN_SUPERSEDED
    assert "may already have taken effect" in results["w1"]  # it had started: still true


async def test_a_call_cut_off_without_an_ask_keeps_its_wording(tmp_path: Path) -> None:
    world = World(tmp_path, [{"text": "ok"}], wait=False)
    info = world.manager.create_session(unattended=True, workspace=str(tmp_path))
    world.store.append(info.id, {"role": "user", "content": "x"})
    world.store.append(info.id, {
        "role": "assistant", "content": None, "step_id": "s1",
        "tool_calls": [{"id": "w1", "type": "function",
                        "function": {"name": "write_file", "arguments": "{}"}}],
    })
    events = await collect(world.manager.run(info.id, "y"))
    healed = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert healed.result == NOT_RUN_CUT_OFF
    assert world.inbox.items() == []
