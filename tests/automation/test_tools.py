"""The agent's automation tools and self-wake, through real turns (scripted model,
real Runtime and SQLite, the inbox as the approver), including a restart."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.automation.service import AutomationService
from openworker_qt.automation.store import AutomationStore
from openworker_qt.automation.wakes import WakeStore
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.storage.paths import app_paths


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def script(tmp_path: Path, name: str, turns: list[dict[str, Any]]) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"advance": "history", "turns": turns}), encoding="utf-8")
    return f"scripted:{path}"


async def until(check: Any, limit: float = 10.0) -> Any:
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        value = check()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


def texts(rt: Runtime, sid: str) -> str:
    return json.dumps([m.get("content") for m in rt.conversations.load(sid)], ensure_ascii=False)


async def test_create_automation_asks_and_records_the_agent(tmp_path: Path) -> None:
    rt = open_runtime()
    model = script(tmp_path, "create", [
        {"tool_calls": [{"name": "create_automation", "arguments": {
            "name": "Standup", "prompt": "Summarise yesterday's commits.",
            "cron": "0 9 * * 1-5", "timezone": "Europe/Paris"}}]},
        {"tool_calls": [{"name": "create_automation", "arguments": {
            "name": "Broken", "prompt": "x", "cron": "0 99 * * *", "timezone": "UTC"}}]},
        {"text": "Scheduled."},
    ])
    manager = rt.session_manager(
        approver_for=lambda _i: InboxApprover(rt.inbox, wait=False), default_model=model)
    info = manager.create_session(workspace=str(tmp_path))
    statuses = [e.status for e in [e async for e in manager.run(info.id, "every weekday at 9")]
                if e.type == "turn_end"]
    assert statuses == ["suspended"]
    [item] = rt.inbox.pending(info.id)
    assert item.tool == "create_automation" and not item.can_always  # no "always" for this
    store = AutomationStore(rt.db)
    assert store.all() == []  # nothing before the user says yes
    rt.inbox.resolve(item.id, "once", by="cli")
    async for _ in manager.resume(info.id):
        pass
    [second] = rt.inbox.pending(info.id)  # the second create asks too
    rt.inbox.resolve(second.id, "once", by="cli")
    async for _ in manager.resume(info.id):
        pass
    [auto] = store.all()
    assert (auto.name, auto.created_by, auto.origin_session) == ("Standup", "agent", info.id)
    assert auto.described == "Every weekday at 09:00 (Europe/Paris)"
    assert "the hour field '99'" in texts(rt, info.id)
    rt.close()


async def test_sleep_for_resumes_after_the_timer_across_a_restart(tmp_path: Path) -> None:
    clock = Clock(time.time())
    rt = open_runtime()
    model = script(tmp_path, "nap", [
        {"tool_calls": [{"name": "sleep_for", "arguments": {"seconds": 600,
                                                            "note": "check the build"}}]},
        {"text": "Resting for ten minutes."},
        {"text": "Awake again: checking the build."},
    ])
    service = AutomationService(rt, clock=clock, default_model=model)
    rt.add_service(service)
    await rt.start()
    info = service.manager.create_session(workspace=str(tmp_path))
    async for _ in service.manager.run(info.id, "wait ten minutes, then check the build"):
        pass
    [wake] = WakeStore(rt.db).pending(info.id)
    assert wake.kind == "timer" and wake.fire_at == pytest.approx(wake.created_at + 600)
    clock.now = wake.created_at
    await rt.stop()
    rt.close()  # the app quits while the session sleeps

    clock.now += 300
    rt = open_runtime()
    service = AutomationService(rt, clock=clock, default_model=model)
    rt.add_service(service)
    await rt.start()
    assert await service.wake_due(clock.now) == []  # not yet
    clock.now += 301
    [woken] = await service.wake_due(clock.now)
    assert woken.id == wake.id
    await until(lambda: "Awake again" in texts(rt, info.id))
    assert "Woken up: the timer set for" in texts(rt, info.id)
    assert "check the build" in texts(rt, info.id)
    assert await service.wake_due(clock.now + 5) == []  # fired once
    await rt.stop()
    rt.close()


async def test_wake_on_a_background_task_in_process_and_across_a_restart(tmp_path: Path) -> None:
    app_paths().ensure().config_file.write_text(
        '[permissions]\nshell_allowlist = ["sleep"]\n', encoding="utf-8")
    rt = open_runtime()
    model = script(tmp_path, "job", [
        {"tool_calls": [{"name": "run_shell", "arguments": {
            "command": "sleep 0.3", "run_in_background": True}}]},
        {"tool_calls": [{"name": "wake_on", "arguments": {"task_id": "task-1"}}]},
        {"text": "Waiting for the job."},
        {"text": "The job is done."},
        {"tool_calls": [{"name": "run_shell", "arguments": {
            "command": "sleep 30", "run_in_background": True}}]},
        {"tool_calls": [{"name": "wake_on", "arguments": {"task_id": "task-2"}}]},
        {"text": "Waiting for the long job."},
        {"text": "Back after the restart."},
    ])
    service = AutomationService(rt, default_model=model)
    rt.add_service(service)
    await rt.start()
    info = service.manager.create_session(workspace=str(tmp_path))
    async for _ in service.manager.run(info.id, "run the job and tell me when it ends"):
        pass
    wakes = WakeStore(rt.db)
    assert [w.kind for w in wakes.pending(info.id)] == ["job"]
    await until(lambda: wakes.due(service.clock()))  # the task ended: due
    await service.wake_due(service.clock())
    await until(lambda: "The job is done." in texts(rt, info.id))
    assert "the background task task-1 finished" in texts(rt, info.id)

    async for _ in service.manager.run(info.id, "now the long one"):
        pass
    [long_wait] = wakes.pending(info.id)
    assert long_wait.job_id == "task-2" and long_wait.status == "pending"
    await rt.stop()  # the app quits: the task dies with it
    rt.close()

    rt = open_runtime()
    service = AutomationService(rt, default_model=model)
    rt.add_service(service)
    await rt.start()
    await service.wake_due(service.clock())
    await until(lambda: "Back after the restart." in texts(rt, info.id))
    assert WakeStore(rt.db).pending(info.id) == []
    await rt.stop()
    rt.close()


async def test_wake_on_event(tmp_path: Path) -> None:
    rt = open_runtime()
    model = script(tmp_path, "evt", [
        {"tool_calls": [{"name": "wake_on_event", "arguments": {"event": "invoice-paid"}}]},
        {"text": "I will wait for the payment."},
        {"text": "Payment seen."},
    ])
    service = AutomationService(rt, default_model=model)
    info = service.manager.create_session(workspace=str(tmp_path))
    async for _ in service.manager.run(info.id, "tell me when the invoice is paid"):
        pass
    assert await service.wake_due(service.clock()) == []
    assert service.fire_event("invoice-paid") == 1
    assert len(await service.wake_due(service.clock())) == 1
    await until(lambda: "Payment seen." in texts(rt, info.id))
    rt.close()


async def test_a_run_that_sleeps_goes_on_when_woken(tmp_path: Path) -> None:
    clock = Clock(time.time())
    rt = open_runtime()
    model = script(tmp_path, "run-nap", [
        {"tool_calls": [{"name": "sleep_for", "arguments": {"seconds": 120}}]},
        {"text": "Waiting two minutes for the data."},
        {"text": "The data is in: done."},
    ])
    service = AutomationService(rt, clock=clock)
    auto = service.store.create(name="Patient", prompt="wait for the data", tz="UTC",
                                cron="0 8 * * *", model=model, workspace=str(tmp_path))
    await service.run_now(auto.id)
    [run] = service.store.runs(auto.id)
    assert run.status == "running" and run.note.startswith("asleep until ")
    clock.now = time.time() + 121
    [wake] = await service.wake_due(clock.now)
    assert wake.session_id == run.session_id
    await until(lambda: service.store.run(run.id).status == "completed")
    assert "The data is in: done." in texts(rt, run.session_id or "")
    rt.close()
