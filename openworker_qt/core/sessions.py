"""SessionManager: builds a TurnEngine per session and owns its lifecycle.

Surfaces (window, tray, CLI, Slack, scheduler) never construct engines; they ask
the manager to run, steer, stop, retry or switch the model of a session. Every
event of every session is also published to the manager's listeners, which is
how the Qt bridge, notifications and the tray learn what happens in sessions
they did not start.

Per-session collaborators come from factories so personas, the permission
engine and the inbox can plug in without the manager knowing them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import Approver, Decider, Questioner
from openworker_qt.core.audit import AuditSink
from openworker_qt.core.engine import TurnEngine
from openworker_qt.core.messages import notice, pending_tool_calls
from openworker_qt.providers.base import ProviderResolver
from openworker_qt.storage.conversations import ConversationStore, SessionInfo
from openworker_qt.tools.base import ToolRegistry

log = logging.getLogger(__name__)

Listener = Callable[[ev.Event], None]


class SessionControl:
    """What tools may change about their own session (mode, granted folders)."""

    def __init__(self, store: ConversationStore, session_id: str) -> None:
        self.store = store
        self.session_id = session_id

    def set_mode(self, mode: str) -> None:
        self.store.update_session(self.session_id, mode=mode)

    def grant_directory(self, path: str, writable: bool) -> None:
        info = self.store.get_session(self.session_id)
        if info is None:
            return
        meta = dict(info.meta)
        roots = [r for r in meta.get("granted_roots", []) if r.get("path") != path]
        roots.append({"path": path, "writable": bool(writable)})
        meta["granted_roots"] = roots
        self.store.update_session(self.session_id, meta=meta)


    def revoke_directory(self, path: str) -> bool:
        """Take a granted folder back; True if it was granted."""
        info = self.store.get_session(self.session_id)
        if info is None:
            return False
        meta = dict(info.meta)
        roots = meta.get("granted_roots", [])
        kept = [r for r in roots if r.get("path") != path]
        if len(kept) == len(roots):
            return False
        meta["granted_roots"] = kept
        self.store.update_session(self.session_id, meta=meta)
        return True


def granted_roots(info: SessionInfo, *, writable_only: bool = True) -> list[str]:
    roots = info.meta.get("granted_roots", []) if isinstance(info.meta, dict) else []
    return [
        str(r["path"]) for r in roots
        if isinstance(r, dict) and r.get("path") and (r.get("writable") or not writable_only)
    ]


class SessionManager:
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
        default_model: str = "",
        max_iterations: int = 25,
        audit: AuditSink | None = None,
        redact: Callable[[str], str] | None = None,
    ) -> None:
        self.store = store
        self.resolver = resolver
        self.tools_for = tools_for
        self.decider_for = decider_for
        self.approver_for = approver_for or (lambda _s: None)
        self.questioner_for = questioner_for or (lambda _s: None)
        self.system_prompt_for = system_prompt_for or (lambda _s: "")
        self.default_model = default_model
        self.max_iterations = max_iterations
        self.audit = audit
        self.redact = redact
        self.listeners: list[Listener] = []
        self._engines: dict[str, TurnEngine] = {}
        self._tasks: dict[str, asyncio.Task[ev.TurnStatus | None]] = {}

    # sessions -------------------------------------------------------------------

    def create_session(self, **fields: object) -> SessionInfo:
        fields.setdefault("model", self.default_model)
        return self.store.create_session(**fields)  # type: ignore[arg-type]

    def engine(self, session_id: str) -> TurnEngine:
        engine = self._engines.get(session_id)
        if engine is None:
            info = self.store.get_session(session_id)
            if info is None:
                raise KeyError(f"no session {session_id!r}")
            engine = TurnEngine(
                session_id=session_id,
                store=self.store,
                resolver=self.resolver,
                model=info.model or self.default_model,
                tools=self.tools_for(info),
                decider=self.decider_for(info) if self.decider_for else None,
                approver=self.approver_for(info),
                questioner=self.questioner_for(info),
                workspace=Path(info.workspace) if info.workspace else None,
                system_prompt=self.system_prompt_for(info),
                max_iterations=self.max_iterations,
                audit=self.audit,
                redact=self.redact,
            )
            engine.tool_state["session"] = SessionControl(self.store, session_id)
            self._engines[session_id] = engine
        return engine

    def forget(self, session_id: str) -> None:
        """Drop the cached engine (it is rebuilt from the store on next use)."""
        self._engines.pop(session_id, None)

    def is_running(self, session_id: str) -> bool:
        task = self._tasks.get(session_id)
        return task is not None and not task.done()

    # turns ----------------------------------------------------------------------

    def _publish(self, event: ev.Event) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:  # a broken surface must not break the turn
                log.exception("session listener failed on %s", event.type)

    async def _drive(
        self, session_id: str, stream: AsyncIterator[ev.Event]
    ) -> AsyncIterator[ev.Event]:
        self.store.update_session(session_id, status="running")
        async for event in stream:
            if isinstance(event, ev.TurnEnded):
                # Only a turn that really ended leaves "running"; one cut off by a
                # crash or a cancelled task stays "running" so recover() finds it.
                status = {"completed": "idle", "max_iterations": "idle"}.get(
                    event.status, event.status
                )
                self.store.update_session(session_id, status=status)
            self._publish(event)
            yield event
            if isinstance(event, ev.TurnStarted):
                await self._prepare(event.model)

    async def _prepare(self, model: str) -> None:
        """Before the turn's first model call: resolve its provider in a worker (key
        read, SDK import, client build), so the engine's resolve on the loop is quick.
        A failure is left to the engine's call, which reports it as the turn's error."""
        prepare = getattr(self.resolver, "resolve_async", None)
        if prepare is None or not model:
            return
        try:
            await prepare(model)
        except Exception:
            log.debug("preparing %s failed (the turn reports it)", model, exc_info=True)

    async def run(self, session_id: str, text: str | list[dict[str, object]]) -> AsyncIterator[ev.Event]:
        """Run one turn and yield its events (also published to listeners)."""
        async for event in self._drive(session_id, self.engine(session_id).run(text)):
            yield event

    async def retry(self, session_id: str) -> AsyncIterator[ev.Event]:
        async for event in self._drive(session_id, self.engine(session_id).retry()):
            yield event

    async def resume(self, session_id: str) -> AsyncIterator[ev.Event]:
        async for event in self._drive(session_id, self.engine(session_id).resume()):
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
        if self.is_running(session_id):
            return None
        return self._spawn(session_id, self.resume(session_id))

    def _spawn(
        self, session_id: str, stream: AsyncIterator[ev.Event]
    ) -> asyncio.Task[ev.TurnStatus | None]:
        async def consume() -> ev.TurnStatus | None:
            status: ev.TurnStatus | None = None
            async for event in stream:
                if isinstance(event, ev.TurnEnded):
                    status = event.status
            return status

        task = asyncio.create_task(consume(), name=f"turn:{session_id}")
        self._tasks[session_id] = task
        return task

    def resumable(self) -> list[SessionInfo]:
        """Sessions a previous process left mid-turn (crashed, killed or parked)."""
        out = []
        for info in self.store.list_sessions(limit=10_000):
            if info.status in ("running", "suspended") and not self.is_running(info.id):
                out.append(info)
        return out

    def recover(self) -> list[asyncio.Task[ev.TurnStatus | None]]:
        """At start-up: resume every turn that was waiting on tool calls, and close
        turns that died mid-stream with a visible notice (so Retry is offered)."""
        tasks = []
        for info in self.resumable():
            if pending_tool_calls(self.store.load(info.id)):
                task = self.start_resume(info.id)
                if task is not None:
                    tasks.append(task)
            else:
                self.close_cut_off_turn(info.id)
        return tasks

    def close_cut_off_turn(self, session_id: str) -> None:
        """A turn died mid-stream with nothing to resume: say so, offer Retry."""
        self.store.append(
            session_id,
            notice("error", "The app stopped while this turn was running.", error_kind="restart"),
        )
        self.store.update_session(session_id, status="idle")
        self.forget(session_id)

    def stop(self, session_id: str) -> None:
        engine = self._engines.get(session_id)
        if engine is not None:
            engine.request_interrupt()

    def switch_model(self, session_id: str, model: str) -> None:
        engine = self.engine(session_id)
        marker = engine.switch_model(model)
        self.store.update_session(session_id, model=model)
        if marker is not None:
            self._publish(
                ev.NoticeAdded(session_id=session_id, kind="model_switch", text=str(marker["text"]))
            )

    async def shutdown(self, grace: float = 5.0) -> None:
        """Wind down every running turn (bounded) before the app quits.

        A turn waiting for the user is *not* stopped: its task is cancelled, so its
        ask stays pending in the inbox and the turn resumes at the next start.
        Every other turn is stopped like the Stop button would (partial text kept).
        """
        for sid, task in list(self._tasks.items()):
            if task.done():
                continue
            engine = self._engines.get(sid)
            if engine is not None and engine.waiting_for_user:
                task.cancel()
            else:
                self.stop(sid)
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), grace)
