"""Grouped questions (``ask_user``'s ``questions``) in a Slack thread.

The card has one block a question: its options numbered, and buttons (a single
choice among a few), a menu (a single choice among more) or check boxes (several
may be picked); a question answered in words is answered by a mention
(``3: vegetarian lunch``, a line a question; a mention may answer several).
Each pick is checked against its question and kept here, in the database
(``slack_partial_answers``), so a restart loses nothing, and the card is redrawn
with a tick under the questions answered. The answer goes to the inbox — the same
item the app and the command line show — once every question has one: at once
when the group has no pick-several question, else with the card's "Send answers"
button (ticking boxes one by one must not send half an answer).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from openworker_qt.core.inbox import InboxItem
from openworker_qt.domain import choices
from openworker_qt.storage.db import Database

MIGRATIONS = [
    """
    CREATE TABLE slack_partial_answers (
        item_id INTEGER NOT NULL,
        question INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (item_id, question)
    )
    """,
]

#: The action ids of a group's elements start with this; the "Send answers" button's is SEND.
PART = "openworker_part"
SEND = "openworker_send_answers"
#: A single choice with at most this many options gets a button each (else a menu).
BUTTONS = 5
#: Slack's check boxes hold at most this many options (more: a multi-select menu).
CHECKBOXES = 10


def _text(text: str, limit: int = 75) -> dict[str, str]:
    return {"type": "plain_text", "text": text[:limit] or "—"}


def _option(item_id: int, question: int, n: int, choice: choices.Choice) -> dict[str, Any]:
    option: dict[str, Any] = {"text": _text(choice.label), "value": f"{item_id}:{question}:{n}"}
    if choice.description:
        option["description"] = _text(choice.description)
    return option


def _elements(item_id: int, n: int, question: choices.Question) -> list[dict[str, Any]]:
    spec = question.spec
    if spec is None:
        return []
    options = [_option(item_id, n, k, c) for k, c in enumerate(spec.choices, 1)]
    if not spec.multiple and len(spec.choices) <= BUTTONS:
        return [{"type": "button", "action_id": f"{PART}_{n}_{k}", "value": o["value"],
                 "text": _text(c.label)}
                for k, (o, c) in enumerate(zip(options, spec.choices, strict=True), 1)]
    if not spec.multiple:
        return [{"type": "static_select", "action_id": f"{PART}_{n}", "options": options,
                 "placeholder": _text("Choose one")}]
    kind = "checkboxes" if len(options) <= CHECKBOXES else "multi_static_select"
    element: dict[str, Any] = {"type": kind, "action_id": f"{PART}_{n}", "options": options}
    if kind == "multi_static_select":
        element["placeholder"] = _text("Choose one or more")
    return [element]


def needs_send(group: choices.QuestionGroup) -> bool:
    """A pick-several question: the answer waits for "Send answers"."""
    return any(q.spec is not None and q.spec.multiple for q in group.questions)


def group_blocks(item: InboxItem, group: choices.QuestionGroup,
                 kept: Mapping[int, str]) -> list[dict[str, Any]]:
    """The card of ``item`` (grouped questions), with what is answered so far."""
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": f"*Questions:* {item.title}"[:2900]}}]
    for n, question in enumerate(group.questions, 1):
        text = f"*{n}. {question.text}*"
        if question.spec is not None:
            text += "\n" + "\n".join(choices.numbered(question.spec))
        if kept.get(n):
            text += "\n✓ " + "; ".join(kept[n].splitlines())
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text[:2900]}})
        if elements := _elements(item.id, n, question):
            blocks.append({"type": "actions", "block_id": f"openworker_item_{item.id}_q{n}",
                           "elements": elements})
    send = needs_send(group)
    if send:
        blocks.append({"type": "actions", "block_id": f"openworker_item_{item.id}_send",
                       "elements": [{"type": "button", "action_id": SEND, "style": "primary",
                                     "value": str(item.id), "text": _text("Send answers")}]})
    words = [str(n) for n, q in enumerate(group.questions, 1) if q.spec is None]
    note = (f"Answer question {', '.join(words)} by mentioning me with `{words[0]}: your words`; "
            if words else "")
    note += ("then press Send answers." if send else
             "the answer is sent once every question has one.")
    blocks.append({"type": "context", "elements": [
        {"type": "mrkdwn", "text": note[:1].upper() + note[1:]}]})
    return blocks


def parse_action(action: Mapping[str, Any]) -> tuple[int, int, str] | None:
    """``(item id, question, option numbers)`` a click on a group's card means
    (question 0: "Send answers"), or None when it is none of ours."""
    action_id = str(action.get("action_id", ""))
    if action_id == SEND:
        value = str(action.get("value", ""))
        return (int(value), 0, "") if value.isdigit() else None
    if not action_id.startswith(PART):
        return None
    if "selected_options" in action:  # check boxes, a multi-select menu: what is ticked now
        values = [str(o.get("value", "")) for o in action.get("selected_options") or []]
    elif "selected_option" in action:
        values = [str((action.get("selected_option") or {}).get("value", ""))]
    else:
        values = [str(action.get("value", ""))]
    block = str(action.get("block_id", "")).removeprefix("openworker_item_")
    item, _, question = block.partition("_q")
    picked: list[str] = []
    for value in values:
        item, question, number = (value.split(":") + ["", "", ""])[:3]
        picked.append(number)
    if not (item.isdigit() and question.isdigit() and all(p.isdigit() for p in picked)):
        return None
    return int(item), int(question), ",".join(picked)


class PartialAnswers:
    """What is answered so far of each group asked in a thread (see module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.ensure("slack_questions", MIGRATIONS)

    def kept(self, item_id: int) -> dict[int, str]:
        rows = self.db.query("SELECT question, answer FROM slack_partial_answers "
                             "WHERE item_id = ?", (item_id,))
        return {int(r[0]): str(r[1]) for r in rows}

    def record(self, item: InboxItem, group: choices.QuestionGroup,
               parts: Mapping[int, str]) -> None:
        """Check and keep ``parts`` (a question's number → its answer; "" takes it
        back); ValueError names the question that does not fit."""
        for n, part in parts.items():
            if not 1 <= n <= len(group.questions):
                raise ValueError(f"there is no question {n}")
            spec = group.questions[n - 1].spec
            try:
                stored = (choices.normalize(spec, part) if spec is not None else part.strip()) \
                    if part.strip() else ""
            except ValueError as exc:
                raise ValueError(f"question {n}: {exc}") from None
            if stored:
                self.db.execute("INSERT OR REPLACE INTO slack_partial_answers(item_id, question, "
                                "answer) VALUES (?, ?, ?)", (item.id, n, stored))
            else:
                self.db.execute("DELETE FROM slack_partial_answers WHERE item_id = ? AND "
                                "question = ?", (item.id, n))

    def complete(self, item: InboxItem, group: choices.QuestionGroup) -> str:
        """The stored answer once every question has one; ValueError says which have not."""
        kept = self.kept(item.id)
        left = [str(n) for n in range(1, len(group.questions) + 1) if not kept.get(n)]
        if left:
            raise ValueError(f"still to answer: question {', '.join(left)}")
        return json.dumps([kept[n] for n in range(1, len(group.questions) + 1)],
                          ensure_ascii=False)

    def forget(self, item_id: int) -> None:
        self.db.execute("DELETE FROM slack_partial_answers WHERE item_id = ?", (item_id,))


def parts_of_text(group: choices.QuestionGroup, text: str) -> dict[int, str]:
    """A mention's ``N: …`` lines, a question's number → its answer."""
    return {n: part for n, part in enumerate(choices.split_group_text(group, text), 1) if part}
