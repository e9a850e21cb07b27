"""Every surface reaches the one team runner: ``team run`` in the foreground (its plan
approved from another process's ``approve``), ``serve`` resuming a team a killed
process left, an automation whose persona leads a team, ``team send`` and ``team stop``."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from openworker_qt.automation.service import AutomationService
from openworker_qt.core.inbox import Inbox
from openworker_qt.runtime import Runtime
from openworker_qt.storage.db import Database
from openworker_qt.teams.model import TeamState
from openworker_qt.teams.store import TeamStore
from tests.teams.engine.conftest import plan, script, until

REPO = Path(__file__).resolve().parents[3]

PLAN = {
    "outcome": "Two notes", "max_parallel": 1,
    "items": [{"key": "a", "title": "Note A", "criteria": "one line", "worker": "writer"},
              {"key": "b", "title": "Note B", "criteria": "one line", "worker": "writer"}],
    "workers": [{"name": "writer", "persona": "cowork", "mode": "plan"}],
}


def move(n: int) -> dict:
    return {"tool_calls": [{"name": "board_transition",
                            "arguments": {"item": str(n), "to": "done", "comment": "Good."}}]}


LEAD = {"advance": "history", "turns": [
    {"text": "My plan.", "tool_calls": [{"name": "team_plan", "arguments": {"plan": PLAN}}]},
    {"text": "Noted."}, move(1), {"text": "Noted."}, move(2), {"text": "Noted."},
    {"text": "DELIVERABLE: both notes"},
]}
WORKER = {"advance": "history", "turns": [{"text": "A note, one line."}]}


def env_for(home: Path) -> dict[str, str]:
    return {**os.environ, "OPENWORKER_HOME": str(home),
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openworker_qt", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def spawn(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "openworker_qt", *args], cwd=REPO, env=env,
                            text=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def wait_for(check, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def scripts(tmp_path: Path) -> tuple[str, str, Path]:
    lead, worker = tmp_path / "lead.json", tmp_path / "worker.json"
    lead.write_text(json.dumps(LEAD), encoding="utf-8")
    worker.write_text(json.dumps(WORKER), encoding="utf-8")
    PLAN["workers"][0]["model"] = f"scripted:{worker}"
    lead.write_text(json.dumps(LEAD), encoding="utf-8")
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    return f"scripted:{lead}", f"scripted:{worker}", ws


def plan_item(db: Path):
    def pending():
        if not db.exists():
            return None
        database = Database(db)
        try:
            return Inbox(database).pending(kind="plan")
        finally:
            database.close()
    return wait_for(pending)[0]


def board(db: Path):
    database = Database(db)
    try:
        store = TeamStore(database)
        teams = store.teams()
        return teams[0] if teams else None, store.items(teams[0].id) if teams else []
    finally:
        database.close()


def test_team_run_in_the_foreground_with_its_plan_approved_from_another_process(
        tmp_path: Path) -> None:
    lead, _worker, ws = scripts(tmp_path)
    env = env_for(tmp_path / "home")
    db = tmp_path / "home" / "data" / "openworker.sqlite3"
    running = spawn("team", "run", "Two notes", "--folder", str(ws), "--model", lead,
                    "--persona", "cowork", env=env)
    item = plan_item(db)
    assert item.tool == "team_plan" and item.title.endswith("the plan for “Two notes”")
    approved = cli("approve", str(item.id), env=env)
    assert approved.returncode == 0, approved.stderr
    out, err = running.communicate(timeout=120)
    assert running.returncode == 0, err[-2000:]
    team, items = board(db)
    assert team.state is TeamState.DONE and "DELIVERABLE: both notes" in team.summary
    assert f"team {team.id}: planning" in out
    assert "item_transitioned review → done" in out and "→ done" in out
    assert "summary" in out and "DELIVERABLE: both notes" in out
    shown = cli("team", "board", team.id, env=env)
    assert shown.returncode == 0 and "Note A" in shown.stdout


def test_serve_resumes_a_team_a_killed_process_left(tmp_path: Path) -> None:
    lead, _worker, ws = scripts(tmp_path)
    env = env_for(tmp_path / "home")
    db = tmp_path / "home" / "data" / "openworker.sqlite3"
    running = spawn("team", "run", "Two notes", "--folder", str(ws), "--model", lead,
                    "--persona", "cowork", env=env)
    item = plan_item(db)
    running.send_signal(signal.SIGKILL)
    running.communicate(timeout=30)
    assert cli("approve", str(item.id), env=env).returncode == 0  # answered while it was down
    serve = spawn("serve", "--no-keep-awake", "--tick", "0.2", env=env)
    try:
        wait_for(lambda: board(db)[0].state is TeamState.DONE, 90)
    finally:
        serve.send_signal(signal.SIGTERM)
        _out, err = serve.communicate(timeout=60)
    assert serve.returncode == 0, err[-2000:]
    assert "resumed 1 team(s)" in err
    team, items = board(db)
    assert [i.state.value for i in items] == ["done", "done"]
    assert team.summary.count("DELIVERABLE") == 1


def test_team_send_and_stop_reach_the_process_running_the_team(tmp_path: Path) -> None:
    lead, _worker, ws = scripts(tmp_path)
    env = env_for(tmp_path / "home")
    db = tmp_path / "home" / "data" / "openworker.sqlite3"
    running = spawn("team", "run", "Two notes", "--folder", str(ws), "--model", lead,
                    "--persona", "cowork", env=env)
    plan_item(db)  # (left pending: the lead waits on it)
    team, _items = board(db)
    sent = cli("team", "send", team.id[:6], "Keep it short, please.", env=env)
    assert sent.returncode == 0, sent.stderr
    stopped = cli("team", "stop", team.id, env=env)
    assert stopped.returncode == 0, stopped.stderr
    _out, err = running.communicate(timeout=60)
    assert running.returncode == 1, err[-2000:]  # the team ended, not done
    team, _items = board(db)
    assert team.state is TeamState.STOPPED
    database = Database(db)
    try:
        log = TeamStore(database).events(team.id)
    finally:
        database.close()
    chats = [e for e in log if e.kind == "chat"]
    assert chats[0].actor == "user" and chats[0].data["text"] == "Keep it short, please."


async def test_an_automation_whose_persona_leads_a_team_runs_the_team(
        runtime: Runtime, workspace: Path) -> None:
    script(runtime, plan=plan(n_items=2, max_parallel=2))
    assert runtime.leads_team("team") and not runtime.leads_team("cowork")
    service = AutomationService(runtime)
    auto = service.store.create(name="Weekly report", prompt="Prepare the weekly report.",
                                tz="UTC", cron="0 8 * * 1", persona="team",
                                model="teamtest:lead", workspace=str(workspace))
    task = service.run_now(auto.id)
    item = await until(lambda: runtime.inbox.pending(kind="plan"))
    runtime.inbox.respond(item[0].id, "approve")
    await asyncio.wait_for(task, 60)
    (run,) = service.store.runs(auto.id)
    assert run.status == "completed", run
    found = runtime.teams.team_for_session(run.session_id)
    assert found is not None and found[1] == "lead"
    team = found[0]
    assert team.state is TeamState.DONE
    # The same runner as every other surface's.
    assert runtime.team_runner() is runtime.team_runner()
    assert runtime.team_runner().store is runtime.teams
    await runtime.team_runner().close()
