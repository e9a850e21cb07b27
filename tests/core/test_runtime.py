"""The Runtime: one composition of the core services for every surface, and the
lifecycle that MCP clients, connectors and the scheduler plug into.

The ``serve``-shaped test runs a headless host in a fresh process
(``serve_child.py``) so that "no Qt" is checked on a clean ``sys.modules``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest
from openworker_qt.runtime import LifecycleService, Runtime, open_runtime

REPO = Path(__file__).resolve().parents[2]


def test_a_serve_shaped_host_runs_a_turn_and_its_services_without_qt(
    tmp_path: Path, isolated_state: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    env = dict(os.environ, OPENWORKER_HOME=str(isolated_state))
    env.pop("QT_QPA_PLATFORM", None)
    done = subprocess.run(
        [sys.executable, "-m", "tests.core.serve_child", str(workspace)], cwd=REPO, env=env,
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["qt_modules"] == []  # no PySide6, shiboken6 or qasync was ever imported
    # Services start in order; one failing does not stop the rest; stop runs in
    # reverse over the started ones only, and a hanging stop is cut off.
    assert out["journal"] == [
        "start scheduler", "start mcp", "start slack", "start mail",
        "stop mail", "stop slack", "stop scheduler",
    ]
    assert out["start_failures"] == [["mcp", "start", "mcp cannot reach its server"]]
    assert out["stop_failures"] == [["slack", "stop", "did not stop within 0.2 s"]]
    assert out["running_after_stop"] == []
    # The scripted demo turn: a read ran, the write parked in the inbox, was
    # answered there, and the resumed turn wrote the file and completed.
    assert out["statuses"] == ["suspended", "completed"]
    assert out["parked"] == ["write_file"]
    assert out["tools"] == [["list_files", "ok"], ["write_file", "ok"]]
    assert out["written"].startswith("# Hello from OpenWorker Qt")
    log = (isolated_state / "logs" / "openworker-qt.log").read_text(encoding="utf-8")
    assert "service mcp failed to start: mcp cannot reach its server" in log
    assert "service slack failed to stop" in log


class Recorder:
    """A lifecycle service that records what happens to it."""

    def __init__(self, name: str, journal: list[str], *, start_error: Exception | None = None,
                 start_hangs: bool = False, stop_error: Exception | None = None) -> None:
        self.name = name
        self.journal = journal
        self.start_error = start_error
        self.start_hangs = start_hangs
        self.stop_error = stop_error

    async def start(self) -> None:
        self.journal.append(f"start {self.name}")
        if self.start_hangs:
            await asyncio.Event().wait()
        if self.start_error is not None:
            raise self.start_error

    async def stop(self) -> None:
        self.journal.append(f"stop {self.name}")
        if self.stop_error is not None:
            raise self.stop_error


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    rt = open_runtime()
    yield rt
    rt.close()


async def test_start_order_failures_and_reverse_stop(runtime: Runtime) -> None:
    journal: list[str] = []
    services = [
        Recorder("a", journal),
        Recorder("hangs", journal, start_hangs=True),
        Recorder("raises", journal, start_error=RuntimeError("bad config")),
        Recorder("b", journal, stop_error=OSError("socket already gone")),
        Recorder("c", journal),
    ]
    for service in services:
        assert isinstance(service, LifecycleService)
        runtime.add_service(service)
    failures = await runtime.start(service_timeout=0.05)
    assert [(f.name, f.phase) for f in failures] == [("hangs", "start"), ("raises", "start")]
    assert failures[0].message == "did not start within 0.05 s"
    assert failures[1].message == "bad config"
    assert runtime.running_services == ["a", "b", "c"]
    assert await runtime.start() == []  # starting twice does nothing
    with pytest.raises(RuntimeError, match="before start"):
        runtime.add_service(Recorder("late", journal))

    stop_failures = await runtime.stop()
    assert [(f.name, f.phase, f.message) for f in stop_failures] == [
        ("b", "stop", "socket already gone")]
    assert journal == ["start a", "start hangs", "start raises", "start b", "start c",
                       "stop c", "stop b", "stop a"]  # only started services are stopped
    assert [f.name for f in runtime.failures] == ["hangs", "raises", "b"]
    assert await runtime.stop() == [] and journal[-1] == "stop a"  # idempotent


class Spawner:
    """A service whose start makes a task, then waits (as the scheduler's does
    before its first tick): cut off mid-start, its stop must still end that task."""

    def __init__(self, journal: list[str]) -> None:
        self.name = "spawner"
        self.journal = journal
        self.task: asyncio.Task[None] | None = None
        self.waiting = asyncio.Event()

    async def start(self) -> None:
        self.journal.append("start spawner")
        self.task = asyncio.ensure_future(asyncio.Event().wait())
        self.waiting.set()
        await asyncio.Event().wait()

    async def stop(self) -> None:
        self.journal.append("stop spawner")
        if self.task is not None:
            self.task.cancel()
            await asyncio.wait([self.task])


async def test_a_stop_during_the_start_ends_it_and_stops_what_it_made(runtime: Runtime) -> None:
    journal: list[str] = []
    spawner = Spawner(journal)
    for service in (Recorder("a", journal), spawner, Recorder("never", journal)):
        runtime.add_service(service)
    starting = asyncio.ensure_future(runtime.start())
    await spawner.waiting.wait()
    assert await runtime.stop() == []
    assert await starting == []  # ended by the stop, not cancelled
    assert journal == ["start a", "start spawner", "stop spawner", "stop a"]
    assert spawner.task is not None and spawner.task.cancelled()
    assert runtime.running_services == []


async def test_a_cancelled_start_stops_the_service_it_was_starting(runtime: Runtime) -> None:
    journal: list[str] = []
    spawner = Spawner(journal)
    for service in (Recorder("a", journal), spawner, Recorder("never", journal)):
        runtime.add_service(service)
    starting = asyncio.ensure_future(runtime.start())
    await spawner.waiting.wait()
    starting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await starting
    assert journal == ["start a", "start spawner", "stop spawner"]
    assert spawner.task is not None and spawner.task.cancelled()
    assert runtime.running_services == ["a"]  # started: the runtime's stop stops it
    await runtime.stop()
    assert journal[-1] == "stop a" and runtime.running_services == []


async def test_a_cancel_as_a_service_started_starts_no_further_service(
    runtime: Runtime,
) -> None:
    journal: list[str] = []
    started = asyncio.Event()

    class Quick(Recorder):
        async def start(self) -> None:
            await super().start()
            started.set()

    runtime.add_service(Quick("quick", journal))
    runtime.add_service(Recorder("next", journal))
    starting = asyncio.ensure_future(runtime.start())
    await started.wait()  # its start has returned; the runtime has not looked yet
    starting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await starting
    assert "start next" not in journal
    await runtime.stop()
    assert journal[-1] == "stop quick"  # started (or stopped as cut off): stopped once
    assert journal.count("stop quick") == 1


async def test_stop_winds_down_turns_before_services_stop(
    runtime: Runtime, tmp_path: Path
) -> None:
    script = tmp_path / "slow.json"
    script.write_text(json.dumps([{"chunks": ["a"] * 200, "delay": 0.01}]), encoding="utf-8")
    manager = runtime.session_manager(default_model=f"scripted:{script}")
    seen_running: list[bool] = []
    info = manager.create_session(workspace=str(tmp_path))

    class Connector:
        name = "connector"

        async def start(self) -> None:
            pass

        async def stop(self) -> None:
            seen_running.append(manager.is_running(info.id))

    runtime.add_service(Connector())
    await runtime.start()
    streaming = asyncio.Event()
    manager.listeners.append(
        lambda e: streaming.set() if isinstance(e, ev.AssistantDelta) else None)
    task = manager.send(info.id, "go")
    assert task is not None
    await streaming.wait()
    await runtime.stop(grace=5.0)
    assert seen_running == [False]  # the turn had ended when the service stopped
    assert task.done() and task.result() == "interrupted"


async def test_the_session_manager_carries_the_surface_policy_and_the_core_services(
    runtime: Runtime, tmp_path: Path
) -> None:
    asked: list[str] = []

    async def deny(request: ApprovalRequest) -> ApprovalOutcome:
        asked.append(request.tool)
        return ApprovalOutcome.DENY

    script = tmp_path / "write.json"
    script.write_text(json.dumps([
        {"tool_calls": [{"name": "write_file", "arguments": {"path": "x.txt", "content": "x"}}]},
        {"text": "ok"},
    ]), encoding="utf-8")
    manager = runtime.session_manager(approver_for=lambda _info: deny,
                                      default_model=f"scripted:{script}", max_iterations=7)
    assert manager.max_iterations == 7 and manager in runtime.managers
    info = manager.create_session(workspace=str(tmp_path))
    events = [e async for e in manager.run(info.id, "write x")]
    finished = [e for e in events if isinstance(e, ev.ToolFinished)]
    assert [e.status for e in finished] == ["denied"]
    assert asked == ["write_file"] and not (tmp_path / "x.txt").exists()
    # The runtime's permission engine asked, its audit log recorded the answer.
    assert runtime.audit.stages(info.id, finished[0].call_id)


async def test_stop_while_the_shell_tools_are_still_being_imported(
        runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker thread imports the tools after the first paint: a quit meanwhile finds
    # the module in sys.modules without its functions yet (and nothing of it open).
    import types

    monkeypatch.setitem(sys.modules, "openworker_qt.tools.shell",
                        types.ModuleType("openworker_qt.tools.shell"))
    await runtime.start()
    assert await runtime.stop(grace=1.0) == []  # nothing failed to stop
