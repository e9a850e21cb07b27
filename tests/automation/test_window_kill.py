"""The morning brief end to end with the desktop app as a real process: the run
parks its send in the inbox, the app is SIGKILLed, started again, the user approves
from the inbox, the send happens exactly once and the run completes with its
transcript. (`serve`'s variant is in test_serve.py; the in-process window without a
kill in test_ui.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from openworker_qt.core.inbox import Inbox
from openworker_qt.storage.db import Database
from tests.automation.conftest import Hits
from tests.automation.test_serve import add_morning_brief, cli, db_path, make_due, store

LIMIT = 90.0  # seconds: every wait gives up (and fails) after this


def spawn_window(cwd: Path, log: IO[str]) -> subprocess.Popen[str]:
    """`openworker-qt` with no command: the desktop app, offscreen, this test's home
    and in-memory keyring (the environment conftest set up)."""
    env = os.environ.copy()
    env["QT_QPA_PLATFORM"] = "offscreen"
    return subprocess.Popen(
        [sys.executable, "-m", "openworker_qt"], cwd=cwd, env=env, text=True,
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)


def wait_for(predicate: Callable[[], Any], what: str, proc: subprocess.Popen[str],
             log: Path) -> Any:
    """Poll ``predicate`` until it gives something; fail (never hang) if the app
    exits or the time runs out, with the app's output in the message."""
    deadline = time.monotonic() + LIMIT
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if proc.poll() is not None:
            raise AssertionError(f"the app exited ({proc.returncode}) before {what}:\n"
                                 + log.read_text(encoding="utf-8", errors="replace")[-4000:])
        time.sleep(0.1)
    raise AssertionError(f"{what}: not in {LIMIT:.0f} s\n"
                         + log.read_text(encoding="utf-8", errors="replace")[-4000:])


def kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)


def test_morning_brief_with_the_window_killed_while_waiting(tmp_path: Path, slack: str) -> None:
    ws, auto = add_morning_brief(tmp_path, slack)
    db = Database(db_path())
    inbox = Inbox(db)
    # "It is 08:00": the window's scheduler ticks as its services start and finds it due.
    make_due(auto.id, time.time())

    first_log = tmp_path / "window-1.log"
    with first_log.open("w", encoding="utf-8") as log:
        first = spawn_window(ws, log)
        try:
            item = wait_for(lambda: next(iter(inbox.pending()), None), "the approval in the inbox",
                            first, first_log)
            run = wait_for(lambda: next((r for r in store().runs(auto.id)
                                         if r.status == "waiting"), None),
                           "the run waiting for you", first, first_log)
        finally:
            kill(first)
    assert first.returncode == -signal.SIGKILL
    assert item.tool == "web_fetch" and item.tool_call_id == "s1"
    assert (ws / "report.md").read_text(encoding="utf-8").startswith("# Monday")
    assert Hits.sent == []  # nothing was sent before the user said yes

    second_log = tmp_path / "window-2.log"
    with second_log.open("w", encoding="utf-8") as log:
        second = spawn_window(ws, log)
        try:
            # The restarted app has resumed the run: it drives the session, parked on the ask.
            wait_for(lambda: db.query(
                "SELECT 1 FROM session_leases WHERE session_id = ? AND pid = ?",
                (run.session_id, second.pid)), "the run resumed by the restarted app",
                second, second_log)
            assert Hits.sent == []
            approved = cli("approve", str(item.id), cwd=ws)  # the inbox's Approve
            assert approved.returncode == 0, approved.stderr
            done = wait_for(lambda: (r := store().run(run.id))
                            and r.status == "completed" and r, "the run's end", second, second_log)
            # Nothing drives the session any more (a turn holds its lease): a
            # second send would have been made by now.
            wait_for(lambda: not db.query(
                "SELECT 1 FROM session_leases WHERE session_id = ?", (run.session_id,)),
                "the session's lease given back", second, second_log)
        finally:
            kill(second)
    assert Hits.sent == ["/send?text=report-ready"]  # exactly once, across the kill
    assert done.deliverables == ["report.md"]
    assert len(inbox.items()) == 1  # asked once
    shown = cli("show", "--json", done.session_id or "", cwd=ws)
    assert shown.returncode == 0, shown.stderr
    messages = [json.loads(line) for line in shown.stdout.splitlines()]
    tools = [m for m in messages if m["role"] == "tool"]
    assert len(tools) == 4  # two reads, the write, the send: each once
    assert "sales: up 4%" in json.dumps(tools) and "tickets: 3 open" in json.dumps(tools)
    assert "sent" in json.dumps(tools[-1])  # the stub's answer to the send
    assert messages[-1]["role"] == "assistant"
    assert "written and posted" in json.dumps(messages[-1])
    assert [r.status for r in store().runs(auto.id)] == ["completed"]
