"""The fold of a team's events into its board: pure, shared by the store and ``rebuild``.

The store applies one event at a time to the projection it loaded, in the transaction
that appends the event; ``rebuild`` folds the whole log from nothing. Both go through
:func:`apply`, so the projection is, by construction, the fold of the log. Events are
trusted to have been checked when they were appended (``rules``); the fold refuses only
what it cannot read (an unknown kind, a missing field, an item it never saw created),
with a :class:`FoldError` naming the team and the event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from openworker_qt.teams.model import (
    BoardError,
    BoardEvent,
    Item,
    ItemState,
    Plan,
    Team,
    TeamState,
    WorkerSpec,
)

__all__ = ["Board", "FoldError", "apply", "fold", "worker_from_json", "worker_to_json"]


class FoldError(BoardError):
    """A team's log that cannot be folded (a damaged row, a kind this version does not
    know); the message names the team and the event."""


@dataclass(slots=True)
class Board:
    """A team's board in memory: what the projection tables hold for one team."""

    team: Team | None = None
    #: Items in board order (the order they were created).
    items: dict[str, Item] = field(default_factory=dict)
    #: Session id → role (``lead``, ``worker:<name>``).
    sessions: dict[str, str] = field(default_factory=dict)
    last_seq: int = 0

    def copy(self) -> Board:
        return Board(self.team, dict(self.items), dict(self.sessions), self.last_seq)

    def require_team(self) -> Team:
        if self.team is None:
            raise BoardError("no such team")
        return self.team


def worker_to_json(spec: WorkerSpec) -> dict[str, str]:
    return {"name": spec.name, "persona": spec.persona, "mode": spec.mode, "model": spec.model}


def worker_from_json(data: dict[str, Any]) -> WorkerSpec:
    return WorkerSpec(str(data["name"]), str(data["persona"]),
                      str(data.get("mode") or "interactive"), str(data.get("model") or ""))


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


Handler = Callable[[Board, BoardEvent, dict[str, Any]], None]


def _team(board: Board) -> Team:
    assert board.team is not None  # apply() checked
    return board.team


def _item(board: Board, event: BoardEvent) -> Item:
    return board.items[event.item_id]


def _set_item(board: Board, event: BoardEvent, **changes: Any) -> None:
    board.items[event.item_id] = replace(_item(board, event), updated_at=event.at, **changes)


def _set_team(board: Board, **changes: Any) -> None:
    board.team = replace(_team(board), **changes)


