"""The Qt bridges without a window: engine events and inbox changes as Qt signals.

Real pieces throughout: turns run on a real engine (scripted model, SQLite store)
on the qasync loop, the inbox is the real one on the same database, and another
process's answer is a second connection to that database file. Scenarios run as
one coroutine on the loop (``qloop.run_until_complete``); signals are recorded
into lists, never awaited with ``qtbot.wait_signal`` (that hangs on qasync).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.inbox import Inbox, InboxItem
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import ToolContext, ToolRegistry, ToolResult
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.qt.bridge import EngineBridge
from openworker_qt.qt.inbox_bridge import InboxBridge
from openworker_qt.storage.db import Database
from tests.core.helpers import StaticResolver, fake_tool
from tests.qt.helpers import World, until

WORDS = [f"word{i} " for i in range(60)]


class Recorder:
    """Every signal of an EngineBridge, in emission order."""

    def __init__(self, bridge: EngineBridge) -> None:
        self.log: list[tuple[str, Any]] = []
        bridge.text_appended.connect(lambda sid, text: self.log.append(("text", (sid, text))))
        bridge.reasoning_appended.connect(
            lambda sid, text: self.log.append(("reasoning", (sid, text))))
        bridge.event_received.connect(lambda event: self.log.append(("event", event)))
        bridge.running_changed.connect(
            lambda sid, running: self.log.append(("running", (sid, running))))

    def texts(self, sid: str, kind: str = "text") -> list[str]:
        return [x[1] for k, x in self.log if k == kind and x[0] == sid]

    def events(self, sid: str) -> list[ev.Event]:
        return [x for k, x in self.log if k == "event" and x.session_id == sid]

    def index(self, predicate: Any) -> int:
        return next(i for i, (k, x) in enumerate(self.log) if predicate(k, x))


def _turn(world: World, sid: str, text: str) -> asyncio.Task[Any]:
    task = world.manager.send(sid, text)
    assert task is not None
    return task


# --------------------------------------------------------------- EngineBridge


def test_a_peer_managers_session_streams_through_the_window_bridge_once(
        qloop, tmp_path: Path) -> None:
    # The team runner (or the scheduler) drives its sessions through a manager of its
    # own, built after the window's bridge: they stream live like the window's own.
    world = World(tmp_path, [{"chunks": WORDS}])
    bridge = EngineBridge(world.manager)
    seen = Recorder(bridge)
    peer = SessionManager(world.store,
                          StaticResolver(ScriptedProvider([{"chunks": WORDS}, {"text": "more"}])),
                          tools_for=lambda info: ToolRegistry([]), default_model="scripted",
                          peers=world.manager.peers)
    sid = peer.create_session(workspace=str(world.workspace)).id

    async def turn(text: str) -> None:
        task = peer.send(sid, text)
        assert task is not None
        await task

    qloop.run_until_complete(turn("work"))
    assert "".join(seen.texts(sid)) == "".join(WORDS)
    assert [x for k, x in seen.log if k == "running"] == [(sid, True), (sid, False)]
    assert [e.type for e in seen.events(sid)].count("turn_end") == 1
    bridge.detach()  # and then it hears nothing more
    seen.log.clear()
    qloop.run_until_complete(turn("again"))
    assert seen.log == []
    world.close()


def test_deltas_arriving_within_a_frame_are_coalesced(qloop, tmp_path: Path) -> None:
    world = World(tmp_path, [{"reasoning": ["think ", "hard"], "chunks": WORDS}])
    bridge = EngineBridge(world.manager)
    seen = Recorder(bridge)
    sid = world.session()

    async def scenario() -> None:
        await _turn(world, sid, "talk")

    qloop.run_until_complete(scenario())
    bridge.detach()
    world.close()
    deltas = [e for e in world.events() if isinstance(e, ev.AssistantDelta)]
    assert len(deltas) == len(WORDS)
    texts = seen.texts(sid)
    assert "".join(texts) == "".join(WORDS)  # nothing lost, nothing reordered
    assert len(texts) < len(WORDS)  # far fewer repaints than deltas
    assert seen.texts(sid, "reasoning") == ["think hard"]
    # Reasoning streamed first, and every piece of text is out before the message.
    first_text = seen.index(lambda k, x: k == "text")
    assert seen.index(lambda k, x: k == "reasoning") < first_text
    message = seen.index(lambda k, x: k == "event" and isinstance(x, ev.AssistantMessage))
    last_text = max(i for i, (k, _x) in enumerate(seen.log) if k == "text")
    assert last_text < message
    assert not any(isinstance(e, ev.AssistantDelta | ev.ReasoningDelta) for e in seen.events(sid))


async def _chatty(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    for i in range(200):
        ctx.report(f"line {i}\n")
        for _ in range(3):  # the tool step passes each piece on as its own event
            await asyncio.sleep(0)
    await asyncio.sleep(0.05)  # a frame passes while the call still runs
    return ToolResult("done")


def test_a_running_tools_output_is_coalesced_per_frame(qloop, tmp_path: Path) -> None:
    world = World(tmp_path, [{"tool_calls": [{"id": "c1", "name": "chatty", "arguments": {}}]},
                             {"text": "ok"}],
                  tools=[fake_tool("chatty", _chatty, concurrent=False)])
    bridge = EngineBridge(world.manager)
    seen = Recorder(bridge)
    sid = world.session()

    async def scenario() -> None:
        await _turn(world, sid, "go")

    qloop.run_until_complete(scenario())
    bridge.detach()
    world.close()
    shown = [e for e in seen.events(sid) if isinstance(e, ev.ToolProgress)]
    pieces = [e for e in world.events() if isinstance(e, ev.ToolProgress)]
    assert len(pieces) >= 4 and 1 <= len(shown) < len(pieces)
    assert "".join(e.text for e in shown) == "".join(f"line {i}\n" for i in range(200))
    last = seen.index(lambda k, x: k == "event" and isinstance(x, ev.ToolProgress)
                      and x is shown[-1])
    finished = seen.index(lambda k, x: k == "event" and isinstance(x, ev.ToolFinished))
    assert last < finished


def test_a_slow_stream_is_flushed_by_the_frame_timer(qloop, tmp_path: Path) -> None:
    chunks = ["one ", "two ", "three"]
    # Each chunk comes several frames after the last, so only the timer can flush it
    # while the turn is still streaming.
    world = World(tmp_path, [{"chunks": chunks, "delay": 0.1}])
    bridge = EngineBridge(world.manager)
    seen = Recorder(bridge)
    sid = world.session()
    shown_while_streaming: list[str] = []

    async def scenario() -> None:
        task = _turn(world, sid, "count")
        await until(lambda: seen.texts(sid), what="first flush")
        if not task.done():
            shown_while_streaming.extend(seen.texts(sid))
        await task

    qloop.run_until_complete(scenario())
    bridge.detach()
    world.close()
    assert shown_while_streaming == ["one "]
    assert seen.texts(sid) == chunks
    assert bridge.flushes == len(chunks)


def test_sessions_stream_side_by_side_in_order(qloop, tmp_path: Path) -> None:
    a_words = [f"a{i} " for i in range(30)]
    b_words = [f"b{i} " for i in range(30)]
    # One script per session: the resolver picks the provider by the session's model.
    world = World(tmp_path, [], resolver=_ByModel({
        "a": ScriptedProvider([{"chunks": a_words, "delay": 0.003}]),
        "b": ScriptedProvider([{"chunks": b_words, "delay": 0.004}]),
    }))
    bridge = EngineBridge(world.manager)
    seen = Recorder(bridge)
    a = world.session(model="a")
    b = world.session(model="b")
    running_during: list[frozenset[str]] = []

    async def scenario() -> None:
        ta, tb = _turn(world, a, "go"), _turn(world, b, "go")
        await until(lambda: bridge.running_sessions == {a, b}, what="both running")
        running_during.append(bridge.running_sessions)
        assert bridge.is_running(a) and bridge.is_running(b)
        await asyncio.gather(ta, tb)

    qloop.run_until_complete(scenario())
    bridge.detach()
    world.close()
    assert running_during == [frozenset({a, b})]
    assert bridge.running_sessions == frozenset()
    assert "".join(seen.texts(a)) == "".join(a_words)
    assert "".join(seen.texts(b)) == "".join(b_words)
    for sid in (a, b):
        done = seen.index(lambda k, x, s=sid: k == "event" and x.session_id == s
                          and isinstance(x, ev.AssistantMessage))
        last = max(i for i, (k, x) in enumerate(seen.log) if k == "text" and x[0] == sid)
        assert last < done  # a session's text is out before its own next event
        assert [x for k, x in seen.log if k == "running" and x[0] == sid] == [
            (sid, True), (sid, False)]
        started = seen.index(lambda k, x, s=sid: k == "running" and x == (s, True))
        ended = seen.index(lambda k, x, s=sid: k == "running" and x == (s, False))
        turn_start = seen.index(lambda k, x, s=sid: k == "event" and x.session_id == s
                                and isinstance(x, ev.TurnStarted))
        turn_end = seen.index(lambda k, x, s=sid: k == "event" and x.session_id == s
                              and isinstance(x, ev.TurnEnded))
        assert started < turn_start and turn_end < ended


class _ByModel:
    def __init__(self, providers: dict[str, Any]) -> None:
        self.providers = providers

    def resolve(self, model: str) -> tuple[Any, str]:
        return self.providers[model], model


def test_a_detached_bridge_hears_nothing(qloop, tmp_path: Path) -> None:
    world = World(tmp_path, [{"chunks": WORDS, "delay": 0.002}, {"text": "again"}])
    bridge = EngineBridge(world.manager)
    seen = Recorder(bridge)
    control = Recorder(EngineBridge(world.manager))  # stays attached: its frames pace the test
    sid = world.session()

    async def scenario() -> None:
        task = _turn(world, sid, "talk")
        await until(lambda: any(isinstance(e, ev.AssistantDelta) for e in world.events()),
                    what="streaming")
        bridge.detach()  # the window closes mid-stream
        before = len(seen.log)
        await task
        # The attached bridge has flushed the whole turn, a frame after the detached
        # one's timer would have fired too.
        await until(lambda: "".join(control.texts(sid)) == "".join(WORDS), what="flushed")
        assert len(seen.log) == before
        await _turn(world, sid, "more")
        await until(lambda: control.texts(sid)[-1:] == ["again"], what="second turn flushed")
        assert len(seen.log) == before

    qloop.run_until_complete(scenario())
    world.close()
    assert bridge._on_manager_event not in world.manager.listeners
    # the turns themselves ran to the end (then the manager said the session is free)
    assert [e.type for e in world.events()][-2:] == ["turn_end", "running_changed"]


# ---------------------------------------------------------------- InboxBridge


class InboxRecorder:
    def __init__(self, bridge: InboxBridge) -> None:
        self.added: list[InboxItem] = []
        self.resolved: list[InboxItem] = []
        self.changes = 0
        bridge.item_added.connect(self.added.append)
        bridge.item_resolved.connect(self.resolved.append)
        bridge.pending_changed.connect(self._changed)

    def _changed(self) -> None:
        self.changes += 1


def _ask(inbox: Inbox, session_id: str, call_id: str) -> InboxItem:
    return inbox.add("approval", session_id, tool_call_id=call_id, tool="write_file",
                     arguments={"path": "a.txt"}, title="write_file wants to run",
                     reason="writes a file", risk="write_local", target="a.txt")


def test_items_added_and_resolved_in_this_process(qloop, tmp_path: Path) -> None:
    db = Database(tmp_path / "state.sqlite3")
    inbox = Inbox(db)
    early = _ask(inbox, "s1", "c0")  # pending before the bridge existed
    bridge = InboxBridge(inbox)
    seen = InboxRecorder(bridge)
    assert [i.id for i in bridge.pending()] == [early.id]
    item = _ask(inbox, "s2", "c1")
    assert [i.id for i in seen.added] == [item.id] and seen.changes == 1
    assert bridge.get(item.id) is not None and bridge.find("s2", "c1") == item
    assert bridge.counts() == {"s1": 1, "s2": 1}
    assert [i.id for i in bridge.pending("s2", kind="approval")] == [item.id]
    assert _ask(inbox, "s2", "c1") == item  # asked again (a resumed turn): no new item
    assert len(seen.added) == 1
    assert bridge.resolve(item.id, "once", by="card")
    [resolved] = seen.resolved
    assert (resolved.id, resolved.resolution, resolved.resolved_by) == (item.id, "once", "card")
    assert seen.changes == 2 and bridge.get(item.id) is None
    assert not bridge.resolve(item.id, "deny", by="dialog")  # the first answer won
    assert inbox.get(item.id).resolution == "once"
    assert len(seen.resolved) == 1
    assert bridge.resolve_call("s1", "c0", "deny")
    assert bridge.pending() == [] and bridge.counts() == {}
    bridge.detach()
    db.close()


def test_answers_from_another_connection_arrive_by_the_poll(qloop, tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    db = Database(path)
    inbox = Inbox(db)
    bridge = InboxBridge(inbox, poll_ms=20)
    seen = InboxRecorder(bridge)
    mine = _ask(inbox, "s1", "c1")
    other_db = Database(path)  # the CLI in another process: its own connection
    other = Inbox(other_db)

    async def scenario() -> None:
        assert other.resolve(mine.id, "deny", by="cli")
        await until(lambda: seen.resolved, what="resolution seen")
        theirs = _ask(other, "s2", "c9")  # an unattended run elsewhere parks a new ask
        await until(lambda: len(seen.added) == 2, what="new item seen")
        assert seen.added[-1].id == theirs.id
        # A resolution the bridge itself loses to the other connection.
        assert other.resolve(theirs.id, "once", by="cli")
        assert not bridge.resolve(theirs.id, "deny", by="card")
        await until(lambda: len(seen.resolved) == 2, what="lost race reported")

    qloop.run_until_complete(scenario())
    bridge.detach()
    other_db.close()
    db.close()
    first, second = seen.resolved
    assert (first.id, first.status, first.resolution, first.resolved_by) == (
        mine.id, "resolved", "deny", "cli")
    assert (second.resolution, second.resolved_by) == ("once", "cli")
    assert bridge.pending() == [] and seen.changes == 4


def test_a_detached_inbox_bridge_stops_listening_and_polling(qloop, tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    db = Database(path)
    inbox = Inbox(db)
    bridge = InboxBridge(inbox, poll_ms=10)
    seen = InboxRecorder(bridge)
    control_bridge = InboxBridge(inbox, poll_ms=10)  # stays attached: its polls pace the test
    control = InboxRecorder(control_bridge)
    bridge.detach()
    assert bridge._on_inbox_item not in inbox.listeners
    other_db = Database(path)

    async def scenario() -> None:
        _ask(inbox, "s1", "c1")
        _ask(Inbox(other_db), "s1", "c2")
        await until(lambda: len(control.added) == 2, what="the other process's ask polled")
        # one more poll of the same interval after it: a live poll would have seen c2
        _ask(Inbox(other_db), "s1", "c3")
        await until(lambda: len(control.added) == 3, what="a later poll")

    qloop.run_until_complete(scenario())
    control_bridge.detach()
    other_db.close()
    db.close()
    assert (seen.added, seen.resolved, seen.changes) == ([], [], 0)


def test_the_poll_stops_when_the_database_closes(qloop, tmp_path: Path) -> None:
    db = Database(tmp_path / "state.sqlite3")
    inbox = Inbox(db)
    bridge = InboxBridge(inbox, poll_ms=10)
    db.close()  # shutdown order: the database may go before the bridge

    async def scenario() -> None:
        await until(lambda: not bridge._timer.isActive(), what="poll stopped")

    qloop.run_until_complete(scenario())
    bridge.detach()
