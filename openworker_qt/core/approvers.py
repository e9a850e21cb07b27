"""Approvers and questioners backed by the inbox.

:class:`InboxApprover` parks an approval as an inbox item and waits until some
surface resolves it (window, tray, notification, CLI in another process,
Slack). Because :meth:`Inbox.add` is idempotent per call instance (the
request's ``call_key``, minted by the engine from the step and the vendor's call
id), an approver built again after a restart finds the existing item — resolved
while we were down, or still pending — and never asks twice; a later turn whose
provider reuses the same vendor call id gets an item of its own.

With ``wait=False`` (a CLI started with ``--unattended`` and no ``--wait``) an
unresolved item raises :class:`TurnSuspended`: the engine ends the turn with
status ``suspended`` and leaves the call unanswered for a later resume.

``on_item`` lets an attended surface show its own prompt (a dialog, a card) for
the new item; whatever answers first resolves the one item.

:class:`InboxAsks` lets the engine close the items of calls it closed without
running them (a new message arrived while they waited): they are resolved
``superseded``, so every surface drops them and a late answer is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest, QuestionRequest
from openworker_qt.core.inbox import (
    SUPERSEDED,
    SUPERSEDED_BY,
    WITHDRAWN,
    Inbox,
    InboxItem,
    InboxKind,
)

RESOLUTIONS: dict[str, ApprovalOutcome] = {
    "once": ApprovalOutcome.ONCE,
    "allow": ApprovalOutcome.ONCE,
    "approve": ApprovalOutcome.ONCE,
    "always": ApprovalOutcome.ALWAYS,
    "always_task": ApprovalOutcome.ALWAYS,
    "always_command": ApprovalOutcome.ALWAYS_COMMAND,
    "always_prefix": ApprovalOutcome.ALWAYS_PREFIX,
    "always_folder": ApprovalOutcome.ALWAYS_FOLDER,
    "deny": ApprovalOutcome.DENY,
}


class TurnSuspended(Exception):
    """The turn is parked on an inbox item and this process will not wait."""

    def __init__(self, item: InboxItem) -> None:
        super().__init__(f"waiting in the inbox: item {item.id} ({item.kind} for {item.tool})")
        self.item = item


def outcome_of(resolution: str | None) -> ApprovalOutcome:
    """Map a stored resolution to an outcome; anything unknown is a denial."""
    return RESOLUTIONS.get((resolution or "").strip().lower(), ApprovalOutcome.DENY)


class InboxApprover:
    def __init__(
        self,
        inbox: Inbox,
        *,
        wait: bool = True,
        poll: float = 0.25,
        on_item: Callable[[InboxItem], None] | None = None,
        task_id: str | None = None,
    ) -> None:
        self.inbox = inbox
        self.wait = wait
        self.poll = poll
        self.on_item = on_item
        self.task_id = task_id

    async def __call__(self, request: ApprovalRequest) -> ApprovalOutcome:
        async with self.inbox.db.writing():  # the loop never waits on the lock
            item = self.inbox.add(
                "approval",
                request.session_id,
                tool_call_id=request.call_id,
                tool=request.tool,
                arguments=request.arguments,
                title=f"{request.tool} wants to run",
                reason=request.reason,
                risk=request.risk.value,
                target=request.target,
                standing_target=request.standing_target,
                can_always=request.can_always,
                task_id=self.task_id,
                call_key=request.call_key,
                about=request.about,
                always_scope=None if self.task_id else request.always_scope,
            )
        item = await _settle(self.inbox, item, wait=self.wait, poll=self.poll, on_item=self.on_item)
        return outcome_of(item.resolution)

    def cancel(self, request: ApprovalRequest) -> None:
        """The user stopped the turn: the ask is obsolete everywhere it is shown."""
        _withdraw(self.inbox, request.session_id, request.call_key or request.call_id)


async def _settle(
    inbox: Inbox,
    item: InboxItem,
    *,
    wait: bool,
    poll: float,
    on_item: Callable[[InboxItem], None] | None,
) -> InboxItem:
    """The item once resolved: at once if it already is (a resumed turn), else after
    showing it (``on_item``) and waiting — or suspend the turn when not waiting."""
    if not item.pending:
        return item
    if on_item is not None:
        on_item(item)
    if not wait:
        raise TurnSuspended(item)
    return await inbox.wait(item.id, poll=poll)


def _withdraw(inbox: Inbox, session_id: str, call_key: str) -> None:
    item = inbox.find_key(session_id, call_key)
    if item is not None and item.pending:
        inbox.resolve(item.id, WITHDRAWN, by="stop")


class InboxAsks:
    """The engine's view of open asks (:class:`~openworker_qt.core.approvals.OpenAsks`)
    in the inbox: nothing more than which are waiting, and closing them."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox

    def _pending(self, session_id: str, keys: Collection[str]) -> list[InboxItem]:
        wanted = set(keys)
        return [i for i in self.inbox.pending(session_id) if i.call_key in wanted]

    def waiting(self, session_id: str, keys: Collection[str]) -> set[str]:
        return {str(i.call_key) for i in self._pending(session_id, keys)}

    def supersede(self, session_id: str, keys: Collection[str]) -> None:
        for item in self._pending(session_id, keys):
            self.inbox.resolve(item.id, SUPERSEDED, by=SUPERSEDED_BY)


class InboxQuestioner:
    """Questions, plan approvals and directory requests through the inbox."""

    def __init__(
        self,
        inbox: Inbox,
        *,
        wait: bool = True,
        poll: float = 0.25,
        on_item: Callable[[InboxItem], None] | None = None,
    ) -> None:
        self.inbox = inbox
        self.wait = wait
        self.poll = poll
        self.on_item = on_item

    async def __call__(self, request: QuestionRequest) -> str:
        kind: InboxKind = request.kind if request.kind in ("plan", "directory") else "question"  # type: ignore[assignment]
        async with self.inbox.db.writing():  # the loop never waits on the lock
            item = self.inbox.add(
                kind,
                request.session_id,
                tool_call_id=request.call_id,
                tool=str(request.extra.get("_tool", "ask_user")),
                arguments={k: v for k, v in request.extra.items() if not k.startswith("_")},
                title=request.prompt[:200],
                options=request.options,
                call_key=request.call_key,
            )
        item = await _settle(self.inbox, item, wait=self.wait, poll=self.poll, on_item=self.on_item)
        return item.resolution or ""

    def cancel(self, request: QuestionRequest) -> None:
        _withdraw(self.inbox, request.session_id, request.call_key or request.call_id)
