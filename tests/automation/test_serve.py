"""The command line: `automations …`, and `serve` as real processes — a clean stop
on SIGTERM, two processes sharing one database, and the morning brief end to end
with a SIGKILL while the run waits in the inbox."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from openworker_qt.automation.store import ACTIVE, AutomationStore
from openworker_qt.cli import main
from openworker_qt.core.inbox import Inbox
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import app_paths
from tests.automation.conftest import Hits


def db_path() -> Path:
    return Path(os.environ["OPENWORKER_HOME"]) / "data" / "openworker.sqlite3"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openworker_qt", *args], cwd=cwd, capture_output=True,
        text=True, timeout=60, env=os.environ.copy(), stdin=subprocess.DEVNULL)


def spawn_serve(cwd: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "openworker_qt", "serve", "--no-keep-awake", "--tick", "0.2",
         *extra], cwd=cwd, env=os.environ.copy(), text=True, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(predicate: Any, limit: float = 60.0) -> Any:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def ready(proc: subprocess.Popen[str]) -> str:
    """Read serve's stderr up to its start-up line."""
    assert proc.stderr is not None
    lines = []
    while True:
        line = proc.stderr.readline()
        if not line:
            raise AssertionError("serve exited early: " + "".join(lines))
        lines.append(line)
        if "Stop with" in line:
            return "".join(lines)


def stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


def make_due(automation_id: str, at: float) -> None:
    """"It is 08:00": the fire time itself is what the scheduler tests drive with a
    controllable clock; here the stored next run is moved to now."""
    con = sqlite3.connect(db_path())
    con.execute("UPDATE automations SET next_run = ? WHERE id = ?", (at, automation_id))
    con.commit()
    con.close()


def store() -> AutomationStore:
    return AutomationStore(Database(db_path()))


def ticked_since(tmp_path: Path, processes: int) -> list[str]:
    """Wait until each of ``processes`` serve processes has claimed a due run made
    after this call (so each ticked at least once since): a quick probe automation,
    made due again after every run until as many owners ran it. Returns the probe
    runs' session ids."""
    script = tmp_path / "probe.json"
    script.write_text(json.dumps({"advance": "history", "turns": [{"text": "ok"}]}),
                      encoding="utf-8")
    probe = store().create(name="Probe", prompt="p", tz="UTC", cron="0 8 * * *",
                           model=f"scripted:{script}", workspace=str(tmp_path))
    owners: set[str | None] = set()
    while len(owners) < processes:
        before = len(store().runs(probe.id))
        make_due(probe.id, time.time())
        wait_for(lambda before=before: len(
            [r for r in store().runs(probe.id) if r.status == "completed"]) > before)
        owners = {r.owner for r in store().runs(probe.id)}
    return [r.session_id or "" for r in store().runs(probe.id)]


# --------------------------------------------------------------------- the CLI


