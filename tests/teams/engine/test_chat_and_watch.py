"""Talking to a team (the lead, ``@worker``), the user acting on the board (the lead is
told), a stuck worker flagged, the lead's check-in kept on the board."""

from __future__ import annotations

import pytest

from openworker_qt.runtime import Runtime
from openworker_qt.teams.model import USER, BoardError, ItemState, TeamState
from tests.teams.engine.conftest import plan, script, until


async def started(runtime: Runtime, workspace, **changes) -> str:
    script(runtime, **changes)
    runner = runtime.team_runner()
    team = runner.start("The weekly report", persona="team", workspace=str(workspace),
                        model="teamtest:lead")
    (item,) = await until(lambda: runtime.inbox.pending(kind="plan"))
    runtime.inbox.respond(item.id, "approve")
    return team.id


def user_texts(runtime: Runtime, session_id: str) -> list[str]:
    return [str(m.get("content") or "") for m in runtime.conversations.load(session_id)
            if m.get("role") == "user"]


async def test_a_message_goes_to_the_lead_and_at_worker_to_that_worker(
        runtime: Runtime, workspace) -> None:
    team_id = await started(runtime, workspace, plan=plan(n_items=2, max_parallel=2))
    runner = runtime.team_runner()
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    team = runtime.teams.team(team_id)
    assert runner.send(team_id, "Well done, all of you.") == "lead"
    writer = runtime.teams.item(f"{team_id}-2")  # (Part 2 is the writer's)
    assert writer.assignee == "writer"
    assert runner.send(team_id, "@writer one more line, please") == "writer"
    await until(lambda: any("Well done" in t for t in user_texts(runtime, team.lead_session_id)))
    await until(lambda: any(t == "The user says: one more line, please"
                            for t in user_texts(runtime, writer.session_id)))
    with pytest.raises(BoardError, match="no worker"):
        runner.send(team_id, "@ghost hello")
    # Each line was delivered once, and the delivery is on the board.
    chats = [e for e in runtime.teams.events(team_id) if e.kind == "chat"]
    assert [e.actor for e in chats].count("user") == 2
    assert [e.actor for e in chats].count("system") == 2
    await runner.close()


async def test_the_user_acting_on_the_board_is_told_to_the_lead(
        runtime: Runtime, workspace) -> None:
    data = plan(n_items=2, max_parallel=1)
    data["items"][1]["worker"] = ""  # Part 2: nobody's yet
    team_id = await started(runtime, workspace, plan=data)
    runner = runtime.team_runner()
    await until(lambda: getattr(runtime.teams.item(f"{team_id}-1"), "state", None)
                is ItemState.DONE, 30)
    runtime.teams.act(USER, "transition", team_id, f"{team_id}-2", to="canceled",
                      comment="Not needed this week.")
    team = runtime.teams.team(team_id)
    await until(lambda: any(f"The user moved item {team_id}-2 (now canceled)" in t
                            for t in user_texts(runtime, team.lead_session_id)))
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    assert f"Canceled: {team_id}-2" in runtime.teams.team(team_id).summary
    await runner.close()


async def test_a_silent_worker_is_flagged_stuck_and_the_lead_checks_in(
        runtime: Runtime, workspace) -> None:
    team_id = await started(runtime, workspace, plan=plan(n_items=1),
                            delays={"worker": 1.0, "lead": 0.0})
    runner = runtime.team_runner()
    runner.stuck_after = 0.0
    runner.check_in_every = 3600.0
    item = await until(lambda: next((i for i in runtime.teams.items(team_id)
                                     if i.state is ItemState.IN_PROGRESS), None))
    runner.watch_once()
    flagged = [e for e in runtime.teams.events(team_id) if e.kind == "item_stuck"]
    assert flagged and flagged[0].item_id == item.id and flagged[0].data == {"stuck": True}
    check_in = runtime.teams.team(team_id).next_check_in
    assert check_in > 0
    # The check-in comes due: the lead gets the board, a new one is set.
    runner.clock = lambda: check_in + 1

    def checked_in() -> bool:
        runner.watch_once()  # (due, it waits for the lead to be free)
        return runtime.teams.team(team_id).next_check_in != check_in

    await until(checked_in)
    team = runtime.teams.team(team_id)
    assert team.next_check_in == pytest.approx(check_in + 1 + 3600.0)
    await until(lambda: any(t.startswith(f"Check-in (team {team_id})")
                            for t in user_texts(runtime, team.lead_session_id)))
    await runner.close()


async def test_the_user_reopens_and_reassigns_items(runtime: Runtime, workspace) -> None:
    data = plan(n_items=2, workers=("researcher", "writer"), max_parallel=2)
    data["items"][1]["worker"] = ""  # Part 2: nobody's yet
    team_id = await started(runtime, workspace, plan=data)
    runner = runtime.team_runner()
    first, second = f"{team_id}-1", f"{team_id}-2"
    await until(lambda: getattr(runtime.teams.item(first), "state", None) is ItemState.DONE, 30)
    # Reopened: the same worker, in its same session, told why.
    runtime.teams.act(USER, "transition", team_id, first, to="open", comment="One more figure.")
    await until(lambda: runtime.teams.item(first).state is ItemState.DONE
                and runtime.teams.item(first).result_text.endswith("v2"), 30)
    item = runtime.teams.item(first)
    texts = user_texts(runtime, item.session_id)
    assert any(t.startswith(f"Your item {first} was reopened") and "> One more figure." in t
               for t in texts)
    # Part 1 (the writer's) reopened again and given to the researcher: it works it
    # in a session of its own. Then Part 2 (nobody's) to the researcher too.
    assert item.assignee == "writer"
    runtime.teams.act(USER, "transition", team_id, first, to="open", comment="Yours now.")
    runtime.teams.act(USER, "assign", team_id, first, worker="researcher")
    await until(lambda: runtime.teams.item(first).state is ItemState.DONE, 30)
    runtime.teams.act(USER, "assign", team_id, second, worker="researcher")
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    done = runtime.teams.item(first)
    assert done.assignee == "researcher" and done.session_id != item.session_id
    info = runtime.conversations.get_session(done.session_id)
    assert info.meta["worker"] == "researcher" and info.meta["item_id"] == first
    assert runtime.conversations.get_session(item.session_id).meta["worker"] == "writer"
    await runner.close()


async def test_an_item_in_progress_given_to_another_worker_changes_hands(
        runtime: Runtime, workspace) -> None:
    data = plan(n_items=1, workers=("researcher", "writer"))
    team_id = await started(runtime, workspace, plan=data, delays={"worker": 0.5, "lead": 0.0})
    runner = runtime.team_runner()
    first = f"{team_id}-1"
    item = await until(lambda: (i := runtime.teams.item(first)) is not None
                       and i.state is ItemState.IN_PROGRESS and i)
    assert item.assignee == "writer"
    runtime.teams.act(USER, "assign", team_id, first, worker="researcher")
    await until(lambda: runtime.teams.team(team_id).state is TeamState.DONE, 30)
    done = runtime.teams.item(first)
    assert done.session_id != item.session_id
    assert runtime.conversations.get_session(done.session_id).meta["worker"] == "researcher"
    results = [e.actor for e in runtime.teams.events(team_id) if e.kind == "item_result"]
    assert results == ["worker:researcher"]  # the writer's stopped turn gave nothing
    await runner.close()
