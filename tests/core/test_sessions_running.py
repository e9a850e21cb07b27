""""A turn is running" is the session manager's word: from the moment a turn is asked
for (``send``, or a surface iterating ``run`` itself) until the session is free again,
told as one RunningChanged to the listeners of every manager of the process."""

from __future__ import annotations

from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.peers import Peers
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from tests.core.helpers import StaticResolver


def _pair(tmp: Path) -> tuple[SessionManager, SessionManager, ConversationStore]:
    store = ConversationStore(Database(tmp / "state.sqlite3"))
    peers = Peers()

    def make() -> SessionManager:
        return SessionManager(store, StaticResolver(ScriptedProvider([{"text": "done"}] * 4)),
                              tools_for=lambda info: ToolRegistry([]), default_model="scripted",
                              peers=peers)

    return make(), make(), store


async def test_a_turn_run_directly_is_running_from_before_it_starts_until_after_it_ends(
        tmp_path: Path) -> None:
    cli, window, store = _pair(tmp_path)
    sid = cli.create_session(workspace=str(tmp_path)).id
    heard: list[tuple[str, object]] = []
    window.listeners.append(lambda e: heard.append(
        ("running", e.running) if isinstance(e, ev.RunningChanged) else (e.type, None)))
    during: list[tuple[bool, bool, frozenset[str]]] = []
    async for event in cli.run(sid, "go"):
        if isinstance(event, ev.TurnStarted):
            during.append((cli.is_running(sid), window.is_running(sid), window.running_sessions()))
    assert during == [(True, False, frozenset({sid}))]  # the peer knows; it does not drive it
    assert not cli.is_running(sid) and cli.running_sessions() == window.running_sessions() == set()
    assert window.running_since(sid) is None
    # the peer's listeners heard only when it began and when it was over (the engine's
    # events are the driving manager's)
    assert heard == [("running", True), ("running", False)]
    info = store.get_session(sid)
    assert info is not None and info.status == "idle"


async def test_a_sent_turn_is_running_at_once_and_its_order_is_kept(tmp_path: Path) -> None:
    mgr, _peer, _store = _pair(tmp_path)
    sid = mgr.create_session(workspace=str(tmp_path)).id
    seen: list[str] = []
    mgr.listeners.append(lambda e: seen.append(
        f"running={e.running}" if isinstance(e, ev.RunningChanged) else e.type))
    task = mgr.send(sid, "go")
    assert task is not None and mgr.is_running(sid)  # before the task ran at all
    assert mgr.running_since(sid) is not None
    assert await task == "completed"
    assert [s for s in seen if s.startswith("running")] == ["running=True", "running=False"]
    assert seen.index("running=True") < seen.index("turn_start")
    assert seen.index("turn_end") < seen.index("running=False")
    assert not mgr.is_running(sid)


async def test_stop_reaches_the_manager_driving_the_turn(tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "state.sqlite3"))
    peers = Peers()
    slow = ScriptedProvider([{"chunks": ["word "] * 2000, "delay": 0.01}])
    driver = SessionManager(store, StaticResolver(slow), tools_for=lambda info: ToolRegistry([]),
                            default_model="scripted", peers=peers)
    other = SessionManager(store, StaticResolver(slow), tools_for=lambda info: ToolRegistry([]),
                           default_model="scripted", peers=peers)
    sid = driver.create_session(workspace=str(tmp_path)).id
    ended: list[str] = []
    async for event in driver.run(sid, "go"):
        if isinstance(event, ev.AssistantDelta) and not ended:
            ended.append("asked")
            other.stop(sid)  # e.g. the window's Stop on a turn the CLI drives
        if isinstance(event, ev.TurnEnded):
            ended.append(event.status)
    assert ended == ["asked", "interrupted"]
    assert other.running_sessions() == set()
    info = store.get_session(sid)
    assert info is not None and info.status != "running"


async def test_a_stop_asked_as_a_turn_ends_does_not_stop_the_next_turn(tmp_path: Path) -> None:
    # The stop lands after the engine's turn is over but while the manager still holds
    # the session (giving the lease back): it was for that turn, not for the next one.
    manager, _peer, _store = _pair(tmp_path)
    sid = manager.create_session(workspace=str(tmp_path)).id
    give_back = manager._release
    stopped: list[bool] = []

    async def stop_then_give_back(session_id: str) -> None:
        if not stopped:
            stopped.append(manager.is_running(session_id))
            manager.stop(session_id)
        await give_back(session_id)

    manager._release = stop_then_give_back  # type: ignore[method-assign]
    first = manager.send(sid, "one")
    assert first is not None and await first == "completed"
    assert stopped == [True]
    second = manager.send(sid, "two")
    assert second is not None and await second == "completed"


async def test_a_watcher_hears_every_managers_events_once_even_a_manager_built_later(
        tmp_path: Path) -> None:
    store = ConversationStore(Database(tmp_path / "state.sqlite3"))
    peers = Peers()
    heard: list[tuple[str, str]] = []
    peers.watch(lambda e: heard.append((e.session_id, e.type if not isinstance(
        e, ev.RunningChanged) else f"running={e.running}")))

    def make() -> SessionManager:
        return SessionManager(store, StaticResolver(ScriptedProvider([{"text": "done"}] * 2)),
                              tools_for=lambda info: ToolRegistry([]), default_model="scripted",
                              peers=peers)

    first = make()
    one = first.create_session(workspace=str(tmp_path)).id
    assert await (first.send(one, "go") or _never()) == "completed"
    second = make()  # e.g. the team runner's, built after the window's bridge watched
    two = second.create_session(workspace=str(tmp_path)).id
    async for _event in second.run(two, "go"):
        pass
    for sid in (one, two):
        mine = [kind for s, kind in heard if s == sid]
        # once each, though both managers' own listeners hear every RunningChanged
        assert mine.count("running=True") == mine.count("running=False") == 1
        assert mine.count("turn_start") == mine.count("turn_end") == 1
        assert "assistant_delta" in mine or "assistant_message" in mine


async def test_a_failing_watcher_does_not_break_a_turn_and_unwatch_stops_it(
        tmp_path: Path) -> None:
    manager, _peer, _store = _pair(tmp_path)
    calls: list[str] = []

    def broken(event: ev.Event) -> None:
        calls.append(event.type)
        raise RuntimeError("a broken surface")

    manager.peers.watch(broken)
    manager.peers.watch(broken)  # once only
    sid = manager.create_session(workspace=str(tmp_path)).id
    assert await (manager.send(sid, "go") or _never()) == "completed"
    assert calls.count("turn_end") == 1
    manager.peers.unwatch(broken)
    calls.clear()
    assert await (manager.send(sid, "again") or _never()) == "completed"
    assert calls == []


async def _never() -> str:
    raise AssertionError("no turn was started")
