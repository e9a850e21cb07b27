"""qt/session_panels.py: the to-do list and the deliverables come out of one reducer,
live or reopened. A real turn engine with a scripted model writes to-do lists and
deliverables (a refused list, a failed file and a rewritten one among them) into a
real SQLite store; the state fed the live events and the state read back from the
store agree — also when the session is opened while its turn runs, whether the read
saw the newest results or not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.qt.session_panels import (
    DELIVERABLE_TOOL,
    PanelsState,
    SessionPanels,
    fold,
    stored_results,
)
from openworker_qt.tools.deliverables import CREATE_DELIVERABLE
from openworker_qt.tools.todo import TODO_WRITE, TodoItem
from tests.qt.helpers import World


def _todos(cid: str, *items: tuple[str, str]) -> dict[str, Any]:
    todos = [{"id": str(n), "text": text, "status": status}
             for n, (text, status) in enumerate(items, 1)]
    return {"id": cid, "name": "todo_write", "arguments": {"todos": todos}}


def _made(cid: str, path: str, text: str = "Hello.") -> dict[str, Any]:
    return {"id": cid, "name": "create_deliverable", "arguments": {
        "path": path, "format": "md", "title": "Notes",
        "content": [{"type": "paragraph", "text": text}]}}


FIRST = [  # the first turn: a plan, two files
    {"tool_calls": [_todos("t1", ("Draft", "in_progress"), ("Send", "pending"))]},
    {"tool_calls": [_made("d1", "outputs/a.md"), _made("d2", "outputs/b.md")]},
    {"text": "Two drafts."},
]
SECOND = [  # the second: a third file, a refused list, a failed file, a rewrite, a new plan
    {"tool_calls": [_made("d3", "outputs/c.md")]},
    {"tool_calls": [_todos("t2", ("Draft", "in_progress"), ("Send", "in_progress"))]},
    {"tool_calls": [_made("d4", "elsewhere/x.md")]},  # outside outputs/: refused
    {"tool_calls": [_made("d5", "outputs/a.md", "Hello again.")]},
    {"tool_calls": [_todos("t3", ("Draft", "done"), ("Send", "in_progress"))]},
    {"text": "Done."},
]
EXPECTED = PanelsState(
    todos=(TodoItem("1", "Draft", "done"), TodoItem("2", "Send", "in_progress")),
    deliverables=("outputs/b.md", "outputs/c.md", "outputs/a.md"))


def _rel(world: World, state: PanelsState) -> PanelsState:
    """``state`` with its files named from the workspace (they are absolute)."""
    return PanelsState(state.todos, tuple(
        Path(p).relative_to(world.workspace).as_posix() for p in state.deliverables))


def _finished(world: World, sid: str) -> list[ev.ToolFinished]:
    return [e for e in world.events() if isinstance(e, ev.ToolFinished) and e.session_id == sid]


def _feed(panels: SessionPanels, events: list[ev.ToolFinished]) -> list[str | None]:
    return [panels.apply(e.name, e.status, e.display) for e in events]


def _reopened(world: World, sid: str) -> PanelsState:
    panels = SessionPanels()
    panels.show(sid)
    panels.loaded(sid, stored_results(world.store, sid))
    return panels.state


def _two_turns(world: World, sid: str, qloop: Any) -> list[Any]:
    """Both turns; what a read between them would see."""
    async def turns() -> list[Any]:
        for text in ("draft", "finish"):
            task = world.manager.send(sid, text)
            assert task is not None and await task == "completed"
            if text == "draft":
                after_first = stored_results(world.store, sid)
        return after_first

    return list(qloop.run_until_complete(turns()))


def test_live_and_reopened_lists_agree(qloop, tmp_path: Path) -> None:
    world = World(tmp_path, FIRST + SECOND, tools=[TODO_WRITE, CREATE_DELIVERABLE])
    sid = world.session(mode="auto")
    live = SessionPanels()
    live.show(sid)
    live.loaded(sid, [])  # a new session: nothing stored yet
    seen: list[tuple[PanelsState, str | None]] = []
    live.listeners.append(lambda state, made: seen.append((state, made)))
    try:
        _two_turns(world, sid, qloop)
        finished = _finished(world, sid)
        assert [e.status for e in finished if e.name == DELIVERABLE_TOOL] == [
            "ok", "ok", "ok", "error", "ok"]
        assert [e.status for e in finished if e.name == "todo_write"] == ["ok", "error", "ok"]
        made = _feed(live, finished)
        reopened = _reopened(world, sid)
    finally:
        world.close()
    assert _rel(world, live.state) == EXPECTED
    assert reopened == live.state
    # Each file made live is named to the view (it selects it), the rewrite too.
    assert [Path(m).name for m in made if m] == ["a.md", "b.md", "c.md", "a.md"]
    assert seen[-1] == (live.state, None)  # the last change: the new plan
    assert fold([]) == PanelsState()


def test_a_session_opened_mid_turn_shows_what_a_reopened_one_does(qloop, tmp_path: Path) -> None:
    """Opened while its turn runs: the read may see the newest results or not. The
    live ones that came meanwhile are applied again over it, so neither the older
    stored files nor the newest plan is lost, and nothing is listed twice."""
    world = World(tmp_path, FIRST + SECOND, tools=[TODO_WRITE, CREATE_DELIVERABLE])
    sid = world.session(mode="auto")
    try:
        older_read = _two_turns(world, sid, qloop)
        newer_read = stored_results(world.store, sid)
        second_turn = _finished(world, sid)[3:]
        reopened = _reopened(world, sid)
    finally:
        world.close()
    assert _rel(world, reopened) == EXPECTED
    for read in (older_read, newer_read):
        panels = SessionPanels()
        panels.show(sid)
        assert panels.loading()
        _feed(panels, second_turn)  # they arrive while the store is read
        shown = _rel(world, panels.state)  # shown at once
        assert shown.deliverables == ("outputs/c.md", "outputs/a.md")
        panels.loaded(sid, read)
        assert panels.state == reopened and not panels.loading()
        _feed(panels, second_turn[-1:])  # after the read: applied as it comes
        assert panels.state == reopened


def test_a_read_for_another_session_is_dropped(tmp_path: Path) -> None:
    panels = SessionPanels()
    panels.show("one")
    panels.show("two")
    stale = [{"role": "tool", "name": "todo_write", "status": "ok",
              "_display": {"todos": [{"id": "1", "text": "Old", "status": "pending"}]}}]
    panels.loaded("one", stale)
    assert panels.state == PanelsState() and panels.loading()
    panels.show(None)  # a new session: nothing to read
    assert not panels.loading()
    panels.loaded("two", stale)
    assert panels.state == PanelsState()
