"""The projection is the fold of the log: after random walks over the board, and after a
process writing the board is killed at random points."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from openworker_qt.storage.db import Database
from openworker_qt.teams.fold import fold
from openworker_qt.teams.store import TeamStore, audit_session
from tests.teams.conftest import REPO_ROOT
from tests.teams.walk import new_team, step


def assert_projection_is_the_fold(store: TeamStore, team_id: str) -> None:
    board = fold(store.events(team_id))
    assert board.team == store.team(team_id)
    assert list(board.items.values()) == store.items(team_id)
    for session_id, role in board.sessions.items():
        found = store.team_for_session(session_id)
        assert found is not None and (found[0].id, found[1]) == (team_id, role)


@pytest.mark.parametrize("seed", range(40))
def test_random_walks(seed: int, store: TeamStore) -> None:
    rng = random.Random(seed)
    teams = [new_team(store, rng, n) for n in range(2)]
    appended = sum(step(store, rng, rng.choice(teams)) for _ in range(80))
    assert appended > 10  # the walk did more than bump into refusals
    for team_id in teams:
        assert_projection_is_the_fold(store, team_id)
        before = (store.team(team_id), store.items(team_id))
        store.rebuild(team_id)
        assert (store.team(team_id), store.items(team_id)) == before


CHILD = """
import random, sys
from openworker_qt.storage.db import Database
from openworker_qt.teams.store import TeamStore
from tests.teams.walk import new_team, step
store = TeamStore(Database(sys.argv[1]))
rng = random.Random(int(sys.argv[2]))
teams = [new_team(store, rng, n) for n in range(2)]
print("ready", flush=True)
while True:
    step(store, rng, rng.choice(teams))
"""


@pytest.mark.parametrize("trial", range(6))
def test_a_kill_at_any_point_leaves_log_and_board_consistent(trial: int, tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    rng = random.Random(1000 + trial)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(trial)], cwd=REPO_ROOT,
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    try:
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        db = Database(path)
        target = rng.randrange(20, 400)
        while db.query("SELECT count(*) FROM team_events")[0][0] < target:
            assert child.poll() is None
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
        if child.stdout is not None:
            child.stdout.close()
    store = TeamStore(db)
    team_ids = [str(r[0]) for r in db.query("SELECT DISTINCT team_id FROM team_events")]
    assert len(team_ids) == 2
    for team_id in team_ids:
        assert_projection_is_the_fold(store, team_id)
        audited = db.query("SELECT count(*) FROM audit WHERE session_id = ?",
                           (audit_session(team_id),))[0][0]
        assert audited == len(store.events(team_id))
    db.close()
