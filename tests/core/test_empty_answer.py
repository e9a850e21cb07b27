"""A model that ends its answer without a word (no text, no thinking, no tool call —
a small local model did so after every prompt with tools) is not shown as if it had
answered: the turn says so in a notice, stored and announced, and ends as an error
(Retry is offered; the command line exits non-zero), never as completed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.model_step import EMPTY_ANSWER_TEXT
from tests.core.helpers import collect, make_engine


def test_an_empty_answer_says_so(tmp_path: Path) -> None:
    engine, _provider = make_engine([{"text": ""}], tmp_path)
    events = asyncio.run(collect(engine.run("hello")))
    notices = [e for e in events if isinstance(e, ev.NoticeAdded)]
    assert [(n.kind, n.text) for n in notices] == [("empty_answer", EMPTY_ANSWER_TEXT)]
    stored = [m for m in engine.history if m.get("role") == "notice"]
    assert [m["kind"] for m in stored] == ["empty_answer"]
    end = events[-1]
    assert isinstance(end, ev.TurnEnded)
    assert (end.status, end.detail) == ("error", EMPTY_ANSWER_TEXT)


def test_a_real_answer_or_a_tool_call_adds_no_notice(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    for turns in ([{"text": "Hi."}],
                  [{"tool_calls": [{"id": "r1", "name": "read_file", "arguments": {"path": "a.txt"}}]},
                   {"text": "Read it."}]):
        engine, _provider = make_engine(turns, tmp_path)
        events = asyncio.run(collect(engine.run("hello")))
        assert not [e for e in events if isinstance(e, ev.NoticeAdded)], turns
        assert events[-1].status == "completed", turns
