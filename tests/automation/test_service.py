"""Automation runs as unattended sessions: a real Runtime, a real SQLite database,
the scripted provider, an EXTERNAL tool that records each real call."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from openworker_qt.automation.service import AutomationService
from openworker_qt.automation.store import Run
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry, ToolResult
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.runtime_tools import default_tools
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.storage.paths import app_paths

PARIS = ZoneInfo("Europe/Paris")
SENT: list[dict[str, Any]] = []


async def send_note(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    SENT.append({"session": ctx.session_id, **args})
    return ToolResult(f"sent to {args.get('channel')}")


def tools(info: SessionInfo) -> ToolRegistry:
    registry = default_tools(info)
    registry.add(Tool(
        name="send_note", description="Send a note to a channel.",
        parameters={"type": "object", "properties": {"channel": {"type": "string"},
                                                     "text": {"type": "string"}},
                    "required": ["channel", "text"]},
        handler=send_note, risk=RiskClass.EXTERNAL, target_arg="channel",
    ))
    return registry


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


BRIEF = {"advance": "history", "turns": [
    {"text": "Reading the notes.", "tool_calls": [
        {"name": "read_file", "arguments": {"path": "sales.txt"}},
        {"name": "read_file", "arguments": {"path": "tickets.txt"}}]},
    {"tool_calls": [{"name": "write_file", "arguments": {
        "path": "report.md", "content": "# Monday report\nsales up, 3 tickets\n"}}]},
    {"tool_calls": [{"name": "send_note", "arguments": {
        "channel": "#ops", "text": "The Monday report is in report.md"}}]},
    {"text": "Done: report written and sent."},
]}
HELLO = [{"text": "Hello from the other task."}]


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    SENT.clear()
    paths = app_paths().ensure()
    paths.config_file.write_text(
        '[permissions]\nmode = "custom"\nauto_allow = ["write_file"]\n', encoding="utf-8")
    rt = open_runtime(tools_for=tools)
    yield rt
    rt.close()


def scripts(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "sales.txt").write_text("sales up\n", encoding="utf-8")
    (tmp_path / "tickets.txt").write_text("3 tickets\n", encoding="utf-8")
    brief = tmp_path / "brief.json"
    brief.write_text(json.dumps(BRIEF), encoding="utf-8")
    hello = tmp_path / "hello.json"
    hello.write_text(json.dumps(HELLO), encoding="utf-8")
    return f"scripted:{brief}", f"scripted:{hello}"


async def until(check: Any, limit: float = 10.0) -> Any:
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        value = check()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


async def test_runs_are_sessions_parked_on_the_inbox_without_delaying_others(
    runtime: Runtime, tmp_path: Path
) -> None:
    brief_model, hello_model = scripts(tmp_path)
    clock = Clock(dt.datetime(2026, 12, 7, 7, 59, 30, tzinfo=PARIS).timestamp())
    service = AutomationService(runtime, clock=clock)
    told: list[tuple[str, str]] = []
    service.listeners.append(lambda run, auto: told.append((auto.name if auto else "", run.status)))
    store = service.store
    brief = store.create(name="Morning brief", prompt="Write the Monday report and send it.",
                         tz="Europe/Paris", cron="0 8 * * 1-5", model=brief_model,
                         workspace=str(tmp_path))
    other = store.create(name="Other", prompt="Say hello.", tz="Europe/Paris",
                         cron="1 8 * * *", model=hello_model, workspace=str(tmp_path))
    order: list[tuple[str, str]] = []
    service.manager.listeners.append(
        lambda e: order.append((e.type, getattr(e, "name", ""))) if e.type in (
            "tool_started", "tool_finished") else None)
    runtime.add_service(service)
    await runtime.start()
    clock.now += 40  # 08:00:10
    await service.scheduler.tick()
    run = await until(lambda: next((r for r in store.runs(brief.id) if r.status == "waiting"), None))
    assert run.session_id == f"__run__{run.id}"
    [item] = runtime.inbox.pending(run.session_id)
    assert item.tool == "send_note" and SENT == []
    assert (tmp_path / "report.md").read_text(encoding="utf-8").startswith("# Monday report")
    # The two reads ran at the same time: both started before either finished.
    assert order[:4] == [("tool_started", "read_file"), ("tool_started", "read_file"),
                         ("tool_finished", "read_file"), ("tool_finished", "read_file")]

    # The parked run does not hold up the next one.
    clock.now += 60
    await service.scheduler.tick()
    done = await until(lambda: next((r for r in store.runs(other.id)
                                     if r.status == "completed"), None))
    assert store.run(run.id).status == "waiting"
    assert done.session_id != run.session_id

    # The user approves, "always" (for this task): the send happens once, the run completes.
    assert runtime.inbox.resolve(item.id, "always", by="cli")
    finished: Run = await until(lambda: (r := store.run(run.id)) and r.status == "completed" and r)
    assert [s["channel"] for s in SENT] == ["#ops"]
    assert finished.deliverables == ["report.md"]
    transcript = runtime.conversations.load(run.session_id)
    assert "Done: report written and sent." in json.dumps([m.get("content") for m in transcript])
    assert ("Morning brief", "waiting") in told and ("Morning brief", "completed") in told
    # The "always" became a rule of the task (not of this one run's session) ...
    assert [r.scope for r in runtime.rules.list_rules(scope_id=brief.id)] == ["task"]
    assert runtime.rules.list_rules(scope="session") == []

    # ... so the next morning's run sends without asking.
    clock.now += 24 * 3600
    await service.scheduler.tick()
    second = await until(lambda: next((r for r in store.runs(brief.id)
                                       if r.id != run.id and r.status == "completed"), None))
    assert len(SENT) == 2 and SENT[1]["session"] == second.session_id
    assert runtime.inbox.pending(second.session_id) == []
    await runtime.stop()


async def test_run_now_a_run_cannot_schedule_and_failures_are_unseen(
    runtime: Runtime, tmp_path: Path
) -> None:
    script = tmp_path / "sneaky.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"name": "create_automation", "arguments": {
            "name": "x", "prompt": "y", "cron": "* * * * *", "timezone": "UTC"}}]},
        {"error": "the provider fell over", "error_kind": "server"},
    ]}), encoding="utf-8")
    service = AutomationService(runtime)
    auto = service.store.create(name="Sneaky", prompt="p", tz="UTC", cron="0 3 * * *",
                                model=f"scripted:{script}", workspace=str(tmp_path))
    await service.run_now(auto.id)
    [run] = service.store.runs(auto.id)
    assert run.trigger == "manual" and run.status == "failed"
    assert service.store.unseen_failures() == 1
    service.store.mark_seen(auto.id)
    assert service.store.unseen_failures() == 0
    results = [m for m in runtime.conversations.load(run.session_id or "")
               if m.get("role") == "tool"]
    assert "unknown tool" in json.dumps(results).lower() or "not available" in json.dumps(
        results).lower()
    assert [a.name for a in service.store.all()] == ["Sneaky"]


async def test_after_a_restart_a_run_resumed_by_the_window_is_not_failed(
    runtime: Runtime, tmp_path: Path
) -> None:
    """The window's own recovery and the automation service both try to resume a run
    left waiting: one drives it, the other's attempt must not mark it failed."""
    brief_model, _ = scripts(tmp_path)
    service = AutomationService(runtime)
    auto = service.store.create(name="Brief", prompt="p", tz="UTC", cron="0 8 * * *",
                                model=brief_model, workspace=str(tmp_path))
    runtime.add_service(service)
    await runtime.start()
    service.run_now(auto.id)
    [run] = await until(lambda: [r for r in service.store.runs(auto.id) if r.status == "waiting"])
    await runtime.stop()  # the app quits while the run waits: it resumes at the next start
    runtime.close()

    rt = open_runtime(tools_for=tools)
    window = rt.session_manager(approver_for=lambda _i: InboxApprover(rt.inbox, wait=True))
    service = AutomationService(rt)
    rt.add_service(service)
    attempts = window.recover()  # the window's recovery spawns its resume first ...
    attempts += service.recover()  # ... and the service's tries too: one of them drives it
    assert attempts
    await rt.start()  # (its start looks again)
    # The driver is parked on the ask again, every other attempt has ended.
    await until(lambda: rt.inbox.pending(run.session_id)
                and sum(not task.done() for task in attempts) <= 1)
    assert service.store.run(run.id).status == "waiting"
    [item] = rt.inbox.pending(run.session_id)
    rt.inbox.resolve(item.id, "once", by="window")
    await until(lambda: service.store.run(run.id).status == "completed")
    assert [s["channel"] for s in SENT] == ["#ops"]
    await rt.stop()
    rt.close()
