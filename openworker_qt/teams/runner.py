"""The team runner: drives a team's lead and workers from its board.

:class:`TeamRunner` owns no state of its own that matters: everything it decides
is derived from the board (the team store), the inbox and the sessions, so after
a kill at any point :meth:`TeamRunner.resume` picks the team up where it was
(docs/durability.md, "Teams"):

* ``start`` creates the team and its lead session (meta ``team_id``,
  ``team_role: lead``) and asks the lead for a plan; the lead proposes it with
  ``team_plan`` (teams/plan_answer.py): one inbox item of kind ``plan``.
* Once the plan is accepted, each assigned open item whose ``after`` items are
  done gets a worker session (id ``tw-<team>-<item>``: one per item, ever;
  recorded on the board as ``item_session`` with an idempotency key), with its
  persona, its own mode and none of the lead's grants. At most ``max_parallel``
  worker turns run at once.
* A worker's final answer is its result: the item goes to review and the lead
  is told (the result quoted as data). The lead accepts it (done) or sends it
  back (in progress, with a comment): the worker is woken with the comment. The
  user acting on the board (``store.act(USER, …)``) is told to the lead.
* When every item is done or canceled the team is ``assembling``: the lead's
  final answer is the deliverable, and the team ends with a ``summary`` event.
* After each model call the session's cost is recorded as ``spend``; a worker
  past its item's budget is stopped and asks (an inbox question); the team goes
  ``over_budget`` past the team's budget.
* A worker with no event for ``stuck_after`` seconds is flagged ``item_stuck``;
  the lead's check-in is a ``check_in`` event with its time, acted on by the
  runner's timer (visible on the board).

The sessions are driven by one :class:`~openworker_qt.core.sessions.SessionManager`
(the runtime builds it with the team's labelled inbox approvers), so the
single-owner rule holds: the manager starts, parks, resumes and stops them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.inbox import Inbox, InboxItem
from openworker_qt.core.messages import pending_tool_calls
from openworker_qt.core.sessions import SessionBusy, SessionManager
from openworker_qt.providers.pricing import PriceTable
from openworker_qt.storage.conversations import SessionInfo
from openworker_qt.teams import briefs
from openworker_qt.teams.model import (
    LEAD,
    SYSTEM,
    USER,
    Actor,
    BoardError,
    BoardEvent,
    Item,
    ItemState,
    Team,
    TeamState,
)
from openworker_qt.teams.session_tools import team_meta
from openworker_qt.teams.spend import SpendMeter
from openworker_qt.teams.store import TeamStore

__all__ = ["TeamRunner", "worker_session_id"]

log = logging.getLogger(__name__)

ACTIVE = frozenset({TeamState.PLANNING, TeamState.AWAITING_PLAN, TeamState.RUNNING,
                    TeamState.ASSEMBLING})
ENDED = frozenset({TeamState.DONE, TeamState.STOPPED, TeamState.FAILED})
FINISHED_ITEMS = frozenset({ItemState.DONE, ItemState.CANCELED})
BUDGET_TOOL = "team_budget"
#: The modes a worker's spec may name that are not a session mode's spelling.
MODE_WORDS = {"ask": "interactive", "read-only": "plan", "readonly": "plan"}


def worker_session_id(team_id: str, item_id: str) -> str:
    """The one session that ever works ``item_id`` (a resumed team never makes two)."""
    return f"tw-{item_id}" if item_id.startswith(f"{team_id}-") else f"tw-{team_id}-{item_id}"


def _last_answer(messages: list[Any]) -> tuple[int, str]:
    """(index, text) of the final assistant answer when the session ends on one."""
    if not messages or pending_tool_calls(messages):
        return -1, ""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        role = message.get("role")
        if role == "assistant" and not message.get("tool_calls"):
            return index, str(message.get("content") or "")
        if role in ("user", "tool"):
            return -1, ""
    return -1, ""


class TeamRunner:
    """See module docstring."""

    def __init__(
        self,
        store: TeamStore,
        manager: SessionManager,
        inbox: Inbox,
        *,
        prices: Callable[[], PriceTable] = PriceTable,
        stuck_after: float = 600.0,
        check_in_every: float = 0.0,
        tick: float = 5.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.manager = manager
        self.inbox = inbox
        self.conversations = manager.store
        self.meter = SpendMeter(manager.store.db, prices)
        self.stuck_after = stuck_after
        self.check_in_every = check_in_every
        self.tick = tick
        self.clock = clock
        #: Messages for a team's lead, sent when it is free (a steer would be lost
        #: if its turn ended before taking it in).
        self._for_lead: dict[str, list[str | tuple[str, int]]] = {}
        self._told: set[tuple[str, str, int]] = set()  # (team, item, review seq) told
        self._assembling_told: set[str] = set()
        self._activity: dict[str, float] = {}  # worker session -> last event (monotonic)
        self._stuck: set[str] = set()
        self._dirty: set[str] = set()
        self._replaying: set[str] = set()  # teams whose lead re-runs its cut-off calls
        self._pass: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._ended: dict[str, asyncio.Event] = {}
        #: Told about every board change (the CLI prints them).
        self.listeners: list[Callable[[BoardEvent], None]] = []
        store.listeners.append(self._on_board)
        manager.listeners.append(self._on_session)
        inbox.listeners.append(self._on_inbox)

    # ------------------------------------------------------------ surfaces

    def start(self, outcome: str, *, persona: str = "team", workspace: str = "",
              model: str = "", budget_usd: float | None = None) -> Team:
        """A new team for ``outcome``: its lead session, asked for the plan."""
        lead_id = uuid.uuid4().hex[:12]
        team = self.store.create_team(outcome, lead_session_id=lead_id, budget_usd=budget_usd)
        self._lead_session(team, persona=persona, workspace=workspace, model=model)
        self.manager.send(lead_id, briefs.lead_start(team, workspace))
        self._ensure_watch()
        return team

    def send(self, team_id: str, text: str) -> str:
        """The user's message to the team: to the lead, or ``@worker text`` to that
        worker (woken if asleep). It goes on the board first (``chat``), and the
        runner driving the team delivers it (this one at once; another process's
        at its next look). Returns who it is for."""
        self._team(team_id)
        text = text.strip()
        to = self._addressee(text)
        if to != "lead" and to not in {w.name for w in self._team(team_id).workers}:
            raise BoardError(f"team {team_id} has no worker {to!r}")
        self.store.record(team_id, "chat", actor=USER, to=to, text=text)
        return to

    def _deliver_chats(self, team: Team) -> None:
        """The user's chat lines not delivered yet (each delivery is a ``chat`` event
        of the runner keyed ``delivered:<seq>``, so none is lost or given twice)."""
        for event in self.store.events(team.id):
            if event.kind != "chat" or event.actor != str(USER):
                continue
            key = f"delivered:{event.seq}"
            if self._has_key(team.id, key):
                continue
            to, text = str(event.data.get("to") or "lead"), str(event.data.get("text") or "")
            sid = team.lead_session_id if to == "lead" else self._worker_session(team.id, to)
            if sid is None or self._running(sid):
                continue  # not at work yet, or busy: when its turn ends (a steer could be lost)
            said = text if to == "lead" else text.partition(" ")[2].strip()
            self.manager.send(sid, f"The user says: {said}")
            self.store.record(team.id, "chat", key=key, to=to, text=f"(delivered to {to})")

    def stop(self, team_id: str) -> None:
        """Stop the team: every turn of its sessions stopped, the team ``stopped``."""
        team = self._team(team_id)
        self.store.record(team_id, "team_state", key=f"stopped:{team_id}", actor=USER,
                          to=TeamState.STOPPED.value, reason="stopped by the user")
        for sid in self._sessions_of(team):
            self.manager.stop(sid)

    async def wait(self, team_id: str) -> Team:
        """Until the team ends (done, stopped, failed) or runs out of budget."""
        if self._team(team_id).state in ENDED | {TeamState.OVER_BUDGET}:
            return self._team(team_id)
        event = self._ended.get(team_id)
        if event is None or event.is_set():  # (set by an earlier end: the team went on)
            event = self._ended[team_id] = asyncio.Event()
        await event.wait()
        return self._team(team_id)

    def resume(self) -> list[str]:
        """At start-up: pick up every active team (see module docstring)."""
        resumed = []
        for team in self.store.teams():
            if team.state not in ACTIVE:
                continue
            try:
                self._resume_team(team)
            except Exception:
                log.exception("could not resume team %s", team.id)
                continue
            resumed.append(team.id)
        self._ensure_watch()
        return resumed

    async def close(self) -> None:
        for task in (self._watch, self._pass):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for listeners, listener in ((self.store.listeners, self._on_board),
                                    (self.manager.listeners, self._on_session),
                                    (self.inbox.listeners, self._on_inbox)):
            with contextlib.suppress(ValueError):
                listeners.remove(listener)  # type: ignore[arg-type]

    # ------------------------------------------------------------ sessions

    def _team(self, team_id: str) -> Team:
        if (team := self.store.team(team_id)) is None:
            raise KeyError(f"no team {team_id!r}")
        return team

    def _lead_session(self, team: Team, *, persona: str = "team", workspace: str = "",
                      model: str = "") -> SessionInfo:
        info = self.conversations.get_session(team.lead_session_id)
        if info is not None:
            return info
        return self.manager.create_session(
            title=f"Team {team.id} · {team.outcome}"[:120], persona=persona,
            workspace=workspace, model=model or self.manager.default_model, unattended=True,
            session_id=team.lead_session_id, meta={"team_id": team.id, "team_role": "lead"})

    def _sessions_of(self, team: Team) -> list[str]:
        return [team.lead_session_id,
                *(i.session_id for i in self.store.items(team.id) if i.session_id)]

    def _worker_session(self, team_id: str, name: str) -> str | None:
        items = [i for i in self.store.items(team_id) if i.assignee == name and i.session_id]
        going = [i for i in items if i.state is ItemState.IN_PROGRESS] or items
        return going[-1].session_id if going else None

    @staticmethod
    def _addressee(text: str) -> str:
        return text[1:].partition(" ")[0] if text.startswith("@") else "lead"

    def _running(self, session_id: str) -> bool:
        return (session_id in self.manager.running_sessions()
                or self.manager.holder(session_id) is not None)

    def _resume_session(self, sid: str) -> asyncio.Task[Any] | None:
        """Continue a turn a previous process left going; its task if one goes on."""
        info = self.conversations.get_session(sid)
        if info is None or self._running(sid) or info.status not in ("running", "suspended"):
            return None
        messages = self.conversations.load(sid)
        if pending_tool_calls(messages):
            return self.manager.start_resume(sid)
        with contextlib.suppress(SessionBusy):
            self.manager.close_cut_off_turn(sid)
            # (a turn cut off after its final answer is over: the pass submits the answer)
            if _last_answer(messages)[0] < 0 and any(m.get("role") == "user" for m in messages):
                return self.manager.start_retry(sid)  # (no user message: briefed by the pass)
        return None

    def _resume_team(self, team: Team) -> None:
        lead = self._lead_session(team)
        replaying = pending_tool_calls(self.conversations.load(lead.id))
        task = self._resume_session(lead.id)
        if task is not None and replaying:  # its cut-off board calls run again first: a
            self._replaying.add(team.id)  # send-back replayed after a new answer repeats work
            task.add_done_callback(lambda _t: self._replayed(team.id))
        else:
            self._resume_workers(team)
        if team.state is TeamState.PLANNING and not self._running(lead.id) \
                and self.conversations.count(lead.id) == 0:
            self.manager.send(lead.id, briefs.lead_start(team, lead.workspace))
        self._kick(team.id)

    def _resume_workers(self, team: Team) -> None:
        for sid in self._sessions_of(team)[1:]:
            self._resume_session(sid)

    def _replayed(self, team_id: str) -> None:
        self._replaying.discard(team_id)
        self._resume_workers(self._team(team_id))
        self._kick(team_id)

    # ------------------------------------------------------------ listeners

    def _on_board(self, event: BoardEvent) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:
                log.exception("team listener failed")
        if event.kind == "team_state":
            to = str(event.data.get("to") or "")
            if to in {s.value for s in ENDED | {TeamState.OVER_BUDGET}}:
                self._ended.setdefault(event.team_id, asyncio.Event()).set()
        if event.actor == str(USER) and event.item_id and event.kind.startswith("item_"):
            item = self.store.item(event.item_id)
            team = self.store.team(event.team_id)
            if item is not None and team is not None and team.state in ACTIVE:
                what = {"item_transitioned": "moved", "item_assigned": "reassigned",
                        "item_commented": "commented on"}.get(event.kind, "changed")
                self._tell_lead(team, briefs.told(what, "The user", item))
        self._kick(event.team_id)

    def _on_session(self, event: ev.Event) -> None:
        sid = event.session_id
        info = self._team_session(sid)
        if info is None:
            return
        team_id, role, worker, item_id = team_meta(info)
        if role == "worker":
            self._activity[sid] = time.monotonic()
            if sid in self._stuck:
                self._stuck.discard(sid)
                self.store.record(team_id, "item_stuck", item_id, stuck=False)
        if isinstance(event, ev.AssistantMessage):
            self._spent(team_id, sid, item_id if role == "worker" else "")
        elif isinstance(event, ev.TurnEnded):
            if role == "worker":
                self._worker_ended(team_id, item_id, worker, sid, event.status)
            elif role == "lead":
                self._lead_ended(team_id, event.status)
            self._kick(team_id)
        elif isinstance(event, ev.RunningChanged) and not event.running:
            self._kick(team_id)

    def _team_session(self, sid: str) -> SessionInfo | None:
        info = self.conversations.get_session(sid) if sid else None
        return info if info is not None and team_meta(info)[0] else None

    def _on_inbox(self, item: InboxItem) -> None:
        if item.tool != BUDGET_TOOL or item.pending:
            return
        team_id = str(item.arguments.get("team_id") or "")
        item_id = str(item.arguments.get("item_id") or "")
        answer = (item.resolution or "").strip().lstrip("$")
        try:
            budget = float(answer)
        except ValueError:
            budget = -1.0
        try:
            if budget > 0:
                self.store.act(USER, "budget", team_id, item_id, budget_usd=budget)
            else:
                self.store.act(USER, "transition", team_id, item_id, to=ItemState.BLOCKED.value,
                               comment="stopped at its budget")
        except (BoardError, KeyError):
            log.warning("the budget answer for item %s could not be applied", item_id)

    # ------------------------------------------------------------ turns ended

    def _worker_ended(self, team_id: str, item_id: str, worker: str, sid: str,
                      status: str) -> None:
        item = self.store.item(item_id)
        if (item is None or item.state is not ItemState.IN_PROGRESS or status != "completed"
                or item.session_id != sid):  # (handed over to another worker meanwhile)
            return
        self._submit(team_id, item, worker, sid)

    def _submit(self, team_id: str, item: Item, worker: str, sid: str) -> bool:
        """The worker's final answer becomes its item's result, and the item goes to
        review (once per answer: keyed by the answer's place in the session)."""
        index, text = _last_answer(self.conversations.load(sid))
        result, review = f"result:{sid}:{index}", f"review:{sid}:{index}"
        if index < 0 or not text.strip() or self._has_key(team_id, review):
            return False
        actor = Actor("worker", worker)
        if not self._has_key(team_id, result):  # (else: stopped between the two)
            self.store.act(actor, "result", team_id, item.id, text=text[:8000], files=[],
                           key=result)
        self.store.act(actor, "transition", team_id, item.id, to=ItemState.REVIEW.value,
                       key=review)
        return True

    def _has_key(self, team_id: str, key: str) -> bool:
        """Whether the board holds the fact recorded with ``key``."""
        return bool(self.store.db.query(
            "SELECT 1 FROM team_events WHERE team_id = ? AND key = ?", (team_id, key)))

    def _lead_ended(self, team_id: str, status: str) -> None:
        if status != "completed":  # stopped (even as it began): what it was told, again
            self._forget_told(team_id)
        team = self.store.team(team_id)
        if team is None or team.state is not TeamState.ASSEMBLING or status != "completed":
            return
        self._finish(team)

    def _finish(self, team: Team) -> bool:
        messages = self.conversations.load(team.lead_session_id)
        index, deliverable = _last_answer(messages)
        asked = [i for i, m in enumerate(messages) if m.get("role") == "user"
                 and "Assemble the final deliverable" in str(m.get("content") or "")]
        if index < 0 or not asked or index < asked[-1]:
            return False
        items = self.store.items(team.id)
        self.store.record(team.id, "summary", key=f"summary:{team.id}", actor=LEAD,
                          text=briefs.summary(team, items, deliverable))
        self.store.record(team.id, "team_state", key=f"done:{team.id}",
                          to=TeamState.DONE.value, reason="assembled")
        return True

    # ------------------------------------------------------------ spend

    def _spent(self, team_id: str, sid: str, item_id: str) -> None:
        try:
            if not self.meter.account(self.store, team_id, sid, item_id):
                return
        except Exception:
            log.exception("recording the spend of %s failed", sid)
            return
        if (team := self.store.team(team_id)) is None:
            return
        if self.store.over_budget(team_id) and team.state is not TeamState.OVER_BUDGET:
            times = sum(1 for e in self.store.events(team_id) if e.kind == "team_state"
                        and e.data.get("to") == TeamState.OVER_BUDGET.value)
            self.store.record(team_id, "team_state", key=f"over_budget:{team_id}:{times}",
                              to=TeamState.OVER_BUDGET.value, reason="the team's budget is spent")
            for session in self._sessions_of(team):
                self.manager.stop(session)
        elif item_id and self.store.over_budget(team_id, item_id):
            self.manager.stop(sid)
            self._ask_budget(team, item_id, sid)

    def _ask_budget(self, team: Team, item_id: str, sid: str) -> None:
        item = self.store.item(item_id)
        if item is None:
            return
        label = f"Team {team.id} · {item.assignee or 'worker'}"
        self.inbox.add(
            "question", sid, tool=BUDGET_TOOL,
            call_key=f"{BUDGET_TOOL}:{item_id}:{item.budget_usd}",
            arguments={"team_id": team.id, "item_id": item_id},
            title=f"{label}: item {item_id} reached its budget "
                  f"(${item.cost_usd:.3f} of ${item.budget_usd or 0:.3f})",
            reason="Answer with a new budget in dollars to let it go on, or 'stop'.",
        )

    # ------------------------------------------------------------ the pass

    def _kick(self, team_id: str) -> None:
        """Look at the team's board again soon (once, however many changes)."""
        self._dirty.add(team_id)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._pass is None or self._pass.done():
            self._pass = loop.create_task(self._passes(), name="team-runner")

    async def _passes(self) -> None:
        await asyncio.sleep(0)
        while self._dirty:
            team_id = self._dirty.pop()
            try:
                self.reconcile(team_id)
            except Exception:
                log.exception("team %s: deciding what comes next failed", team_id)
            await asyncio.sleep(0)

    def reconcile(self, team_id: str) -> None:
        """Do what the board says comes next (idempotent: safe to call any time)."""
        team = self.store.team(team_id)
        if team is None:
            return
        if team.state not in (TeamState.STOPPED, TeamState.FAILED):
            self._deliver_chats(team)  # (a done team's lead and workers may still talk)
        if team.state is TeamState.OVER_BUDGET and not self.store.over_budget(team.id):
            # The user raised the budget: the team goes on.
            times = sum(1 for e in self.store.events(team.id) if e.kind == "team_state"
                        and e.data.get("to") == TeamState.OVER_BUDGET.value)
            self.store.record(team.id, "team_state", key=f"budget_raised:{team.id}:{times}",
                              to=TeamState.RUNNING.value, reason="the budget was raised")
            self._forget_told(team.id)  # (its turns were stopped: perhaps unread)
            return
        if team.state not in ACTIVE:
            self._ended.setdefault(team.id, asyncio.Event()).set()
            if team.state is TeamState.DONE:
                self._flush_lead(team)
                return
            for sid in self._sessions_of(team):  # stopped elsewhere (team stop): here too
                if self.manager.is_running(sid):
                    self.manager.stop(sid)
            return
        if team.id in self._replaying:  # (the workers go on once the lead's calls have run)
            return
        if team.state is TeamState.RUNNING:
            self._run_items(team)
        elif team.state is TeamState.ASSEMBLING:
            self._assemble(team)
        self._flush_lead(team)

    def _run_items(self, team: Team) -> None:
        items = self.store.items(team.id)
        if items and all(i.state in FINISHED_ITEMS for i in items):
            self.store.record(team.id, "team_state", key=f"assembling:{team.id}",
                              to=TeamState.ASSEMBLING.value, reason="every item is finished")
            return
        by_id = {i.id: i for i in items}
        busy = {i.session_id for i in items if i.session_id and self._running(i.session_id)}
        free = max(0, team.max_parallel - len(busy))
        for item in items:
            if item.state is ItemState.REVIEW:
                self._tell_review(team, item)
            elif item.state is ItemState.IN_PROGRESS and item.session_id:
                if self._handed_over(item):
                    self.manager.stop(item.session_id)  # the user gave it to another
                    if item.assignee and free and self._start_worker(team, item):
                        free -= 1
                elif item.session_id not in busy and free and self._continue(team, item):
                    free -= 1
            elif item.state is ItemState.OPEN and item.assignee and free and all(
                    by_id.get(a) is None or by_id[a].state is ItemState.DONE
                    for a in item.after):
                if self._start_worker(team, item):
                    free -= 1

    def _start_worker(self, team: Team, item: Item) -> bool:
        """An assigned open item goes to its worker: the worker's one session for the
        item (made the first time), the item in progress, the brief — or, for an item
        reopened or given back to the same worker, a word of why."""
        spec = next((w for w in team.workers if w.name == item.assignee), None)
        if spec is None or self.store.over_budget(team.id, item.id):
            return False
        sid = worker_session_id(team.id, item.id)
        first = self.conversations.get_session(sid)
        if first is not None and first.meta.get("worker") != spec.name:
            sid = f"{sid}-{spec.name}"  # reassigned: the new worker's own session
        if self.conversations.get_session(sid) is None:
            lead = self.conversations.get_session(team.lead_session_id)
            self.manager.create_session(
                title=f"Team {team.id} · {spec.name} · {item.title}"[:120],
                persona=spec.persona, mode=MODE_WORDS.get(spec.mode, spec.mode),
                workspace=lead.workspace if lead else "", unattended=True, session_id=sid,
                model=spec.model or (lead.model if lead else "") or self.manager.default_model,
                meta={"team_id": team.id, "team_role": "worker", "worker": spec.name,
                      "item_id": item.id})
        if item.session_id != sid:
            self.store.record(team.id, "item_session", item.id, key=f"item_session:{sid}",
                              session_id=sid)
        round_ = sum(1 for e in self.store.events(team.id) if e.item_id == item.id
                     and e.kind == "item_transitioned" and e.data.get("to") == "open")
        if item.state is ItemState.OPEN:
            self.store.act(SYSTEM, "transition", team.id, item.id,
                           to=ItemState.IN_PROGRESS.value,
                           key=f"started:{item.id}" + (f":{round_}" if round_ else ""))
        fresh = self.store.item(item.id) or item
        self._activity[sid] = time.monotonic()
        if not any(m.get("role") == "user" for m in self.conversations.load(sid)):
            self.manager.send(sid, briefs.brief_worker(team, fresh, spec.name,
                                                       self.store.items(team.id)))
        else:
            self.manager.send(sid, briefs.reopened(fresh))
        return True

    def _handed_over(self, item: Item) -> bool:
        """The item in progress was given to another worker than its session's."""
        info = self.conversations.get_session(item.session_id)
        return info is not None and info.meta.get("worker") != item.assignee

    def _continue(self, team: Team, item: Item) -> bool:
        """An idle worker session with its item in progress: its answer not yet
        submitted (a kill between the two), sent back from review, or cut off."""
        sid = item.session_id
        if self.store.over_budget(team.id, item.id):
            self._ask_budget(team, item.id, sid)
            return False
        info = self.conversations.get_session(sid)
        if info is None or info.status in ("running", "suspended"):
            return False
        if self._submit(team.id, item, item.assignee, sid):
            return False
        messages = self.conversations.load(sid)
        self._activity[sid] = time.monotonic()
        if not any(m.get("role") == "user" for m in messages):  # stopped before its brief
            spec = next((w for w in team.workers if w.name == item.assignee), None)
            self.manager.send(sid, briefs.brief_worker(team, item, spec.name if spec else
                                                       item.assignee, self.store.items(team.id)))
            return True
        if messages[-1].get("role") == "user":
            return False  # a turn was asked for: the manager runs it
        sent_back = bool(item.result_text) and bool(item.last_comment)
        log.info("team %s: waking the worker of item %s (%s; last: %s)", team.id, item.id,
                 "sent back" if sent_back else "resumed", messages[-1].get("role"))
        self.manager.send(sid, briefs.sent_back(item) if sent_back else briefs.resume_worker(item))
        return True

    def _review_seq(self, team_id: str, item_id: str) -> int:
        """The event that put the item in review this time (its review's identity)."""
        return max((e.seq for e in self.store.events(team_id) if e.item_id == item_id
                    and e.kind == "item_transitioned" and e.data.get("to") == "review"),
                   default=0)

    def _tell_review(self, team: Team, item: Item) -> None:
        mark = (team.id, item.id, self._review_seq(team.id, item.id))
        if mark in self._told:
            return
        self._told.add(mark)
        self._tell_lead(team, (item.id, mark[2]))

    def _assemble(self, team: Team) -> None:
        lead = team.lead_session_id
        if self._running(lead) or self._finish(team):
            return
        if team.id not in self._assembling_told:
            self._assembling_told.add(team.id)
            self._tell_lead(team, briefs.assemble(team, self.store.items(team.id)))

    def _forget_told(self, team_id: str) -> None:
        self._told = {mark for mark in self._told if mark[0] != team_id}
        self._assembling_told.discard(team_id)

    def _tell_lead(self, team: Team, note: str | tuple[str, int]) -> None:
        """Tell the lead ``note`` when it is free: a text, or an item in review (its id
        and when it got there: written when sent, from the board as it is then)."""
        self._for_lead.setdefault(team.id, []).append(note)
        self._flush_lead(team)

    def _flush_lead(self, team: Team) -> None:
        queued = self._for_lead.get(team.id)
        if not queued or self._running(team.lead_session_id):
            return
        self._for_lead.pop(team.id, None)
        texts = []
        for note in queued:
            if isinstance(note, str):
                texts.append(note)
                continue
            item = self.store.item(note[0])  # still in the same review (not acted on)?
            if (item is not None and item.state is ItemState.REVIEW
                    and self._review_seq(team.id, item.id) == note[1]):
                texts.append(briefs.review(item))
        if texts:
            self.manager.send(team.lead_session_id, "\n\n".join(texts))

    # ------------------------------------------------------------ the watch

    def _ensure_watch(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._watch is None or self._watch.done():
            self._watch = loop.create_task(self._watching(), name="team-watch")

    async def _watching(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            try:
                self.watch_once()
            except Exception:
                log.exception("the teams' watch failed")

    def watch_once(self) -> None:
        """Flag stuck workers; set and keep the leads' check-ins."""
        now = time.monotonic()
        for team in self.store.teams():
            if team.state is not TeamState.RUNNING:
                waited = team.id in self._ended and not self._ended[team.id].is_set()
                if waited or team.state in ACTIVE or any(
                        self.manager.is_running(s) for s in self._sessions_of(team)):
                    self._kick(team.id)
                continue
            # Quiet on the board and silent in its session (no event) for the threshold.
            for item in self.store.quiet_items(team.id, quiet_for=self.stuck_after,
                                               now=self.clock()):
                sid = item.session_id
                if (sid and sid not in self._stuck
                        and now - self._activity.setdefault(sid, now) >= self.stuck_after):
                    self._stuck.add(sid)
                    self.store.record(team.id, "item_stuck", item.id, stuck=True)
            self._check_in(team)
            self._kick(team.id)

    def _check_in(self, team: Team) -> None:
        if self.check_in_every <= 0:
            return
        now = self.clock()
        if not team.next_check_in:
            self.store.record(team.id, "check_in", key=f"check_in:{team.id}:first",
                              at=now + self.check_in_every)
        elif now >= team.next_check_in and not self._running(team.lead_session_id):
            self.store.record(team.id, "check_in", key=f"check_in:{team.id}:{team.next_check_in}",
                              at=now + self.check_in_every)
            self._tell_lead(team, briefs.board_words(team, self.store.items(team.id)))
