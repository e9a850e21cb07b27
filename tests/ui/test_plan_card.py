"""The team plan card: the lead's plan edited and answered once (issue 29, item 1)."""

from __future__ import annotations

import json
from typing import Any

from openworker_qt.teams.model import Plan, PlanItem, WorkerSpec
from openworker_qt.ui.plan_card import PlanCard
from openworker_qt.ui.plan_items import is_plan_item

PERSONAS = [("researcher", "Researcher"), ("writer", "Writer"), ("analyst", "Analyst")]


def plan() -> Plan:
    return Plan(
        "Compare five competitors' pricing and write a one-page brief",
        (PlanItem("a", "Collect the pricing pages", "Five sources, each with a link", "res"),
         PlanItem("b", "Compare the plans", "A table of tiers and prices", "ana"),
         PlanItem("c", "Write the brief", "One page, plain words", "wri")),
        (WorkerSpec("res", "researcher", "plan"), WorkerSpec("ana", "analyst"),
         WorkerSpec("wri", "writer")),
        budget_usd=5.0, max_parallel=3)


def card(qtbot, data: dict[str, Any] | None = None) -> tuple[PlanCard, list[str]]:
    widget = PlanCard({"team_id": "t1", "plan": data or plan().to_json()}, PERSONAS)
    qtbot.addWidget(widget)
    answers: list[str] = []
    widget.answered.connect(answers.append)
    return widget, answers


def test_a_team_plan_item_is_recognised() -> None:
    assert is_plan_item("team_plan", {"team_id": "t1", "plan": plan().to_json()})
    assert not is_plan_item("ask_user", {"plan": {}})
    assert not is_plan_item("team_plan", {"team_id": "t1"})


def test_accepting_an_unchanged_plan_answers_approve(qtbot) -> None:
    widget, answers = card(qtbot)
    assert widget.outcome.text().startswith("Compare five competitors")
    assert [r.item.title for r in widget.rows] == [
        "Collect the pricing pages", "Compare the plans", "Write the brief"]
    assert widget.read_only_boxes[0].isChecked() and not widget.read_only_boxes[1].isChecked()
    assert widget.budget_usd.value() == 5.0 and widget.budget_tokens.value() == 0
    widget.accept_button.click()
    assert answers == ["approve"]


def test_edits_are_sent_as_the_edited_plan(qtbot) -> None:
    widget, answers = card(qtbot)
    widget.rows[1].remove.click()
    widget.persona_boxes[2].setCurrentIndex(widget.persona_boxes[2].findData("analyst"))
    widget.read_only_boxes[0].setChecked(False)
    widget.read_only_boxes[2].setChecked(True)
    widget.budget_usd.setValue(2.5)
    widget.budget_tokens.setValue(400_000)
    widget.parallel.setValue(2)
    widget.accept_button.click()
    assert len(answers) == 1 and answers[0].startswith("approve: ")
    edited = Plan.from_json(json.loads(answers[0][len("approve: "):]))
    assert [i.key for i in edited.items] == ["a", "c"]
    assert [(w.name, w.persona, w.mode) for w in edited.workers] == [
        ("res", "researcher", "interactive"), ("ana", "analyst", "interactive"),
        ("wri", "analyst", "plan")]
    assert (edited.budget_usd, edited.budget_tokens, edited.max_parallel) == (2.5, 400_000, 2)
    assert edited.outcome == plan().outcome


def test_a_plan_with_no_items_left_is_not_sent_and_says_why(qtbot) -> None:
    widget, answers = card(qtbot)
    widget.show()
    for row in widget.rows:
        row.remove.click()
    widget.accept_button.click()
    assert answers == []
    assert widget.error.isVisible()
    assert "at least one work item" in widget.error.text()
    assert "malformed" not in widget.error.text()


def test_declining_with_and_without_a_reason(qtbot) -> None:
    widget, answers = card(qtbot)
    widget.decline_button.click()
    widget.reason.setText("Too broad: only the top three")
    widget.decline_button.click()
    assert answers == ["deny", "deny: Too broad: only the top three"]


