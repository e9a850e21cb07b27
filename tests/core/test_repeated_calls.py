"""A model that asks again for what it was just given (issue 31: a server that drops
tool results from the prompt) is told so when the turn stops at its step limit,
instead of the bare "iteration limit" — in the turn's end, in its notice, and on
Slack."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from openworker_qt.connectors.slack_listener import unfinished_turn
from openworker_qt.core import events as ev
from openworker_qt.core.repeats import limit_words, repeated_call
from tests.core.helpers import call, collect, make_engine

SAME = "the model kept asking for the same thing (read_file, with the same details)"


async def _limit(turns: list[dict[str, Any]], tmp_path: Path) -> tuple[ev.TurnEnded, dict[str, Any]]:
    (tmp_path / "notes.txt").write_text("okapi census: 14\n")
    engine, _provider = make_engine(turns, tmp_path, max_iterations=3)
    events = await collect(engine.run("what does notes.txt say?"))
    end = events[-1]
    assert isinstance(end, ev.TurnEnded) and end.status == "max_iterations"
    notice = engine.history[-1]
    assert notice["role"] == "notice" and notice["kind"] == "max_iterations"
    [added] = [e for e in events if isinstance(e, ev.NoticeAdded) and e.kind == "max_iterations"]
    assert added.text == notice["text"] == end.detail
    return end, dict(notice)


async def test_the_same_call_after_its_result_is_said_in_user_words(tmp_path: Path) -> None:
    end, notice = await _limit(
        [{"tool_calls": [call("read_file", {"path": "notes.txt"})], "repeat": True}], tmp_path)
    assert end.detail.startswith("Stopped after 3 steps: ")
    assert SAME in end.detail
    assert "it may not be able to read tool results" in end.detail
    assert "iteration limit" not in end.detail


async def test_different_calls_up_to_the_limit_keep_the_plain_words(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("b\n")
    (tmp_path / "c.txt").write_text("c\n")
    end, _ = await _limit([{"tool_calls": [call("read_file", {"path": "notes.txt"})]},
                           {"tool_calls": [call("read_file", {"path": "b.txt"})]},
                           {"tool_calls": [call("read_file", {"path": "c.txt"})]}], tmp_path)
    assert end.detail == ("Stopped after 3 steps: the iteration limit (3) was reached. "
                          "Send a message to continue.")


async def test_a_call_repeated_only_further_back_is_not_a_repeat(tmp_path: Path) -> None:
    # notes, listing, notes: the last step did not ask for what it had just been given.
    end, _ = await _limit([{"tool_calls": [call("read_file", {"path": "notes.txt"})]},
                           {"tool_calls": [call("list_files")]},
                           {"tool_calls": [call("read_file", {"path": "notes.txt"})]}], tmp_path)
    assert "iteration limit (3)" in end.detail


def _assistant(cid: str, name: str, arguments: str) -> dict[str, Any]:
    return {"role": "assistant", "content": "",
            "tool_calls": [{"id": cid, "type": "function",
                            "function": {"name": name, "arguments": arguments}}]}


def _result(cid: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": cid, "name": "read_file", "content": "okapi"}


def test_the_same_arguments_written_differently_are_the_same_request() -> None:
    history = [{"role": "user", "content": "x"},
               _assistant("c1", "read_file", '{"path": "notes.txt"}'), _result("c1"),
               _assistant("c2", "read_file", '{ "path":"notes.txt" }'), _result("c2")]
    assert repeated_call(history) == "read_file"
    assert SAME in limit_words(history, 2, 2)


def test_a_user_message_or_an_answer_between_the_calls_is_not_a_repeat() -> None:
    first = [_assistant("c1", "read_file", '{"path": "a"}'), _result("c1")]
    again = [_assistant("c2", "read_file", '{"path": "a"}'), _result("c2")]
    assert repeated_call([*first, {"role": "user", "content": "again"}, *again]) is None
    assert repeated_call([*first, {"role": "assistant", "content": "It says okapi."}, *again]) is None
    assert repeated_call([*first, {"role": "notice", "kind": "x", "text": "y"}, *again]) == "read_file"
    # (no result for the first call: nothing had been given yet)
    assert repeated_call([first[0], *again]) is None


def test_slack_is_told_the_same() -> None:
    opening = {"role": "user", "content": "[Slack message from U1 in slack:C:1]\nwhat is in notes?"}
    history = [opening, _assistant("c1", "read_file", json.dumps({"path": "notes.txt"})), _result("c1"),
               _assistant("c2", "read_file", json.dumps({"path": "notes.txt"})), _result("c2")]
    found = unfinished_turn(history, "slack:C:1", "max_iterations", limit_words(history, 2, 2))
    assert found is not None
    assert "kept asking for the same thing (read_file)" in found[1]
    assert "may not be able to read tool results" in found[1]
    plain = [opening, _assistant("c1", "read_file", json.dumps({"path": "a"})), _result("c1"),
             _assistant("c2", "read_file", json.dumps({"path": "b"})), _result("c2")]
    other = unfinished_turn(plain, "slack:C:1", "max_iterations", "Stopped after 2 steps")
    assert other is not None and "limit of steps" in other[1]