def test_automations_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        assert main(["automations", "add", "Morning brief", "-p", "Write the report",
                     "--cron", "0 8 * * 1-5", "--tz", "Europe/Paris",
                     "--allow", "send_message slack:C1", "-w", str(tmp_path)]) == 0
        created = capsys.readouterr().out
        assert "Every weekday at 08:00 (Europe/Paris)" in created
        [auto] = store().all()
        # 08:00 in Paris, shown in this computer's time (New York: 02:00 or 03:00).
        shown = dt.datetime.fromtimestamp(auto.next_run or 0, ZoneInfo("America/New_York"))
        assert shown.strftime("%H:%M %Z") in created
        assert shown.strftime("%H:%M %Z") in ("02:00 EST", "02:00 EDT", "03:00 EDT")
        assert main(["automations", "list"]) == 0
        listing = capsys.readouterr().out
        assert "Morning brief" in listing and "Every weekday at 08:00 (Europe/Paris)" in listing
        assert f"next: {shown:%a %d %b %Y %H:%M %Z}" in listing
        assert main(["automations", "add", "Bad", "-p", "x", "--cron", "0 8 * * 8"]) == 2
        assert "the day of week field '8'" in capsys.readouterr().err
        assert main(["automations", "add", "Past", "-p", "x", "--at", "2001-01-01T08:00"]) == 2
        assert "in the past" in capsys.readouterr().err
        assert main(["automations", "edit", "Morning brief", "--cron", "30 7 * * *"]) == 0
        assert "Every day at 07:30 (Europe/Paris)" in capsys.readouterr().out
        assert main(["automations", "pause", "Morning brief"]) == 0
        assert main(["automations", "list"]) == 0
        assert "[paused]" in capsys.readouterr().out
        assert main(["automations", "resume", "Morning brief"]) == 0
        assert main(["automations", "pause"]) == 0
        assert main(["automations", "list"]) == 0
        assert "All automations are paused" in capsys.readouterr().out
        assert main(["automations", "resume"]) == 0
        [auto] = store().all()
        assert auto.enabled and not store().paused and auto.grants == ["send_message slack:C1"]
        assert main(["automations", "rm", auto.id[:6]]) == 0
        assert main(["automations", "rm", auto.id]) == 2
        assert store().all() == []
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_serve_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    proc = spawn_serve(tmp_path)
    banner = ready(proc)
    assert "0 automation(s)" in banner
    code, err = stop(proc)
    assert code == 0, err
    assert "stopping" in err


# ---------------------------------------------------------------- two processes


def test_two_processes_never_run_the_same_automation_twice(tmp_path: Path) -> None:
    script = tmp_path / "slow.json"
    script.write_text(json.dumps([{"chunks": ["work "] * 20, "delay": 0.05}]), encoding="utf-8")
    auto = store().create(name="Once only", prompt="p", tz="UTC", cron="0 8 * * *",
                          model=f"scripted:{script}", workspace=str(tmp_path))
    window, server = spawn_serve(tmp_path), spawn_serve(tmp_path)
    try:
        ready(window)
        ready(server)
        make_due(auto.id, time.time())
        wait_for(lambda: [r for r in store().runs(auto.id) if r.status == "completed"])
        probes = ticked_since(tmp_path, 2)  # both ticked again: nothing more started
        runs = store().runs(auto.id)
    finally:
        results = [stop(window), stop(server)]
    assert [code for code, _ in results] == [0, 0]
    assert [(r.trigger, r.status) for r in runs] == [("schedule", "completed")]
    sessions = [s.id for s in ConversationStore(Database(db_path())).list_sessions()
                if s.id not in probes]
    assert sessions == [runs[0].session_id]
    reported = [err.count("Once only · run") for _, err in results]
    assert sorted(reported) == [0, 1]  # one process ran it and told its end


# ------------------------------------------------------------ the morning brief


