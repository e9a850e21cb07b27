"""A server that never finishes starting, through the real CLI (a subprocess, as a
user runs it): ``run`` starts its turn without waiting out the server's start time,
``tools`` and ``run`` exit, and no process of the server's group is left running
(the server ignores SIGTERM and its stdin closing, and has a child that does too)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.mcp.helpers import REPO, SERVERS


def owq(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ.copy()  # (OPENWORKER_HOME and the memory keyring: the test's own)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "openworker_qt", *args], cwd=cwd,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120, env=env)


def configure(tmp_path: Path, start_timeout: float) -> Path:
    pids = tmp_path / "pids"
    config = Path(os.environ["OPENWORKER_HOME"]) / "config"
    config.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(SERVERS / "hang_group.py"), str(pids)],
             "startTimeout": start_timeout}
    (config / "mcp.json").write_text(json.dumps({"mcpServers": {"stuck": entry}}))
    return pids


def running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def assert_group_gone(pids: Path) -> None:
    found = [int(p) for p in pids.read_text().split()]
    assert len(found) == 2
    deadline = time.monotonic() + 10  # (a bound for the kernel to finish the kill)
    while any(running(p) for p in found) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in found if running(p)]


def test_run_does_not_wait_out_a_hung_server_and_leaves_nothing_running(tmp_path: Path) -> None:
    pids = configure(tmp_path, start_timeout=600)
    model = tmp_path / "script.json"
    # The turn first waits (bounded) until the server has written its pids: it is up and
    # has its child when the command ends.
    wait = f"timeout 60 sh -c 'until [ -s {pids} ]; do sleep 0.05; done'"
    model.write_text(json.dumps({"turns": [
        {"text": "Waiting.", "tool_calls": [{"name": "run_shell", "arguments": {"command": wait}}]},
        {"text": "Hello from the model."}]}))
    res = owq("run", "-y", "--model", f"scripted:{model}", "--mcp-wait", "1", "--json", "hi",
              cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "MCP server stuck is still starting; its tools join this session" in res.stderr
    events = [json.loads(line) for line in res.stdout.splitlines()]
    text = "".join(e.get("text", "") for e in events if e.get("type") == "text_delta"
                   or "text" in e)
    assert "Hello from the model." in text
    assert any(e.get("status") == "completed" for e in events)
    # The turn ran and the command ended long before the server's start time was up:
    assert "did not finish starting" not in res.stderr
    assert_group_gone(pids)


def test_tools_exits_and_reports_a_server_that_did_not_start(tmp_path: Path) -> None:
    pids = configure(tmp_path, start_timeout=5)  # (time enough to write its pids)
    (tmp_path / "ws").mkdir()
    res = owq("tools", "--json", cwd=tmp_path / "ws")
    assert res.returncode == 0, res.stderr
    rows = {r["name"]: r for r in map(json.loads, res.stdout.splitlines())}
    assert "did not finish starting within 5 s" in rows["mcp__stuck__*"]["server_status"]
    assert_group_gone(pids)


async def test_stopping_a_server_still_starting_ends_its_whole_group(tmp_path: Path) -> None:
    """The app quitting (or a restart) while a server is still starting: the start is
    cancelled, and the server and its child (both ignoring SIGTERM) are killed."""
    from openworker_qt.mcp import process
    from openworker_qt.mcp.client import McpServer
    from openworker_qt.mcp.config import parse_server
    from openworker_qt.mcp.status import State
    from tests.mcp.helpers import until

    pids = tmp_path / "pids"
    srv = McpServer(parse_server("stuck", {"command": sys.executable, "args": [
        str(SERVERS / "hang_group.py"), str(pids)]}), connect_timeout=600)
    await srv.start()
    await until(lambda: pids.exists() and len(pids.read_text().split()) == 2, 30)
    assert srv.status.state is State.STARTING
    await srv.stop()
    assert_group_gone(pids)
    assert not process.LIVE
