"""MCP tools inside real turns (the engine, the runtime): a failing server never
hangs a turn, progress reaches the tool card, stopping the turn cancels the call,
and the window's runtime never waits for a server to start."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.mcp.manager import McpManager
from openworker_qt.mcp.status import State
from openworker_qt.runtime import open_runtime
from openworker_qt.storage.paths import app_paths
from tests.core.helpers import AllowAll, call, collect, make_engine
from tests.mcp.helpers import SERVERS, script, until


async def started(*configs) -> McpManager:
    manager = McpManager(list(configs), connect_timeout=20)
    await manager.start_all()
    await manager.wait_ready(30)
    return manager


def engine_with(manager: McpManager, turns: list[dict], tmp_path: Path):
    engine, _ = make_engine(turns, tmp_path, tools=[], decider=AllowAll())
    engine.tools = manager.attach(ToolRegistry())
    return engine


async def test_a_crashing_and_a_hanging_server_do_not_stop_the_turn(tmp_path: Path) -> None:
    manager = await started(script("behave", timeout=2))
    try:
        engine = engine_with(manager, [
            {"tool_calls": [call("mcp__behave__crash", {}, "c1")]},
            {"tool_calls": [call("mcp__behave__hang", {}, "c2")]},
            {"tool_calls": [call("mcp__behave__add", {"a": 20, "b": 22}, "c3")]},
            {"text": "All done."},
        ], tmp_path)
        events = await asyncio.wait_for(collect(engine.run("go")), 60)
        finished = [e for e in events if isinstance(e, ev.ToolFinished)]
        assert [f.status for f in finished] == ["error", "error", "ok"]
        assert "stopped while answering the call to crash" in finished[0].result
        assert "fatal: the crash tool was called" in finished[0].result
        assert "did not answer the call to hang within 2 s" in finished[1].result
        assert finished[2].result == "42"
        end = events[-1]
        assert isinstance(end, ev.TurnEnded) and end.status == "completed"
    finally:
        await manager.stop_all()


async def test_progress_is_a_tool_progress_event(tmp_path: Path) -> None:
    manager = await started(script("behave"))
    try:
        engine = engine_with(manager, [
            {"tool_calls": [call("mcp__behave__slow", {"steps": 3}, "c1")]}, {"text": "ok"},
        ], tmp_path)
        events = await asyncio.wait_for(collect(engine.run("go")), 60)
        progress = "".join(e.text for e in events if isinstance(e, ev.ToolProgress))
        assert "First use of slow from the MCP server behave" in progress
        assert "step 2 (2/3)" in progress
    finally:
        await manager.stop_all()


async def test_stopping_the_turn_cancels_the_call_on_the_server(tmp_path: Path) -> None:
    mark = tmp_path / "cancelled"
    manager = await started(script("behave", env={"CANCEL_MARK": str(mark)}))
    try:
        engine = engine_with(manager, [
            {"tool_calls": [call("mcp__behave__slow", {"steps": 60}, "c1")]}, {"text": "ok"},
        ], tmp_path)
        events: list[ev.Event] = []

        async def run() -> None:
            async for event in engine.run("go"):
                events.append(event)

        task = asyncio.ensure_future(run())
        await until(lambda: any(isinstance(e, ev.ToolProgress) and "(60/60)" in e.text
                                for e in events))
        engine.request_interrupt()
        await asyncio.wait_for(task, 30)
        await until(mark.exists)
        end = events[-1]
        assert isinstance(end, ev.TurnEnded) and end.status == "interrupted"
    finally:
        await manager.stop_all()


async def test_the_runtime_starts_servers_without_waiting_and_sessions_get_their_tools(
    tmp_path: Path,
) -> None:
    config_dir = app_paths().ensure().config
    servers = {
        "behave": {"command": str(Path(__import__("sys").executable)),
                   "args": [str(SERVERS / "behave.py")]},
        "slowpoke": {"command": str(Path(__import__("sys").executable)),
                     "args": [str(SERVERS / "hang_start.py")]},
    }
    (config_dir / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    runtime = open_runtime()
    try:
        manager = runtime.enable_mcp()
        assert sorted(manager.servers) == ["behave", "slowpoke"]
        assert "MCP server behave" in [s.name for s in runtime.services]
        failures = await asyncio.wait_for(runtime.start(), 10)
        assert failures == []
        # start() returned while the servers were still connecting (one never will).
        assert manager.servers["slowpoke"].status.state is State.STARTING
        sessions = runtime.session_manager()
        info = sessions.create_session(workspace=str(tmp_path))
        tools = sessions.engine(info.id).tools
        await until(lambda: manager.servers["behave"].status.state is State.READY)
        await until(lambda: "mcp__behave__add" in tools)  # added when the server came up
        # A persona without connected services (chat: no tools at all) gets none of them.
        chat = sessions.create_session(workspace=str(tmp_path))
        runtime.conversations.update_session(chat.id, persona="chat")
        assert "mcp__behave__add" not in sessions.engine(chat.id).tools
        assert list(sessions.engine(chat.id).tools) == []
    finally:
        await asyncio.wait_for(runtime.stop(), 30)
        runtime.close()
    assert manager.servers["behave"].status.state is State.STOPPED
