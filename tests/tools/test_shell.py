"""run_shell and the background-task tools, against a real bash."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext
from openworker_qt.runtime_tools import default_tools
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.tools.shell import (
    MAX_TIMEOUT,
    ShellState,
    close_shell_state,
    shell_state,
    shell_tools,
)
from tests.core.helpers import AllowAll, call, make_engine

TOOLS = {t.name: t for t in shell_tools(max_output=200)}


@pytest.fixture
async def ctx(tmp_path: Path) -> AsyncIterator[ToolContext]:
    context = ToolContext("s1", tmp_path)
    yield context
    await close_shell_state(context.state)


async def run(ctx: ToolContext, name: str = "run_shell", **args: Any) -> dict[str, Any]:
    result = await TOOLS[name].handler(args, ctx)
    assert not isinstance(result, str)
    if result.content.startswith("Error:"):
        return {"error": result.content}
    payload: dict[str, Any] = json.loads(result.content)
    return payload


def process_groups() -> dict[int, set[int]]:
    """Live (not zombie) processes by process group, as ps lists them."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,stat="], capture_output=True, text=True,
                         check=True).stdout
    groups: dict[int, set[int]] = {}
    for line in out.splitlines():
        pid, pgid, stat = line.split(None, 2)
        if not stat.startswith("Z"):
            groups.setdefault(int(pgid), set()).add(int(pid))
    return groups


def _wait_for_text(path: Path) -> str:
    while not path.exists() or not path.read_text().strip():
        time.sleep(0.01)
    return path.read_text()


async def wait_for_text(path: Path) -> str:
    """The text a command wrote to ``path`` (waits, off the loop, until it is there)."""
    return await asyncio.wait_for(asyncio.to_thread(_wait_for_text, path), 20)


def alive(pid: int, *, group: bool = False) -> bool:
    """Whether ``pid`` (or any process of the group ``pid``) still runs. A SIGKILL sent
    a moment ago may take a moment to land: waits up to 10 s for it to be gone."""
    for _ in range(1000):
        live = process_groups()
        if not (pid in live if group else any(pid in pids for pids in live.values())):
            return False
        time.sleep(0.01)
    return True


