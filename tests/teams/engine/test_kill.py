"""SIGKILL at random points of a scripted team, then resume in a new process (issue 29,
"Done when"): nothing lost, nothing run twice.

Each trial kills the process running the team once the board holds a random number
of events (and a random few milliseconds more: inside a turn, a tool call, a write),
then resumes the team in a new process until it ends. Then: every item has exactly
one worker session, whose brief was given once; no result was recorded twice; the
sent-back item has its two versions; the summary is there, once.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.teams.model import ItemState, TeamState
from openworker_qt.teams.runner import worker_session_id
from openworker_qt.teams.store import TeamStore
from tests.teams.engine.conftest import CONFIG, plan

REPO = Path(__file__).resolve().parents[3]
TRIALS = int(os.environ.get("OPENWORKER_TEAM_KILL_TRIALS", "30"))


def proc(command: str, workspace: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.teams.engine.team_proc", command, str(workspace)],
        cwd=REPO, env=env, text=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)


def events(db_path: Path) -> int:
    if not db_path.exists():
        return 0
    db = Database(db_path)
    try:
        rows = db.query("SELECT COUNT(*) FROM sqlite_master WHERE name = 'team_events'")
        return int(db.query("SELECT COUNT(*) FROM team_events")[0][0]) if rows[0][0] else 0
    finally:
        db.close()


def check(db_path: Path) -> None:
    db = Database(db_path)
    try:
        store, sessions = TeamStore(db), ConversationStore(db)
        teams = store.teams()
        if not teams:  # killed before the team was made: nothing was started
            assert not [s for s in sessions.list_sessions() if s.meta.get("team_id")]
            return
        (team,) = teams
        assert team.state is TeamState.DONE, team
        items = store.items(team.id)
        assert [i.state for i in items] == [ItemState.DONE] * len(items)
        team_sessions = [s for s in sessions.list_sessions() if s.meta.get("team_id") == team.id]
        workers = [s for s in team_sessions if s.meta.get("team_role") == "worker"]
        assert sorted(s.id for s in workers) == sorted(
            worker_session_id(team.id, i.id) for i in items)
        assert len(team_sessions) == len(items) + 1  # and the lead
        log = store.events(team.id)
        for item in items:
            assert item.session_id == worker_session_id(team.id, item.id)
            briefs = [m for m in sessions.load(item.session_id) if m.get("role") == "user"
                      and str(m.get("content") or "").startswith("You are ")]
            assert len(briefs) == 1, item.id
            results = [e.data["text"] for e in log if e.kind == "item_result"
                       and e.item_id == item.id]
            assert len(results) == len(set(results)), results
            assert results[-1] == item.result_text
            want = 2 if item.title == "Part 2" else 1
            assert len(results) == want, (item.id, results, [
                (m.get("role"), str(m.get("content"))[:60], m.get("tool_calls") and "calls")
                for m in sessions.load(item.session_id)],
                [(e.seq, e.actor, e.kind, e.data) for e in log if e.item_id == item.id])
            started = [e for e in log if e.kind == "item_session" and e.item_id == item.id]
            assert len(started) == 1
        assert [e.kind for e in log].count("summary") == 1
        assert "DELIVERABLE" in team.summary and "Left: nothing" in team.summary
        assert len([e for e in log if e.kind == "plan_accepted"]) == 1
    finally:
        db.close()


def setting(tmp_path: Path, trial: int | str, **extra: str) -> tuple[Path, Path, dict[str, str]]:
    """A home, workspace and environment for one trial of the scripted team."""
    home = tmp_path / f"home{trial}"
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_text(CONFIG, encoding="utf-8")
    workspace = tmp_path / f"ws{trial}"
    workspace.mkdir()
    script = tmp_path / f"script{trial}.json"
    script.write_text(json.dumps({"plan": plan(n_items=4, max_parallel=2),
                                  "send_back": ["Part 2"], "delay": 0.02}))
    env = {**os.environ, "OPENWORKER_HOME": str(home), "OPENWORKER_TEAMTEST": str(script),
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
           **extra}
    return home / "data" / "openworker.sqlite3", workspace, env


def resume(workspace: Path, env: dict[str, str], db_path: Path) -> None:
    second = proc("resume", workspace, env)
    _out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err[-3000:]
    check(db_path)


@pytest.mark.timeout(1800)
def test_a_team_killed_anywhere_resumes_without_losing_or_repeating_work(tmp_path: Path) -> None:
    rng = random.Random(29)
    killed_at: list[int] = []
    for trial in range(TRIALS):
        db_path, workspace, env = setting(tmp_path, trial)
        # A fifth of the kills early (start-up, planning: by the board, not the clock, so
        # a fast machine hits them too), the others once the board holds a number of
        # events (working, reviewing, assembling).
        target = rng.randint(0, 4) if trial % 5 == 0 else rng.randint(1, 45)
        first = proc("start", workspace, env)
        deadline = time.monotonic() + 60
        while first.poll() is None and events(db_path) < target and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.random() * 0.05)
        if first.poll() is None:
            first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
        killed_at.append(events(db_path))
        resume(workspace, env, db_path)
    # The kills fell all along the way (planning, working, reviewing, assembling).
    assert min(killed_at) <= 4 and max(killed_at) >= 30, killed_at


@pytest.mark.timeout(600)
@pytest.mark.parametrize("trial", range(3))
def test_a_team_killed_as_the_lead_sends_an_item_back_sends_it_back_once(
        tmp_path: Path, trial: int) -> None:
    # Killed the moment the send-back is on the board, before the lead's call has its
    # result: the resumed lead runs that call again (late: its turns start slowly). Its
    # worker must not answer (v2, in review) before that, or the call would send the new
    # answer back too (v3).
    db_path, workspace, env = setting(tmp_path, trial, OPENWORKER_TEAMTEST_KILL="sent_back")
    first = proc("start", workspace, env)
    first.communicate(timeout=120)
    assert first.returncode == -signal.SIGKILL
    db = Database(db_path)
    try:
        (team,) = TeamStore(db).teams()
        lead = ConversationStore(db).load(team.lead_session_id)
        assert lead[-1].get("tool_calls") and lead[-1]["role"] == "assistant"  # no result
    finally:
        db.close()
    resume(workspace, {**env, "OPENWORKER_TEAMTEST_SLOW_LEAD": "0.5"}, db_path)
