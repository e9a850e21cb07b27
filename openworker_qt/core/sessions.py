"""SessionManager: builds a TurnEngine per session and owns its lifecycle.

Surfaces (window, tray, CLI, Slack, scheduler) never construct engines; they ask
the manager to run, steer, stop, retry or switch the model of a session. Every
event of every session is also published to the manager's listeners, which is
how the Qt bridge, notifications and the tray learn what happens in sessions
they did not start.

Per-session collaborators come from factories so personas, the permission
engine and the inbox can plug in without the manager knowing them; ``asks``
(the inbox's :class:`~openworker_qt.core.approvers.InboxAsks`) lets every engine
close the asks of calls it closed without running them.

One driver per session across processes: a turn holds the session's lease
(:mod:`~openworker_qt.storage.leases`) from its start to its end, refreshed by a
heartbeat timer; a turn another live process or window is driving is refused
with :class:`SessionBusy`.

"A turn is running" has one owner: the manager driving it, from the moment the
turn is asked for (:meth:`SessionManager.send`, or the CLI iterating
:meth:`~SessionManager.run`) until the session is free again. The managers of one
process (``peers``: :class:`~openworker_qt.core.peers.Peers`) know each other's turns
(:meth:`~SessionManager.running_sessions` and :meth:`~SessionManager.stop` answer for
all of them); a surface follows all of them with ``peers.watch``. Surfaces keep no
running state of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import Approver, Decider, OpenAsks, Questioner
from openworker_qt.core.audit import AuditSink
from openworker_qt.core.messages import notice, pending_tool_calls
from openworker_qt.core.peers import Listener, Peers
from openworker_qt.core.provider_api import ProviderResolver
from openworker_qt.core.session_fields import SessionControl, SessionFields
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.domain.messages import Message, NoticeMessage
from openworker_qt.storage.conversations import ConversationStore, SessionInfo
from openworker_qt.storage.leases import HEARTBEAT_EVERY, Lease, SessionBusy, SessionLeases

if TYPE_CHECKING:
    from openworker_qt.core.engine import TurnEngine

log = logging.getLogger(__name__)

#: Engines (and the histories they hold) kept for idle sessions, most recent first;
#: an older idle one is released and rebuilt from the store when next used.
MAX_LIVE = 8

__all__ = ["SessionBusy", "SessionManager"]


class SessionManager(SessionFields):
    def __init__(
        self,
        store: ConversationStore,
        resolver: ProviderResolver,
        *,
        tools_for: Callable[[SessionInfo], ToolRegistry],
        decider_for: Callable[[SessionInfo], Decider] | None = None,
        approver_for: Callable[[SessionInfo], Approver | None] | None = None,
        questioner_for: Callable[[SessionInfo], Questioner | None] | None = None,
        system_prompt_for: Callable[[SessionInfo], str] | None = None,
        reminder_for: Callable[[SessionInfo], Callable[[Sequence[Message]], str] | None] | None = None,
        default_model: str = "",
        max_iterations: int | Callable[[SessionInfo], int] = 25,
        audit: AuditSink | None = None,
        redact: Callable[[str], str] | None = None,
        leases: SessionLeases | None = None,
        heartbeat_every: float = HEARTBEAT_EVERY,
        asks: OpenAsks | None = None,
        new_session_mode: Callable[[str, str | None], str] | None = None,
        prepare: Callable[[SessionInfo], Awaitable[None]] | None = None,
        ready: Callable[[], Awaitable[object]] | None = None,
        compaction: bool = False,
        max_live: int = MAX_LIVE,
        peers: Peers | None = None,
    ) -> None:
        """``max_iterations``: a number, or the session's own (from its folder's
        settings). ``new_session_mode(workspace, mode)``: the mode a new session in
        that folder starts in (its settings may ask for a stricter one).
        ``prepare(info)``: awaited before each turn of a session builds its engine
        (slow set-up, e.g. reading the folder's settings, kept off the loop).
        ``ready``: awaited before a turn writes anything, beside the provider's
        preparation (e.g. the secrets ``redact`` needs, loaded in a worker).
        ``system_prompt_for(info)``: made again at the start of every turn (after
        ``prepare``), so it must be stable while nothing changes (providers cache it);
        ``reminder_for(info)``: the engine's per-call reminder (outbound only);
        ``max_live``: how many idle sessions keep their engine (least recently
        used released first); a running or parked turn's engine is never released.
        ``peers``: the managers of this process, shared (this one is added to it),
        whose turns count as running here too (see module docstring)."""
        self.store = store
        self.resolver = resolver
        self.tools_for = tools_for
        self.decider_for = decider_for
        self.approver_for = approver_for or (lambda _s: None)
        self.questioner_for = questioner_for or (lambda _s: None)
        self.system_prompt_for = system_prompt_for or (lambda _s: "")
        self.reminder_for = reminder_for or (lambda _s: None)
        self.default_model = default_model
        self.max_iterations = max_iterations
        self.audit = audit
        self.redact = redact
        self.asks = asks
        self.new_session_mode = new_session_mode
        self.prepare = prepare
        self.ready = ready
        self.compaction = compaction  # summarise older turns near the window (core/context.py)
        self.listeners: list[Listener] = []
        #: :meth:`shutdown` began: no new turn should be started.
        self.closing = False
        self.max_live = max(0, max_live)
        self._engines: OrderedDict[str, TurnEngine] = OrderedDict()
        #: sessions whose model was switched while they had no engine: the model they
        #: switched from (the notice is stored when the engine is next built)
        self._switched_from: dict[str, str] = {}
        self._closing: set[asyncio.Task[None]] = set()
        self._persona_of: dict[str, str] = {}  # the persona each cached engine was built for
        self._tasks: dict[str, asyncio.Task[ev.TurnStatus | None]] = {}
        #: sessions whose turn this manager drives -> when it was asked for (monotonic)
        self._running: dict[str, float] = {}
        self._stop_asked: set[str] = set()  # stopped before the turn began
        self.peers: Peers = peers if peers is not None else Peers()
        if self not in self.peers:
            self.peers.append(self)
        self.leases = leases if leases is not None else SessionLeases(store.db)
        self.heartbeat_every = heartbeat_every
        self._held: set[str] = set()
        self._beat_handle: asyncio.TimerHandle | None = None
        self._beat_loop: asyncio.AbstractEventLoop | None = None
        self._beat_task: asyncio.Task[None] | None = None

    # sessions -------------------------------------------------------------------

    def create_session(self, **fields: object) -> SessionInfo:
        fields.setdefault("model", self.default_model)
        if self.new_session_mode is not None:
            mode = fields.get("mode")
            fields["mode"] = self.new_session_mode(
                str(fields.get("workspace") or ""), str(mode) if mode else None)
        return self.store.create_session(**fields)  # type: ignore[arg-type]

    def engine(self, session_id: str, history: list[Message] | None = None) -> TurnEngine:
        """The session's engine, built when it has none (from ``history`` when given:
        the stored messages already read, else read here)."""
        engine = self._engines.get(session_id)
        if engine is None:
            from openworker_qt.core.engine import TurnEngine  # (not before the first paint)
            info = self.store.get_session(session_id)
            if info is None:
                raise KeyError(f"no session {session_id!r}")
            switched_from = self._switched_from.pop(session_id, None)
            engine = TurnEngine(
                session_id=session_id,
                store=self.store,
                resolver=self.resolver,
                model=switched_from or info.model or self.default_model,
                tools=self.tools_for(info),
                decider=self.decider_for(info) if self.decider_for else None,
                approver=self.approver_for(info),
                questioner=self.questioner_for(info),
                workspace=Path(info.workspace) if info.workspace else None,
                system_prompt=self.system_prompt_for(info),
                max_iterations=(self.max_iterations(info) if callable(self.max_iterations)
                                else self.max_iterations),
                audit=self.audit,
                redact=self.redact,
                asks=self.asks,
                compaction=self.compaction,
                reminder=self.reminder_for(info),
                history=history,
            )
            engine.tool_state["session"] = SessionControl(self.store, session_id)
            if switched_from is not None and info.model:  # a switch made while it had none
                self._announce_switch(session_id, engine.switch_model(info.model))
            self._engines[session_id] = engine
            self._persona_of[session_id] = info.persona
            self._engines.move_to_end(session_id)
            self._evict(keep=session_id)
        else:
            self._engines.move_to_end(session_id)
        return engine

    def forget(self, session_id: str) -> None:
        """Drop the cached engine (it is rebuilt from the store on next use)."""
        engine = self._engines.pop(session_id, None)
        self._persona_of.pop(session_id, None)
        if engine is not None and not self._busy(session_id, engine):
            self._close_state(engine)

    def live_sessions(self) -> list[str]:
        """The sessions holding an engine now, least recently used first."""
        return list(self._engines)

    def _busy(self, session_id: str, engine: TurnEngine) -> bool:
        """A turn runs or is parked (waiting for an answer), or the session's tools
        keep work alive (a background task of its shell): the engine stays."""
        if engine.running or engine.waiting_for_user or self.is_running(session_id):
            return True
        for value in engine.tool_state.values():
            tasks = getattr(value, "tasks", None)
            if isinstance(tasks, dict) and any(
                getattr(getattr(t, "proc", None), "returncode", 0) is None
                for t in tasks.values()
            ):
                return True
        return False

    def _evict(self, keep: str | None = None) -> None:
        """Release the least recently used idle engines beyond :attr:`max_live`
        (never ``keep``, the one being handed out)."""
        idle = [sid for sid, engine in self._engines.items() if not self._busy(sid, engine)]
        extra = len(idle) - self.max_live
        for sid in [s for s in idle if s != keep][:max(0, extra)]:
            log.debug("releasing the engine of idle session %s", sid)
            self.forget(sid)

    def _close_state(self, engine: TurnEngine) -> None:
        """Close what the engine's tools opened (e.g. a persistent shell), in the
        background (a released engine keeps nothing alive)."""
        closers = []
        for key, value in list(engine.tool_state.items()):
            close = getattr(value, "close", None)
            if close is not None and asyncio.iscoroutinefunction(close):
                closers.append(close)
                engine.tool_state.pop(key, None)
        if not closers:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a script): the atexit hooks of the tools clean up

        async def close_all() -> None:
            for close in closers:
                try:
                    await close()
                except Exception:
                    log.warning("closing a released session's tools failed", exc_info=True)

        task = loop.create_task(close_all())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def is_running(self, session_id: str) -> bool:
        """Whether this manager drives a turn of the session (asked for, running or
        finishing); a message sent now steers it."""
        return session_id in self._running

    def running_sessions(self) -> frozenset[str]:
        """Every session with a turn going in this process (any of the peers')."""
        return frozenset(sid for manager in self.peers for sid in manager._running)

    def running_since(self, session_id: str) -> float | None:
        """When the session's running turn was asked for (``time.monotonic()``), by
        whichever peer drives it; None when none does."""
        times = [m._running[session_id] for m in self.peers if session_id in m._running]
        return min(times) if times else None

    def _set_running(self, session_id: str, running: bool) -> None:
        """This manager's turn of the session began or is over; a change of what the
        process says (:meth:`running_sessions`) is told to every peer's listeners."""
        if running == (session_id in self._running):
            return
        before = session_id in self.running_sessions()
        if running:
            self._running[session_id] = time.monotonic()
        else:  # (a stop asked as the turn ended was for it, not for the next one)
            del self._running[session_id]
            self._stop_asked.discard(session_id)
        now = session_id in self.running_sessions()
        if now != before:
            event = ev.RunningChanged(session_id=session_id, running=now)
            for manager in list(self.peers):
                manager._publish(event, watchers=False)
            self.peers.publish(event)

    def holder(self, session_id: str) -> Lease | None:
        """The other live process or window driving this session now, if any."""
        return self.leases.holder(session_id)

    # leases ---------------------------------------------------------------------

    def _take_lease(self, session_id: str) -> None:
        self.leases.acquire(session_id)  # SessionBusy while another driver has it
        self._held.add(session_id)
        if self._beat_handle is None:
            self._beat_loop = asyncio.get_running_loop()
            self._beat_handle = self._beat_loop.call_later(self.heartbeat_every, self._beat)

    def _give_back(self, session_id: str) -> None:
        self._held.discard(session_id)
        try:
            self.leases.release(session_id)
        except Exception:  # it goes stale on its own
            log.exception("could not release the lease of session %s", session_id)
        if not self._held and self._beat_handle is not None:
            self._beat_handle.cancel()
            self._beat_handle = None
        if not self._held and self._beat_task is not None and not self._beat_task.done():
            if self._beat_task is not asyncio.current_task():
                self._beat_task.cancel()

    def _writing(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Writes of the loop thread: the database's write lock is awaited without
        blocking it (another process may hold it for a while)."""
        writing = getattr(self.store, "writing", None)
        return writing() if callable(writing) else contextlib.nullcontext()

    def _beat(self) -> None:
        """The heartbeat: one cheap UPDATE for every lease held (bench/lease.py),
        written when the database's write lock is free (the loop never waits)."""
        self._beat_handle = None
        if not self._held:
            return
        loop = self._beat_loop
        task = loop.create_task(self._beat_now()) if loop is not None else None
        if task is not None:
            self._beat_task = task

    async def _beat_now(self) -> None:
        lost: set[str] = set()
        try:
            async with self._writing():
                lost = self.leases.beat(self._held)
        except Exception:
            log.warning("lease heartbeat failed", exc_info=True)
        for session_id in lost:
            # We looked dead (frozen longer than the staleness limit) and another
            # driver took over: stop here rather than drive the session twice.
            log.warning("session %s was taken over by another process; stopping", session_id)
            self._held.discard(session_id)
            self._interrupt(session_id)
        if self._held and self._beat_loop is not None and self._beat_handle is None:
            self._beat_handle = self._beat_loop.call_later(self.heartbeat_every, self._beat)

    async def _engine_for_turn(
        self, session_id: str, info: SessionInfo | None = None
    ) -> TurnEngine:
        """The session's engine, reloaded if another process wrote to the session
        since it was built (its history would be stale) or its persona changed (its
        tools would be another persona's). The stored history is counted and read in a
        worker thread: a session of 100,000 messages takes seconds to read, and the
        loop (the window) must not wait for it."""
        engine = self._engines.get(session_id)
        if engine is not None and not engine.running:
            stale = info is not None and info.persona != self._persona_of.get(session_id)
            if not stale:
                stale = await asyncio.to_thread(self.store.count, session_id) != len(engine.history)
            if stale and not engine.running:
                self.forget(session_id)
        if session_id not in self._engines:
            history = await asyncio.to_thread(self.store.load, session_id)
            if session_id not in self._engines:  # not built by another path meanwhile
                return self.engine(session_id, history)
        return self.engine(session_id)

    # turns ----------------------------------------------------------------------

    def _publish(self, event: ev.Event, *, watchers: bool = True) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:  # a broken surface must not break the turn
                log.exception("session listener failed on %s", event.type)
        if watchers:
            self.peers.publish(event)

    async def _drive(
        self, session_id: str, start: Callable[[TurnEngine], AsyncIterator[ev.Event]]
    ) -> AsyncIterator[ev.Event]:
        direct = session_id not in self._running  # a surface iterates run() itself (the CLI)
        self._set_running(session_id, True)
        try:
            async with self._writing():
                self._take_lease(session_id)
        except BaseException:
            if direct:
                self._set_running(session_id, False)
            raise
        try:
            self._close_if_cut_off(session_id)
            info = self.store.get_session(session_id)
            if self.prepare is not None and info is not None:
                await self.prepare(info)
            engine = await self._engine_for_turn(session_id, info)
            if info is not None:  # what the preparation read (AGENTS.md, skills…) counts now
                engine.system_prompt = self.system_prompt_for(info)
            stream = start(engine)
            try:
                async for event in stream:
                    if isinstance(event, ev.TurnStarted):
                        if session_id in self._stop_asked:  # stopped before it began
                            self._stop_asked.discard(session_id)
                            engine.request_interrupt()
                        async with self._writing():
                            self.store.update_session(session_id, status="running")
                    elif isinstance(event, ev.TurnEnded):
                        # Only a turn that really ended leaves "running"; one cut off by a
                        # crash or a cancelled task stays "running" so recover() finds it.
                        status = {"completed": "idle", "max_iterations": "idle"}.get(
                            event.status, event.status
                        )
                        async with self._writing():
                            self.store.update_session(session_id, status=status)
                    self._publish(event)
                    yield event
                    if isinstance(event, ev.TurnStarted):
                        await self._prepare(event.model)
            except Exception:
                # The engine ends every turn itself; this is the store or a surface
                # failing around it. The session must not stay "running".
                with contextlib.suppress(BaseException):
                    await stream.aclose()  # type: ignore[attr-defined]
                self._mark_failed(session_id)
                raise
        finally:
            try:
                await self._release(session_id)
            finally:
                if direct:
                    self._set_running(session_id, False)
                self._evict(keep=session_id)

    async def _release(self, session_id: str) -> None:
        """Give the lease back when the database can be written (the loop never waits);
        if that fails or the task is being cancelled, at once (it must not stay held)."""
        try:
            async with self._writing():
                self._give_back(session_id)
        except asyncio.CancelledError:
            self._give_back(session_id)
            raise
        except Exception:
            log.warning("could not wait for the database to give back the lease of %s",
                        session_id, exc_info=True)
            self._give_back(session_id)

    def _mark_failed(self, session_id: str) -> None:
        """A turn died without ending: leave "running" and rebuild the engine from the
        store next time (its next turn heals any call left without a result)."""
        self.forget(session_id)
        try:
            info = self.store.get_session(session_id)
            if info is not None and info.status == "running":
                self.store.update_session(session_id, status="error")
        except Exception:
            log.exception("could not mark session %s as stopped", session_id)

    async def _prepare(self, model: str) -> None:
        """Before the turn writes anything: resolve its provider in a worker (key
        read, SDK import, client build), so the engine's resolve on the loop is
        quick, and meanwhile await :attr:`ready` (the secrets redaction needs). A
        provider failure is left to the engine's call, which reports it as the
        turn's error; a failing ``ready`` leaves the blocking path to the engine."""
        steps: list[Awaitable[object]] = []
        prepare = getattr(self.resolver, "resolve_async", None)
        if prepare is not None and model:
            steps.append(prepare(model))
        if self.ready is not None:
            steps.append(self.ready())
        if not steps:
            return
        for outcome in await asyncio.gather(*steps, return_exceptions=True):
            if isinstance(outcome, BaseException):
                if not isinstance(outcome, Exception):
                    raise outcome
                log.debug("preparing the turn on %s failed (the turn reports it)", model,
                          exc_info=outcome)

    async def run(self, session_id: str, text: str | list[dict[str, object]]) -> AsyncIterator[ev.Event]:
        """Run one turn and yield its events (also published to listeners)."""
        async for event in self._drive(session_id, lambda engine: engine.run(text)):
            yield event

    async def retry(self, session_id: str) -> AsyncIterator[ev.Event]:
        async for event in self._drive(session_id, lambda engine: engine.retry()):
            yield event

    async def resume(self, session_id: str) -> AsyncIterator[ev.Event]:
        async for event in self._drive(session_id, lambda engine: engine.resume()):
            yield event

    def send(self, session_id: str, text: str | list[dict[str, object]]) -> asyncio.Task[ev.TurnStatus | None] | None:
        """Start a turn in the background, or steer the running one.

        Returns the task of a new turn, or ``None`` when the text became steering.
        """
        if self.is_running(session_id):
            self.engine(session_id).queue_steering(text)
            return None
        return self._spawn(session_id, self.run(session_id, text))

    def start_retry(self, session_id: str) -> asyncio.Task[ev.TurnStatus | None] | None:
        if self.is_running(session_id):
            return None
        return self._spawn(session_id, self.retry(session_id))

    def start_resume(self, session_id: str) -> asyncio.Task[ev.TurnStatus | None] | None:
        """Resume in the background, unless the turn is running here or elsewhere
        (its driver continues it)."""
        if self.is_running(session_id) or self.holder(session_id) is not None:
            return None
        return self._spawn(session_id, self.resume(session_id))

    def _spawn(
        self, session_id: str, stream: AsyncIterator[ev.Event]
    ) -> asyncio.Task[ev.TurnStatus | None]:
        async def consume() -> ev.TurnStatus | None:
            status: ev.TurnStatus | None = None
            try:
                async for event in stream:
                    if isinstance(event, ev.TurnEnded):
                        status = event.status
            except SessionBusy as busy:  # nothing was written: just say why
                self._publish(ev.ErrorOccurred(
                    session_id=session_id, message=str(busy), kind="busy", retryable=False,
                ))
            return status

        task = asyncio.create_task(consume(), name=f"turn:{session_id}")
        self._tasks[session_id] = task
        self._set_running(session_id, True)
        task.add_done_callback(lambda t: self._turn_done(session_id, t))
        return task

    def _turn_done(self, session_id: str, task: asyncio.Task[ev.TurnStatus | None]) -> None:
        """Every spawned turn's last word: a task that died is logged, its session
        marked stopped, and surfaces told the turn is over (nothing else would).
        The finished task is dropped and idle engines beyond :attr:`max_live` released."""
        current = self._tasks.get(session_id) is task
        if current:
            del self._tasks[session_id]
        try:
            if task.cancelled():
                return  # quitting: a parked turn stays "running" in the store for recover()
            exc = task.exception()
            if exc is None:
                return
            log.error("the turn of session %s died", session_id, exc_info=exc)
            self._mark_failed(session_id)
            self._publish(ev.ErrorOccurred(
                session_id=session_id, kind="internal", retryable=True,
                message="Something went wrong inside OpenWorker, so this turn was stopped. "
                "The details are in the log.",
            ))
            self._publish(ev.TurnEnded(session_id=session_id, status="error", iterations=0))
        finally:
            if current:
                self._set_running(session_id, False)
            self._evict()

    def resumable(self) -> list[SessionInfo]:
        """Sessions a previous process left mid-turn (crashed, killed or parked)."""
        out = []
        elsewhere = self.leases.busy_elsewhere()
        for info in self.store.sessions_with_status(("running", "suspended")):
            if not self.is_running(info.id) and info.id not in elsewhere:
                out.append(info)
        return out

    def recover(self) -> list[asyncio.Task[ev.TurnStatus | None]]:
        """At start-up: resume every turn that was waiting on tool calls, and close
        turns that died mid-stream with a visible notice (so Retry is offered)."""
        tasks = []
        for info in self.resumable():
            try:
                if pending_tool_calls(self.store.load(info.id)):
                    task = self.start_resume(info.id)
                    if task is not None:
                        tasks.append(task)
                else:
                    self.close_cut_off_turn(info.id)
            except Exception:  # one broken session must not keep the others stuck
                log.exception("could not recover session %s", info.id)
        return tasks

    def close_cut_off_turn(self, session_id: str) -> None:
        """A turn died mid-stream with nothing to resume: say so, offer Retry.

        Raises :class:`SessionBusy` if another live process is driving it after all.
        """
        self.leases.acquire(session_id)
        try:
            self._close_turn(session_id)
        finally:
            self.leases.release(session_id)

    def _close_if_cut_off(self, session_id: str) -> None:
        """Before a new turn (we hold the lease): a turn that a dead process or window
        left "running" with no call to resume is closed as :meth:`recover` would, so
        the transcript says it stopped and the session leaves "running". (A turn left
        waiting on calls is resumed, or healed by the engine, instead.)"""
        engine = self._engines.get(session_id)
        if engine is not None and engine.running:
            return  # ours, and alive
        info = self.store.get_session(session_id)
        if info is None or info.status != "running":
            return
        if not pending_tool_calls(self.store.load(session_id)):
            self._close_turn(session_id)

    def _close_turn(self, session_id: str) -> None:
        self.store.append(
            session_id,
            notice("error", "The app stopped while this turn was running.",
                   error_kind="restart"),
        )
        self.store.update_session(session_id, status="idle")
        self.forget(session_id)

    def stop(self, session_id: str) -> None:
        """Stop the session's turn, whichever manager of the process drives it."""
        drivers = [m for m in self.peers if m is not self and m.is_running(session_id)]
        for manager in [self, *drivers]:
            manager._interrupt(session_id)

    def _interrupt(self, session_id: str) -> None:
        engine = self._engines.get(session_id)
        if engine is not None:
            engine.request_interrupt()
        if self.is_running(session_id) and (engine is None or not engine.running):
            self._stop_asked.add(session_id)  # asked for, not begun: it stops as it begins

    def take_steering(self, session_id: str) -> list[str | list[dict[str, object]]]:
        """Steering queued for the session's turn and not taken in yet, removed
        (a stop offers it back; an ended turn never delivers it into the next)."""
        engine = self._engines.get(session_id)
        return [] if engine is None else list(engine.take_steering())

    def switch_model(self, session_id: str, model: str) -> None:
        """Use ``model`` for the session's next calls, marked by a notice in its history.

        A session without a live engine is not given one here: building it reads the
        whole stored history (seconds at 100,000 messages) on the caller's thread, the
        window's. The stored model changes now; the notice is stored when the engine
        is next built (in a worker, by the next turn), before that turn's message."""
        engine = self._engines.get(session_id)
        if engine is None:
            info = self.store.get_session(session_id)
            if info is None:
                raise KeyError(f"no session {session_id!r}")
            if info.model and info.model != model:
                self._switched_from.setdefault(session_id, info.model)
            self.store.update_session(session_id, model=model)
            return
        marker = engine.switch_model(model)
        self.store.update_session(session_id, model=model)
        self._announce_switch(session_id, marker)

    def _announce_switch(self, session_id: str, marker: NoticeMessage | None) -> None:
        if marker is not None:
            self._publish(
                ev.NoticeAdded(session_id=session_id, kind="model_switch", text=str(marker["text"]))
            )

    async def shutdown(self, grace: float = 5.0) -> None:
        """Wind down every running turn (bounded) before the app quits.

        A turn waiting for the user, running its tool calls, or of an unattended
        session (a scheduled run) is *suspended*, as a crash would leave it: its
        task is cancelled, so an ask stays pending in the inbox, a call that had
        started stays without a result, and the turn resumes at the next start
        (asking before it runs a call again that had started). An attended turn
        streaming its answer is stopped like the Stop button would (partial text
        kept).
        """
        self.closing = True
        for sid, task in list(self._tasks.items()):
            if task.done():
                continue
            engine = self._engines.get(sid)
            if (engine is not None and engine.running_tools) or self._unattended(sid):
                task.cancel()
            else:
                self._interrupt(sid)
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), grace)

    def _unattended(self, session_id: str) -> bool:
        try:
            info = self.store.get_session(session_id)
        except Exception:  # (the turn is then stopped as before)
            log.exception("could not read session %s", session_id)
            return False
        return bool(info is not None and info.unattended)
