"""Idle sessions give their engine and history back; a parked turn keeps its own.

A coworker stays open for weeks: every session touched must not stay in memory.
The manager keeps the engines of the ``max_live`` most recently used idle
sessions; older ones are released (rebuilt from the store when used again),
never one whose turn runs or waits for an answer.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path
from typing import Any

from openworker_qt.core.approvers import InboxApprover, InboxAsks
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.inbox import Inbox
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.tools.files import file_tools
from tests.core.helpers import StaticResolver

WRITE = {"tool_calls": [{"id": "w1", "name": "write_file",
                         "arguments": {"path": "g.txt", "content": "buy milk"}}]}


def manager(tmp: Path, turns: list[dict[str, Any]], **kw: Any) -> tuple[SessionManager, Inbox]:
    db = Database(tmp / "state.sqlite3")
    store = ConversationStore(db)
    inbox = Inbox(db)
    approver = InboxApprover(inbox, wait=True, poll=0.02)
    return SessionManager(
        store, StaticResolver(ScriptedProvider(turns)),
        tools_for=lambda info: ToolRegistry(file_tools()),
        approver_for=lambda info: approver if info.unattended else None,
        default_model="scripted", asks=InboxAsks(inbox), **kw,
    ), inbox


async def test_an_idle_sessions_engine_is_released(tmp_path: Path) -> None:
    mgr, _ = manager(tmp_path, [{"text": f"answer {i}"} for i in range(5)], max_live=2)
    sids = [mgr.create_session(workspace=str(tmp_path)).id for _ in range(5)]
    first = weakref.ref(mgr.engine(sids[0]))
    for sid in sids:
        task = mgr.send(sid, "hello")
        assert task is not None
        assert await task == "completed"
    assert mgr.live_sessions() == sids[-2:]
    gc.collect()
    assert first() is None  # the engine and the history it held are gone
    # Used again, it is rebuilt from the store with its whole history.
    again = mgr.engine(sids[0])
    assert [m["role"] for m in again.history] == ["user", "assistant"]
    assert mgr.live_sessions() == [sids[-1], sids[0]]


async def test_a_parked_turn_is_never_released(tmp_path: Path) -> None:
    turns: list[dict[str, Any]] = [WRITE, {"text": "saved"}]
    turns += [{"text": f"answer {i}"} for i in range(6)]
    mgr, inbox = manager(tmp_path, turns, max_live=1)
    parked = mgr.create_session(unattended=True, workspace=str(tmp_path)).id
    waiting = mgr.send(parked, "note: buy milk")
    assert waiting is not None
    for _ in range(300):
        if inbox.pending(parked):
            break
        await asyncio.sleep(0.01)
    assert inbox.pending(parked)
    engine = mgr.engine(parked)
    for _ in range(4):  # other sessions come and go meanwhile
        sid = mgr.create_session(workspace=str(tmp_path)).id
        task = mgr.send(sid, "hello")
        assert task is not None
        assert await task == "completed"
    assert parked in mgr.live_sessions()
    assert len(mgr.live_sessions()) == 2  # the parked one + one idle
    assert mgr.engine(parked) is engine
    [item] = inbox.pending(parked)
    inbox.resolve(item.id, "allow")
    assert await asyncio.wait_for(waiting, 10) == "completed"
    assert (tmp_path / "g.txt").read_text() == "buy milk"


async def test_memory_is_flat_across_sessions(tmp_path: Path) -> None:
    """Objects held after many sessions' turns do not grow with the session count."""
    mgr, _ = manager(tmp_path, [{"text": "an answer " * 50} for _ in range(80)], max_live=4)

    async def turns(n: int) -> None:
        for _ in range(n):
            sid = mgr.create_session(workspace=str(tmp_path)).id
            task = mgr.send(sid, "hello " * 50)
            assert task is not None
            await task

    def engines() -> int:
        gc.collect()
        # only this manager's engines: earlier tests' engines may still await collection
        return sum(isinstance(o, TurnEngine) and o.store is mgr.store for o in gc.get_objects())

    await turns(10)
    held = engines()
    objects = len(gc.get_objects())
    await turns(60)
    assert engines() == held <= 4  # not one more engine (nor history) per session
    assert len(mgr.live_sessions()) == 4
    assert len(gc.get_objects()) - objects < 2_000


async def test_a_released_sessions_history_is_read_off_the_loop_thread(tmp_path: Path) -> None:
    """A session used again after its engine was released (or never used since the
    app started) has its stored history counted and read in a worker thread: at
    100,000 messages that read takes seconds, and the window must not wait for it."""
    import threading

    mgr, _ = manager(tmp_path, [{"text": f"answer {i}"} for i in range(4)], max_live=1)
    loop_thread = threading.get_ident()
    seen: dict[str, set[int]] = {"load": set(), "count": set()}
    for name in seen:
        original = getattr(mgr.store, name)

        def spy(*a: Any, _original: Any = original, _name: str = name) -> Any:
            seen[_name].add(threading.get_ident())
            return _original(*a)

        setattr(mgr.store, name, spy)
    first, second = (mgr.create_session(workspace=str(tmp_path)).id for _ in range(2))
    for sid in (first, second, first):  # the third turn rebuilds the released engine
        task = mgr.send(sid, "hello")
        assert task is not None
        assert await task == "completed"
    assert seen["load"] and loop_thread not in seen["load"]
    assert [m["role"] for m in mgr.engine(first).history] == ["user", "assistant"] * 2
    # A live engine is checked against the store (another process may have written)
    # by a count, read in a worker too.
    task = mgr.send(first, "again")
    assert task is not None and await task == "completed"
    assert seen["count"] and loop_thread not in seen["count"]


async def test_a_model_switch_without_a_live_engine_reads_no_history_then_marks_the_switch(
    tmp_path: Path,
) -> None:
    """Switching the model of a session whose engine was released (or never built
    since start-up) must not build one there and then: that reads the whole stored
    history on the window's thread. The next turn stores the switch's notice before
    its message and calls the new model."""
    import threading

    scripted = ScriptedProvider([{"text": "one"}, {"text": "two"}])
    other = ScriptedProvider([{"text": "from the other model"}])
    db = Database(tmp_path / "state.sqlite3")
    mgr = SessionManager(ConversationStore(db), StaticResolver(scripted, other=other),
                         tools_for=lambda info: ToolRegistry(), default_model="scripted",
                         max_live=1)
    first, second = (mgr.create_session(workspace=str(tmp_path), model="scripted").id
                     for _ in range(2))
    for sid in (first, second):  # the second turn releases the first session's engine
        task = mgr.send(sid, "hello")
        assert task is not None and await task == "completed"
    assert first not in mgr.live_sessions()
    loads: list[int] = []
    original = mgr.store.load

    def spy(*a: Any) -> Any:
        loads.append(threading.get_ident())
        return original(*a)

    mgr.store.load = spy
    mgr.switch_model(first, "other:m2")
    assert loads == []  # nothing read for the switch itself
    assert mgr.store.get_session(first).model == "other:m2"
    task = mgr.send(first, "and now?")
    assert task is not None and await task == "completed"
    assert threading.get_ident() not in loads
    history = mgr.engine(first).history
    notices = [m for m in history if m["role"] == "notice"]
    assert [str(n.get("text")) for n in notices] == ["Switched model from scripted to other:m2."]
    roles = [m["role"] for m in history]
    assert roles[-3:] == ["notice", "user", "assistant"]
    assert history[-1]["content"] == "from the other model"
    assert len(other.requests) == 1
