"""The answer to a team's plan item: approve as proposed, approve an edited plan
(checked when given), deny with or without a reason — from every surface alike."""

from __future__ import annotations

import json

import pytest

from openworker_qt.core.inbox import Inbox, InboxError
from openworker_qt.storage.db import Database
from openworker_qt.teams.model import Plan, PlanItem, WorkerSpec
from openworker_qt.teams.plan_answer import PLAN_TOOL, parse_answer

PLAN = Plan("Weekly report", (PlanItem("a", "Numbers", "all weeks", "analyst"),
                              PlanItem("b", "Prose", "one page", "writer")),
            (WorkerSpec("analyst", "analyst", "plan"), WorkerSpec("writer", "writer")))


@pytest.fixture
def inbox(tmp_path) -> Inbox:
    return Inbox(Database(tmp_path / "db.sqlite3"))


def plan_item(inbox: Inbox):
    return inbox.add("plan", "lead1", tool=PLAN_TOOL, call_key="k",
                     arguments={"team_id": "t1", "plan": PLAN.to_json()})


def test_approve_as_proposed(inbox: Inbox) -> None:
    item = plan_item(inbox)
    assert inbox.respond(item.id, "approve")
    resolution = inbox.get(item.id).resolution
    assert resolution == "approve"
    assert parse_answer(resolution, PLAN) == (PLAN, "")


def test_approve_an_edited_plan(inbox: Inbox) -> None:
    item = plan_item(inbox)
    edited = Plan(PLAN.outcome, PLAN.items[:1], PLAN.workers[:1], budget_usd=2.5)
    text = json.dumps(edited.to_json())
    assert inbox.respond(item.id, "approve", text)
    resolution = inbox.get(item.id).resolution
    assert resolution == f"approve: {text}"
    chosen, _ = parse_answer(resolution, PLAN)
    assert chosen == edited


@pytest.mark.parametrize(("text", "says"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    (json.dumps({"outcome": "x", "items": [], "workers": []}), "no work items"),
    (json.dumps({"outcome": "x", "items": [{"key": "a", "title": "t", "worker": "ghost"}],
                 "workers": []}), "unknown worker"),
])
def test_a_bad_edited_plan_is_refused_and_the_item_stays_open(inbox: Inbox, text, says) -> None:
    item = plan_item(inbox)
    with pytest.raises(InboxError, match=says):
        inbox.respond(item.id, "approve", text)
    assert inbox.get(item.id).pending


def test_deny_with_and_without_a_reason(inbox: Inbox) -> None:
    item = plan_item(inbox)
    assert inbox.respond(item.id, "answer", "too many workers")
    resolution = inbox.get(item.id).resolution
    assert resolution == "deny: too many workers"
    assert parse_answer(resolution, PLAN) == (None, "too many workers")
    other = inbox.add("plan", "lead1", tool=PLAN_TOOL, call_key="k2", arguments={})
    assert inbox.respond(other.id, "deny")
    assert parse_answer(inbox.get(other.id).resolution, PLAN) == (None, "")


def test_an_ordinary_plan_ignores_a_text_on_approve(inbox: Inbox) -> None:
    item = inbox.add("plan", "s1", tool="propose_plan", call_key="p")
    assert inbox.respond(item.id, "approve", "whatever")
    assert inbox.get(item.id).resolution == "approve"
