"""approve / deny / answer from the command line: the verb must fit the inbox item."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from openworker_qt.core.inbox import Inbox
from openworker_qt.storage.db import Database


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openworker_qt", *args], cwd=cwd, capture_output=True, text=True,
        timeout=60, env=os.environ.copy(), stdin=subprocess.DEVNULL,
    )


def inbox() -> Inbox:
    return Inbox(Database(Path(os.environ["OPENWORKER_HOME"]) / "data" / "openworker.sqlite3"))


def test_a_question_is_answered_and_an_approval_approved(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": {"question": "Which quarter?"}}]},
        {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": "q.txt", "content": "Q4"}}]},
        {"text": "Done."},
    ]}))
    res = cli("run", "--unattended", "--model", f"scripted:{script}", "report", cwd=tmp_path)
    assert res.returncode == 4, res.stderr
    [question] = inbox().pending()

    refused = cli("approve", str(question.id), cwd=tmp_path)
    assert refused.returncode == 2
    assert f"#{question.id} is a question, not an approval: reply with `answer" in refused.stderr
    assert cli("deny", str(question.id), cwd=tmp_path).returncode == 2
    assert inbox().get(question.id).pending

    assert cli("answer", str(question.id), "Q4", cwd=tmp_path).returncode == 0
    res = cli("resume", cwd=tmp_path)
    assert res.returncode == 4, res.stderr  # now the write asks
    [approval] = inbox().pending()
    assert approval.kind == "approval"
    wrong = cli("answer", str(approval.id), "yes please", cwd=tmp_path)
    assert wrong.returncode == 2 and "is an approval: approve or deny it" in wrong.stderr
    assert cli("approve", str(approval.id), cwd=tmp_path).returncode == 0
    assert cli("resume", cwd=tmp_path).returncode == 0
    assert (tmp_path / "q.txt").read_text() == "Q4"

    shown = cli("show", "--json", question.session_id, cwd=tmp_path)
    results = [json.loads(line) for line in shown.stdout.splitlines()]
    answer = next(m for m in results if m.get("role") == "tool" and m.get("tool_call_id") == "q1")
    assert answer["content"] == "The user answered: Q4"


def test_a_new_message_closes_the_parked_approval(tmp_path: Path) -> None:
    """The user moves on instead of answering: the ask closes, a late approve is
    refused with the reason, and the write never happens."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": "q.txt", "content": "Q4"}}]},
        {"text": "Sure, something else."},
    ]}))
    model = f"scripted:{script}"
    res = cli("run", "--unattended", "--model", model, "write the report", cwd=tmp_path)
    assert res.returncode == 4, res.stderr
    [approval] = inbox().pending()

    res = cli("run", "--session", approval.session_id, "--model", model, "forget that",
              cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert inbox().pending() == []

    late = cli("approve", str(approval.id), cwd=tmp_path)
    assert late.returncode == 1
    assert f"#{approval.id} was closed because the conversation moved on" in late.stderr
    assert "nothing was run" in late.stderr
    assert cli("resume", cwd=tmp_path).stdout.strip() == "Nothing to resume."
    assert not (tmp_path / "q.txt").exists()
    listing = cli("inbox", "--all", cwd=tmp_path).stdout
    assert "[superseded by engine]" in listing


def test_a_question_with_choices_is_answered_by_number_and_a_wrong_pick_is_refused(
    tmp_path: Path,
) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": {
            "question": "Which sections?", "multiple": True, "options": [
                {"label": "Revenue", "description": "by region"},
                {"label": "Costs"}, {"label": "Hiring", "description": "open roles"}]}}]},
        {"text": "Done."},
    ]}))
    res = cli("run", "--unattended", "--model", f"scripted:{script}", "report", cwd=tmp_path)
    assert res.returncode == 4, res.stderr
    [question] = inbox().pending()
    listed = cli("inbox", cwd=tmp_path).stdout
    assert "1. Revenue — by region" in listed and "3. Hiring — open roles" in listed
    assert f"answer {question.id} --choice N" in listed

    wrong = cli("answer", str(question.id), "--choice", "4", cwd=tmp_path)
    assert wrong.returncode == 2 and "there is no choice 4: choose 1 to 3" in wrong.stderr
    assert inbox().get(question.id).pending
    assert cli("answer", str(question.id), "and the summary", "--choice", "1,3",
               cwd=tmp_path).returncode == 0
    assert inbox().get(question.id).resolution == "Revenue\nHiring\nand the summary"
    assert cli("resume", cwd=tmp_path).returncode == 0
    shown = cli("show", "--json", question.session_id, cwd=tmp_path)
    results = [json.loads(line) for line in shown.stdout.splitlines()]
    answer = next(m for m in results if m.get("role") == "tool" and m.get("tool_call_id") == "q1")
    assert answer["content"] == ("The user chose: Revenue; Hiring. "
                                 "They added in their own words: and the summary")


