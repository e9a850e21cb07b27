"""Questions with choices: what an answer may be, checked where it is stored."""

from __future__ import annotations

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
