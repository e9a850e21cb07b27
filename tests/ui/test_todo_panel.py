"""The to-do panel above the composer, through the real window and a scripted model."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from openworker_qt.ui.todo_panel import TodoPanel
from tests.ui.conftest import run, until

FIRST = [
    {"id": "1", "text": "Read the notes", "status": "in_progress"},
    {"id": "2", "text": "Write the brief", "status": "pending"},
    {"id": "3", "text": "Check the figures", "status": "pending"},
]
SECOND = [
    {"id": "1", "text": "Read the notes", "status": "done"},
    {"id": "2", "text": "Write the brief", "status": "done"},
    {"id": "3", "text": "Check the figures", "status": "in_progress"},
]


def todo_call(cid: str, todos: list[dict[str, str]], **turn: Any) -> dict[str, Any]:
    return {**turn, "tool_calls": [{"id": cid, "name": "todo_write", "arguments": {"todos": todos}}]}


def rows(panel: TodoPanel) -> list[tuple[str, Qt.CheckState, str]]:
    out = []
    for n in range(panel.list.count()):
        item = panel.list.item(n)
        out.append((item.text(), item.checkState(), str(item.data(Qt.ItemDataRole.AccessibleTextRole))))
    return out


def assert_second(panel: TodoPanel) -> None:
    assert panel.isVisible()
    assert panel.toggle.text() == "To-do list · 2 of 3 done"
    assert panel.current.text() == "Now: Check the figures"
    assert rows(panel) == [
        ("Read the notes", Qt.CheckState.Checked, "Done: Read the notes"),
        ("Write the brief", Qt.CheckState.Checked, "Done: Write the brief"),
        ("Check the figures", Qt.CheckState.PartiallyChecked, "Current step: Check the figures"),
    ]
    assert panel.list.item(2).font().bold() and not panel.list.item(0).font().bold()


def test_the_panel_follows_todo_write_live_and_after_reopening(
        qtbot, qloop, make_desktop) -> None:
    turns = [
        todo_call("t1", FIRST),
        # a slow step between the two calls, so the first list can be seen on screen
        todo_call("t2", SECOND, chunks=["Notes read; brief written. "], delay=0.4),
        {"text": "All done."},
    ]
    desktop = make_desktop(turns)
    window = desktop.window
    panel = window.todo
    seen_first: list[Any] = []

    async def scenario() -> None:
        assert not panel.isVisible()  # no list yet: no panel
        window.submit_message("Prepare the renewal brief")
        await until(lambda: panel.isVisible(), what="the first list")
        seen_first.extend([panel.toggle.text(), panel.current.text(), rows(panel)])
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")
        assert_second(panel)
        # collapsing hides the items, keeps the summary; expanding shows them again
        panel.toggle.click()
        assert not panel.list.isVisible() and panel.toggle.accessibleName() == "Show the to-do list"
        assert panel.toggle.text() == "To-do list · 2 of 3 done"
        panel.toggle.click()
        assert panel.list.isVisible() and panel.toggle.accessibleName() == "Hide the to-do list"
        sid = window.session_id
        window.new_session()
        assert not panel.isVisible()  # a new session has no list
        window.sidebar.select(sid)
        await until(lambda: window.loaded() and panel.isVisible(), what="the reopened list")
        assert_second(panel)

    run(qloop, scenario)
    assert seen_first == [
        "To-do list · 0 of 3 done", "Now: Read the notes",
        [("Read the notes", Qt.CheckState.PartiallyChecked, "Current step: Read the notes"),
         ("Write the brief", Qt.CheckState.Unchecked, "To do: Write the brief"),
         ("Check the figures", Qt.CheckState.Unchecked, "To do: Check the figures")],
    ]
    # the card of each call is an ordinary tool row, live as stored
    tools = [r for r in window.transcript.items if r.kind == "tool"]
    assert [t.name for t in tools] == ["todo_write", "todo_write"]


def test_a_restarted_app_shows_the_stored_list(qtbot, qloop, make_desktop) -> None:
    desktop = make_desktop([todo_call("t1", SECOND), {"text": "ok"}])
    window = desktop.window

    async def first() -> str:
        window.submit_message("go")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id)
                    and window.todo.isVisible(), what="turn end")
        return str(window.session_id)

    sid = run(qloop, first)
    qloop.run_until_complete(desktop.shutdown())
    again = make_desktop()
    assert not again.window.todo.isVisible()

    async def reopen() -> None:
        again.window.sidebar.select(sid)
        await until(lambda: again.window.loaded() and again.window.todo.isVisible(), what="reopen")

    run(qloop, reopen)
    assert_second(again.window.todo)


def test_a_refused_list_leaves_the_shown_one_and_an_empty_list_hides_it(
        qtbot, qloop, make_desktop) -> None:
    two_running = [dict(i, status="in_progress") for i in FIRST[:2]]
    desktop = make_desktop([todo_call("t1", SECOND), todo_call("t2", two_running), {"text": "ok"},
                            todo_call("t3", []), {"text": "cleared"}])
    window = desktop.window

    async def scenario() -> None:
        window.submit_message("go")
        await until(lambda: window.session_id and not desktop.manager.is_running(window.session_id),
                    what="turn end")
        assert_second(window.todo)  # the refused call changed nothing
        window.submit_message("clear it")
        await until(lambda: not window.todo.isVisible(), what="the list cleared")

    run(qloop, scenario)
    assert window.todo.items == []
