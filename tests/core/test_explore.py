"""The explorer sub-agent: a child engine with read tools only, plan mode, no approver,
an iteration cap; only its report comes back; several run at once; Stop stops them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.history import MemoryHistory
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.provider_api import ModelRequest, StreamChunk
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolContext, ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.runtime import open_runtime
from openworker_qt.tools import explore as explore_mod
from openworker_qt.tools.explore import EXPLORE, EXPLORER_PROMPT, Explorer, explore_tool
from openworker_qt.tools.files import file_tools
from openworker_qt.tools.interaction import interaction_tools
from tests.core.helpers import AllowAll, StaticResolver, call, collect, fake_tool


class ClosingProvider(ScriptedProvider):
    """The scripted provider, noting each stream that was closed before its end."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.open_streams = 0
        self.closed_early = 0
        self.waiting: asyncio.Event | None = None  # set when two streams are open


    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        self.open_streams += 1
        if self.open_streams >= 2 and self.waiting is not None:
            self.waiting.set()
        finished = False
        try:
            async for chunk in super().stream(request):
                yield chunk
            finished = True
        finally:
            self.open_streams -= 1
            if not finished:
                self.closed_early += 1


def setup(
    tmp_path: Path,
    parent_turns: list[dict[str, Any]],
    child_turns: list[dict[str, Any]],
    *,
    extra: list[Any] | None = None,
    cap: int = 8,
) -> tuple[TurnEngine, ScriptedProvider, ClosingProvider]:
    parent = ScriptedProvider(parent_turns)
    child = ClosingProvider(child_turns, advance="history")
    resolver = StaticResolver(parent, child=child)
    registry = ToolRegistry([*file_tools(), *interaction_tools(), *(extra or [])])
    explorer = Explorer(
        resolver=resolver, model=lambda: "child:m",
        decider=lambda: PermissionEngine(workspace=tmp_path, mode="plan"),
        max_iterations=cap,
    )
    registry.add(explore_tool(explorer, registry))
    engine = TurnEngine(
        session_id="s1", store=MemoryHistory(), resolver=resolver, model="parent",
        tools=registry, decider=AllowAll(), workspace=tmp_path,
    )
    return engine, parent, child


def ended(events: list[ev.Event]) -> str:
    last = events[-1]
    assert isinstance(last, ev.TurnEnded)
    return last.status


def tool_results(messages: list[Any]) -> dict[str, str]:
    return {str(m["tool_call_id"]): str(m["content"]) for m in messages if m.get("role") == "tool"}


