"""The board's vocabulary: who may move what, the plan as the lead proposes it."""

from __future__ import annotations

import pytest

from openworker_qt.teams.model import (
    LEAD,
    SYSTEM,
    TRANSITIONS,
    USER,
    VERBS,
    Actor,
    BoardError,
    Item,
    ItemState,
    Plan,
    PlanItem,
    WorkerSpec,
    check_transition,
    check_verb,
)

WRITER = Actor("worker", "writer")


def item(state: ItemState, assignee: str = "writer", result: str = "") -> Item:
    return Item("t-1", "t", "Draft", "two pages", state, assignee=assignee, result_text=result)


def test_actors_read_back_as_written() -> None:
    for actor in (USER, LEAD, SYSTEM, WRITER):
        assert Actor.parse(str(actor)) == actor
    assert str(WRITER) == "worker:writer"
    for bad in ("worker:", "admin", "", "Lead"):
        with pytest.raises(ValueError, match="not an actor"):
            Actor.parse(bad)


def test_every_state_has_its_moves_and_none_stays_put() -> None:
    assert set(TRANSITIONS) == set(ItemState)
    for state, targets in TRANSITIONS.items():
        assert state not in targets
    # Done is reached only from review: the review gate.
    assert [s for s, targets in TRANSITIONS.items() if ItemState.DONE in targets] == \
        [ItemState.REVIEW]


def test_a_worker_moves_its_own_item_to_in_progress_review_or_blocked() -> None:
    check_transition(WRITER, item(ItemState.OPEN), ItemState.IN_PROGRESS)
    check_transition(WRITER, item(ItemState.IN_PROGRESS, result="text"), ItemState.REVIEW)
    check_transition(WRITER, item(ItemState.IN_PROGRESS), ItemState.BLOCKED)
    with pytest.raises(BoardError, match="not yours .*assigned to analyst"):
        check_transition(WRITER, item(ItemState.OPEN, "analyst"), ItemState.IN_PROGRESS)
    with pytest.raises(BoardError, match="unassigned"):
        check_transition(WRITER, item(ItemState.OPEN, ""), ItemState.IN_PROGRESS)
    with pytest.raises(BoardError, match="lead or the user accepts"):
        check_transition(WRITER, item(ItemState.REVIEW, result="x"), ItemState.DONE)
    with pytest.raises(BoardError, match="lead or the user accepts"):
        check_transition(WRITER, item(ItemState.IN_PROGRESS), ItemState.CANCELED)
    with pytest.raises(BoardError, match="no result yet"):
        check_transition(WRITER, item(ItemState.IN_PROGRESS), ItemState.REVIEW)


def test_the_lead_and_the_user_accept_and_reopen() -> None:
    for actor in (LEAD, USER):
        check_transition(actor, item(ItemState.REVIEW), ItemState.DONE)
        check_transition(actor, item(ItemState.DONE), ItemState.OPEN)
        with pytest.raises(BoardError, match="cannot move to done"):
            check_transition(actor, item(ItemState.IN_PROGRESS), ItemState.DONE)


def test_who_may_use_which_verb() -> None:
    for verb in ("assign", "link", "budget", "staff"):
        with pytest.raises(BoardError, match=f"worker:writer may not {verb}"):
            check_verb(WRITER, verb)
    for verb in ("budget", "staff"):  # the user's alone
        with pytest.raises(BoardError, match=f"lead may not {verb}"):
            check_verb(LEAD, verb)
        check_verb(USER, verb)
    with pytest.raises(BoardError, match="unknown board verb"):
        check_verb(USER, "delete")
    assert VERBS["claim"] == {"worker"}


def test_a_worker_spec() -> None:
    assert WorkerSpec("w", "writer", "ask").mode == "interactive"  # the mode's everyday name
    assert WorkerSpec("w", "writer").mode == "interactive"
    WorkerSpec("writer-2", "writer", "plan").check()
    with pytest.raises(BoardError, match="unknown permission mode"):
        WorkerSpec("w", "writer", "root").check()
    with pytest.raises(BoardError, match="name"):
        WorkerSpec("two words", "writer").check()
    with pytest.raises(BoardError, match="no persona"):
        WorkerSpec("w", " ").check()


def a_plan() -> Plan:
    return Plan("Outcome", (PlanItem("a", "Research", "3 sources", "r"),
                            PlanItem("b", "Write", "2 pages", "")),
                (WorkerSpec("r", "researcher", "plan"),), budget_usd=2.0, budget_tokens=9000,
                max_parallel=2)


def test_a_plan_survives_json() -> None:
    assert Plan.from_json(a_plan().to_json()) == a_plan()


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("outcome"), "malformed"),
    (lambda d: d.update(items=[]), "no work items"),
    (lambda d: d["items"].append(dict(d["items"][0])), "two items share a key"),
    (lambda d: d["workers"].append(dict(d["workers"][0])), "two workers share a name"),
    (lambda d: d["items"][0].update(worker="ghost"), "unknown worker 'ghost'"),
    (lambda d: d["items"][0].update(title=" "), "has no title"),
    (lambda d: d["workers"][0].update(mode="yolo"), "unknown permission mode"),
    (lambda d: d.update(max_parallel=40), "between 1 and 16"),
    (lambda d: d["items"][0].update(budget_usd="lots"), "malformed"),
    (lambda d: d.update(items=["not an item"]), "malformed"),
])
def test_a_bad_plan_is_refused(change: object, message: str) -> None:
    data = a_plan().to_json()
    change(data)  # type: ignore[operator]
    with pytest.raises(BoardError, match=message):
        Plan.from_json(data)
