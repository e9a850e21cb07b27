"""todo_write: validation, and the list stored through the real runtime and history."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.risk import RiskClass, classify
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.qt.session_panels import fold, stored_results
from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.runtime_tools import default_tools
from openworker_qt.tools.todo import (
    MAX_ITEMS,
    MAX_TEXT,
    TodoError,
    TodoItem,
    parse_todos,
    todo_write,
)


def item(i: Any, text: str = "step", status: str = "pending") -> dict[str, Any]:
    return {"id": i, "text": text, "status": status}


# ------------------------------------------------------------------ validation

def test_a_good_list_is_kept_in_order_and_rendered_for_the_model() -> None:
    items = parse_todos([item("1", "Read the notes", "done"),
                         item(2, "  Write\nthe brief ", "in_progress"), item("3", "Send")])
    assert items == [TodoItem("1", "Read the notes", "done"),
                     TodoItem("2", "Write the brief", "in_progress"), TodoItem("3", "Send", "pending")]


@pytest.mark.parametrize(("todos", "words"), [
    ("1. do it", "must be a list"),
    (None, "must be a list"),
    ([item(str(n)) for n in range(MAX_ITEMS + 1)], f"at most {MAX_ITEMS}"),
    (["just text"], "item 1 is not an object"),
    ([{"text": "x", "status": "pending"}], "item 1 has no id"),
    ([item(True)], "item 1 has no id"),
    ([item("  ")], "empty id"),
    ([item("x" * 41)], "at most 40"),
    ([item("1"), item("1")], "used twice"),
    ([item("1", "   ")], "has no text"),
    ([item("1", "x" * (MAX_TEXT + 1))], f"at most {MAX_TEXT}"),
    ([item("1", status="started")], "use one of pending, in_progress, done"),
    ([item("1", status="in_progress"), item("2", status="in_progress")], "more than one item is in_progress"),
])
def test_bad_lists_are_refused_with_what_to_fix(todos: Any, words: str) -> None:
    with pytest.raises(TodoError, match=words):
        parse_todos(todos)


async def test_the_tool_reports_errors_and_renders_progress(tmp_path: Path) -> None:
    ctx = ToolContext("s", tmp_path)
    bad = await todo_write({"todos": [item("1", status="in_progress"), item("2", status="in_progress")]}, ctx)
    assert bad.is_error and "previous list is unchanged" in bad.content and bad.display is None
    good = await todo_write({"todos": [item("1", "A", "done"), item("2", "B", "in_progress")]}, ctx)
    assert not good.is_error
    assert good.content.splitlines() == ["To-do list updated (1 of 2 done):", "[x] 1. A", "[>] 2. B"]
    assert good.display == {"todos": [item("1", "A", "done"), item("2", "B", "in_progress")]}
    empty = await todo_write({"todos": []}, ctx)
    assert empty.content == "The to-do list is now empty." and empty.display == {"todos": []}


def test_todo_write_is_registered_and_reads() -> None:
    tools = default_tools(None)
    assert "todo_write" in tools.names()
    assert classify("todo_write", declared=RiskClass.READ) == RiskClass.READ


# ---------------------------------------------------------------------- storage

@pytest.fixture
def rt(isolated_state: Path) -> Iterator[Runtime]:
    runtime = open_runtime()
    yield runtime
    runtime.close()


def manager(rt: Runtime, turns: list[dict[str, Any]], tmp_path: Path) -> SessionManager:
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"advance": "history", "turns": turns}))
    return SessionManager(
        rt.conversations, rt.router, tools_for=default_tools, decider_for=rt.decider_for,
        approver_for=lambda info: InboxApprover(rt.inbox, wait=False),
        questioner_for=lambda info: InboxQuestioner(rt.inbox, wait=False),
        default_model=f"scripted:{script}", audit=rt.audit,
    )


def call(cid: str, todos: Any) -> dict[str, Any]:
    return {"tool_calls": [{"id": cid, "name": "todo_write", "arguments": {"todos": todos}}]}


async def test_the_last_good_list_is_stored_and_a_refused_one_changes_nothing(
        rt: Runtime, tmp_path: Path) -> None:
    first = [item("1", "Read", "in_progress"), item("2", "Write")]
    second = [item("1", "Read", "done"), item("2", "Write", "in_progress")]
    m = manager(rt, [
        call("t1", first), call("t2", second),
        call("t3", [item("1", status="in_progress"), item("2", status="in_progress")]),
        {"text": "Done."},
    ], tmp_path)
    info = m.create_session(workspace=str(tmp_path), mode="auto", unattended=True)
    events = [e async for e in m.run(info.id, "go")]
    finished = [e for e in events if isinstance(e, ev.ToolFinished)]
    assert [e.status for e in finished] == ["ok", "ok", "error"]
    assert finished[1].display is not None and finished[1].display["todos"] == second
    # Read back from the database, as a reopened window does (a fresh store on the same file).
    stored = fold(stored_results(rt.conversations, info.id)).todos
    assert [i.as_dict() for i in stored] == second
    assert fold(stored_results(rt.conversations, "no-such-session")).todos == ()
