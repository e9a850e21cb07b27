"""Crash tests: real processes, SIGKILL at chosen points, resolution from another process.

What the design guarantees at each point (also in docs/durability.md):

* killed **before the approval item is stored**: the assistant message with the
  call is committed, the call has no result and no item. Resume evaluates the
  call again and asks (for the first time); the file is written once, after
  approval.
* killed **while parked on the approval**: the item exists. It is resolved from
  another process; resume finds it (idempotent per call id), does not ask
  again and runs the tool once.
* killed **after the tool ran but before its result was stored**: the audit says
  the call started. Resume does not silently run a consequential call again: it
  parks a re-run confirmation (``<call id>:rerun``). This is the one window with
  an at-least-once effect if the user confirms; reads are simply re-run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openworker_qt.core.inbox import Inbox
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database

SCRIPT = {
    "advance": "history",
    "turns": [
        {"text": "Saving it.", "tool_calls": [
            {"id": "w1", "name": "write_file", "arguments": {"path": "g.txt", "content": "buy milk\n"}}]},
        {"text": "Saved your note."},
    ],
}


FAULTS = {"OPENWORKER_FAULT_INJECTION": "tests"}  # the test-only opt-in (core/faults.py)


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openworker_qt", *args], cwd=cwd, capture_output=True, text=True,
        timeout=60, env=env or os.environ.copy(), stdin=subprocess.DEVNULL,
    )


def spawn(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "openworker_qt", *args], cwd=cwd, env=env, text=True,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def inbox() -> Inbox:
    return Inbox(Database(Path(os.environ["OPENWORKER_HOME"]) / "data" / "openworker.sqlite3"))


def wait_for(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


@pytest.fixture
def work(tmp_path: Path) -> tuple[Path, Path]:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws, script


def writes(ws: Path) -> int:
    """How many times g.txt was written: the tool writes via a temp file + rename."""
    target = ws / "g.txt"
    return 1 if target.exists() else 0


def test_killed_while_parked_then_approved_elsewhere(work: tuple[Path, Path]) -> None:
    ws, script = work
    env = os.environ.copy()
    proc = spawn("run", "--unattended", "--wait", "--model", f"scripted:{script}", "note: buy milk",
                 cwd=ws, env=env)
    try:
        item = wait_for(lambda: (inbox().pending() or [None])[0])
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)  # reads and closes its pipes
    assert proc.returncode == -signal.SIGKILL
    assert item.tool == "write_file" and item.tool_call_id == "w1"
    assert not (ws / "g.txt").exists()

    approved = cli("approve", str(item.id), cwd=ws)
    assert approved.returncode == 0, approved.stderr
    again = cli("approve", str(item.id), cwd=ws)
    assert again.returncode == 1 and "already resolved" in again.stderr

    resumed = cli("resume", cwd=ws)
    assert resumed.returncode == 0, resumed.stderr
    assert (ws / "g.txt").read_text() == "buy milk\n"
    assert "Saved your note." in resumed.stdout
    assert len(inbox().items()) == 1  # asked exactly once
    # A second resume finds nothing to do: nothing runs twice.
    assert "Nothing to resume" in cli("resume", cwd=ws).stdout


def test_unattended_without_wait_exits_suspended(work: tuple[Path, Path]) -> None:
    ws, script = work
    res = cli("run", "--unattended", "--model", f"scripted:{script}", "note", cwd=ws)
    assert res.returncode == 4, res.stderr
    assert "inbox #" in res.stderr
    listing = cli("inbox", cwd=ws)
    assert "write_file" in listing.stdout and "path: g.txt" in listing.stdout
    [item] = inbox().pending()
    assert cli("deny", str(item.id), cwd=ws).returncode == 0
    res = cli("resume", cwd=ws)
    assert res.returncode == 0
    assert not (ws / "g.txt").exists()
    assert "denied" in res.stdout


def test_killed_before_the_item_is_stored(work: tuple[Path, Path]) -> None:
    ws, script = work
    env = {**os.environ, **FAULTS, "OPENWORKER_FAULT": "before_approval_item"}
    res = cli("run", "--unattended", "--wait", "--model", f"scripted:{script}", "note", cwd=ws, env=env)
    assert res.returncode == -signal.SIGKILL
    assert inbox().items() == []  # died before asking
    first = cli("resume", cwd=ws)
    assert first.returncode == 4  # now it asks, once
    [item] = inbox().pending()
    cli("approve", str(item.id), cwd=ws)
    assert cli("resume", cwd=ws).returncode == 0
    assert writes(ws) == 1 and len(inbox().items()) == 1


def test_killed_after_the_tool_ran_before_its_result(work: tuple[Path, Path]) -> None:
    ws, script = work
    env = {**os.environ, **FAULTS, "OPENWORKER_FAULT": "after_tool_before_result"}
    proc = spawn("run", "--unattended", "--wait", "--model", f"scripted:{script}", "note",
                 cwd=ws, env=env)
    item = wait_for(lambda: (inbox().pending() or [None])[0])
    assert cli("approve", str(item.id), cwd=ws).returncode == 0
    proc.communicate(timeout=30)  # reads and closes its pipes
    assert proc.returncode == -signal.SIGKILL
    assert (ws / "g.txt").exists()  # the effect happened, its result was never stored
    (ws / "g.txt").unlink()  # so we can see whether it is ever written again
    res = cli("resume", cwd=ws)
    assert res.returncode == 4  # it asks before re-running, it does not silently repeat
    [confirm] = inbox().pending()
    assert confirm.tool_call_id == "w1:rerun" and "may already" in confirm.reason
    cli("deny", str(confirm.id), cwd=ws)
    res = cli("resume", cwd=ws)
    assert res.returncode == 0
    assert not (ws / "g.txt").exists()


def killed_mid_stream(tmp_path: Path) -> tuple[Path, Path, str, ConversationStore]:
    """A CLI turn SIGKILLed while its answer streams (no call to resume)."""
    ws = tmp_path / "ws"
    ws.mkdir()
    script = tmp_path / "slow.json"
    script.write_text(json.dumps([{"chunks": ["one ", "two ", "three"] * 40, "delay": 0.25}]))
    store = ConversationStore(
        Database(Path(os.environ["OPENWORKER_HOME"]) / "data" / "openworker.sqlite3"))
    proc = spawn("run", "--model", f"scripted:{script}", "before kill", cwd=ws,
                 env=os.environ.copy())
    try:
        info = wait_for(lambda: next(  # streaming: the user's message is stored
            (s for s in store.list_sessions() if s.status == "running" and s.message_count),
            None))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert "running" in cli("sessions", cwd=ws).stdout  # nothing has closed it yet
    script.write_text(json.dumps([{"text": "Here after the restart."}]))
    return ws, script, info.id, store


def roles_and_text(ws: Path, sid: str) -> list[tuple[str, str]]:
    shown = cli("show", "--json", sid, cwd=ws).stdout.splitlines()
    return [(m["role"], m.get("content") or m.get("text")) for m in map(json.loads, shown)]


def test_killed_mid_stream_then_continued_with_run(tmp_path: Path) -> None:
    """`run -s` rather than `resume` after the kill: the cut-off turn is closed first,
    as the desktop's recover() would."""
    ws, _, sid, store = killed_mid_stream(tmp_path)
    res = cli("run", "-s", sid, "after kill", cwd=ws)
    assert res.returncode == 0, res.stderr
    assert roles_and_text(ws, sid) == [
        ("user", "before kill"),
        ("notice", "The app stopped while this turn was running."),
        ("user", "after kill"),
        ("assistant", "Here after the restart."),
    ]
    listed = cli("sessions", cwd=ws).stdout
    assert sid in listed and "running" not in listed
    assert store.get_session(sid).status == "idle"


def test_killed_mid_stream_then_resume_points_at_retry(tmp_path: Path) -> None:
    ws, _, sid, _store = killed_mid_stream(tmp_path)
    resumed = cli("resume", cwd=ws)
    assert resumed.returncode == 0 and f"openworker-qt retry {sid}" in resumed.stderr
    retried = cli("retry", sid, cwd=ws)
    assert retried.returncode == 0, retried.stderr
    assert roles_and_text(ws, sid) == [
        ("user", "before kill"),
        ("notice", "The app stopped while this turn was running."),
        ("assistant", "Here after the restart."),
    ]
