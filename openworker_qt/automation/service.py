"""Automations at work: the scheduler, the runs as sessions, their recovery.

:class:`AutomationService` is the one :class:`~openworker_qt.runtime.LifecycleService`
the window and ``serve`` add to their runtime. It owns:

* the :class:`~openworker_qt.automation.store.AutomationStore`;
* a session manager of its own whose sessions are *unattended*: every approval
  and question parks in the inbox (:class:`InboxApprover` with ``wait=True``)
  and the turn waits there — in a task of its own, so nothing else waits;
* the :class:`~openworker_qt.automation.scheduler.Scheduler`, which spawns
  :meth:`execute` for each due run.

Each run is a session (``__run__<run id>``, meta ``automation_id`` and
``automation_run``) with the automation's model, persona and folder; the
permission engine applies the automation's task-scoped standing rules to it.
The run's status follows its session's events, whichever manager drives it
(after a restart the window's own recovery may resume it): ``running``,
``waiting`` (for you, in the inbox), ``completed``, ``failed``. Its
deliverables are the files its tools wrote.

At start, runs a previous process left going are resumed (the session lease
makes sure only one process does it); a run whose process stopped before its
session began (queued) is started now. At most ``automation.max_concurrent_runs``
scheduled runs work at once (:data:`MAX_RUNNING`); the others wait, in due
order. No Qt here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from openworker_qt.automation.scheduler import Scheduler
from openworker_qt.automation.store import (
    Automation,
    AutomationStore,
    Run,
    RunStatus,
)
from openworker_qt.automation.wakes import Wake, WakeStore
from openworker_qt.core import events as ev
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.messages import pending_tool_calls
from openworker_qt.core.peers import Peers
from openworker_qt.core.sessions import SessionBusy, SessionManager
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.storage.leases import pid_alive

if TYPE_CHECKING:
    from openworker_qt.automation.keepawake import KeepAwake
    from openworker_qt.core.inbox import Inbox
    from openworker_qt.core.standing_rules import StandingRuleStore
    from openworker_qt.storage.conversations import ConversationStore
    from openworker_qt.storage.db import Database


class Runtime(Protocol):
    """What the service uses of :class:`openworker_qt.runtime.Runtime` (which it may
    not import: the runtime sits above the plug-ins)."""

    db: Database
    rules: StandingRuleStore
    inbox: Inbox
    conversations: ConversationStore
    workspace: Path | None
    managers: Peers

    @property
    def session_manager(self) -> Callable[..., SessionManager]: ...

log = logging.getLogger(__name__)

__all__ = ["AutomationService", "RunListener", "run_prompt", "run_session_id"]

RunListener = Callable[[Run, Automation | None], None]

#: Tools whose ``path`` argument names a file the run produced.
WRITING_TOOLS = frozenset({"write_file", "create_deliverable", "replace_in_file"})
ASKS = (ev.PermissionRequired, ev.QuestionRequested, ev.PlanRequested, ev.DirectoryRequested)
#: Scheduled runs working at once unless ``automation.max_concurrent_runs`` says otherwise
#: (the others are queued, in due order; a run waiting for you takes no place).
MAX_RUNNING = 3


def _owner_alive(owner: str | None, ours: str) -> bool:
    """Whether the process that claimed a run (``pid@host:…``, see storage/leases.py)
    is another one still running on this computer (then it starts the run)."""
    if not owner or owner == ours:
        return False
    pid, _, rest = owner.partition("@")
    host = rest.split(":", 1)[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return owner.rsplit(".", 1)[0] == ours.rsplit(".", 1)[0]  # another owner of ours
    return pid_alive(int(pid))


def run_session_id(run_id: int) -> str:
    return f"__run__{run_id}"


def run_prompt(auto: Automation) -> str:
    """The run's first message: the instructions verbatim, then what a run may not do."""
    return (
        f"{auto.prompt}\n\n"
        f"(This is the scheduled task “{auto.name}”, running on its own while nobody "
        "watches: anything that needs a person waits in their inbox. Do not create or "
        "modify any scheduled tasks.)"
    )


