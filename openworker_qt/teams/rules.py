"""What may be appended to a team's log: the board verbs checked, the runner's facts
checked, each turned into the event's ``(kind, item_id, data)``.

Pure (no storage): the store calls these with the board it loaded inside the
transaction that will append the event, so a check and its append cannot be split by
another writer. Every refusal is a :class:`~openworker_qt.teams.model.BoardError` whose
message is for the agent or the user that asked. Text arguments are data: they are
checked for type and length, never read for meaning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openworker_qt.teams.fold import Board, worker_from_json, worker_to_json
from openworker_qt.teams.model import (
    Actor,
    BoardError,
    Item,
    ItemState,
    Plan,
    Team,
    TeamState,
    WorkerSpec,
    check_transition,
    check_verb,
)

__all__ = ["ENDED", "RECORD_KINDS", "Appended", "act_event", "item_id_for", "record_event"]

#: The team states in which agents no longer change the board.
ENDED = frozenset({TeamState.DONE, TeamState.STOPPED, TeamState.FAILED})
#: The facts the runner records (:func:`record_event`); the rest come from verbs.
RECORD_KINDS = frozenset({
    "plan_proposed", "plan_accepted", "plan_declined", "item_session", "spend", "item_stuck",
    "team_state", "check_in", "chat", "summary", "worker_staffed",
})
TITLE_MAX = 300
TEXT_MAX = 8000
FILES_MAX = 50

#: What to append: the event's kind, its item and its data.
Appended = tuple[str, str, dict[str, Any]]


def item_id_for(team_id: str, number: int) -> str:
    """An item's id: the team's id and the item's number on its board (``…-3``)."""
    return f"{team_id}-{number}"


def _text(name: str, value: Any, *, required: bool = True, limit: int = TEXT_MAX) -> str:
    if not isinstance(value, str):
        raise BoardError(f"{name} must be text")
    if required and not value.strip():
        raise BoardError(f"{name} is empty")
    if len(value) > limit:
        raise BoardError(f"{name} is longer than {limit} characters")
    return value


