"""A question with choices: its card picks options (one or several), or takes the
user's own words, and the model is told which."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLabel, QRadioButton

from openworker_qt.core.approvals import QuestionRequest
from openworker_qt.ui.approval import QuestionCard
from tests.ui.conftest import run, until
from tests.ui.test_main_window import type_and_enter

OPTIONS = [{"label": "PDF", "description": "For printing and email"},
           {"label": "Slides", "description": "For the Monday meeting"},
           {"label": "Spreadsheet"}]


def card(qtbot, **args: object) -> tuple[QuestionCard, list[str]]:
    request = QuestionRequest(session_id="s", call_id="q1", kind="question",
                              prompt="Which format?", options=("PDF", "Slides", "Spreadsheet"),
                              extra={"question": "Which format?", "options": OPTIONS, **args})
    widget = QuestionCard(request)
    qtbot.addWidget(widget)
    widget.show()
    got: list[str] = []
    widget.answered.connect(got.append)
    return widget, got


def test_a_single_choice_is_one_radio_button_an_option_with_its_description(qtbot) -> None:
    widget, got = card(qtbot)
    radios = widget.findChildren(QRadioButton)
    assert [r.text() for r in radios] == ["PDF", "Slides", "Spreadsheet"]
    texts = [label.text() for label in widget.findChildren(QLabel)]
    assert "For printing and email" in texts and "For the Monday meeting" in texts
    picker = widget.picker
    assert not picker.submit_button.isEnabled()  # nothing picked yet
    radios[0].click()
    radios[1].click()  # one only: the second replaces the first
    assert picker.chosen() == ["Slides"]
    picker.submit_button.click()
    assert got == ["Slides"]


def test_own_words_replace_the_pick_of_a_single_choice(qtbot) -> None:
    widget, got = card(qtbot)
    picker = widget.picker
    picker.buttons[0].click()
    assert picker.other is not None
    qtbot.keyClicks(picker.other, "A one-page summary")
    assert picker.chosen() == []
    qtbot.keyClick(picker.other, Qt.Key.Key_Return)
    assert got == ["A one-page summary"]
    picker.buttons[2].click()  # picking again clears the typed words
    assert picker.own_words() == "" and picker.answer() == "Spreadsheet"


def test_several_may_be_checked_with_own_words_added(qtbot) -> None:
    widget, got = card(qtbot, multiple=True)
    boxes = widget.findChildren(QCheckBox)
    assert len(boxes) == 3 and not widget.findChildren(QRadioButton)
    boxes[2].click()
    boxes[0].click()
    assert widget.picker.other is not None
    widget.picker.other.setText("and the raw data")
    widget.picker.submit()
    assert got == ["PDF\nSpreadsheet\nand the raw data"]


def test_an_option_shows_its_preview_cut_to_a_few_lines(qtbot) -> None:
    diff = "\n".join(f"+ line {n}" for n in range(12))
    widget, _ = card(qtbot)
    assert widget.picker.previews == []
    request = QuestionRequest(session_id="s", call_id="q2", kind="question", prompt="Which fix?",
                              extra={"question": "Which fix?", "options": [
                                  {"label": "Small", "preview": diff}, {"label": "None"}]})
    with_preview = QuestionCard(request)
    qtbot.addWidget(with_preview)
    [preview] = with_preview.picker.previews
    assert preview.text().splitlines()[:2] == ["+ line 0", "+ line 1"]
    assert preview.text().endswith("+ line 7\n…") and preview.toolTip() == diff


def test_a_closed_question_has_no_other_line(qtbot) -> None:
    widget, got = card(qtbot, other=False)
    assert widget.picker.other is None
    qtbot.keyClick(widget.picker.buttons[1], Qt.Key.Key_Space)
    assert widget.picker.chosen() == ["Slides"]
    widget.picker.submit()
    assert got == ["Slides"]


ASK = [
    {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": {
        "question": "Which format?", "multiple": True, "options": OPTIONS}}]},
    {"text": "Making both."},
]


def test_the_window_card_answers_and_the_model_is_told_the_choices(
    qtbot, qloop, make_desktop, tmp_path: Path
) -> None:
    desktop = make_desktop(ASK)
    window = desktop.window
    window.cards.show_dialogs = False
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "make the report")
        await until(lambda: any(isinstance(c, QuestionCard) for c in window.view.cards()),
                    what="card")
        [question] = [c for c in window.view.cards() if isinstance(c, QuestionCard)]
        question.picker.buttons[0].click()
        question.picker.buttons[1].click()
        question.picker.submit_button.click()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        seen["cards"] = window.view.cards()

    run(qloop, scenario)
    assert seen == {"cards": []}
    [item] = desktop.runtime.inbox.items()
    assert (item.resolution, item.resolved_by) == ("PDF\nSlides", "card")
    messages = desktop.runtime.conversations.load(window.session_id)
    tool = next(m for m in messages if m.get("role") == "tool")
    assert tool["content"] == "The user chose: PDF; Slides."


def test_the_inbox_window_numbers_the_options_and_checks_the_answer(
    qtbot, qloop, make_desktop, tmp_path: Path
) -> None:
    desktop = make_desktop(ASK)
    window = desktop.window
    window.cards.show_dialogs = False
    inbox = desktop.runtime.inbox
    seen: dict[str, object] = {}

    async def scenario() -> None:
        type_and_enter(qtbot, window, "make the report")
        await until(lambda: inbox.pending(kind="question"), what="question")
        box = desktop.show_inbox()
        await until(lambda: box.model.rowCount() == 1, what="inbox row")
        seen["question"] = box.question.text()
        box.answer.setText("4")
        box.send_answer.click()
        seen["refused"] = box.late.text()
        seen["still pending"] = bool(inbox.pending(kind="question"))
        box.answer.setText("3, 1")
        box.send_answer.click()
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        box.close()

    run(qloop, scenario)
    assert "1. PDF — For printing and email\n2. Slides — For the Monday meeting\n3. Spreadsheet" \
        in str(seen["question"])
    assert seen["refused"] == ("That answer does not fit the question: there is no choice 4: "
                               "choose 1 to 3.")
    assert seen["still pending"] is True
    [item] = desktop.runtime.inbox.items()
    assert (item.resolution, item.resolved_by) == ("Spreadsheet\nPDF", "inbox")
