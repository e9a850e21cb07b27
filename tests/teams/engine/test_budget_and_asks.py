"""Budgets (a worker past its item's budget stops and asks; the team past its budget
stops) and a worker's approval, an ordinary inbox item answered from the CLI."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.runtime import Runtime
from openworker_qt.teams.model import USER, ItemState, TeamState
from tests.teams.engine.conftest import plan, script, until

REPO = Path(__file__).resolve().parents[3]


async def started(runtime: Runtime, workspace: Path) -> str:
    runner = runtime.team_runner()
    team = runner.start("The weekly report", persona="cowork", workspace=str(workspace),
                        model="teamtest:lead")
    (item,) = await until(lambda: runtime.inbox.pending(kind="plan"))
    runtime.inbox.respond(item.id, "approve")
    return team.id


async def test_a_worker_past_its_budget_stops_and_asks(runtime: Runtime, workspace: Path) -> None:
    # Each call costs $0.00012; Part 1's worker comments first (one call), then answers.
    script(runtime, plan=plan(n_items=3, max_parallel=3, budgets={"k1": 0.0001}),
           comment={"analyst": {"name": "board_comment",
                                "arguments": {"item": "1", "text": "Starting."}}})
    team_id = await started(runtime, workspace)
    first = f"{team_id}-1"
    ask = await until(lambda: [i for i in runtime.inbox.pending(kind="question")
                               if i.tool == "team_budget"])
    assert len(ask) == 1
    assert ask[0].title.startswith(f"Team {team_id} · analyst: item {first} reached its budget")
    item = runtime.teams.item(first)
    assert item.cost_usd >= 0.0001 and item.state is ItemState.IN_PROGRESS
    # The other items go on meanwhile and reach done.
    await until(lambda: all(i.state is ItemState.DONE for i in runtime.teams.items(team_id)
                            if i.id != first))
    assert not runtime.team_runner().manager.is_running(item.session_id)
    calls = len([m for m in runtime.conversations.load(item.session_id)
                 if m.get("role") == "assistant"])
    # The user raises the budget: the worker goes on and the team ends.
    assert runtime.inbox.respond(ask[0].id, "answer", "0.01")
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    assert runtime.teams.item(first).budget_usd == 0.01
    assert len([m for m in runtime.conversations.load(item.session_id)
                if m.get("role") == "assistant"]) > calls
    await runtime.team_runner().close()


async def test_the_team_past_its_budget_stops(runtime: Runtime, workspace: Path) -> None:
    data = plan(n_items=4, max_parallel=2)
    data["budget_usd"] = 0.0005
    script(runtime, plan=data)
    team_id = await started(runtime, workspace)
    runner = runtime.team_runner()
    team = await asyncio.wait_for(runner.wait(team_id), 30)
    assert team.state is TeamState.OVER_BUDGET
    assert team.spent_usd >= 0.0005
    await until(lambda: not any(runner.manager.is_running(s) for s in
                                [team.lead_session_id, *(i.session_id for i in
                                                         runtime.teams.items(team_id))]))
    # Nothing started after the budget was spent.
    spent = runtime.teams.team(team_id).spent_usd
    await asyncio.sleep(0.2)
    assert runtime.teams.team(team_id).spent_usd == spent
    # The user raises the team's budget: it goes on to the end.
    runtime.teams.act(USER, "budget", team_id, budget_usd=1.0)
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    assert [i.state for i in runtime.teams.items(team_id)] == [ItemState.DONE] * 4
    await runner.close()


async def test_a_lead_turn_stopped_after_the_budget_was_raised_is_told_again(
        runtime: Runtime, workspace: Path) -> None:
    # A stop meant for the over-budget team can land on the lead's next turn (one it
    # was finishing when the team stopped): that turn, carrying what the lead was told
    # (an item in review), ends unread. The team must still get to the end.
    data = plan(n_items=4, max_parallel=2)
    data["budget_usd"] = 0.0005
    script(runtime, plan=data)
    team_id = await started(runtime, workspace)
    runner = runtime.team_runner()
    team = await asyncio.wait_for(runner.wait(team_id), 30)
    assert team.state is TeamState.OVER_BUDGET
    await until(lambda: not any(runner.manager.is_running(s) for s in
                                [team.lead_session_id, *(i.session_id for i in
                                                         runtime.teams.items(team_id))]))
    stopped: list[str] = []

    def stop_the_leads_next_turn(event: ev.Event) -> None:
        if isinstance(event, ev.UserMessageAdded) and event.session_id == team.lead_session_id \
                and not stopped:
            stopped.append(str(event.message.get("content")))
            runner.manager.stop(team.lead_session_id)

    runner.manager.listeners.append(stop_the_leads_next_turn)
    runtime.teams.act(USER, "budget", team_id, budget_usd=1.0)
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    assert stopped and "is in review" in stopped[0]
    assert [i.state for i in runtime.teams.items(team_id)] == [ItemState.DONE] * 4
    await runner.close()


async def test_a_workers_approval_is_an_inbox_item_answered_from_the_cli(
        runtime: Runtime, workspace: Path) -> None:
    script(runtime, plan=plan(n_items=3, max_parallel=3),
           tools={"writer": {"name": "write_file",
                             "arguments": {"path": "notes.txt", "content": "the prose\n"}}})
    team_id = await started(runtime, workspace)
    asks = await until(lambda: [i for i in runtime.inbox.pending(kind="approval")])
    assert len(asks) == 1
    ask = asks[0]
    assert ask.title == f"Team {team_id} · writer: write_file wants to run"
    writer_item = next(i for i in runtime.teams.items(team_id) if i.assignee == "writer")
    assert ask.session_id == writer_item.session_id
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    shown = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "openworker_qt", "inbox"],
                                    cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert f"#{ask.id}" in shown.stdout and writer_item.session_id in shown.stdout
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "openworker_qt", "approve", str(ask.id)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    assert (workspace / "notes.txt").read_text(encoding="utf-8") == "the prose\n"
    await runtime.team_runner().close()
