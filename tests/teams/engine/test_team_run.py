"""A team from start to summary: a scripted lead and three scripted workers (issue 29,
"Done when"): the plan approved once, items worked in parallel under the cap, one
sent back from review, the final deliverable assembled."""

from __future__ import annotations

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
