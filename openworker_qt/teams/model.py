"""The vocabulary of a team: its board's items and states, who may move what, the plan.

A *team* is a lead coworker and worker coworkers working one outcome on a shared
*board*. The board is an append-only log of :class:`BoardEvent` rows (the team store
folds them into the :class:`Team` and :class:`Item` projections); every change is also
an audit row. This module is pure: no storage, no engine, no Qt. The rules of who may
do what (:func:`check_transition`, :func:`check_verb`) live here so the store, the
board tools and every surface apply the same ones.

Fences (issue 29, item 9): an item's text (title, criteria, comments, results) is data
written by an agent; nothing here reads it for meaning. Workers never mark an item
done, never assign, never change a worker's persona or mode; only the lead and the user
do, and only the user changes budgets or a worker's permissions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Literal

from openworker_qt.core.permission_settings import MODE_NAMES


class ItemState(StrEnum):
    OPEN = "open"
    IN_PROGRESS = "in_progress"
    REVIEW = "review"
    DONE = "done"
    BLOCKED = "blocked"
    CANCELED = "canceled"


class TeamState(StrEnum):
    #: The lead is writing its plan.
    PLANNING = "planning"
    #: The plan and the staffing wait for the user's one approval (an inbox item).
    AWAITING_PLAN = "awaiting_plan"
    RUNNING = "running"
    #: Every item is done or canceled; the lead writes the final deliverable.
    ASSEMBLING = "assembling"
    DONE = "done"
    #: The user stopped the team, or turned the plan down.
    STOPPED = "stopped"
    #: The team's budget ran out; the user may raise it and resume.
    OVER_BUDGET = "over_budget"
    FAILED = "failed"


#: Who acts on the board: the user, the lead, a worker (by its name), the runner itself.
ActorKind = Literal["user", "lead", "worker", "system"]


@dataclass(frozen=True, slots=True)
class Actor:
    kind: ActorKind
    #: A worker's name (``researcher``, ``writer-2``); empty for the others.
    name: str = ""

    def __str__(self) -> str:
        return f"worker:{self.name}" if self.kind == "worker" else self.kind

    @classmethod
    def parse(cls, text: str) -> Actor:
        if text.startswith("worker:") and len(text) > len("worker:"):
            return cls("worker", text[len("worker:"):])
        if text in ("user", "lead", "system"):
            return cls(text)  # type: ignore[arg-type]
        raise ValueError(f"not an actor: {text!r}")


USER: Final = Actor("user")
LEAD: Final = Actor("lead")
SYSTEM: Final = Actor("system")

#: The moves an item's state may make (any actor; :func:`check_transition` narrows by actor).
TRANSITIONS: Final[dict[ItemState, frozenset[ItemState]]] = {
    ItemState.OPEN: frozenset({ItemState.IN_PROGRESS, ItemState.BLOCKED, ItemState.CANCELED}),
    ItemState.IN_PROGRESS: frozenset(
        {ItemState.REVIEW, ItemState.BLOCKED, ItemState.OPEN, ItemState.CANCELED}),
    # Review: accepted (done) or sent back (in progress) with a comment.
    ItemState.REVIEW: frozenset({ItemState.DONE, ItemState.IN_PROGRESS, ItemState.CANCELED}),
    ItemState.BLOCKED: frozenset({ItemState.OPEN, ItemState.IN_PROGRESS, ItemState.CANCELED}),
    # Reopened by the lead or the user.
    ItemState.DONE: frozenset({ItemState.OPEN}),
    ItemState.CANCELED: frozenset({ItemState.OPEN}),
}

#: The states a worker may move its own item to.
WORKER_TARGETS: Final = frozenset({ItemState.IN_PROGRESS, ItemState.REVIEW, ItemState.BLOCKED})


class BoardError(Exception):
    """A board verb refused: the message is for the agent or the user that asked."""


#: A worker's name on the board (``researcher``, ``writer-2``).
WORKER_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


def check_transition(actor: Actor, item: Item, to: ItemState) -> None:
    """Raise :class:`BoardError` unless ``actor`` may move ``item`` to ``to``."""
    if to not in TRANSITIONS[item.state]:
        raise BoardError(f"item {item.id} is {item.state.value}; it cannot move to {to.value}")
    if actor.kind == "worker":
        if item.assignee != actor.name:
            raise BoardError(f"item {item.id} is not yours (it is "
                             f"{'assigned to ' + item.assignee if item.assignee else 'unassigned'})")
        if to not in WORKER_TARGETS:
            raise BoardError("a worker moves its own item to in progress, review or blocked only; "
                             "the lead or the user accepts, reopens or cancels")
        if to is ItemState.REVIEW and not item.result_text and not item.result_files:
            raise BoardError(f"item {item.id} has no result yet: submit one before review")


#: Board verbs and the actors that may use them. ``claim``: a worker takes an open,
#: unassigned item (only when the team allows claiming).
VERBS: Final[dict[str, frozenset[ActorKind]]] = {
    "create": frozenset({"user", "lead", "worker"}),   # a worker's lands open and unassigned
    "assign": frozenset({"user", "lead"}),
    "transition": frozenset({"user", "lead", "worker", "system"}),
    "comment": frozenset({"user", "lead", "worker", "system"}),
    "result": frozenset({"worker", "lead"}),
    "link": frozenset({"user", "lead"}),
    "claim": frozenset({"worker"}),
    "budget": frozenset({"user"}),
    "staff": frozenset({"user"}),  # a worker's persona, mode, model
}


def check_verb(actor: Actor, verb: str) -> None:
    allowed = VERBS.get(verb)
    if allowed is None:
        raise BoardError(f"unknown board verb {verb!r}")
    if actor.kind not in allowed:
        raise BoardError(f"{actor} may not {verb} on the board")


@dataclass(frozen=True, slots=True)
class WorkerSpec:
    """One worker of the team: its name on the board, its persona, its permission mode
    (never wider than what the user's settings allow; ``plan`` = read-only) and model
    (empty: the team's)."""

    name: str
    persona: str
    mode: str = "interactive"
    model: str = ""

    def __post_init__(self) -> None:
        # "ask" is what people call the interactive mode (ask before anything consequential).
        if self.mode == "ask":
            object.__setattr__(self, "mode", "interactive")

    def check(self) -> None:
        """Raise :class:`BoardError` on a name the board cannot use or an unknown mode."""
        if not WORKER_NAME.fullmatch(self.name):
            raise BoardError(f"a worker's name is 1-32 letters, digits, '-' or '_' "
                             f"(not {self.name!r})")
        if not self.persona.strip():
            raise BoardError(f"worker {self.name} has no persona")
        if self.mode not in MODE_NAMES:
            raise BoardError(f"worker {self.name}: unknown permission mode {self.mode!r} "
                             f"(one of {', '.join(MODE_NAMES)})")


@dataclass(frozen=True, slots=True)
class PlanItem:
    """A work item as the lead proposes it: ``key`` is the plan's own handle (links and
    the user's edits name it), ``worker`` the name of a :class:`WorkerSpec` or empty."""

    key: str
    title: str
    criteria: str
    worker: str = ""
    budget_usd: float | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """The lead's proposal, approved once (an inbox item), editable before: items
    dropped, workers' personas changed, budgets set."""

    outcome: str
    items: tuple[PlanItem, ...]
    workers: tuple[WorkerSpec, ...]
    budget_usd: float | None = None
    budget_tokens: int | None = None
    max_parallel: int = 3

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "items": [{"key": i.key, "title": i.title, "criteria": i.criteria,
                       "worker": i.worker, "budget_usd": i.budget_usd} for i in self.items],
            "workers": [{"name": w.name, "persona": w.persona, "mode": w.mode,
                         "model": w.model} for w in self.workers],
            "budget_usd": self.budget_usd,
            "budget_tokens": self.budget_tokens,
            "max_parallel": self.max_parallel,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        """A plan from :meth:`to_json`'s shape; raises :class:`BoardError` on a bad one
        (the lead's proposal is model output: checked, never trusted)."""
        try:
            workers = tuple(WorkerSpec(str(w["name"]), str(w["persona"]),
                                       str(w.get("mode") or "interactive"),
                                       str(w.get("model") or ""))
                            for w in data.get("workers") or [])
            items = tuple(PlanItem(str(i["key"]), str(i["title"]), str(i.get("criteria") or ""),
                                   str(i.get("worker") or ""),
                                   None if i.get("budget_usd") is None else float(i["budget_usd"]))
                          for i in data.get("items") or [])
            plan = cls(str(data["outcome"]), items, workers,
                       None if data.get("budget_usd") is None else float(data["budget_usd"]),
                       None if data.get("budget_tokens") is None else int(data["budget_tokens"]),
                       int(data.get("max_parallel") or 3))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BoardError(f"the plan is malformed: {exc}") from exc
        plan.check()
        return plan

    def check(self) -> None:
        for worker in self.workers:
            worker.check()
        names = [w.name for w in self.workers]
        if len(set(names)) != len(names):
            raise BoardError("two workers share a name")
        keys = [i.key for i in self.items]
        if len(set(keys)) != len(keys):
            raise BoardError("two items share a key")
        if not self.items:
            raise BoardError("the plan has no work items")
        for item in self.items:
            if not item.title.strip():
                raise BoardError(f"item {item.key} has no title")
            if item.worker and item.worker not in names:
                raise BoardError(f"item {item.key} names an unknown worker {item.worker!r}")
        if not 1 <= self.max_parallel <= 16:
            raise BoardError("workers in parallel: between 1 and 16")


@dataclass(frozen=True, slots=True)
class Item:
    """One work item as the board shows it (a projection of the team's events)."""

    id: str
    team_id: str
    title: str
    criteria: str
    state: ItemState
    assignee: str = ""
    created_by: str = "lead"
    #: The worker's session working this item (empty until it starts).
    session_id: str = ""
    cost_usd: float = 0.0
    tokens: int = 0
    budget_usd: float | None = None
    last_comment: str = ""
    last_comment_by: str = ""
    result_text: str = ""
    result_files: tuple[str, ...] = ()
    #: Items this one depends on (links of kind ``after``).
    after: tuple[str, ...] = ()
    #: No event from its worker for the stuck threshold (issue 29, item 10).
    stuck: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass(frozen=True, slots=True)
class Team:
    """A team as the board shows it (a projection of its events)."""

    id: str
    outcome: str
    lead_session_id: str
    state: TeamState
    workers: tuple[WorkerSpec, ...] = ()
    budget_usd: float | None = None
    budget_tokens: int | None = None
    max_parallel: int = 3
    #: Workers may take open, unassigned items themselves (``claim``).
    allow_claim: bool = False
    spent_usd: float = 0.0
    tokens: int = 0
    #: The lead's next self-wake (check-in), epoch seconds; 0: none set.
    next_check_in: float = 0.0
    summary: str = ""
    created_at: float = 0.0
    updated_at: float = 0.0


#: What a :class:`BoardEvent` records. Its ``data`` per kind:
#: team_created {outcome, lead_session_id, max_parallel, budget_usd, budget_tokens,
#: allow_claim} · plan_proposed {plan} · plan_accepted {plan, item_ids: {key: id}}
#: · plan_declined {reason, replan} (replan: the lead plans again, else the team stops)
#: · item_created {title, criteria, budget_usd, assignee?} · item_assigned {worker, claimed?}
#: · item_transitioned {from, to, comment} · item_commented {text}
#: · item_result {text, files} · item_linked {other, relation} · item_session {session_id,
#: worker} · spend {usd, tokens} (item_id optional) · item_stuck {stuck}
#: · team_state {to, reason} · budget_set {budget_usd, budget_tokens} (an item's:
#: {budget_usd}) · worker_staffed {worker: {name, persona, mode, model}, session_id?}
#: · check_in {at} · chat {to, text} · summary {text}
EVENT_KINDS: Final = frozenset({
    "team_created", "plan_proposed", "plan_accepted", "plan_declined", "item_created",
    "item_assigned", "item_transitioned", "item_commented", "item_result", "item_linked",
    "item_session", "spend", "item_stuck", "team_state", "budget_set", "worker_staffed",
    "check_in", "chat", "summary",
})


@dataclass(frozen=True, slots=True)
class BoardEvent:
    seq: int
    team_id: str
    at: float
    actor: str
    kind: str
    item_id: str = ""
    data: dict[str, Any] = field(default_factory=dict)