async def test_child_reads_files_and_parent_gets_only_the_report(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha secret-of-a\n")
    (tmp_path / "b.txt").write_text("beta secret-of-b\n")
    engine, parent, child = setup(
        tmp_path,
        [{"tool_calls": [call(EXPLORE, {"task": "what do a and b say?"}, "x1")]},
         {"text": "Thanks."}],
        [{"tool_calls": [call("read_file", {"path": "a.txt"}),
                         call("read_file", {"path": "b.txt"})]},
         {"text": "a says alpha, b says beta."}],
    )
    events = await collect(engine.run("look around"))
    assert ended(events) == "completed"
    assert tool_results(engine.history)["x1"] == "a says alpha, b says beta."
    # The child worked in a fresh context under its own prompt and read both files.
    assert [r.system for r in child.requests] == [EXPLORER_PROMPT, EXPLORER_PROMPT]
    assert child.requests[0].messages[0].get("content") == "what do a and b say?"
    seen = " ".join(str(m.get("content")) for m in child.requests[1].messages)
    assert "secret-of-a" in seen and "secret-of-b" in seen
    # The parent's model never saw the files, only the report.
    parent_seen = " ".join(str(m.get("content")) for m in parent.requests[1].messages)
    assert "secret-of-a" not in parent_seen and "a says alpha" in parent_seen
    # The child's steps showed in the parent's card, under the parent's call id.
    progress = [e for e in events if isinstance(e, ev.ToolProgress)]
    assert progress and all(e.call_id == "x1" and e.name == EXPLORE for e in progress)
    shown = "".join(e.text for e in progress)
    assert "read_file a.txt" in shown and "read_file b.txt" in shown
    assert child.open_streams == 0


async def test_child_is_offered_read_tools_only_never_explore(tmp_path: Path) -> None:
    engine, _parent, child = setup(
        tmp_path,
        [{"tool_calls": [call(EXPLORE, {"task": "t"}, "x1")]}, {"text": "ok"}],
        [{"tool_calls": [call(EXPLORE, {"task": "recurse"})]}, {"text": "no luck"}],
    )
    await collect(engine.run("go"))
    offered = {t["function"]["name"] for t in child.requests[0].tools}
    assert "read_file" in offered and "list_files" in offered
    assert EXPLORE not in offered
    assert "write_file" not in offered
    assert not offered & {"ask_user", "propose_plan", "request_directory"}
    # Asked anyway, it is refused: no second child ever starts.
    child_results = [m for m in child.requests[1].messages if m.get("role") == "tool"]
    assert "unknown tool" in str(child_results[0].get("content"))
    assert len(child.requests) == 2
    assert tool_results(engine.history)["x1"] == "no luck"


async def test_child_write_and_read_outside_roots_are_refused(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    outside = tmp_path / "private.txt"
    outside.write_text("outside-the-roots\n")
    engine, _parent, child = setup(
        work,
        [{"tool_calls": [call(EXPLORE, {"task": "t"}, "x1")]}, {"text": "ok"}],
        [{"tool_calls": [call("write_file", {"path": "new.txt", "content": "x"}),
                         call("read_file", {"path": str(outside)})]},
         {"text": "could not"}],
    )
    await collect(engine.run("go"))
    assert not (work / "new.txt").exists()
    results = [m for m in child.requests[1].messages if m.get("role") == "tool"]
    assert len(results) == 2
    assert "unknown tool 'write_file'" in str(results[0].get("content"))
    assert str(results[1].get("content")).startswith("Not executed")
    assert "outside-the-roots" not in " ".join(str(m.get("content")) for m in results)


async def test_plan_mode_decider_refuses_a_write_tool_the_child_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Even a write tool that slipped into the child's set would be refused: plan mode
    # is read-only and there is no approver to ask.
    wrote: list[str] = []

    async def sneaky(args: dict[str, Any], ctx: ToolContext) -> str:
        wrote.append("x")
        return "wrote"

    engine, _parent, child = setup(
        tmp_path,
        [{"tool_calls": [call(EXPLORE, {"task": "t"}, "x1")]}, {"text": "ok"}],
        [{"tool_calls": [call("sneaky_write", {})]}, {"text": "refused"}],
        extra=[fake_tool("sneaky_write", sneaky, risk=RiskClass.WRITE_LOCAL, concurrent=False)],
    )
    monkeypatch.setattr(explore_mod, "child_tools", lambda parent: ToolRegistry(list(parent)))
    await collect(engine.run("go"))
    assert wrote == []
    results = [m for m in child.requests[1].messages if m.get("role") == "tool"]
    assert "plan mode is read-only" in str(results[0].get("content"))


async def test_two_explorers_run_concurrently(tmp_path: Path) -> None:
    barrier = asyncio.Barrier(2)

    async def probe(args: dict[str, Any], ctx: ToolContext) -> str:
        # Each child's probe passes only when the other child's probe is running too.
        await asyncio.wait_for(barrier.wait(), 30)
        return "met"

    engine, _parent, child = setup(
        tmp_path,
        [{"tool_calls": [call(EXPLORE, {"task": "one"}, "x1"),
                         call(EXPLORE, {"task": "two"}, "x2")]},
         {"text": "both done"}],
        [{"tool_calls": [call("probe", {})]}, {"text": "report"}],
        extra=[fake_tool("probe", probe)],
    )
    events = await collect(engine.run("go"))
    assert ended(events) == "completed"
    results = tool_results(engine.history)
    assert results["x1"] == "report" and results["x2"] == "report"
    assert len(child.requests) == 4


async def test_iteration_cap_stops_the_child(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    engine, _parent, child = setup(
        tmp_path,
        [{"tool_calls": [call(EXPLORE, {"task": "t"}, "x1")]}, {"text": "ok"}],
        [{"tool_calls": [call("read_file", {"path": "a.txt"})], "text": "still looking",
          "repeat": True}],
        cap=3,
    )
    events = await collect(engine.run("go"))
    assert ended(events) == "completed"
    assert len(child.requests) == 3
    result = tool_results(engine.history)["x1"]
    assert "stopped after 3 steps" in result and "still looking" in result


async def test_stop_during_a_child_stops_it_and_leaves_nothing_running(tmp_path: Path) -> None:
    started = asyncio.Event()

    async def slow_probe(args: dict[str, Any], ctx: ToolContext) -> str:
        started.set()
        return "ok"

    engine, _parent, child = setup(
        tmp_path,
        [{"tool_calls": [call(EXPLORE, {"task": "one"}, "x1"),
                         call(EXPLORE, {"task": "two"}, "x2")]},
         {"text": "never"}],
        # After its first step each child hangs inside its provider stream.
        [{"tool_calls": [call("slow_probe", {})]}, {"text": "late", "delay": 3600}],
        extra=[fake_tool("slow_probe", slow_probe)],
    )
    before = asyncio.all_tasks()
    child.waiting = asyncio.Event()
    events: list[ev.Event] = []

    async def run() -> None:
        async for event in engine.run("go"):
            events.append(event)

    task = asyncio.create_task(run())
    await asyncio.wait_for(started.wait(), 30)
    await asyncio.wait_for(child.waiting.wait(), 30)  # both children wait on the model
    engine.request_interrupt()
    await asyncio.wait_for(task, 30)
    assert ended(events) == "interrupted"
    assert child.open_streams == 0 and child.closed_early == 2
    statuses = {e.call_id: e.status for e in events if isinstance(e, ev.ToolFinished)}
    assert statuses == {"x1": "interrupted", "x2": "interrupted"}
    await asyncio.sleep(0)
    assert asyncio.all_tasks() - before - {asyncio.current_task()} == set()


async def test_runtime_sessions_explore_with_their_read_roots_in_plan_mode(
    isolated_state: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.md").write_text("renewal due in March\n")
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("not-for-the-explorer\n")
    script = tmp_path / "s.json"
    script.write_text(json.dumps({
        "advance": "history",
        "turns": [{"tool_calls": [call(EXPLORE, {"task": "read the notes"}, "x1")]},
                  {"text": "Done."}],
        "by_system": {EXPLORER_PROMPT[:30]: [
            {"tool_calls": [call("read_file", {"path": "notes.md"}),
                            call("read_file", {"path": str(secret)})]},
            {"text": "Notes: renewal due in March."},
        ]},
    }))
    rt = open_runtime()
    try:
        model = f"scripted:{script}"
        m = rt.session_manager(default_model=model)
        # The session itself may write without asking; its explorer still only reads.
        info = m.create_session(workspace=str(ws), mode="auto")
        assert EXPLORE in m.engine(info.id).tools
        events = [e async for e in m.run(info.id, "brief me")]
        assert ended(events) == "completed"
        finished = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
        assert finished["x1"].result == "Notes: renewal due in March."
        provider, _ = rt.router.resolve(model)
        assert isinstance(provider, ScriptedProvider)
        child = [r for r in provider.requests if r.system == EXPLORER_PROMPT]
        assert len(child) == 2
        offered = {t["function"]["name"] for t in child[0].tools}
        assert "read_file" in offered and EXPLORE not in offered
        assert not offered & {"write_file", "run_shell", "replace_in_file", "apply_patch"}
        results = [str(msg.get("content")) for msg in child[1].messages
                   if msg.get("role") == "tool"]
        assert "renewal due in March" in results[0]
        assert results[1].startswith("Not executed") and "not-for-the-explorer" not in results[1]
    finally:
        await rt.stop()
        rt.close()


class CountingProvider(ScriptedProvider):
    """The scripted provider, reporting ``tokens`` input and output tokens per call."""

    def __init__(self, *args: Any, tokens: int, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.tokens = tokens

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        from dataclasses import replace

        from openworker_qt.core.provider_api import FinishChunk

        async for chunk in super().stream(request):
            if isinstance(chunk, FinishChunk):
                chunk = replace(chunk, usage={"input_tokens": self.tokens,
                                              "output_tokens": self.tokens // 10})
            yield chunk


async def test_the_explorers_tokens_count_in_the_parents_usage(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    parent = CountingProvider(
        [{"tool_calls": [call(EXPLORE, {"task": "one"}, "x1"),
                         call(EXPLORE, {"task": "two"}, "x2")]},
         {"text": "Both done."}], tokens=1000)
    child = CountingProvider(
        [{"tool_calls": [call("read_file", {"path": "a.txt"})]}, {"text": "alpha"}],
        advance="history", tokens=300)
    resolver = StaticResolver(parent, child=child)
    registry = ToolRegistry(file_tools())
    registry.add(explore_tool(Explorer(
        resolver=resolver, model=lambda: "child:m",
        decider=lambda: PermissionEngine(workspace=tmp_path, mode="plan")), registry))
    engine = TurnEngine(session_id="s1", store=MemoryHistory(), resolver=resolver,
                        model="parent", tools=registry, decider=AllowAll(), workspace=tmp_path)
    events = await collect(engine.run("go"))
    end = events[-1]
    assert isinstance(end, ev.TurnEnded) and end.status == "completed"
    # Two parent calls and two explorers of two calls each.
    assert len(parent.requests) == 2 and len(child.requests) == 4
    assert end.usage == {"input_tokens": 2 * 1000 + 4 * 300,
                         "output_tokens": 2 * 100 + 4 * 30}
