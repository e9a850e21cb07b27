"""Every write of a session's fields goes through its SessionManager: what the
manager then builds (the engine's folder, the persona it was made for) and what
the store says agree, with no caller patching the manager afterwards."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openworker_qt.core import events as ev
from openworker_qt.core.session_fields import granted_roots
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from tests.core.helpers import StaticResolver


def _manager(tmp: Path, turns: list[dict[str, object]]) -> SessionManager:
    store = ConversationStore(Database(tmp / "state.sqlite3"))
    return SessionManager(store, StaticResolver(ScriptedProvider(turns)),
                          tools_for=lambda info: ToolRegistry([]), default_model="scripted")


async def test_fields_written_through_the_manager_agree_with_the_store(tmp_path: Path) -> None:
    mgr = _manager(tmp_path, [{"text": "one"}, {"text": "two"}])
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    sid = mgr.create_session(workspace=str(first)).id
    task = mgr.send(sid, "hello")
    assert task is not None and await task == "completed"
    assert mgr.engine(sid).workspace == first
    mgr.rename(sid, "Quarterly report")
    mgr.set_pinned(sid, True)
    mgr.set_mode(sid, "auto")
    mgr.set_persona(sid, "code")
    mgr.grant_folder(sid, str(second), writable=True)
    assert mgr.move_to_folder(sid, str(second))
    info = mgr.store.get_session(sid)
    assert info is not None
    assert (info.title, info.pinned, info.mode, info.persona) == ("Quarterly report", True, "auto", "code")
    assert granted_roots(info) == [str(second)]
    # the engine the manager hands out now is built from what the store says
    assert mgr.engine(sid).workspace == second == Path(info.workspace)
    with pytest.raises(ValueError, match="unknown permission mode"):
        mgr.set_mode(sid, "whatever")
    assert mgr.store.get_session(sid).mode == "auto"  # type: ignore[union-attr]


async def test_the_folder_does_not_move_under_a_running_turn(tmp_path: Path) -> None:
    mgr = _manager(tmp_path, [{"chunks": ["word "] * 2000, "delay": 0.01}])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    sid = mgr.create_session(workspace=str(tmp_path)).id
    streaming = asyncio.Event()
    mgr.listeners.append(lambda e: streaming.set() if isinstance(e, ev.AssistantDelta) else None)
    task = mgr.send(sid, "go")
    assert task is not None
    assert not mgr.move_to_folder(sid, str(elsewhere))  # (asked for, not started yet)
    await streaming.wait()
    assert not mgr.move_to_folder(sid, str(elsewhere))
    assert mgr.store.get_session(sid).workspace == str(tmp_path)  # type: ignore[union-attr]
    mgr.stop(sid)
    assert await task == "interrupted"
    assert mgr.move_to_folder(sid, str(elsewhere))


async def test_deleting_a_session_stops_its_turn_and_removes_it(tmp_path: Path) -> None:
    mgr = _manager(tmp_path, [{"chunks": ["word "] * 2000, "delay": 0.01}])
    sid = mgr.create_session(workspace=str(tmp_path)).id
    streaming = asyncio.Event()
    mgr.listeners.append(lambda e: streaming.set() if isinstance(e, ev.AssistantDelta) else None)
    task = mgr.send(sid, "go")
    assert task is not None
    await streaming.wait()
    await mgr.delete_session(sid)
    assert mgr.store.get_session(sid) is None
    await asyncio.gather(task, return_exceptions=True)  # (stopped: what it still wrote is gone)
    assert not mgr.is_running(sid) and sid not in mgr.live_sessions()