def add_morning_brief(tmp_path: Path, slack: str) -> tuple[Path, Any]:
    """The morning brief automation (read two files, write a report, post it to the
    loopback "Slack"), added with the CLI: its workspace and the stored automation."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "sales.txt").write_text("sales: up 4%\n", encoding="utf-8")
    (ws / "tickets.txt").write_text("tickets: 3 open\n", encoding="utf-8")
    app_paths().ensure().config_file.write_text(
        '[permissions]\nmode = "custom"\nauto_allow = ["write_file"]\n'
        f'[web]\nallow_private_hosts = ["{slack}"]\n', encoding="utf-8")
    script = tmp_path / "brief.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"text": "Reading the numbers.", "tool_calls": [
            {"id": "r1", "name": "read_file", "arguments": {"path": "sales.txt"}},
            {"id": "r2", "name": "read_file", "arguments": {"path": "tickets.txt"}}]},
        {"tool_calls": [{"id": "w1", "name": "write_file", "arguments": {
            "path": "report.md", "content": "# Monday\nsales up 4%, 3 tickets open\n"}}]},
        {"tool_calls": [{"id": "s1", "name": "web_fetch", "arguments": {
            "url": f"http://{slack}/send?text=report-ready"}}]},
        {"text": "The Monday report is written and posted."},
    ]}), encoding="utf-8")
    added = cli("automations", "add", "Morning brief", "-p", "Write and post the Monday report.",
                "--cron", "0 8 * * 1-5", "--tz", "Europe/Paris", "--model", f"scripted:{script}",
                "-w", str(ws), cwd=ws)
    assert added.returncode == 0, added.stderr
    [auto] = store().all()
    return ws, auto


def test_morning_brief_end_to_end_with_serve_killed_while_waiting(
    tmp_path: Path, slack: str
) -> None:
    ws, auto = add_morning_brief(tmp_path, slack)

    first = spawn_serve(ws)
    try:
        ready(first)
        make_due(auto.id, time.time())  # 08:00
        inbox = Inbox(Database(db_path()))
        item = wait_for(lambda: (inbox.pending() or [None])[0])
        run = wait_for(lambda: next((r for r in store().runs(auto.id)
                                     if r.status == "waiting"), None))
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    assert first.returncode == -signal.SIGKILL
    assert item.tool == "web_fetch" and item.tool_call_id == "s1"
    assert (ws / "report.md").read_text(encoding="utf-8").startswith("# Monday")
    assert Hits.sent == []  # nothing was sent before the user said yes

    second = spawn_serve(ws)
    try:
        ready(second)
        approved = cli("approve", str(item.id), cwd=ws)
        assert approved.returncode == 0, approved.stderr
        done = wait_for(lambda: (r := store().run(run.id)) and r.status == "completed" and r)
        ticked_since(ws, 1)  # it ticked again since: anything extra would show now
    finally:
        code, err = stop(second)
    assert code == 0, err
    assert Hits.sent == ["/send?text=report-ready"]  # exactly once
    assert done.deliverables == ["report.md"]
    assert len(inbox.items()) == 1  # asked once, across the kill
    shown = cli("show", "--json", done.session_id or "", cwd=ws)
    messages = [json.loads(line) for line in shown.stdout.splitlines()]
    tools = [m for m in messages if m["role"] == "tool"]
    assert len(tools) == 4  # two reads, the write, the send: each once
    assert messages[-1]["role"] == "assistant"
    assert "written and posted" in json.dumps(messages[-1])
    assert [r.status for r in store().runs(auto.id)] == ["completed"]


def test_automations_run_now_from_the_command_line(tmp_path: Path) -> None:
    done = tmp_path / "done.json"
    done.write_text(json.dumps([{"text": "All done."}]), encoding="utf-8")
    asks = tmp_path / "asks.json"
    asks.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "w1", "name": "write_file", "arguments": {
            "path": "note.txt", "content": "hi\n"}}]},
        {"text": "Wrote it."}]}), encoding="utf-8")
    for name, script in (("Quick", done), ("Writer", asks)):
        assert cli("automations", "add", name, "-p", "go", "--cron", "0 8 * * *", "--tz", "UTC",
                   "--model", f"scripted:{script}", "-w", str(tmp_path), cwd=tmp_path
                   ).returncode == 0
    quick = cli("automations", "run", "Quick", cwd=tmp_path)
    assert quick.returncode == 0, quick.stderr
    assert "· completed ·" in quick.stderr
    writer = cli("automations", "run", "Writer", cwd=tmp_path)
    assert writer.returncode == 4, writer.stderr  # parked: interactive mode asks to write
    assert "· waiting for you ·" in writer.stderr and "write_file" in writer.stderr
    assert not (tmp_path / "note.txt").exists()
    [item] = Inbox(Database(db_path())).pending()
    assert cli("approve", str(item.id), cwd=tmp_path).returncode == 0
    server = spawn_serve(tmp_path)  # serve takes the waiting run over and finishes it
    try:
        ready(server)
        wait_for(lambda: [r for r in store().runs() if r.status == "completed"
                          and r.session_id and "Writer" in (store().get(r.automation_id).name)])
    finally:
        code, _err = stop(server)
    assert code == 0
    assert (tmp_path / "note.txt").read_text(encoding="utf-8") == "hi\n"
    assert [r.trigger for r in store().runs()] == ["manual", "manual"]


# ------------------------------------------------------- a clean stop mid-run


def add_shell_task(tmp_path: Path, command: str, name: str = "Nightly job") -> tuple[Path, Any]:
    """A task whose run runs one shell command (asked for: the user approves it with
    the CLI), then answers."""
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    script = tmp_path / f"{name.replace(' ', '_')}.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "x1", "name": "run_shell", "arguments": {"command": command}}]},
        {"text": "The job is done."},
    ]}), encoding="utf-8")
    added = cli("automations", "add", name, "-p", "Run the nightly job.", "--cron", "0 3 * * *",
                "--tz", "UTC", "--model", f"scripted:{script}", "-w", str(ws), cwd=ws)
    assert added.returncode == 0, added.stderr
    auto = next(a for a in store().all() if a.name == name)
    return ws, auto


def test_sigterm_mid_shell_call_suspends_the_run_and_the_restart_asks_before_rerunning(
    tmp_path: Path,
) -> None:
    ws, auto = add_shell_task(tmp_path, "echo started >> effect.txt; sleep 60")
    inbox = Inbox(Database(db_path()))
    first = spawn_serve(ws)
    try:
        ready(first)
        make_due(auto.id, time.time())
        ask = wait_for(lambda: (inbox.pending() or [None])[0])
        assert ask.tool == "run_shell"
        assert cli("approve", str(ask.id), cwd=ws).returncode == 0
        wait_for(lambda: (ws / "effect.txt").exists())  # the call's effect has happened
    finally:
        code, err = stop(first)  # SIGTERM, as systemctl --user restart sends
    assert code == 0, err
    [run] = store().runs(auto.id)
    assert run.status == "running", (run.status, run.note)  # suspended, not failed
    conversations = ConversationStore(Database(db_path()))
    info = conversations.get_session(run.session_id or "")
    assert info is not None and info.status == "running"  # left as a crash leaves it
    assert not [m for m in conversations.load(info.id) if m.get("role") == "tool"]

    second = spawn_serve(ws)
    try:
        ready(second)
        # Resumed: the call had started, so the user is asked before it runs again.
        again = wait_for(lambda: next((i for i in inbox.pending() if i.id != ask.id), None))
        assert again.tool == "run_shell" and again.tool_call_id == "x1:rerun"
        waiting = wait_for(lambda: (r := store().run(run.id)) and r.status == "waiting" and r)
        assert waiting.status == "waiting"
        assert cli("deny", str(again.id), cwd=ws).returncode == 0
        done = wait_for(lambda: (r := store().run(run.id)) and r.status != "waiting"
                        and r.status != "running" and r)
    finally:
        code, err = stop(second)
    assert code == 0, err
    assert done.status == "completed", (done.status, done.note)
    assert (ws / "effect.txt").read_text(encoding="utf-8") == "started\n"  # run once only
    [result] = [m for m in conversations.load(info.id) if m.get("role") == "tool"]
    assert "Not run again" in str(result["content"])


# ------------------------------------------------------------ a run asleep


def test_a_run_asleep_stays_asleep_across_a_restart_and_its_note_follows_it(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = tmp_path / "sleeper.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "z1", "name": "sleep_for",
                         "arguments": {"seconds": 3600, "note": "check the build"}}]},
        {"text": "Sleeping until the build is done."},
        {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": "build.txt", "content": "green\n"}}]},
        {"text": "The build is green."},
    ]}), encoding="utf-8")
    assert cli("automations", "add", "Sleeper", "-p", "Watch the build.", "--cron", "0 3 * * *",
               "--tz", "UTC", "--model", f"scripted:{script}", "-w", str(ws),
               cwd=ws).returncode == 0
    [auto] = store().all()
    first = spawn_serve(ws)
    try:
        ready(first)
        make_due(auto.id, time.time())
        asleep = wait_for(lambda: next((r for r in store().runs(auto.id)
                                        if r.note.startswith("asleep until")), None))
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    assert asleep.status == "running"

    second = spawn_serve(ws)
    try:
        ready(second)  # its recovery has run (before the banner)
        run = store().run(asleep.id)
        assert run is not None
        assert (run.status, run.note) == ("running", asleep.note)  # not "completed"
        listed = cli("automations", "list", cwd=ws).stdout
        assert "asleep until" in listed and "completed" not in listed
        # The hour has passed: the wake fires, the run goes on and asks to write.
        con = sqlite3.connect(db_path())
        con.execute("UPDATE wakes SET fire_at = ? WHERE session_id = ?",
                    (time.time() - 1, asleep.session_id))
        con.commit()
        con.close()
        waiting = wait_for(lambda: (r := store().run(asleep.id)) and r.status == "waiting" and r)
        assert waiting.note == ""  # "asleep until …" is over
        listed = cli("automations", "list", cwd=ws).stdout
        assert "waiting for you" in listed and "asleep" not in listed
        [item] = Inbox(Database(db_path())).pending()
        assert cli("approve", str(item.id), cwd=ws).returncode == 0
        done = wait_for(lambda: (r := store().run(asleep.id)) and r.status == "completed" and r)
    finally:
        code, err = stop(second)
    assert code == 0, err
    assert done.deliverables == ["build.txt"]
    assert [r.status for r in store().runs(auto.id)] == ["completed"]


def test_a_run_finished_by_the_resume_command_is_completed_at_once(tmp_path: Path) -> None:
    asks = tmp_path / "asks.json"
    asks.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "w1", "name": "write_file", "arguments": {
            "path": "note.txt", "content": "hi\n"}}]},
        {"text": "Wrote it."}]}), encoding="utf-8")
    assert cli("automations", "add", "Writer", "-p", "go", "--cron", "0 8 * * *", "--tz", "UTC",
               "--model", f"scripted:{asks}", "-w", str(tmp_path), cwd=tmp_path).returncode == 0
    assert cli("automations", "run", "Writer", cwd=tmp_path).returncode == 4  # parked
    [item] = Inbox(Database(db_path())).pending()
    assert cli("approve", str(item.id), cwd=tmp_path).returncode == 0
    resumed = cli("resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "note.txt").read_text(encoding="utf-8") == "hi\n"
    [run] = store().runs()
    assert (run.status, run.deliverables) == ("completed", ["note.txt"])
    assert "last: completed" in cli("automations", "list", cwd=tmp_path).stdout


def test_sigterm_while_a_run_streams_its_answer_resumes_it_at_the_next_start(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = tmp_path / "talker.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"chunks": ["word "] * 150, "delay": 0.02}]}), encoding="utf-8")
    assert cli("automations", "add", "Talker", "-p", "Write it up.", "--cron", "0 3 * * *",
               "--tz", "UTC", "--model", f"scripted:{script}", "-w", str(ws),
               cwd=ws).returncode == 0
    [auto] = store().all()
    conversations = ConversationStore(Database(db_path()))
    first = spawn_serve(ws)
    try:
        ready(first)
        make_due(auto.id, time.time())
        run = wait_for(lambda: next((r for r in store().runs(auto.id) if r.session_id), None))
        wait_for(lambda: (s := conversations.get_session(run.session_id or ""))
                 and s.status == "running")
    finally:
        code, err = stop(first)
    assert code == 0, err
    assert store().run(run.id).status == "running"

    second = spawn_serve(ws)
    try:
        ready(second)
        done = wait_for(lambda: (r := store().run(run.id)) and r.status not in ACTIVE and r)
    finally:
        code, err = stop(second)
    assert code == 0, err
    assert done.status == "completed", (done.status, done.note)
    messages = conversations.load(run.session_id or "")
    assert any(m.get("role") == "notice" and "The app stopped" in str(m.get("text"))
               for m in messages)  # the transcript says what happened
    assert messages[-1]["role"] == "assistant" and "word word" in str(messages[-1]["content"])