OFFSITE = {"question": "Details for the offsite", "questions": [
    {"question": "Which day?", "options": ["Thursday", "Friday"]},
    {"question": "Which rooms?", "options": ["A", "B", "C"], "multiple": True},
    {"question": "Anything else?"}]}


def test_grouped_questions_are_answered_question_by_question(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"advance": "history", "turns": [
        {"tool_calls": [{"id": "q1", "name": "ask_user", "arguments": OFFSITE}]},
        {"text": "Booked."},
    ]}))
    res = cli("run", "--unattended", "--model", f"scripted:{script}", "offsite", cwd=tmp_path)
    assert res.returncode == 4, res.stderr
    [question] = inbox().pending()
    listed = cli("inbox", cwd=tmp_path).stdout
    assert "1. Which day? (pick one)\n          1. Thursday" in listed
    assert "2. Which rooms? (one or more)" in listed and "3. Anything else?\n" in listed
    assert f"answer {question.id} --choice 1:2 --say 3:'your words'" in listed

    n = str(question.id)
    unnamed = cli("answer", n, "--choice", "2", cwd=tmp_path)
    assert unnamed.returncode == 2 and "name the question first, e.g. --choice 1:2" in unnamed.stderr
    partial = cli("answer", n, "--choice", "1:2", "--choice", "2:1,3", cwd=tmp_path)
    assert partial.returncode == 2
    assert "question 3 (Anything else?) has no answer" in partial.stderr
    assert inbox().get(question.id).pending
    done = cli("answer", n, "--choice", "1:2", "--choice", "2:1,3", "--say", "3:vegetarian lunch",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(inbox().get(question.id).resolution) == ["Friday", "A\nC", "vegetarian lunch"]
    assert cli("resume", cwd=tmp_path).returncode == 0
    shown = cli("show", "--json", question.session_id, cwd=tmp_path)
    results = [json.loads(line) for line in shown.stdout.splitlines()]
    answer = next(m for m in results if m.get("role") == "tool" and m.get("tool_call_id") == "q1")
    assert answer["content"] == (
        "The user answered 3 questions:\n1. Which day? — chose Friday\n"
        "2. Which rooms? — chose A; C\n3. Anything else? — answered: vegetarian lunch")


def test_on_a_terminal_each_grouped_question_is_asked_in_turn() -> None:
    from openworker_qt.cli.terminal import ask_group
    from openworker_qt.domain import choices

    group = choices.group_from(OFFSITE)
    assert group is not None
    typed = iter(["3\n", "Friday\n", "\n", "2 3\n", "snacks\n"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    assert json.loads(ask_group(group, read)) == ["Friday", "B\nC", "snacks"]
    assert prompts[0] == ("\n? 1/3 Which day?\n  1. Thursday\n  2. Friday\n"
                          "  Answer with a number, or in your own words.\n> ")
    assert prompts[1] == "  there is no choice 3: choose 1 to 2; try again\n> "
    assert prompts[3] == "  an answer is needed; try again\n> "
    assert ask_group(group, lambda _prompt: "") == ""  # the input ended: no answer