class AutomationService:
    """Scheduler + runs (see module docstring)."""

    name = "automations"

    def __init__(
        self,
        runtime: Runtime,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        interval: float | None = None,
        poll: float | None = None,
        keep_awake: KeepAwake | None = None,
        default_model: str | None = None,
    ) -> None:
        self.runtime = runtime
        self.clock = clock
        self._default_model = default_model or ""
        self.store = AutomationStore(runtime.db, rules=runtime.rules, clock=clock)
        self.wakes = WakeStore(runtime.db, clock=clock)
        self._started_at = clock()
        inbox = runtime.inbox
        questioner = InboxQuestioner(inbox, wait=True)

        def approver_for(info: SessionInfo) -> InboxApprover:
            task = info.meta.get("automation_id") if isinstance(info.meta, dict) else None
            return InboxApprover(inbox, wait=True, task_id=str(task) if task else None)

        # The tools are the runtime's, as every surface's (runtime.session_tools):
        # a run's session is offered them without the scheduling tools.
        self.manager: SessionManager = runtime.session_manager(
            approver_for=approver_for, questioner_for=lambda _info: questioner,
            default_model=default_model,
        )
        # Whoever drives a run's session (this manager, the window's recovery, the
        # CLI's resume), its events reach us once: the process's managers, watched.
        runtime.managers.watch(self.on_event)
        self.keep_awake = keep_awake
        if keep_awake is not None:
            runtime.managers.watch(keep_awake.on_event)
        kw: dict[str, Any] = {}
        if interval is not None:
            kw["interval"] = interval
        if poll is not None:
            kw["poll"] = poll
        #: Runs of this process parked on the user (they take no place under the cap).
        self._parked: set[int] = set()
        self.scheduler = Scheduler(
            self.store, self.execute, owner=self.manager.leases.owner, clock=clock,
            monotonic=monotonic, still_going=self._still_going, also=self.wake_due,
            max_running=self._max_running, parked=self._parked.__contains__, **kw,
        )
        #: Told about every run whose status changed (notifications, the UI).
        self.listeners: list[RunListener] = []
        #: session id → run id of the runs followed by this process.
        self._sessions: dict[str, int] = {}
        self._calls: dict[str, str] = {}  # call id → path, for the writing tools
        self._recovery: list[asyncio.Task[Any]] = []
        self._wake_tasks: set[asyncio.Task[None]] = set()

    def _max_running(self) -> int:
        config = getattr(self.runtime, "config", None)
        value = config.get("automation.max_concurrent_runs", MAX_RUNNING) if config else None
        return int(value) if isinstance(value, int) and value > 0 else MAX_RUNNING

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        for run in await asyncio.to_thread(self.store.active_runs):
            if run.session_id:
                self._sessions[run.session_id] = run.id
        self.recover()
        await self.scheduler.start()

    async def stop(self) -> None:
        await self.scheduler.stop()

    def follow(self, manager: SessionManager) -> None:
        """Keep the runs' statuses as ``manager`` drives their sessions, without the
        scheduler (the CLI's ``resume``, ``retry`` and ``run --session``): a run
        finished there is finished here, not left waiting until the next start."""
        if manager.peers is not self.runtime.managers and self.on_event not in manager.listeners:
            manager.listeners.append(self.on_event)  # (the runtime's managers are watched)
        for run in self.store.active_runs():
            if run.session_id:
                self._sessions[run.session_id] = run.id

    # ------------------------------------------------------------------ runs

    def run_now(self, automation_id: str) -> asyncio.Task[object]:
        """"Run now": a manual run, whatever the schedule (and even when paused)."""
        auto = self.store.get(automation_id)
        if auto is None:
            raise KeyError(f"no automation {automation_id!r}")
        run = self.store.start_manual(automation_id, owner=self.manager.leases.owner)
        return self.scheduler.spawn(run, auto)

    def _still_going(self, run: Run) -> bool:
        """A previous run is still going while it waits for you, or another live
        process (or window) drives its session."""
        if run.status == "waiting":
            return True
        if run.session_id and self.manager.holder(run.session_id) is not None:
            return True
        return run.session_id in self._sessions and self.manager.is_running(run.session_id)

    async def execute(self, run: Run, auto: Automation) -> None:
        """One run: its session, its turn (awaited here, in the run's own task)."""
        if self.manager.closing:
            return  # the app is stopping: it starts at the next start (see recover)
        config = getattr(self.runtime, "config", None)  # the default may change meanwhile
        model = auto.model or self._default_model or (
            str(config.get("general.default_model") or "") if config is not None else ""
        ) or self.manager.default_model
        if not model:
            self._finish(run.id, "failed", "no model chosen: set one on the automation or a "
                         "default model in Settings")
            return
        workspace = auto.workspace or str(self.runtime.workspace or Path.home())
        leads_team = getattr(self.runtime, "leads_team", None)
        if leads_team is not None and leads_team(auto.persona):
            await self._team_run(run, auto, model, workspace)
            return
        try:
            info = self.manager.create_session(
                title=f"{auto.name} · run {run.id}", model=model, persona=auto.persona,
                workspace=workspace, unattended=True, session_id=run_session_id(run.id),
                meta={"automation_id": auto.id, "automation_run": run.id},
            )
            self.store.set_session(run.id, info.id)
            self._sessions[info.id] = run.id
        except Exception as exc:
            log.exception("automation %s: the run could not start", auto.name)
            self._finish(run.id, "failed", f"the run could not start: {exc}")
            return
        await self._await_turn(run.id, info.id, self.manager.send(info.id, run_prompt(auto)))

    async def _team_run(self, run: Run, auto: Automation, model: str, workspace: str) -> None:
        """An automation whose persona leads a team: each run is a team run (the
        runtime's team runner drives it; the run's session is the lead's)."""

        def started(_team_id: str, lead_session_id: str) -> None:
            self.store.set_session(run.id, lead_session_id)

        try:
            state = await self.runtime.run_team(  # type: ignore[attr-defined]
                run_prompt(auto), persona=auto.persona, workspace=workspace, model=model,
                started=started)
        except Exception as exc:
            log.exception("automation %s: the team run failed", auto.name)
            self._finish(run.id, "failed", f"the team could not run: {exc}")
            return
        self._finish(run.id, "completed" if state == "done" else "failed",
                     None if state == "done" else f"the team ended {state}")

    async def _await_turn(
        self, run_id: int | None, session_id: str, task: asyncio.Task[Any] | None
    ) -> None:
        """Wait for a turn the manager spawned (so it knows the session is busy:
        its recover() and the wakes leave it alone). Its events tell the run's
        status; a turn that could not start while nobody else drives the session
        is a failed run."""
        if task is None:
            return
        outcome = (await asyncio.gather(task, return_exceptions=True))[0]
        if isinstance(outcome, asyncio.CancelledError):
            return  # quitting: the run resumes at the next start
        if outcome is None and run_id is not None and not self._driven_elsewhere(session_id):
            self._finish(run_id, "failed", "the run could not start its turn")

    def _driven_elsewhere(self, session_id: str) -> bool:
        """Another manager here (the window's recovery) or another live process
        drives the session: its events will tell how the run ends."""
        if self.manager.holder(session_id) is not None:
            return True
        return any(m is not self.manager and m.is_running(session_id)
                   for m in self.runtime.managers)

    # -------------------------------------------------------------- recovery

    def recover(self) -> list[asyncio.Task[Any]]:
        """Resume the runs a previous process left going (see module docstring)."""
        tasks: list[asyncio.Task[Any]] = []
        queued = {run.id for run, _auto in self.scheduler.queue}
        for run in self.store.active_runs():
            if run.id in self.scheduler.active or run.id in queued:
                continue
            sid = run.session_id
            if not sid:
                if _owner_alive(run.owner, self.manager.leases.owner):
                    continue  # claimed by another live process: queued there
                auto = self.store.get(run.automation_id)
                if auto is None or self.runtime.conversations.get_session(
                        run_session_id(run.id)) is not None:
                    self._finish(run.id, "failed", "the app stopped before this run began")
                else:  # it never began (queued when the app stopped): it goes now
                    self.scheduler.queue.append((run, auto))
                continue
            info = self.runtime.conversations.get_session(sid)
            if info is None:
                self._finish(run.id, "failed", "its session was deleted")
                continue
            team_id = info.meta.get("team_id") if isinstance(info.meta, dict) else None
            wait_team = getattr(self.runtime, "wait_team", None)
            if team_id and wait_team is not None:  # a team run: its runner resumes the team
                tasks.append(asyncio.ensure_future(self._team_ended(run.id, str(team_id))))
                continue
            if self.manager.holder(sid) is not None or self.manager.is_running(sid):
                continue  # another live process or window drives it
            asleep = self.wakes.pending(sid)
            if info.status == "idle" and asleep:
                # It put itself to sleep: it goes on when its wake fires (wake_due).
                self._sessions[sid] = run.id
                self._asleep(run.id, asleep[0])
                continue
            if info.status in ("running", "suspended") and pending_tool_calls(
                    self.runtime.conversations.load(sid)):
                # Through the manager, so it knows the turn is running (its own
                # recover() and a wake skip it: one driver, one run of each call).
                task = self.manager.start_resume(sid)
                if task is not None:
                    self._follow(run.id, task)
                    tasks.append(task)
            elif info.status == "running":
                # Cut off while the model was answering (nothing of the answer was
                # kept, no call was left open): the transcript says the app stopped,
                # and the model is asked again, as Retry would.
                task = None
                with contextlib.suppress(SessionBusy):
                    self.manager.close_cut_off_turn(sid)
                    task = self.manager.start_retry(sid)
                if task is not None:
                    self._follow(run.id, task)
                    tasks.append(task)
                else:
                    self._finish(run.id, "failed", "the app stopped while this run was going")
            elif info.status == "idle":
                self._finish(run.id, "completed", None)
            else:
                self._finish(run.id, "failed", None)
        self._recovery = tasks
        self.scheduler.drain()
        return tasks

    async def _team_ended(self, run_id: int, team_id: str) -> None:
        state = await self.runtime.wait_team(team_id)  # type: ignore[attr-defined]
        self._finish(run_id, "completed" if state == "done" else "failed",
                     None if state == "done" else f"the team ended {state}")

    # ----------------------------------------------------------------- wakes

    def fire_event(self, key: str) -> int:
        """An event happened (a connector, the CLI): wakes waiting on it are due at
        the next tick."""
        return self.wakes.fire_event(key)

    async def wake_due(self, now: float) -> list[Wake]:
        """Resume every session whose wake is due (spawned, never awaited)."""
        due = await asyncio.to_thread(self._due_wakes, now)
        woken = []
        for wake in due:
            sid = wake.session_id
            if self.manager.is_running(sid) or self.manager.holder(sid) is not None:
                continue  # busy: the next tick tries again
            if not await asyncio.to_thread(self.wakes.mark_fired, wake.id):
                continue  # another process fired it
            woken.append(wake)
            note = f" Your note: {wake.note}" if wake.note else ""
            text = f"(Woken up: {wake.described}.{note})"
            run_id = self._sessions.get(sid)
            if run_id is None:
                run = self.store.run_for_session(sid)
                if run is not None and run.status in ("running", "waiting"):
                    run_id = run.id
                    self._sessions[sid] = run_id
            task = asyncio.create_task(self._await_turn(run_id, sid, self.manager.send(sid, text)),
                                       name=f"wake:{sid}")
            self._wake_tasks.add(task)
            task.add_done_callback(self._wake_tasks.discard)
        return woken

    def _due_wakes(self, now: float) -> list[Wake]:
        # A job wake left by a previous process: its task died with it.
        for wake in self.wakes.pending():
            if (wake.kind == "job" and wake.created_at < self._started_at
                    and wake.status == "pending"
                    and self.manager.leases.holder(wake.session_id) is None):
                self.wakes.complete_job(wake.session_id, wake.job_id or "")
        return self.wakes.due(now)

    def _follow(self, run_id: int, task: asyncio.Task[Any]) -> None:
        active: dict[int, Any] = self.scheduler.active
        active[run_id] = task
        task.add_done_callback(lambda _t: active.pop(run_id, None))

    # ---------------------------------------------------------------- events

    def on_event(self, event: ev.Event) -> None:
        """Follow a run's session: waiting, running again, finished."""
        run_id = self._sessions.get(event.session_id)
        if run_id is None:
            return
        if isinstance(event, ev.ToolProposed) and event.name in WRITING_TOOLS:
            path = event.arguments.get("path") if isinstance(event.arguments, dict) else None
            if isinstance(path, str) and path:
                self._calls[event.call_id] = path
        elif isinstance(event, ev.ToolFinished):
            path = self._calls.pop(event.call_id, None)
            if path and event.status == "ok":
                try:
                    self.store.add_deliverable(run_id, path)
                except Exception:
                    log.exception("could not record a deliverable of run %s", run_id)
        if isinstance(event, ASKS):
            self._set(run_id, "waiting")
        elif isinstance(event, ev.ToolStarted | ev.TurnStarted):
            current = self.store.run(run_id)
            # Going again (answered, woken): "waiting" and "asleep until …" are over.
            if current is not None and (current.status == "waiting" or current.note):
                self._set(run_id, "running")
        elif isinstance(event, ev.TurnEnded):
            if event.status in ("completed", "max_iterations"):
                asleep = self.wakes.pending(event.session_id)
                if asleep:  # it suspended itself: the run goes on when it is woken
                    self._asleep(run_id, asleep[0])
                else:
                    self._finish(run_id, "completed", None)
            elif event.status == "suspended":
                self._set(run_id, "waiting")
            elif event.status == "interrupted":
                self._finish(run_id, "failed", "stopped")
            else:
                self._finish(run_id, "failed", "the turn failed; its session tells why")

    def _asleep(self, run_id: int, wake: Wake) -> None:
        try:
            self.store.set_status(run_id, "running", note=f"asleep until {wake.described_when}")
        except Exception:
            log.exception("could not record the status of run %s", run_id)
            return
        self._tell(run_id)

    def _set(self, run_id: int, status: RunStatus) -> None:
        """A run going on (running, waiting for you): its note said how it was before."""
        try:
            self.store.set_status(run_id, status, note="")
        except Exception:
            log.exception("could not record the status of run %s", run_id)
            return
        if status == "waiting":  # parked on the user: its place goes to a queued run
            self._parked.add(run_id)
            self.scheduler.drain()
        else:
            self._parked.discard(run_id)
        self._tell(run_id)

    def _finish(self, run_id: int, status: RunStatus, note: str | None) -> None:
        try:
            current = self.store.run(run_id)
            if current is not None and current.status in ("completed", "failed", "skipped"):
                return  # already final (told once)
            self.store.set_status(run_id, status, note=note)
        except Exception:
            log.exception("could not record the end of run %s", run_id)
            return
        for sid, rid in list(self._sessions.items()):
            if rid == run_id:
                del self._sessions[sid]
        self._parked.discard(run_id)
        self._tell(run_id)

    def _tell(self, run_id: int) -> None:
        run = self.store.run(run_id)
        if run is None:
            return
        auto = self.store.get(run.automation_id)
        for listener in list(self.listeners):
            try:
                listener(run, auto)
            except Exception:
                log.exception("an automation listener failed")
