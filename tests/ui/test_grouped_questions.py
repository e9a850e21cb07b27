"""Several questions in one card: each with its own picker (or a line for words), one
Answer that waits for every question; the same in the inbox window; the model is told
each answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QCheckBox, QLineEdit, QRadioButton

from openworker_qt.core.approvals import QuestionRequest
from openworker_qt.ui.approval import QuestionCard
from openworker_qt.ui.choices import ChoicePicker
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter

GROUP = {"question": "A few details for the offsite", "questions": [
    {"question": "Which day?", "options": [{"label": "Thursday", "description": "after stand-up"},
                                           "Friday"]},
    {"question": "Which rooms?", "options": ["A", "B", "C"], "multiple": True, "other": False},
    {"question": "Anything else?"},
]}
ASK = [{"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": GROUP}]},
       {"text": "Booked."}]
TOLD = ("The user answered 3 questions:\n1. Which day? — chose Friday\n"
        "2. Which rooms? — chose A; C\n3. Anything else? — answered: vegetarian lunch")


def _answer(picker: Any, *, rooms_order: tuple[int, int]) -> None:
    """Friday, rooms A and C (clicked in ``rooms_order``), "vegetarian lunch"; Send."""
    day, rooms, words = picker.parts
    assert isinstance(day, ChoicePicker) and isinstance(rooms, ChoicePicker)
    assert isinstance(words, QLineEdit)
    day.buttons[1].click()
    for n in rooms_order:
        rooms.buttons[n].click()
    words.setText("vegetarian lunch")
    words.textEdited.emit(words.text())
    picker.submit_button.click()


def test_one_card_asks_every_question_and_answers_once_all_are_answered(qtbot) -> None:
    request = QuestionRequest(session_id="s", call_id="q1", kind="question",
                              prompt=GROUP["question"], extra=GROUP)  # type: ignore[arg-type]
    widget = QuestionCard(request)
    qtbot.addWidget(widget)
    widget.show()
    got: list[str] = []
    widget.answered.connect(got.append)
    picker = widget.group_picker
    day, rooms, words = picker.parts
    assert isinstance(day, ChoicePicker) and isinstance(rooms, ChoicePicker)
    assert isinstance(words, QLineEdit)
    assert [r.text() for r in day.findChildren(QRadioButton)] == ["Thursday", "Friday"]
    assert [b.text() for b in rooms.findChildren(QCheckBox)] == ["A", "B", "C"]
    assert rooms.other is None and day.other is not None  # closed where the model said so
    assert not day.submit_button.isVisible()  # one Answer for the card
    assert not picker.submit_button.isEnabled()
    assert picker.missing.text() == "Still to answer: 1, 2, 3"
    day.buttons[1].click()
    rooms.buttons[2].click()
    rooms.buttons[0].click()
    assert picker.missing.text() == "Still to answer: 3" and not picker.submit_button.isEnabled()
    picker.submit()
    assert got == []  # not until every question has its answer
    qtbot.keyClicks(words, "vegetarian lunch")
    assert picker.submit_button.isEnabled() and picker.missing.text() == ""
    picker.submit_button.click()
    assert [json.loads(x) for x in got] == [["Friday", "A\nC", "vegetarian lunch"]]


def test_the_window_card_answers_a_group_and_the_model_reads_each_answer(
    qtbot, qloop, make_desktop, tmp_path: Path
) -> None:
    desktop = make_desktop(ASK)
    window = desktop.window
    window.cards.show_dialogs = False

    async def scenario() -> None:
        type_and_enter(qtbot, window, "plan the offsite")
        await until(lambda: any(isinstance(c, QuestionCard) for c in window.view.cards()),
                    what="card")
        [card] = [c for c in window.view.cards() if isinstance(c, QuestionCard)]
        _answer(card.group_picker, rooms_order=(0, 2))
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    [item] = desktop.runtime.inbox.items()
    assert item.resolved_by == "card"
    assert json.loads(item.resolution or "") == ["Friday", "A\nC", "vegetarian lunch"]
    tool = next(m for m in desktop.runtime.conversations.load(window.session_id)
                if m.get("role") == "tool")
    assert tool["content"] == TOLD


def test_the_inbox_window_shows_the_same_picker_for_a_parked_group(
    qtbot, qloop, make_desktop, tmp_path: Path
) -> None:
    desktop = make_desktop(ASK)
    window = desktop.window
    window.cards.show_dialogs = False
    inbox = desktop.runtime.inbox
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "plan the offsite")
        await until(lambda: inbox.pending(kind="question"), what="question")
        box = desktop.show_inbox()
        await until(lambda: box.group_slot.picker is not None, what="the picker")
        picker = box.group_slot.picker
        assert picker is not None
        seen["question"] = box.question.text()
        seen["answer line"] = box.answer.isVisible()
        _answer(picker, rooms_order=(2, 0))
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        box.close()

    run(qloop, scenario)
    assert seen == {"question": "A few details for the offsite", "answer line": False}
    [item] = desktop.runtime.inbox.items()
    assert item.resolved_by == "inbox"
    tool = next(m for m in desktop.runtime.conversations.load(window.session_id)
                if m.get("role") == "tool")
    assert tool["content"] == TOLD
