"""A scheduled task's shell ask: "always for this task: this exact command" (from the
CLI, the inbox and the Automations window), listed with the task and removable; a
fire while the ask waits is skipped, saying so. A real Runtime, real SQLite, real
bash, the scripted provider, the CLI as a subprocess."""

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
from openworker_qt.automation.store import AutomationError, AutomationStore
from openworker_qt.core.approvals import ApprovalOutcome, ToolCallInfo
from openworker_qt.core.inbox import Inbox, InboxError, resolution_for, task_command
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import app_paths
from tests.cli.test_cli import owq

PARIS = ZoneInfo("Europe/Paris")
COMMAND = "printf 'report\\n' >> out.txt"


def shell_call(command: str, *, session: str = "s1", cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo(session, cid, "run_shell", {"command": command}, RiskClass.EXEC,
                        target=command, needs_approval=True)


def test_always_for_this_task_binds_the_exact_command_to_the_task(tmp_path: Path) -> None:
    rules = StandingRuleStore(Database(tmp_path / "a.db"))

    def engine(task: str | None) -> PermissionEngine:
        return PermissionEngine(workspace=tmp_path, mode="custom", rules=rules, task_id=task)

    first = engine("task-1")
    asked = first.evaluate(shell_call(COMMAND))
    assert asked.needs_user and not asked.can_always
    first.remember(shell_call(COMMAND), ApprovalOutcome.ALWAYS_COMMAND)
    [rule] = rules.list_rules(scope="task", scope_id="task-1")
    assert (rule.tool, rule.target) == ("run_shell", COMMAND)
    # A later run of the task (another session, another engine) runs it without asking ...
    later = engine("task-1").evaluate(shell_call(COMMAND, session="s2"))
    assert later.allowed and later.rule == f"run_shell → {COMMAND}"
    assert "scheduled task" in later.reason
    # ... but only that exact command, only in that task, and not in a window session.
    assert engine("task-1").evaluate(shell_call(COMMAND + " ", session="s2")).needs_user
    assert engine("task-1").evaluate(shell_call("rm -rf out.txt", session="s2")).needs_user
    assert engine("task-2").evaluate(shell_call(COMMAND, session="s3")).needs_user
    assert engine(None).evaluate(shell_call(COMMAND, session="s4")).needs_user
    # Outside a task the same answer is this session's, in memory, as before.
    plain = engine(None)
    plain.remember(shell_call(COMMAND, session="s5"), ApprovalOutcome.ALWAYS_COMMAND)
    assert plain.evaluate(shell_call(COMMAND, session="s5")).allowed
    assert rules.list_rules(scope="session") == []
    # A rule removed: the task asks again.
    rules.revoke(rule.id)
    assert engine("task-1").evaluate(shell_call(COMMAND, session="s6")).needs_user


def test_approve_always_on_a_tasks_shell_ask_and_nowhere_else(tmp_path: Path) -> None:
    inbox = Inbox(Database(tmp_path / "a.db"))
    task_ask = inbox.add("approval", "s1", tool_call_id="c1", tool="run_shell",
                         arguments={"command": COMMAND}, risk="exec", target=COMMAND,
                         task_id="task-1")
    window_ask = inbox.add("approval", "s2", tool_call_id="c1", tool="run_shell",
                           arguments={"command": COMMAND}, risk="exec", target=COMMAND)
    assert task_command(task_ask) == COMMAND and task_command(window_ask) is None
    assert resolution_for(task_ask, "always") == "always_command"
    with pytest.raises(InboxError, match="cannot be allowed always"):
        resolution_for(window_ask, "always")


# ------------------------------------------------------------ through a real run


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    paths = app_paths().ensure()
    paths.config_file.write_text('[permissions]\nmode = "custom"\n', encoding="utf-8")
    rt = open_runtime()
    yield rt
    rt.close()


async def until(check: Any, limit: float = 20.0) -> Any:
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        value = check()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


async def test_a_tasks_shell_ask_skips_later_fires_and_always_lets_later_runs_run(
        runtime: Runtime, tmp_path: Path) -> None:
    script = tmp_path / "report.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"name": "run_shell", "arguments": {"command": COMMAND}}]},
        {"text": "Report appended."}]}), encoding="utf-8")
    clock = Clock(dt.datetime(2026, 12, 7, 7, 59, 30, tzinfo=PARIS).timestamp())
    service = AutomationService(runtime, clock=clock)
    store = service.store
    auto = store.create(name="Report", prompt="Append the report.", tz="Europe/Paris",
                        cron="*/5 * * * *", model=f"scripted:{script}", workspace=str(tmp_path))
    runtime.add_service(service)
    await runtime.start()
    try:
        clock.now += 40  # 08:00:10
        await service.scheduler.tick()
        first = await until(lambda: next((r for r in store.runs(auto.id)
                                          if r.status == "waiting"), None))
        [ask] = runtime.inbox.pending(first.session_id)
        assert ask.tool == "run_shell" and ask.task_id == auto.id
        assert not (tmp_path / "out.txt").exists()

        # The next fire, while the ask waits: skipped, saying what it waits for.
        clock.now += 300  # 08:05:10
        await service.scheduler.tick()
        skipped = next(r for r in store.runs(auto.id) if r.status == "skipped")
        assert skipped.note == f"waiting for your answer on #{ask.id}, asked by run {first.id}"
        shown = (await asyncio.to_thread(owq, "automations", "show", auto.id, cwd=tmp_path)).stdout
        assert f"skipped — waiting for your answer on #{ask.id}, asked by run {first.id}" in shown
        assert "Allowed without asking: nothing" in shown

        # `approve N --always` from another process: the run goes on, the rule is the task's.
        approved = await asyncio.to_thread(owq, "approve", str(ask.id), "--always", cwd=tmp_path)
        assert approved.returncode == 0, approved.stderr
        assert approved.stdout.strip() == (
            f"#{ask.id} approved. From now on this automation runs `{COMMAND}` without asking "
            "(`openworker-qt automations show` lists it, `forget` removes it).")
        await until(lambda: (r := store.run(first.id)) is not None and r.status == "completed")
        assert (tmp_path / "out.txt").read_text() == "report\n"
        [rule] = store.allowed(auto.id)
        assert (rule.tool, rule.target) == ("run_shell", COMMAND)
        shown = (await asyncio.to_thread(owq, "automations", "show", auto.id, cwd=tmp_path)).stdout
        assert f"#{rule.id}  run the command `{COMMAND}`" in shown

        # The next fire runs the command without asking.
        clock.now += 300  # 08:10:10
        await service.scheduler.tick()
        third = await until(lambda: next((r for r in store.runs(auto.id) if r.id > skipped.id
                                          and r.status == "completed"), None))
        assert runtime.inbox.pending(third.session_id) == []
        assert (tmp_path / "out.txt").read_text() == "report\nreport\n"

        # Removed with the CLI: the following run asks again.
        forgot = await asyncio.to_thread(owq, "automations", "forget", auto.id, str(rule.id),
                                         cwd=tmp_path)
        assert forgot.returncode == 0, forgot.stderr
        assert "Its runs will ask again." in forgot.stdout
        assert store.allowed(auto.id) == []
        clock.now += 300  # 08:15:10
        await service.scheduler.tick()
        fourth = await until(lambda: next((r for r in store.runs(auto.id) if r.id > third.id
                                           and r.status == "waiting"), None))
        assert [i.tool for i in runtime.inbox.pending(fourth.session_id)] == ["run_shell"]
    finally:
        await runtime.stop()


def test_forgetting_a_rule_of_another_task_is_refused(tmp_path: Path) -> None:
    db = Database(tmp_path / "a.db")
    store = AutomationStore(db)
    one = store.create(name="One", prompt="p", tz="Europe/Paris", cron="0 8 * * *",
                       grants=["send_message slack:C1"])
    two = store.create(name="Two", prompt="p", tz="Europe/Paris", cron="0 9 * * *")
    [rule] = store.allowed(one.id)
    with pytest.raises(AutomationError, match="no rule #"):
        store.forget_rule(two.id, rule.id)
    assert store.allowed(one.id) == [rule]
