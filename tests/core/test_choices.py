"""Questions with choices: what an answer may be, checked where it is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openworker_qt.core.inbox import Inbox, InboxError
from openworker_qt.domain import choices
from openworker_qt.storage.db import Database

OPTIONS = [{"label": "Thursday", "description": "after stand-up"}, "Friday", {"label": "  "}]


def test_options_come_as_strings_or_labelled_objects_and_blanks_are_dropped() -> None:
    spec = choices.spec_from({"options": OPTIONS})
    assert spec is not None and spec.labels == ("Thursday", "Friday")
    assert spec.choices[0].description == "after stand-up"
    assert spec.other and not spec.multiple
    assert choices.spec_from({"options": []}) is None
    assert choices.spec_from({"question": "free text"}) is None
    assert choices.numbered(spec) == ["1. Thursday — after stand-up", "2. Friday"]


def test_a_single_choice_takes_a_number_a_label_or_own_words() -> None:
    spec = choices.spec_from({"options": OPTIONS})
    assert spec is not None
    assert choices.normalize(spec, "2") == "Friday"
    assert choices.normalize(spec, " thursday ") == "Thursday"
    assert choices.normalize(spec, "Next Monday") == "Next Monday"
    with pytest.raises(ValueError, match="no choice 3: choose 1 to 2"):
        choices.normalize(spec, "3")
    with pytest.raises(ValueError, match="only one"):
        choices.normalize(spec, "1,2")
    with pytest.raises(ValueError, match="only one"):
        choices.normalize(spec, "Friday\nor maybe Monday")


def test_multiple_choices_and_a_closed_question() -> None:
    many = choices.spec_from({"options": ["a", "b", "c"], "multiple": True})
    assert many is not None
    assert choices.normalize(many, "3, 1 3") == "c\na"
    assert choices.interpret(many, "c\na\nplus d") == (["c", "a"], "plus d")
    closed = choices.spec_from({"options": ["a", "b"], "other": False})
    assert closed is not None
    with pytest.raises(ValueError, match=r"by number \(1 to 2\)"):
        choices.normalize(closed, "neither")
    assert choices.normalize(closed, "B") == "b"


def test_the_inbox_checks_an_answer_against_the_questions_choices(tmp_path: Path) -> None:
    inbox = Inbox(Database(tmp_path / "db.sqlite3"))
    item = inbox.add("question", "s1", tool_call_id="q1", tool="ask_user",
                     arguments={"question": "When?", "options": OPTIONS, "other": False},
                     title="When?", options=("Thursday", "Friday"))
    with pytest.raises(InboxError, match=f"#{item.id}: there is no choice 5"):
        inbox.respond(item.id, "answer", "5")
    with pytest.raises(InboxError, match="by number"):
        inbox.respond(item.id, "answer", "someday")
    assert inbox.get(item.id).pending  # type: ignore[union-attr]
    assert inbox.respond(item.id, "answer", "1")
    assert inbox.get(item.id).resolution == "Thursday"  # type: ignore[union-attr]
    free = inbox.add("question", "s1", tool_call_id="q2", arguments={"question": "Why?"})
    assert inbox.respond(free.id, "answer", "3")  # a free-text question takes any text
    assert inbox.get(free.id).resolution == "3"  # type: ignore[union-attr]


GROUP = {"question": "A few details for the offsite", "questions": [
    {"question": "Which day?", "options": ["Thursday", "Friday"], "other": False},
    {"question": "Which rooms?", "options": ["A", "B", "C"], "multiple": True},
    {"question": "Anything else we should know?"},
]}


def test_grouped_questions_are_read_with_their_own_choices() -> None:
    group = choices.group_from(GROUP)
    assert group is not None and [q.text for q in group.questions] == [
        "Which day?", "Which rooms?", "Anything else we should know?"]
    day, rooms, free = (q.spec for q in group.questions)
    assert day is not None and not day.other and rooms is not None and rooms.multiple
    assert free is None
    assert choices.group_from({"question": "one"}) is None
    assert choices.prompt_of(GROUP) == "A few details for the offsite"
    assert choices.prompt_of({"questions": ["Who?", "When?"]}) == "Who? · When?"
    assert choices.numbered_group(group)[:3] == [
        "1. Which day? (pick one)", "   1. Thursday", "   2. Friday"]


def test_a_group_is_answered_question_by_question_in_text_or_json() -> None:
    group = choices.group_from(GROUP)
    assert group is not None
    stored = choices.normalize_group(group, "1: 2\n2: 3,1\n2: and the terrace\n3. Bring snacks\nand coffee")
    assert json.loads(stored) == ["Friday", "C\nA\nand the terrace", "Bring snacks\nand coffee"]
    assert choices.normalize_group(group, json.dumps(["thursday", ["B"], "no"])) == json.dumps(
        ["Thursday", "B", "no"])
    assert choices.interpret_group(group, stored) == [
        (["Friday"], ""), (["C", "A"], "and the terrace"), ([], "Bring snacks\nand coffee")]
    result = choices.group_result(group, stored)
    assert result.splitlines() == [
        "The user answered 3 questions:",
        "1. Which day? — chose Friday",
        "2. Which rooms? — chose C; A and added in their own words: and the terrace",
        "3. Anything else we should know? — answered: Bring snacks",
        "and coffee"]


@pytest.mark.parametrize(("answer", "why"), [
    ("1: 1\n2: 2", r"question 3 \(Anything else we should know\?\) has no answer"),
    ("1: someday\n2: 1\n3: x", r"question 1 \(Which day\?\): choose one of the options"),
    ("1: 1\n2: 9\n3: x", r"question 2 \(Which rooms\?\): there is no choice 9"),
    ("4: 1", "there is no question 4"),
    ("Friday", "by its number"),
    ('["Friday"]', "there are 3 questions to answer, not 1"),
])
def test_a_group_answer_that_does_not_fit_names_the_question(answer: str, why: str) -> None:
    group = choices.group_from(GROUP)
    assert group is not None
    with pytest.raises(ValueError, match=why):
        choices.normalize_group(group, answer)


@pytest.mark.parametrize(("arguments", "why"), [
    ({"question": "  "}, "needs a question"),
    ({"question": "Q", "options": "a, b"}, "options must be a list"),
    ({"question": "Q", "options": ["a", 3]}, "option 2 must be a label"),
    ({"question": "Q", "options": ["a", {"description": "no label"}]}, "option 2 has no label"),
    ({"question": "Q", "options": ["Yes", "yes"]}, "two options are labelled 'yes'"),
    ({"question": "Q", "options": [str(n) for n in range(21)]}, "at most 20 options"),
    ({"question": "Q", "questions": []}, "non-empty list"),
    ({"question": "Q", "questions": "Who? When?"}, "non-empty list"),
    ({"question": "Q", "questions": [{"options": ["a"]}]}, "question 1 needs its words"),
    ({"question": "Q", "questions": [{"question": "a"}] * 9}, "at most 8 questions"),
    ({"question": "Q", "options": ["a"], "questions": ["b"]}, "its own options"),
    ({"question": "Q", "questions": ["b", {"question": "c", "options": {"a": 1}}]},
     "question 2: options must be a list"),
])
def test_arguments_that_cannot_be_asked_are_refused_to_the_model(
        arguments: dict[str, object], why: str) -> None:
    problem = choices.check(arguments)
    assert problem is not None and why in problem


def test_good_arguments_pass_the_check() -> None:
    assert choices.check(GROUP) is None
    assert choices.check({"question": "Q", "options": OPTIONS[:2]}) is None
    assert choices.check({"question": "Free?"}) is None


def test_the_inbox_stores_a_group_answer_only_when_every_question_has_one(tmp_path: Path) -> None:
    inbox = Inbox(Database(tmp_path / "db.sqlite3"))
    item = inbox.add("question", "s1", tool_call_id="q1", tool="ask_user", arguments=GROUP,
                     title=GROUP["question"])
    with pytest.raises(InboxError, match=f"#{item.id}: question 3"):
        inbox.respond(item.id, "answer", "1: 1\n2: 1")
    assert inbox.get(item.id).pending  # type: ignore[union-attr]
    assert inbox.respond(item.id, "answer", "1: 1\n2: 1,2\n3: no")
    assert json.loads(inbox.get(item.id).resolution) == ["Thursday", "A\nB", "no"]  # type: ignore[union-attr,arg-type]