async def test_cd_and_exports_persist(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert (await run(ctx, command="cd sub && export OW_FOO='a b'"))["exit_code"] == 0
    got = await run(ctx, command='pwd; echo "$OW_FOO"')
    assert got["output"] == f"{tmp_path / 'sub'}\na b\n"
    assert got["cwd"] == str(tmp_path / "sub")


async def test_exit_codes_and_stderr(ctx: ToolContext) -> None:
    assert (await run(ctx, command="true"))["exit_code"] == 0
    got = await run(ctx, command="echo out; echo err >&2; exit_with() { return 1; }; exit_with")
    assert got["exit_code"] == 1 and got["output"] == "out\nerr\n"
    assert (await run(ctx, command="false"))["exit_code"] == 1


async def test_stdin_is_closed(ctx: ToolContext) -> None:
    got = await run(ctx, command="cat; echo done")
    assert got == {**got, "exit_code": 0, "output": "done\n", "timed_out": False}


async def test_the_command_text_runs_verbatim(ctx: ToolContext, tmp_path: Path) -> None:
    # Quotes, $-words and a multi-line script reach bash once, as written.
    script = "x='$HOME'\nprintf '%s|' \"$x\" '$(id)' \\\n  \"a  b\"\necho"
    assert (await run(ctx, command=script))["output"] == "$HOME|$(id)|a  b|\n"
    # A command that is not finished (an open quote) fails alone; the shell goes on.
    broken = await run(ctx, command="echo 'open")
    assert broken["exit_code"] == 2 and "matching" in broken["output"]
    assert (await run(ctx, command="echo still here"))["output"] == "still here\n"


async def test_timeout_kills_the_command_and_the_shell_survives(ctx: ToolContext,
                                                                tmp_path: Path) -> None:
    await run(ctx, command="cd /tmp && export OW_KEEP=1")
    started = time.monotonic()
    got = await run(ctx, command=f"sh -c 'echo $$ > {tmp_path}/pid; exec sleep 5'",
                    timeout_seconds=1)
    assert got["timed_out"] is True and got["exit_code"] is None
    assert time.monotonic() - started < 4  # the reference behaviour's own bound
    assert not alive(int((tmp_path / "pid").read_text()))
    after = await run(ctx, command='pwd; echo "$OW_KEEP"')
    assert after["output"] == "/tmp\n1\n" and after["exit_code"] == 0


async def test_a_command_that_never_ends_in_bash_itself(ctx: ToolContext) -> None:
    got = await run(ctx, command="while :; do :; done", timeout_seconds=0.5)
    assert got["timed_out"] is True
    assert (await run(ctx, command="echo ok"))["output"] == "ok\n"


async def test_large_output_keeps_the_tail(ctx: ToolContext) -> None:
    got = await run(ctx, command="seq 1 100000")
    assert got["truncated"] is True and len(got["output"]) <= 200
    assert got["output"].endswith("\n99999\n100000\n")
    assert not got["output"].split("\n")[1:].__contains__("1")
    assert "earlier output cut" in got["output"]


async def test_exit_in_a_command_respawns_the_shell(ctx: ToolContext) -> None:
    await run(ctx, command="cd / && export OW_X=7")
    assert (await run(ctx, command="exit 3"))["exit_code"] == 3
    assert (await run(ctx, command='pwd; echo "$OW_X"'))["output"] == "/\n7\n"


async def test_a_huge_timeout_is_clamped_and_description_accepted(ctx: ToolContext) -> None:
    got = await run(ctx, command="echo hi", timeout_seconds=10**12, description="say hi")
    assert got["output"] == "hi\n"
    props = TOOLS["run_shell"].parameters["properties"]
    assert "description" in props and MAX_TIMEOUT <= 600


async def test_bad_input_is_refused(ctx: ToolContext) -> None:
    assert "non-empty" in (await run(ctx, command=""))["error"]
    assert "NUL" in (await run(ctx, command="echo \x00"))["error"]
    assert "unknown task 'task-9'" in (await run(ctx, "shell_task_output", task_id="task-9"))["error"]
    assert "unknown task" in (await run(ctx, "shell_task_kill", task_id="nope"))["error"]


def _info(tool: Tool, args: dict[str, Any]) -> ToolCallInfo:
    return ToolCallInfo("s1", "c1", tool.name, args, tool.risk_class(),
                        target=tool.target(args), needs_approval=tool.needs_approval)


def test_risks_and_approval(tmp_path: Path) -> None:
    registry = {t.name: t for t in shell_tools()}
    assert registry["run_shell"].risk is RiskClass.EXEC
    for name in ("shell_task_output", "shell_task_kill", "shell_tasks"):
        assert registry[name].risk is RiskClass.READ
    engine = PermissionEngine(workspace=tmp_path, shell_allowlist=("echo",))
    asked = engine.evaluate(_info(registry["run_shell"], {"command": "touch x"}))
    assert not asked.allowed and asked.needs_user
    assert engine.evaluate(_info(registry["run_shell"], {"command": "echo hi"})).allowed
    assert engine.evaluate(_info(registry["shell_task_output"], {"task_id": "task-1"})).allowed
    assert engine.evaluate(_info(registry["shell_task_kill"], {"task_id": "task-1"})).allowed
    names = default_tools(SessionInfo("s", "", "", "default", "interactive", "", False, "idle",
                                      0.0, 0.0)).names()
    assert {"run_shell", "shell_task_output", "shell_task_kill", "shell_tasks"} <= set(names)


async def test_background_task_reads_are_incremental(ctx: ToolContext, tmp_path: Path) -> None:
    await run(ctx, command="cd / && export OW_BG=from-shell")
    started = await run(ctx, command='echo one; echo "$OW_BG"; pwd; exit 4',
                        run_in_background=True)
    assert started["status"] == "running" and started["task_id"] == "task-1"
    first = await run(ctx, "shell_task_output", task_id="task-1", wait_seconds=10)
    assert first["output"] == "one\nfrom-shell\n/\n"
    assert first["status"] == "exited" and first["exit_code"] == 4
    again = await run(ctx, "shell_task_output", task_id="task-1")
    assert again["output"] == "" and again["status"] == "exited"
    listed = await run(ctx, "shell_tasks")
    assert listed["tasks"][0]["task_id"] == "task-1"


async def test_kill_a_background_task(ctx: ToolContext, tmp_path: Path) -> None:
    await run(ctx, command=f"sh -c 'echo $$ > {tmp_path}/bgpid; exec sleep 60' & wait",
              run_in_background=True)
    child = int(await wait_for_text(tmp_path / "bgpid"))
    assert (await run(ctx, "shell_task_output", task_id="task-1"))["status"] == "running"
    killed = await run(ctx, "shell_task_kill", task_id="task-1")
    assert killed["status"] == "killed"
    later = await run(ctx, "shell_task_output", task_id="task-1", wait_seconds=5)
    assert later["status"] == "exited" and later["killed"] is True
    assert not alive(child)


async def test_a_flooding_task_keeps_only_a_capped_tail(ctx: ToolContext) -> None:
    await run(ctx, command="yes flood | head -c 20000000; echo END", run_in_background=True)
    got = await run(ctx, "shell_task_output", task_id="task-1", wait_seconds=30)
    assert got["status"] == "exited" and got["truncated"] is True
    assert got["output"].endswith("END\n") and len(got["output"]) <= 200
    task = shell_state(ctx).tasks["task-1"]
    assert len(task.unread.data) == 0 and task.unread.keep <= 256 * 1024


async def test_nothing_is_left_running_after_close(tmp_path: Path) -> None:
    context = ToolContext("s1", tmp_path)
    await run(context, command="sleep 300 & echo started")  # a straggler in the shell's group
    await run(context, command="sleep 300", run_in_background=True)
    await run(context, command="sleep 300 | cat", run_in_background=True)
    state = context.state["shell"]
    assert isinstance(state, ShellState)
    groups = [t.proc.pid for t in state.tasks.values()]
    assert state.shell.pid is not None
    groups.append(state.shell.pid)
    live = process_groups()
    assert all(g in live for g in groups)
    await close_shell_state(context.state)
    assert [g for g in groups if alive(g, group=True)] == []
    assert "shell" not in context.state


async def test_stop_kills_the_running_command_at_once(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    command = f"sh -c 'echo $$ > {pidfile}; exec sleep 60'"
    engine, _ = make_engine(
        [{"tool_calls": [call("run_shell", {"command": command}, cid="t1")]}, {"text": "x"}],
        tmp_path, tools=shell_tools(), decider=AllowAll(),
    )

    async def stop_when_running() -> None:
        await wait_for_text(pidfile)
        engine.request_interrupt()

    events: list[ev.Event] = []
    stopper: asyncio.Task[None] | None = None
    try:
        async with asyncio.timeout(20):
            async for event in engine.run("go"):
                events.append(event)
                if isinstance(event, ev.ToolStarted):
                    stopper = asyncio.ensure_future(stop_when_running())
        assert stopper is not None and stopper.done()
        assert events[-1].status == "interrupted"
        assert not alive(int(pidfile.read_text()))
        # The shell comes back for the next call.
        ctx = ToolContext("s1", tmp_path, engine.tool_state)
        assert (await run(ctx, command="echo back"))["output"] == "back\n"
    finally:
        await close_shell_state(engine.tool_state)


async def test_output_streams_into_the_call_while_it_runs(tmp_path: Path) -> None:
    engine, _ = make_engine(
        [{"tool_calls": [call("run_shell", {"command": "echo one; sleep 0.3; echo two"},
                              cid="t1")]}, {"text": "done"}],
        tmp_path, tools=shell_tools(), decider=AllowAll(),
    )
    try:
        events = [e async for e in engine.run("go")]
    finally:
        await close_shell_state(engine.tool_state)
    order = [e.type for e in events if e.type.startswith("tool_")]
    progress = [e for e in events if isinstance(e, ev.ToolProgress)]
    assert progress and progress[0].text == "one" and progress[0].call_id == "t1"
    assert order.index("tool_progress") < order.index("tool_finished")
    finished = next(e for e in events if isinstance(e, ev.ToolFinished))
    assert json.loads(finished.result)["output"] == "one\ntwo\n"


QUITTER = """
import asyncio, sys
from pathlib import Path
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.shell import shell_state

async def main() -> None:
    state = shell_state(ToolContext("s1", Path(sys.argv[1])))
    await state.shell.run("sleep 300 & true")
    task = await state.start_task("sleep 300")
    print(state.shell.pid, task.proc.pid, flush=True)

asyncio.run(main())  # and quit without closing anything
"""


def test_nothing_is_left_running_when_the_app_quits(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", QUITTER, str(tmp_path)], capture_output=True,
                         text=True, check=True, timeout=60, env={**os.environ})
    shell_group, task_group = (int(x) for x in out.stdout.split())
    assert not alive(shell_group, group=True)
    assert not alive(task_group, group=True)


async def test_the_runtime_stopping_closes_every_sessions_shell(tmp_path: Path) -> None:
    from openworker_qt.tools.shell import close_all

    contexts = [ToolContext(f"s{i}", tmp_path) for i in range(2)]
    groups = []
    for context in contexts:
        await run(context, command="sleep 300", run_in_background=True)
        await run(context, command="true")
        state = context.state["shell"]
        assert isinstance(state, ShellState) and state.shell.pid is not None
        groups += [state.shell.pid, state.tasks["task-1"].proc.pid]
    await close_all()  # what Runtime.stop calls
    assert [g for g in groups if alive(g, group=True)] == []


ESCAPE = "setsid sh -c 'echo $$ > {pidfile}; exec sleep 300'"


@pytest.mark.parametrize("how", ["{escape} &", "({escape} &)", "nohup {escape} >/dev/null 2>&1 &"])
async def test_a_process_that_left_the_group_is_killed_with_the_shell(
        tmp_path: Path, how: str) -> None:
    """``setsid`` puts a child in a new session (out of the shell's process group); a
    double fork also leaves it without a parent in the shell. Closing still ends it."""
    pidfile = tmp_path / "pid"
    context = ToolContext("s1", tmp_path)
    command = how.format(escape=ESCAPE.format(pidfile=pidfile))
    try:
        assert "exit_code" in await run(context, command=command)
        pid = int(await wait_for_text(pidfile))
        state = context.state["shell"]
        assert isinstance(state, ShellState) and state.shell.pid is not None
        assert os.getpgid(pid) != state.shell.pid  # it did leave the group
        assert alive(pid)
    finally:
        await close_shell_state(context.state)
    assert not alive(pid)


async def test_a_timeout_kills_what_the_command_moved_out_of_the_group(
        ctx: ToolContext, tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    escape = ESCAPE.format(pidfile=pidfile)
    result = await run(ctx, command=f"({escape} &); sleep 300", timeout_seconds=1)
    assert result["timed_out"] is True
    assert not alive(int(await wait_for_text(pidfile)))
    assert (await run(ctx, command="echo alive"))["output"] == "alive\n"


async def test_killing_a_background_task_reaches_its_setsid_children(
        ctx: ToolContext, tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    escape = ESCAPE.format(pidfile=pidfile)
    await run(ctx, command=f"({escape} &); sleep 300", run_in_background=True)
    pid = int(await wait_for_text(pidfile))
    assert alive(pid)
    assert (await run(ctx, "shell_task_kill", task_id="task-1"))["status"] == "killed"
    assert not alive(pid)


async def test_a_respawned_shell_carries_its_own_tag(ctx: ToolContext) -> None:
    from openworker_qt.tools import shell as shell_mod

    first = (await run(ctx, command="echo $OPENWORKER_SHELL_TAG"))["output"].strip()
    state = shell_state(ctx)
    assert first and shell_mod._LIVE_GROUPS[state.shell.pid or 0] == first
    assert (await run(ctx, command="sleep 30", timeout_seconds=0.5))["timed_out"] is True
    second = (await run(ctx, command="echo $OPENWORKER_SHELL_TAG"))["output"].strip()
    assert second and second != first  # not the one the exports file saved
    assert shell_mod._LIVE_GROUPS[state.shell.pid or 0] == second