def _money(name: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise BoardError(f"{name} must be a number of at least 0")
    return float(value)


def _count(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BoardError(f"{name} must be a whole number of at least 0")
    return value


def _item(board: Board, item_id: str) -> Item:
    if not item_id:
        raise BoardError("which item? (no item given)")
    item = board.items.get(item_id)
    if item is None:
        raise BoardError(f"there is no item {item_id} on this team's board")
    return item


def _own(actor: Actor, item: Item, what: str) -> None:
    if actor.kind == "worker" and item.assignee != actor.name:
        raise BoardError(f"item {item.id} is not yours: a worker {what} its own items only")


def _args(verb: str, args: dict[str, Any], allowed: tuple[str, ...]) -> None:
    extra = sorted(set(args) - set(allowed))
    if extra:
        takes = ", ".join(allowed) if allowed else "nothing"
        raise BoardError(f"{verb} takes {takes}; not {', '.join(extra)}")


def _no_item(verb: str, item_id: str) -> None:
    if item_id:
        raise BoardError(f"{verb} is not about an item (item {item_id} given)")


# --------------------------------------------------------------------------- verbs


def _create(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("create", args, ("title", "criteria", "budget_usd", "worker"))
    _no_item("create", item_id)
    title = _text("the title", args.get("title"), limit=TITLE_MAX)
    criteria = _text("the criteria", args.get("criteria", ""), required=False)
    budget = _money("budget_usd", args.get("budget_usd"))
    worker = _text("the worker", args.get("worker") or "", required=False, limit=64)
    if actor.kind == "worker" and budget is not None:
        raise BoardError("a worker's follow-up has no budget: the lead or the user sets one")
    if actor.kind == "worker" and worker:
        raise BoardError("a worker's follow-up lands unassigned: the lead assigns it")
    if worker and worker not in {w.name for w in board.require_team().workers}:
        raise BoardError(f"{worker} is not a worker of this team")
    new_id = item_id_for(board.require_team().id, len(board.items) + 1)
    data: dict[str, Any] = {"title": title, "criteria": criteria, "budget_usd": budget}
    if worker:
        data["assignee"] = worker
    return "item_created", new_id, data


def _assign(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("assign", args, ("worker",))
    item = _item(board, item_id)
    worker = _text("the worker", args.get("worker", ""), required=False, limit=64)
    if worker and worker not in {w.name for w in board.require_team().workers}:
        raise BoardError(f"{worker} is not a worker of this team")
    if item.state in (ItemState.DONE, ItemState.CANCELED):
        raise BoardError(f"item {item.id} is {item.state.value}: reopen it first")
    if worker == item.assignee:
        raise BoardError(f"item {item.id} is already "
                         f"{'assigned to ' + worker if worker else 'unassigned'}")
    return "item_assigned", item.id, {"worker": worker}


def _transition(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("transition", args, ("to", "comment"))
    item = _item(board, item_id)
    raw = args.get("to")
    try:
        to = ItemState(str(raw))
    except ValueError:
        names = ", ".join(s.value for s in ItemState)
        raise BoardError(f"{raw!r} is not a state of an item ({names})") from None
    comment = _text("the comment", args.get("comment", ""), required=False)
    check_transition(actor, item, to)
    if (actor.kind == "lead" and item.state is ItemState.REVIEW and to is ItemState.IN_PROGRESS
            and not comment.strip()):
        raise BoardError(f"sending item {item.id} back: say in a comment what is missing")
    return "item_transitioned", item.id, {"from": item.state.value, "to": to.value,
                                          "comment": comment}


def _comment(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("comment", args, ("text",))
    item = _item(board, item_id)
    _own(actor, item, "comments on")
    return "item_commented", item.id, {"text": _text("the comment", args.get("text"))}


def _result(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("result", args, ("text", "files"))
    item = _item(board, item_id)
    _own(actor, item, "submits results for")
    if item.state in (ItemState.REVIEW, ItemState.DONE, ItemState.CANCELED):
        raise BoardError(f"item {item.id} is {item.state.value}: its result cannot change now")
    text = _text("the result", args.get("text", ""), required=False)
    raw = args.get("files", ())
    if isinstance(raw, str) or not isinstance(raw, list | tuple):
        raise BoardError("files must be a list of paths")
    files = [_text("a file's path", f, limit=1000) for f in raw]
    if len(files) > FILES_MAX or len(set(files)) != len(files):
        raise BoardError(f"files: at most {FILES_MAX}, each once")
    if not text.strip() and not files:
        raise BoardError("a result needs a text or files")
    return "item_result", item.id, {"text": text, "files": files}


def _depends(board: Board, start: str, target: str) -> bool:
    """Does ``start`` (transitively) come after ``target``?"""
    seen: set[str] = set()
    todo = [start]
    while todo:
        current = todo.pop()
        if current == target:
            return True
        if current not in seen:
            seen.add(current)
            todo.extend(board.items[current].after if current in board.items else ())
    return False


def _link(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("link", args, ("other", "relation"))
    item = _item(board, item_id)
    other = _item(board, str(args.get("other") or ""))
    if args.get("relation", "after") != "after":
        raise BoardError("the one relation between items is 'after' (this item waits for "
                         "the other)")
    if other.id == item.id or other.id in item.after:
        raise BoardError(f"item {item.id} already comes after {other.id}" if other.id
                         in item.after else "an item cannot come after itself")
    if _depends(board, other.id, item.id):
        raise BoardError(f"item {other.id} already comes after {item.id}: that would be a "
                         "circle")
    return "item_linked", item.id, {"other": other.id, "relation": "after"}


def _claim(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("claim", args, ())
    item = _item(board, item_id)
    if not board.require_team().allow_claim:
        raise BoardError("this team's workers do not claim items: the lead assigns them")
    if item.state is not ItemState.OPEN or item.assignee:
        raise BoardError(f"item {item.id} is not open and unassigned")
    return "item_assigned", item.id, {"worker": actor.name, "claimed": True}


def _budget(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    if item_id:
        _args("budget (of an item)", args, ("budget_usd",))
        item = _item(board, item_id)
        return "budget_set", item.id, {"budget_usd": _money("budget_usd",
                                                            args.get("budget_usd"))}
    _args("budget", args, ("budget_usd", "budget_tokens"))
    if not args:
        raise BoardError("budget: give budget_usd, budget_tokens or both")
    data: dict[str, Any] = {}
    if "budget_usd" in args:
        data["budget_usd"] = _money("budget_usd", args["budget_usd"])
    if "budget_tokens" in args:
        data["budget_tokens"] = _count("budget_tokens", args["budget_tokens"])
    return "budget_set", "", data


def _staff(board: Board, actor: Actor, item_id: str, args: dict[str, Any]) -> Appended:
    _args("staff", args, ("worker", "persona", "mode", "model"))
    _no_item("staff", item_id)
    name = _text("the worker", args.get("worker"), limit=64)
    known = {w.name: w for w in board.require_team().workers}
    base = known.get(name) or WorkerSpec(name, str(args.get("persona") or ""))
    model = args.get("model")
    spec = WorkerSpec(name, str(args.get("persona") or base.persona),
                      str(args.get("mode") or base.mode),
                      base.model if model is None else str(model))
    spec.check()
    return "worker_staffed", "", {"worker": worker_to_json(spec)}


VerbCheck = Callable[[Board, Actor, str, dict[str, Any]], Appended]
_VERBS: dict[str, VerbCheck] = {
    "create": _create, "assign": _assign, "transition": _transition, "comment": _comment,
    "result": _result, "link": _link, "claim": _claim, "budget": _budget, "staff": _staff,
}


def act_event(board: Board, actor: Actor, verb: str, item_id: str,
              args: dict[str, Any]) -> Appended:
    """The event ``actor`` doing ``verb`` appends, or :class:`BoardError`."""
    check_verb(actor, verb)
    team = board.require_team()
    if actor.kind in ("lead", "worker") and team.state in ENDED:
        raise BoardError(f"the team is {team.state.value}: its board is closed")
    if actor.kind == "worker" and actor.name not in {w.name for w in team.workers}:
        raise BoardError(f"{actor.name} is not a worker of this team")
    return _VERBS[verb](board, actor, item_id, dict(args))


# --------------------------------------------------------------------------- facts


def _plan(value: Any) -> Plan:
    if isinstance(value, Plan):
        value.check()
        return value
    if not isinstance(value, dict):
        raise BoardError("the plan must be an object")
    return Plan.from_json(value)


def _planning(team: Team, what: str) -> None:
    if team.state not in (TeamState.PLANNING, TeamState.AWAITING_PLAN):
        raise BoardError(f"the team is {team.state.value}: a plan can no longer be {what}")


def _f_plan_proposed(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    _planning(board.require_team(), "proposed")
    return {"plan": _plan(d.get("plan")).to_json()}


def _f_plan_accepted(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    team = board.require_team()
    _planning(team, "accepted")
    plan = _plan(d.get("plan"))
    first = len(board.items) + 1
    ids = {p.key: item_id_for(team.id, first + n) for n, p in enumerate(plan.items)}
    return {"plan": plan.to_json(), "item_ids": ids}


def _f_plan_declined(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    _planning(board.require_team(), "declined")
    return {"reason": _text("the reason", d.get("reason", ""), required=False),
            "replan": bool(d.get("replan"))}


def _f_item_session(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    item = _item(board, item_id)
    session_id = _text("the session", d.get("session_id"), limit=200)
    worker = _text("the worker", d.get("worker") or item.assignee, required=False, limit=64)
    if not worker:
        raise BoardError(f"item {item.id} has no worker to run it")
    if board.sessions.get(session_id, f"worker:{worker}") != f"worker:{worker}":
        raise BoardError(f"session {session_id} is this team's {board.sessions[session_id]}")
    return {"session_id": session_id, "worker": worker}


def _f_spend(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    if item_id:
        _item(board, item_id)
    return {"usd": _money("usd", d.get("usd", 0.0)) or 0.0,
            "tokens": _count("tokens", d.get("tokens", 0)) or 0}


def _f_item_stuck(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    _item(board, item_id)
    return {"stuck": bool(d.get("stuck", True))}


def _f_team_state(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    try:
        to = TeamState(str(d.get("to")))
    except ValueError:
        raise BoardError(f"{d.get('to')!r} is not a state of a team") from None
    return {"to": to.value, "reason": _text("the reason", d.get("reason", ""), required=False)}


def _f_check_in(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    at = d.get("at")
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise BoardError("check_in needs the moment (at, epoch seconds)")
    return {"at": float(at)}


def _f_chat(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    return {"to": _text("to", d.get("to", "lead"), limit=64), "text": _text("the message",
                                                                            d.get("text"))}


def _f_summary(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    return {"text": _text("the summary", d.get("text"), limit=4 * TEXT_MAX)}


def _f_worker_staffed(board: Board, item_id: str, d: dict[str, Any]) -> dict[str, Any]:
    raw = d.get("worker")
    try:
        spec = raw if isinstance(raw, WorkerSpec) else worker_from_json(dict(raw or {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise BoardError(f"worker_staffed needs a worker (name, persona, mode): {exc}") from exc
    spec.check()
    out: dict[str, Any] = {"worker": worker_to_json(spec)}
    session_id = d.get("session_id")
    if session_id:
        out["session_id"] = _text("the session", session_id, limit=200)
        role = board.sessions.get(out["session_id"], f"worker:{spec.name}")
        if role != f"worker:{spec.name}":
            raise BoardError(f"session {session_id} is this team's {role}")
    return out


FactCheck = Callable[[Board, str, dict[str, Any]], dict[str, Any]]
_FACTS: dict[str, FactCheck] = {
    "plan_proposed": _f_plan_proposed, "plan_accepted": _f_plan_accepted,
    "plan_declined": _f_plan_declined, "item_session": _f_item_session, "spend": _f_spend,
    "item_stuck": _f_item_stuck, "team_state": _f_team_state, "check_in": _f_check_in,
    "chat": _f_chat, "summary": _f_summary, "worker_staffed": _f_worker_staffed,
}
_FACT_KEYS: dict[str, tuple[str, ...]] = {
    "plan_proposed": ("plan",), "plan_accepted": ("plan",),
    "plan_declined": ("reason", "replan"), "item_session": ("session_id", "worker"),
    "spend": ("usd", "tokens"), "item_stuck": ("stuck",), "team_state": ("to", "reason"),
    "check_in": ("at",), "chat": ("to", "text"), "summary": ("text",),
    "worker_staffed": ("worker", "session_id"),
}
_ITEM_FACTS = frozenset({"item_session", "item_stuck"})
_TEAM_FACTS = RECORD_KINDS - _ITEM_FACTS - {"spend"}


def record_event(board: Board, kind: str, item_id: str, data: dict[str, Any]) -> dict[str, Any]:
    """The checked data of the runner's fact ``kind``, or :class:`BoardError`."""
    check = _FACTS.get(kind)
    if check is None:
        hint = ("a board verb: use act()" if kind.startswith("item_") or kind == "budget_set"
                else "not a fact the runner records")
        raise BoardError(f"{kind!r} is {hint}")
    board.require_team()
    _args(kind, data, _FACT_KEYS[kind])
    if kind in _TEAM_FACTS:
        _no_item(kind, item_id)
    return check(board, item_id, data)
