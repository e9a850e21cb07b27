"""A question's notification: a single choice among a few has a button an option (a
click answers it); any other question has "Answer…", which opens its card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.ui.approval import QuestionCard
from tests.ui.conftest import look_away, run, until
from tests.ui.test_main_window import type_and_enter


class Notes:
    """The Notifier interface, recording what it was asked to show."""

    def __init__(self) -> None:
        self.on_activated: Any = None
        self.shown: list[tuple[str, str, list[tuple[str, str]]]] = []

    def notify(self, key: str, title: str, body: str, actions: Any = ()) -> None:
        self.shown.append((key, title, list(actions)))

    def withdraw(self, key: str) -> None:
        pass

    async def close(self) -> None:
        pass


def ask(arguments: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": arguments}]},
            {"text": "Thanks."}]


def test_a_few_options_are_buttons_and_a_click_answers(qtbot, qloop, make_desktop,
                                                       tmp_path: Path) -> None:
    notes = Notes()
    desktop = make_desktop(ask({"question": "Which quarter?", "options": [
        {"label": "Q3", "description": "July to September"}, "Q4"]}), notifier=notes)
    window = desktop.window
    window.cards.show_dialogs = False
    inbox = desktop.runtime.inbox
    look_away(qtbot)

    async def scenario() -> None:
        type_and_enter(qtbot, window, "report")
        await until(lambda: notes.shown, what="notification")
        key, _title, actions = notes.shown[0]
        assert actions == [("choose:1", "Q3"), ("choose:2", "Q4")]
        notes.on_activated(key, "choose:2")  # what the platform calls on a click
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    [item] = inbox.items()
    assert (item.resolution, item.resolved_by) == ("Q4", "notification")
    tool = next(m for m in desktop.runtime.conversations.load(window.session_id)
                if m.get("role") == "tool")
    assert tool["content"] == "The user chose: Q4."


def test_other_questions_get_answer_which_opens_the_card(qtbot, qloop, make_desktop,
                                                         tmp_path: Path) -> None:
    notes = Notes()
    group = {"question": "Offsite details", "questions": [
        {"question": "Which day?", "options": ["Thursday", "Friday"]},
        {"question": "Anything else?"}]}
    desktop = make_desktop(ask(group), notifier=notes)
    window = desktop.window
    window.cards.show_dialogs = False
    inbox = desktop.runtime.inbox
    seen: dict[str, object] = {}
    look_away(qtbot)

    async def scenario() -> None:
        type_and_enter(qtbot, window, "plan the offsite")
        sid = window.session_id
        await until(lambda: notes.shown, what="notification")
        key, _title, actions = notes.shown[0]
        seen["actions"] = actions
        window.new_session()  # the user has moved on to another session
        await until(lambda: window.session_id != sid, what="another session")
        notes.on_activated(key, actions[0][0])
        await until(lambda: window.session_id == sid, what="the question's session")
        await until(lambda: any(isinstance(c, QuestionCard) for c in window.view.cards()),
                    what="its card")
        seen["pending"] = bool(inbox.pending(kind="question"))

    run(qloop, scenario)
    assert seen["actions"] == [(f"open:{inbox.items()[0].session_id}", "Answer…")]
    assert seen["pending"] is True
