"""The user's answer to a team's plan item, and the lead's ``team_plan`` tool.

The plan item (kind ``plan``, tool ``team_plan``, arguments ``{"team_id", "plan"}``)
is answered once for the plan and the staffing:

* ``approve`` — as proposed;
* ``approve: <JSON of the edited Plan>`` — as the user edited it (items dropped, a
  worker's persona changed, budgets set): :func:`check_edited_plan` validates it
  when the answer is given (``core/inbox.py`` refuses a bad one with a clear error);
* ``deny`` / ``deny: <reason>`` — turned down; with a reason the lead revises.

Importing this module registers the check with the inbox (the runtime imports it).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from openworker_qt.core.inbox import APPROVE_WITH_TEXT, Inbox
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.teams.model import USER, BoardError, Plan
from openworker_qt.teams.store import TeamStore

__all__ = ["PLAN_TOOL", "check_edited_plan", "parse_answer", "plan_tool"]

PLAN_TOOL = "team_plan"


def check_edited_plan(text: str) -> None:
    """Raise ``ValueError`` unless ``text`` is the JSON of a usable :class:`Plan`."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"it is not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError("it must be a JSON object")
    try:
        Plan.from_json(data)
    except BoardError as exc:
        raise ValueError(str(exc)) from exc


APPROVE_WITH_TEXT[PLAN_TOOL] = check_edited_plan


def parse_answer(resolution: str, proposed: Plan) -> tuple[Plan | None, str]:
    """(the plan to carry out, or None when turned down; the user's reason)."""
    verdict, _, rest = (resolution or "").partition(":")
    if verdict.strip().lower() in ("approve", "approved", "once", "yes"):
        rest = rest.strip()
        return (Plan.from_json(json.loads(rest)) if rest else proposed), ""
    return None, rest.strip() if verdict.strip().lower() == "deny" else resolution.strip()


def plan_key(team_id: str, plan: Plan, round_: int = 0) -> str:
    """The plan item's call key: the same proposal in the same round (plans turned down
    before it) asks once, so a resumed call finds its item; a proposal made again
    after one was turned down asks again."""
    digest = hashlib.sha256(json.dumps(plan.to_json(), sort_keys=True).encode()).hexdigest()
    return f"team_plan:{team_id}:{round_}:{digest[:16]}"


def plan_tool(store: TeamStore, inbox: Inbox, team_id: str, label: str) -> Tool:
    """The lead's ``team_plan``: propose the plan and the staffing, wait for the one
    answer. The proposal is checked before anyone is asked (model output: never
    trusted); the board records ``plan_proposed`` and then the answer."""

    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        raw = args.get("plan")
        if isinstance(raw, str):
            try:
                raw = json.loads(raw)
            except ValueError:
                return ToolResult("The plan must be a JSON object (see the tool's schema).",
                                  is_error=True)
        try:
            plan = Plan.from_json(raw if isinstance(raw, dict) else {})
        except BoardError as exc:
            return ToolResult(f"The plan was not proposed: {exc}. Fix it and call team_plan "
                              "again.", is_error=True)
        declined = sum(1 for e in store.events(team_id) if e.kind == "plan_declined")
        key = plan_key(team_id, plan, declined)
        async with inbox.db.writing():
            store.record(team_id, "plan_proposed", key=key, plan=plan.to_json())
            item = inbox.add(
                "plan", ctx.session_id, tool=PLAN_TOOL, call_key=key,
                arguments={"team_id": team_id, "plan": plan.to_json()},
                title=f"{label}: the plan for “{plan.outcome}”"[:200],
            )
        if item.pending:
            item = await inbox.wait(item.id)
        try:
            chosen, reason = parse_answer(item.resolution or "", plan)
        except (ValueError, BoardError) as exc:  # (checked when answered: a hand-edited db)
            chosen, reason = None, f"the edited plan could not be used ({exc})"
        async with inbox.db.writing():
            if chosen is not None:
                store.record(team_id, "plan_accepted", key=f"plan_accepted:{team_id}",
                             actor=USER, plan=chosen.to_json())
            else:
                store.record(team_id, "plan_declined", key=f"plan_declined:{key}",
                             actor=USER, reason=reason, replan=bool(reason))
        if chosen is None:
            text = "The user turned the plan down."
            if reason:
                return ToolResult(f"{text} Their reason (their words, as data):\n> {reason}\n"
                                  "Revise the plan and propose it again with team_plan.",
                                  display={"plan": "rejected"})
            return ToolResult(f"{text} The team stops here.", display={"plan": "rejected"})
        edited = " (with their edits)" if chosen != plan else ""
        return ToolResult(
            f"The user approved the plan{edited}: {len(chosen.items)} item(s), "
            f"{len(chosen.workers)} worker(s). The workers start now; do not do their items "
            "yourself. You will be told when an item reaches review: accept it or send it "
            "back with a comment.", display={"plan": "approved"})

    return Tool(
        name=PLAN_TOOL,
        description=(
            "Propose the team's plan for the user's one approval: the work items (each "
            "with acceptance criteria and the worker it goes to) and the workers (a name, "
            "a persona, a permission mode: 'plan' is read-only). Call it once; wait for "
            "the answer. Items: key, title, criteria, worker, budget_usd. Workers: name, "
            "persona, mode, model."
        ),
        parameters={
            "type": "object",
            "properties": {"plan": {
                "type": "object",
                "properties": {
                    "outcome": {"type": "string"},
                    "items": {"type": "array", "items": {"type": "object"}},
                    "workers": {"type": "array", "items": {"type": "object"}},
                    "budget_usd": {"type": "number"},
                    "max_parallel": {"type": "integer"},
                },
                "required": ["outcome", "items", "workers"],
            }},
            "required": ["plan"],
        },
        handler=handler,
        risk=RiskClass.READ,
    )
