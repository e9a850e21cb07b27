"""A team from start to summary: a scripted lead and three scripted workers (issue 29,
"Done when"): the plan approved once, items worked in parallel under the cap, one
sent back from review, the final deliverable assembled."""

from __future__ import annotations

import json
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.runtime import Runtime
from openworker_qt.teams.model import ItemState, TeamState
from openworker_qt.teams.runner import worker_session_id
from tests.teams.engine.conftest import plan, script, until


async def test_a_team_plans_works_in_parallel_reviews_and_assembles(
        runtime: Runtime, workspace: Path) -> None:
    script(runtime, plan=plan(n_items=5, max_parallel=2), send_back=["Part 2"], delay=0.03)
    runner = runtime.team_runner()
    running: set[str] = set()
    most = [0]

    def count(event: ev.Event) -> None:
        if isinstance(event, ev.RunningChanged) and event.session_id.startswith("tw-"):
            (running.add if event.running else running.discard)(event.session_id)
            most[0] = max(most[0], len(running))

    runner.manager.listeners.append(count)
    team = runner.start("The weekly report", persona="cowork", workspace=str(workspace),
                        model="teamtest:lead")
    # One inbox item for the plan and the staffing, on the lead's session.
    item = await until(lambda: runtime.inbox.pending(kind="plan"))
    assert len(item) == 1 and item[0].tool == "team_plan"
    assert item[0].session_id == team.lead_session_id
    assert item[0].arguments["team_id"] == team.id
    assert [i["key"] for i in item[0].arguments["plan"]["items"]] == [f"k{n}" for n in range(1, 6)]
    assert runtime.teams.team(team.id).state is TeamState.AWAITING_PLAN
    assert runtime.inbox.respond(item[0].id, "approve")

    done = await until(lambda: runtime.teams.team(team.id).state is TeamState.DONE, 60)
    assert done
    await runner.close()
    items = runtime.teams.items(team.id)
    assert [i.state for i in items] == [ItemState.DONE] * 5
    # Every item worked by one worker session, its own, with its worker's persona.
    for it in items:
        assert it.session_id == worker_session_id(team.id, it.id)
        info = runtime.conversations.get_session(it.session_id)
        assert info.meta == {"team_id": team.id, "team_role": "worker", "worker": it.assignee,
                             "item_id": it.id}
    assert 2 <= most[0] <= 2, most[0]  # parallel, and never past the cap
    # Part 2 went back once from review and came back as its second version.
    part2 = next(i for i in items if i.title == "Part 2")
    assert part2.result_text == "Result for Part 2 v2"
    moves = [(e.data["from"], e.data["to"]) for e in runtime.teams.events(team.id)
             if e.kind == "item_transitioned" and e.item_id == part2.id]
    assert moves == [("open", "in_progress"), ("in_progress", "review"),
                     ("review", "in_progress"), ("in_progress", "review"), ("review", "done")]
    # The plan was asked once; the summary holds the deliverable, who did what, the cost.
    assert len(runtime.inbox.items(kind="plan")) == 1
    final = runtime.teams.team(team.id)
    assert "DELIVERABLE" in final.summary
    for n in range(1, 6):
        assert f"Result for Part {n} v" in final.summary
    assert "Left: nothing" in final.summary
    assert final.spent_usd > 0 and final.tokens > 0
    summaries = [e for e in runtime.teams.events(team.id) if e.kind == "summary"]
    assert len(summaries) == 1


async def test_the_plan_approved_as_the_user_edited_it(runtime: Runtime, workspace: Path) -> None:
    script(runtime, plan=plan(n_items=3, max_parallel=3))
    runner = runtime.team_runner()
    team = runner.start("The weekly report", persona="team", workspace=str(workspace),
                        model="teamtest:lead")
    (item,) = await until(lambda: runtime.inbox.pending(kind="plan"))
    edited = dict(item.arguments["plan"])
    edited["items"] = [dict(i) for i in edited["items"][:2]]  # Part 3 dropped
    edited["items"][0]["budget_usd"] = 1.5
    edited["workers"] = [dict(w) for w in edited["workers"]]
    for worker in edited["workers"]:
        if worker["name"] == "analyst":
            worker["persona"] = "researcher"  # another persona for a worker
    edited["budget_usd"] = 3.0
    assert runtime.inbox.respond(item.id, "approve", json.dumps(edited))
    await until(lambda: runtime.teams.team(team.id).state is TeamState.DONE, 30)
    final = runtime.teams.team(team.id)
    items = runtime.teams.items(team.id)
    assert [i.title for i in items] == ["Part 1", "Part 2"]
    assert items[0].budget_usd == 1.5 and final.budget_usd == 3.0
    analyst = next(i for i in items if i.assignee == "analyst")
    assert runtime.conversations.get_session(analyst.session_id).persona == "researcher"
    await runner.close()


async def test_a_plan_turned_down_with_a_reason_is_planned_again_and_without_one_stops(
        runtime: Runtime, workspace: Path) -> None:
    script(runtime, plan=plan(n_items=1))
    runner = runtime.team_runner()
    team = runner.start("The weekly report", persona="team", workspace=str(workspace),
                        model="teamtest:lead")
    (first,) = await until(lambda: runtime.inbox.pending(kind="plan"))
    assert runtime.inbox.respond(first.id, "answer", "fewer workers")
    tool_results = await until(lambda: [
        m for m in runtime.conversations.load(team.lead_session_id)
        if m.get("role") == "tool" and "turned the plan down" in str(m.get("content"))])
    assert "> fewer workers" in str(tool_results[0]["content"])
    assert runtime.teams.team(team.id).state is TeamState.PLANNING
    # The user asks for the plan again; this time it is turned down flat.
    runner.send(team.id, "Please propose it again.")
    second = await until(lambda: runtime.inbox.pending(kind="plan"))
    assert second[0].id != first.id
    assert runtime.inbox.respond(second[0].id, "deny")
    ended = await runner.wait(team.id)
    assert ended.state is TeamState.STOPPED
    await runner.close()