def _team_created(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    board.team = Team(
        id=event.team_id, outcome=str(d["outcome"]), lead_session_id=str(d["lead_session_id"]),
        state=TeamState.PLANNING, budget_usd=_float(d.get("budget_usd")),
        budget_tokens=_int(d.get("budget_tokens")), max_parallel=int(d.get("max_parallel") or 3),
        allow_claim=bool(d.get("allow_claim")), created_at=event.at, updated_at=event.at)
    board.sessions[board.team.lead_session_id] = "lead"


def _plan_proposed(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    Plan.from_json(d["plan"])
    _set_team(board, state=TeamState.AWAITING_PLAN)


def _plan_accepted(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    plan = Plan.from_json(d["plan"])
    ids: dict[str, str] = d["item_ids"]
    team = _team(board)
    _set_team(board, state=TeamState.RUNNING, workers=plan.workers, outcome=plan.outcome,
              max_parallel=plan.max_parallel,
              budget_usd=team.budget_usd if plan.budget_usd is None else plan.budget_usd,
              budget_tokens=team.budget_tokens if plan.budget_tokens is None
              else plan.budget_tokens)
    for spec in plan.items:
        item_id = str(ids[spec.key])
        board.items[item_id] = Item(
            id=item_id, team_id=event.team_id, title=spec.title, criteria=spec.criteria,
            state=ItemState.OPEN, assignee=spec.worker, created_by="lead",
            budget_usd=spec.budget_usd, created_at=event.at, updated_at=event.at)


def _plan_declined(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_team(board, state=TeamState.PLANNING if d.get("replan") else TeamState.STOPPED)


def _item_created(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    if event.item_id in board.items:
        raise ValueError(f"item {event.item_id} created twice")
    board.items[event.item_id] = Item(
        id=event.item_id, team_id=event.team_id, title=str(d["title"]),
        criteria=str(d.get("criteria") or ""), state=ItemState.OPEN,
        assignee=str(d.get("assignee") or ""), created_by=event.actor,
        budget_usd=_float(d.get("budget_usd")), created_at=event.at, updated_at=event.at)


def _item_assigned(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_item(board, event, assignee=str(d["worker"]))


def _item_transitioned(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    comment = str(d.get("comment") or "")
    extra: dict[str, Any] = {"last_comment": comment, "last_comment_by": event.actor} \
        if comment else {}
    _set_item(board, event, state=ItemState(d["to"]), **extra)


def _item_commented(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_item(board, event, last_comment=str(d["text"]), last_comment_by=event.actor)


def _item_result(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_item(board, event, result_text=str(d.get("text") or ""),
              result_files=tuple(str(f) for f in d.get("files") or ()))


def _item_linked(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    item = _item(board, event)
    _set_item(board, event, after=(*item.after, str(d["other"])))


def _item_session(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    session_id = str(d["session_id"])
    _set_item(board, event, session_id=session_id)
    board.sessions[session_id] = f"worker:{d['worker']}"


def _spend(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    usd, tokens = float(d.get("usd") or 0.0), int(d.get("tokens") or 0)
    if event.item_id:
        item = _item(board, event)
        _set_item(board, event, cost_usd=item.cost_usd + usd, tokens=item.tokens + tokens)
    team = _team(board)
    _set_team(board, spent_usd=team.spent_usd + usd, tokens=team.tokens + tokens)


def _item_stuck(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_item(board, event, stuck=bool(d["stuck"]))


def _team_state(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_team(board, state=TeamState(d["to"]))


def _budget_set(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    if event.item_id:
        _set_item(board, event, budget_usd=_float(d["budget_usd"]))
        return
    changes: dict[str, Any] = {}
    if "budget_usd" in d:
        changes["budget_usd"] = _float(d["budget_usd"])
    if "budget_tokens" in d:
        changes["budget_tokens"] = _int(d["budget_tokens"])
    _set_team(board, **changes)


def _worker_staffed(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    spec = worker_from_json(d["worker"])
    workers = list(_team(board).workers)
    names = [w.name for w in workers]
    if spec.name in names:
        workers[names.index(spec.name)] = spec
    else:
        workers.append(spec)
    _set_team(board, workers=tuple(workers))
    if d.get("session_id"):
        board.sessions[str(d["session_id"])] = f"worker:{spec.name}"


def _check_in(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_team(board, next_check_in=float(d["at"]))


def _chat(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    str(d["text"])


def _summary(board: Board, event: BoardEvent, d: dict[str, Any]) -> None:
    _set_team(board, summary=str(d["text"]))


HANDLERS: dict[str, Handler] = {
    "team_created": _team_created, "plan_proposed": _plan_proposed,
    "plan_accepted": _plan_accepted, "plan_declined": _plan_declined,
    "item_created": _item_created, "item_assigned": _item_assigned,
    "item_transitioned": _item_transitioned, "item_commented": _item_commented,
    "item_result": _item_result, "item_linked": _item_linked, "item_session": _item_session,
    "spend": _spend, "item_stuck": _item_stuck, "team_state": _team_state,
    "budget_set": _budget_set, "worker_staffed": _worker_staffed, "check_in": _check_in,
    "chat": _chat, "summary": _summary,
}


def apply(board: Board, event: BoardEvent) -> None:
    """Fold one event into ``board`` (in place). Any event on an item but ``item_stuck``
    is a sign of life: the item is no longer flagged stuck."""
    handler = HANDLERS.get(event.kind)
    where = f"team {event.team_id}: event {event.seq} ({event.kind})"
    if handler is None:
        raise FoldError(f"{where} is of a kind this version of the app does not know; "
                        "update OpenWorker Qt to read this team's board")
    if (board.team is None) != (event.kind == "team_created"):
        raise FoldError(f"{where}: the log does not start with the team's creation")
    try:
        handler(board, event, event.data)
        if event.item_id and event.kind != "item_stuck" and board.items[event.item_id].stuck:
            _set_item(board, event, stuck=False)
    except (KeyError, TypeError, ValueError, AttributeError, BoardError) as exc:
        raise FoldError(f"{where} cannot be read: {exc!r}") from exc
    _set_team(board, updated_at=event.at)
    board.last_seq = event.seq


def fold(events: Iterable[BoardEvent]) -> Board:
    """The board a log of events describes, from nothing."""
    board = Board()
    for event in events:
        apply(board, event)
    return board
