"""``openworker-qt team board`` and ``team list`` on the app's real database."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

import pytest

from openworker_qt.cli import _parser, main
from openworker_qt.cli import teams as team_cli
from openworker_qt.runtime import open_runtime
from openworker_qt.teams.model import LEAD, USER, Actor
from openworker_qt.teams.store import TeamStore
from tests.teams.conftest import Running, start

ANALYST = Actor("worker", "analyst")


@pytest.fixture
def app_store() -> Iterator[TeamStore]:
    """A team store on the database the command line opens."""
    rt = open_runtime()
    try:
        yield TeamStore(rt.db, audit=rt.audit)
    finally:
        rt.close()


def worked(store: TeamStore) -> Running:
    team = start(store)
    first, second = team.items[0], team.items[1]
    store.act(ANALYST, "transition", team.id, first.id, to="in_progress")
    store.record(team.id, "spend", first.id, usd=0.42, tokens=1234)
    store.act(ANALYST, "comment", team.id, first.id, text="the churn figure needs a source")
    store.act(USER, "budget", team.id, second.id, budget_usd=1.5)
    store.act(LEAD, "transition", team.id, team.items[2].id, to="canceled")
    return team


def test_the_board_in_the_terminal(app_store: TeamStore,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    team = worked(app_store)
    assert main(["team", "board", team.id[:6]]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"Team {team.id} — running: The board pack for Thursday"
    assert lines[1] == "Spent $0.42 of $5.00, 1,234 tokens; up to 3 workers at once"
    assert lines[2] == "Workers: analyst (analyst, plan), writer (writer, interactive)"
    # Items grouped by state, in the board's order of states.
    headings = [line for line in lines if not line.startswith(" ")][3:]
    assert headings == ["Open (1)", "In progress (1)", "Canceled (1)"]
    progress = lines[lines.index("In progress (1)") + 1]
    assert progress.split()[:2] == ["#1", "Gather"]
    assert "analyst" in progress and "$0.42" in progress
    assert "worker:analyst: the churn figure needs a source" in progress
    open_line = lines[lines.index("Open (1)") + 1]
    assert "writer" in open_line and "$0.00/$1.50" in open_line


def test_no_team_given_shows_every_active_team(app_store: TeamStore,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "board"]) == 0
    assert "No team is working now" in capsys.readouterr().out
    one, two = start(app_store, lead="a"), start(app_store, lead="b")
    app_store.record(two.id, "team_state", to="done")
    assert main(["team", "board"]) == 0
    out = capsys.readouterr().out
    assert f"Team {one.id}" in out and f"Team {two.id}" not in out


def test_the_board_as_json(app_store: TeamStore, capsys: pytest.CaptureFixture[str]) -> None:
    team = worked(app_store)
    assert main(["team", "board", team.id, "--json"]) == 0
    [board] = json.loads(capsys.readouterr().out)
    assert board["id"] == team.id and board["spent_usd"] == 0.42
    assert [i["state"] for i in board["items"]] == ["in_progress", "open", "canceled"]
    assert board["items"][0]["last_comment_by"] == "worker:analyst"
    assert board["over_budget"] is None


def test_over_budget_is_said(app_store: TeamStore, capsys: pytest.CaptureFixture[str]) -> None:
    team = start(app_store)
    app_store.record(team.id, "spend", usd=6.0)
    assert main(["team", "board", team.id]) == 0
    assert "Over budget: The team has spent $6.00 of its $5.00 budget." in capsys.readouterr().out


def test_team_list(app_store: TeamStore, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "list"]) == 0
    assert capsys.readouterr().out.strip() == "No teams yet."
    running = worked(app_store)
    stopped = start(app_store, lead="other")
    app_store.record(stopped.id, "team_state", to="stopped")
    assert main(["team", "list"]) == 0
    out = capsys.readouterr().out
    assert f"{running.id}  running" in out and f"{stopped.id}  stopped" in out
    assert "0/3 done  $0.42 of $5.00" in out
    assert main(["team", "list", "--active"]) == 0
    active = capsys.readouterr().out
    assert running.id in active and stopped.id not in active


def test_unknown_and_ambiguous_teams(app_store: TeamStore,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["team", "board", "zzzz"]) == 2
    assert "no team 'zzzz'" in capsys.readouterr().err
    teams = [start(app_store, lead=f"l{n}") for n in range(20)]
    prefixes = [t.id[0] for t in teams]
    shared = max(set(prefixes), key=prefixes.count)
    assert prefixes.count(shared) > 1  # 20 hex ids, 16 first digits: two share one
    assert main(["team", "board", shared]) == 2
    assert f"{shared!r} names" in capsys.readouterr().err


def test_a_damaged_team_does_not_hide_the_others(app_store: TeamStore,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad, good = start(app_store, lead="a"), start(app_store, lead="b")
    app_store.db.execute("UPDATE team_items SET result_files = '[' WHERE team_id = ?", (bad.id,))
    assert main(["team", "board"]) == 0
    out = capsys.readouterr().out
    assert f"Team {good.id} — running" in out
    assert f"team {bad.id}: its board cannot be read" in out
    assert main(["team", "board", bad.id]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_other_modules_add_commands_to_the_group(capsys: pytest.CaptureFixture[str]) -> None:
    """The group's subparsers take a new command with its own handler (``team run`` …)."""
    parser = argparse.ArgumentParser()
    group = team_cli.add_parser(parser.add_subparsers(dest="command"))
    ran: list[str] = []

    async def send(args: argparse.Namespace) -> int:
        ran.append(args.text)
        return 0

    group.add_parser("send").add_argument("text")
    group.choices["send"].set_defaults(team_handler=send)
    assert team_cli.main(parser.parse_args(["team", "send", "hello"])) == 0
    assert ran == ["hello"]
    assert {"board", "list"} <= set(group.choices)
    # The real command line has the group.
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert "team" in sub.choices