def test_a_malformed_plan_can_only_be_declined(qtbot) -> None:
    bad = plan().to_json()
    bad["items"][0]["worker"] = "nobody"
    widget, answers = card(qtbot, bad)
    widget.show()
    assert not widget.accept_button.isEnabled()
    assert widget.error.isVisible() and "not on the team" in widget.error.text()
    widget.decline_button.click()
    assert answers == ["deny"]


def test_an_unknown_persona_is_shown_as_itself(qtbot) -> None:
    data = plan().to_json()
    data["workers"][0]["persona"] = "auditor"
    widget, answers = card(qtbot, data)
    assert widget.persona_boxes[0].currentData() == "auditor"
    widget.accept_button.click()
    assert answers == ["approve"]


def test_the_inbox_window_answers_a_team_plan_with_the_edited_plan(qtbot, tmp_path) -> None:
    from openworker_qt.core.inbox import Inbox
    from openworker_qt.qt.inbox_bridge import InboxBridge
    from openworker_qt.storage.conversations import ConversationStore
    from openworker_qt.storage.db import Database
    from openworker_qt.ui.inbox_window import InboxWindow

    db = Database(tmp_path / "state.sqlite3")
    store = ConversationStore(db)
    lead = store.create_session(title="Competitor pricing")
    inbox = Inbox(db)
    bridge = InboxBridge(inbox)
    try:
        question = inbox.add("question", lead.id, tool="ask_user", arguments={"question": "Which?"},
                             title="Which?")
        item = inbox.add("plan", lead.id, tool="team_plan", title="Team plan",
                         arguments={"team_id": "t1", "plan": plan().to_json()})
        window = InboxWindow(bridge, store, bridge)
        qtbot.addWidget(window)
        window.show()
        window.list.setCurrentIndex(window.model.index(1, 0))
        slot = window.plan_slot
        assert slot.card is not None and slot.scroll.isVisible()
        assert not window.answer.isVisible() and not window.question.isVisible()
        window.list.setCurrentIndex(window.model.index(0, 0))  # the question: no plan card
        assert slot.card is None and window.answer.isVisible()
        window.list.setCurrentIndex(window.model.index(1, 0))
        assert slot.card is not None
        slot.card.rows[2].remove.click()
        slot.card.accept_button.click()
        resolved = inbox.get(item.id)
        assert resolved is not None and resolved.status == "resolved"
        assert resolved.resolution is not None and resolved.resolution.startswith("approve: ")
        edited = Plan.from_json(json.loads(resolved.resolution[len("approve: "):]))
        assert [i.key for i in edited.items] == ["a", "b"]
        assert inbox.get(question.id).status == "pending"
    finally:
        bridge.detach()
        db.close()


def test_the_pickers_offer_the_enabled_personas_but_no_team_persona(qtbot) -> None:
    from openworker_qt.ui import plan_items  # (the personas it offers)

    before = plan_items.persona_choices()
    try:
        plan_items.offer_personas([("cowork", "Cowork", ""), ("software-team", "Software team", ""),
                                  ("researcher", "Researcher", "")])
        assert plan_items.persona_choices() == [("cowork", "Cowork"), ("researcher", "Researcher")]
        widget = PlanCard({"team_id": "t1", "plan": plan().to_json()}, plan_items.persona_choices())
        qtbot.addWidget(widget)
        box = widget.persona_boxes[0]
        assert [box.itemData(n) for n in range(box.count())] == ["cowork", "researcher"]
    finally:
        plan_items._personas[:] = before


def test_the_leads_plan_and_board_calls_read_as_words() -> None:
    from openworker_qt.qt.wording import tool_title

    assert tool_title("team_plan", {"plan": {}}, "ok") == "Proposed the team's plan"
    assert tool_title("board_transition", {"item": "t1-3", "to": "review"}, "ok") == (
        "Moved t1-3 on the board")
    assert tool_title("board_create", {"title": "Check the totals"}, "ok") == (
        "Added “Check the totals” to the board")
    assert tool_title("board_list", {}, "ok") == "Looked at the team board"


def test_every_control_of_the_card_is_named(qtbot) -> None:
    from tests.ui.test_accessibility import assert_accessible

    widget, _answers = card(qtbot)
    assert assert_accessible(widget) >= 15

