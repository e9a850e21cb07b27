"""A team session's asks, parked in the inbox and labelled with the team and the worker.

A worker's approvals and questions are ordinary inbox items (answered from the
window, the tray, ``openworker-qt answer``, Slack): the same kinds, the same
resolutions, the same idempotency per call instance as
:class:`~openworker_qt.core.approvers.InboxApprover`. Only the title differs: it
says which team and which worker asks ("Team 3 · researcher: write_file wants to
run"), so a user with several teams knows whose ask it is. The lead's plan
(``team_plan``) becomes the one plan item of the team: kind ``plan``, tool
``team_plan``, arguments ``{"team_id", "plan"}``.

The turn waits in its task (``wait=True``): unattended, like a scheduled run's.
"""

from __future__ import annotations

from collections.abc import Callable

from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest, QuestionRequest
from openworker_qt.core.approvers import outcome_of
from openworker_qt.core.inbox import WITHDRAWN, Inbox, InboxItem, InboxKind
from openworker_qt.storage.conversations import SessionInfo

__all__ = ["TeamApprover", "TeamQuestioner", "team_label"]

PLAN_TOOL = "team_plan"


def team_label(info: SessionInfo) -> str:
    """``Team 3 · researcher`` (a worker), ``Team 3 · lead``; empty for other sessions."""
    meta = info.meta if isinstance(info.meta, dict) else {}
    team = str(meta.get("team_id") or "")
    if not team:
        return ""
    who = str(meta.get("worker") or meta.get("team_role") or "")
    return f"Team {team} · {who}" if who else f"Team {team}"


async def _settle(inbox: Inbox, item: InboxItem, poll: float) -> InboxItem:
    if not item.pending:
        return item
    return await inbox.wait(item.id, poll=poll)


def _withdraw(inbox: Inbox, session_id: str, call_key: str) -> None:
    item = inbox.find_key(session_id, call_key)
    if item is not None and item.pending:
        inbox.resolve(item.id, WITHDRAWN, by="stop")


class TeamApprover:
    """Approvals of a team session, waiting in the inbox (see module docstring)."""

    def __init__(self, inbox: Inbox, label: Callable[[], str], *, poll: float = 0.25) -> None:
        self.inbox = inbox
        self.label = label
        self.poll = poll

    async def __call__(self, request: ApprovalRequest) -> ApprovalOutcome:
        label = self.label()
        async with self.inbox.db.writing():
            item = self.inbox.add(
                "approval", request.session_id, tool_call_id=request.call_id,
                tool=request.tool, arguments=request.arguments,
                title=f"{label}: {request.tool} wants to run" if label else
                f"{request.tool} wants to run",
                reason=request.reason, risk=request.risk.value, target=request.target,
                standing_target=request.standing_target, can_always=request.can_always,
                call_key=request.call_key, about=request.about,
            )
        item = await _settle(self.inbox, item, self.poll)
        return outcome_of(item.resolution)

    def cancel(self, request: ApprovalRequest) -> None:
        _withdraw(self.inbox, request.session_id, request.call_key or request.call_id)


class TeamQuestioner:
    """Questions, folder requests and the lead's plan of a team session, in the inbox."""

    def __init__(self, inbox: Inbox, label: Callable[[], str], *, poll: float = 0.25) -> None:
        self.inbox = inbox
        self.label = label
        self.poll = poll

    async def __call__(self, request: QuestionRequest) -> str:
        tool = str(request.extra.get("_tool", "ask_user"))
        kind: InboxKind = request.kind if request.kind in ("plan", "directory") else "question"  # type: ignore[assignment]
        arguments = {k: v for k, v in request.extra.items() if not k.startswith("_")}
        label = self.label()
        if tool == PLAN_TOOL:
            plan = arguments.get("plan")
            outcome = plan.get("outcome", "") if isinstance(plan, dict) else ""
            title = f"{label}: the plan for “{outcome}”" if outcome else f"{label}: the plan"
        else:
            title = f"{label}: {request.prompt}" if label else request.prompt
        async with self.inbox.db.writing():
            item = self.inbox.add(
                kind, request.session_id, tool_call_id=request.call_id, tool=tool,
                arguments=arguments, title=title[:200], options=request.options,
                call_key=request.call_key,
            )
        item = await _settle(self.inbox, item, self.poll)
        return item.resolution or ""

    def cancel(self, request: QuestionRequest) -> None:
        _withdraw(self.inbox, request.session_id, request.call_key or request.call_id)
