"""A team on a real store, filled through the store's own verbs and facts: the plan
accepted, items started by their workers' sessions, one in review, one done, spend
recorded, one worker gone quiet. Shared by the window tests and scripts/team_screens.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from openworker_qt.teams.model import LEAD, Actor, Item, Plan, PlanItem, Team, WorkerSpec
from openworker_qt.teams.store import TeamStore


def pricing_plan(words: Callable[[str], str] = str) -> Plan:
    w = words
    return Plan(
        w("Compare five competitors' pricing and write a one-page brief for Thursday"),
        (PlanItem("pages", w("Collect the five pricing pages"), w("Each plan with its link and date"),
                  "researcher"),
         PlanItem("table", w("Build the comparison table"), w("Tiers, seats and prices side by side"),
                  "analyst"),
         PlanItem("brief", w("Write the one-page brief"), w("Plain words, three recommendations"),
                  "writer"),
         PlanItem("check", w("Check every figure against its source"), w("No figure without a link"),
                  "analyst")),
        (WorkerSpec("researcher", "researcher", "plan"), WorkerSpec("analyst", "analyst"),
         WorkerSpec("writer", "writer")),
        budget_usd=6.0, budget_tokens=3_000_000, max_parallel=3)


@dataclass
class Filled:
    team: Team
    items: list[Item]
    #: worker name -> its session id
    sessions: dict[str, str]


def propose(store: TeamStore, lead_session: str, words: Callable[[str], str] = str) -> Team:
    """A team led by ``lead_session`` whose plan waits for the user."""
    plan = pricing_plan(words)
    team = store.create_team(plan.outcome, lead_session)
    store.record(team.id, "plan_proposed", plan=plan)
    return team


def fill(store: TeamStore, lead_session: str, worker_sessions: dict[str, str],
         words: Callable[[str], str] = str, team: Team | None = None) -> Filled:
    """A running team led by ``lead_session`` whose workers work in ``worker_sessions``
    (``team``: one :func:`propose` made, its plan now accepted)."""
    plan = pricing_plan(words)
    team = team or propose(store, lead_session, words)
    store.record(team.id, "plan_accepted", plan=plan.to_json())
    pages, table, brief, _check = store.items(team.id)
    for item, worker in ((pages, "researcher"), (table, "analyst"), (brief, "writer")):
        store.record(team.id, "item_session", item.id, session_id=worker_sessions[worker],
                     worker=worker)
        store.act(Actor("worker", worker), "transition", team.id, item.id, to="in_progress")
    researcher = Actor("worker", "researcher")
    store.act(researcher, "result", team.id, pages.id, text=words("Five pages saved"),
              files=["outputs/pricing-pages.md"])
    store.act(researcher, "transition", team.id, pages.id, to="review")
    store.act(LEAD, "transition", team.id, pages.id, to="done",
              comment=words("All five sources are there"))
    store.act(Actor("worker", "analyst"), "comment", team.id, table.id,
              text=words("Two vendors hide enterprise prices; marked as 'on request'"))
    store.act(Actor("worker", "analyst"), "result", team.id, table.id,
              text=words("Table in outputs/comparison.md"), files=["outputs/comparison.md"])
    store.act(Actor("worker", "analyst"), "transition", team.id, table.id, to="review")
    for item, usd, tokens in ((pages, 0.62, 180_000), (table, 0.91, 240_000), (brief, 0.35, 90_000)):
        store.record(team.id, "spend", item.id, usd=usd, tokens=tokens)
    store.record(team.id, "item_stuck", brief.id, stuck=True)
    fresh = store.team(team.id)
    assert fresh is not None
    return Filled(fresh, store.items(team.id), dict(worker_sessions))
