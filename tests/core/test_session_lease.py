"""One driver per session: the lease through the SessionManager API.

Two managers on one database stand for two windows or processes (each has its
own lease owner); real processes are in ``tests/cli/test_lease.py``.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.sessions import SessionBusy, SessionManager
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.storage.leases import SessionLeases
from tests.core.helpers import StaticResolver, collect

SLOW = {"chunks": ["word "] * 400, "delay": 0.005}


class Window:
    def __init__(self, tmp: Path, turns: list[dict[str, Any]], **kw: Any) -> None:
        self.db = Database(tmp / "state.sqlite3")
        self.store = ConversationStore(self.db)
        self.provider = ScriptedProvider(turns)
        self.manager = SessionManager(
            self.store, StaticResolver(self.provider), tools_for=lambda info: ToolRegistry(),
            default_model="scripted", **kw,
        )
        self.events: list[ev.Event] = []
        self.manager.listeners.append(self.events.append)


async def streaming(window: Window, sid: str) -> asyncio.Task[Any]:
    task = window.manager.send(sid, "talk for a while")
    assert task is not None
    for _ in range(500):
        if any(isinstance(e, ev.AssistantDelta) for e in window.events):
            return task
        await asyncio.sleep(0.01)
    raise AssertionError("the turn never streamed")


async def test_a_second_driver_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    first = Window(tmp_path, [SLOW])
    second = Window(tmp_path, [{"text": "mine"}])
    sid = first.manager.create_session().id
    task = await streaming(first, sid)
    before = first.store.count(sid)

    with pytest.raises(SessionBusy) as caught:
        await collect(second.manager.run(sid, "me too"))
    assert "another OpenWorker window/process" in str(caught.value)
    assert second.manager.holder(sid) is not None
    # From a surface: the refusal is an event, not a crash.
    refused = second.manager.send(sid, "me too")
    assert refused is not None
    assert await refused is None
    [error] = [e for e in second.events if isinstance(e, ev.ErrorOccurred)]
    assert error.kind == "busy" and not error.retryable
    assert second.manager.start_resume(sid) is None  # its driver continues it
    assert sid not in [s.id for s in second.manager.resumable()]
    assert second.provider.calls == 0
    assert first.store.count(sid) == before  # nothing written by the refused driver
    first.manager.stop(sid)
    assert await task == "interrupted"
    # Released at the end of the turn: the other window may drive it now.
    assert second.manager.holder(sid) is None
    events = await collect(second.manager.run(sid, "my turn"))
    assert events[-1].status == "completed"


async def test_the_next_driver_sees_what_the_last_one_wrote(tmp_path: Path) -> None:
    first = Window(tmp_path, [{"text": "from the first window"}])
    second = Window(tmp_path, [{"text": "from the second window"}])
    sid = first.manager.create_session().id
    second.manager.engine(sid)  # built (and its history loaded) before the other turn
    await collect(first.manager.run(sid, "one"))
    await collect(second.manager.run(sid, "two"))
    sent = [m.get("content") for m in second.provider.requests[-1].messages]
    assert sent == ["one", "from the first window", "two"]


async def test_heartbeat_keeps_the_lease_fresh_while_the_turn_runs(tmp_path: Path) -> None:
    first = Window(tmp_path, [SLOW], heartbeat_every=0.01)
    sid = first.manager.create_session().id
    task = await streaming(first, sid)
    lease = first.manager.leases.get(sid)
    assert lease is not None
    for _ in range(500):
        now = first.manager.leases.get(sid)
        if now is not None and now.heartbeat > lease.heartbeat:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the heartbeat never moved")
    first.manager.stop(sid)
    await task
    assert first.manager.leases.get(sid) is None
    assert first.manager._beat_handle is None


async def test_a_driver_whose_lease_was_taken_over_stops(tmp_path: Path) -> None:
    first = Window(tmp_path, [SLOW], heartbeat_every=0.01)
    sid = first.manager.create_session().id
    task = await streaming(first, sid)
    # Another process saw this one silent past the limit (its clock says so) and took over.
    usurper = SessionLeases(first.db, clock=lambda: time.time() + 3600)
    usurper.acquire(sid)
    assert await asyncio.wait_for(task, timeout=10) == "interrupted"
    lease = usurper.get(sid)
    assert lease is not None and lease.owner == usurper.owner  # not released by the loser
