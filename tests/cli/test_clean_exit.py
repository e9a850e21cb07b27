"""A command that ran a shell command exits cleanly: the session's shell (and its
background tasks) are closed before the event loop is, so Python prints no
"Exception ignored … Event loop is closed" at exit. The real CLI as a subprocess,
in the test's own state folder and workspace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import openworker_qt

PACKAGE_ROOT = str(Path(openworker_qt.__file__).resolve().parents[1])


def owq(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ.copy()  # OPENWORKER_HOME and the keyring: the test's own (conftest)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_ROOT, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "openworker_qt", *args], cwd=cwd, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120, env=env,
    )


def script(tmp_path: Path, calls: list[dict[str, object]]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": calls}, {"text": "Done."}]}))
    return f"scripted:{path}"


def assert_clean(res: subprocess.CompletedProcess[str]) -> None:
    assert "Exception ignored" not in res.stderr, res.stderr
    assert "Event loop is closed" not in res.stderr, res.stderr
    assert "Traceback" not in res.stderr, res.stderr


def test_run_with_a_shell_command_exits_cleanly(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    model = script(tmp_path, [
        {"name": "run_shell", "arguments": {"command": "echo shell-ran"}},
        {"name": "run_shell", "arguments": {"command": "sleep 60", "run_in_background": True}},
    ])
    res = owq("run", "-y", "--mode", "auto", "--model", model, "run them", cwd=ws)
    assert res.returncode == 0, res.stderr
    assert "shell-ran" in res.stdout and '"task_id"' in res.stdout
    assert_clean(res)


def test_resume_with_a_shell_command_exits_cleanly(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    model = script(tmp_path, [{"name": "run_shell", "arguments": {"command": "echo a; echo b"}}])
    parked = owq("run", "--unattended", "--mode", "auto", "--model", model, "run it", cwd=ws)
    assert parked.returncode == 4, parked.stderr  # waiting in the inbox
    assert_clean(parked)
    listed = owq("inbox", "--json", cwd=ws)
    [item] = [json.loads(line) for line in listed.stdout.splitlines()]
    approved = owq("approve", str(item["id"]), cwd=ws)
    assert approved.returncode == 0, approved.stderr
    res = owq("resume", cwd=ws)
    assert res.returncode == 0, res.stderr
    assert "a\nb" in res.stdout
    assert_clean(res)
