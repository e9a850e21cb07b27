"""InboxBridge: the core :class:`~openworker_qt.core.inbox.Inbox` as Qt signals.

Every ask — attended or not — is an inbox item (the engine's approver is the
core ``InboxApprover``), so the inline card, the dialog, the inbox window, the
tray menu, a notification action and the CLI in another process all resolve
*the same row*, and the first answer wins.

Changes made in this process arrive through the inbox's listener hook (on the
loop thread, synchronously). Changes made by another process (the CLI) are
noticed by polling ``PRAGMA data_version`` once a second — a cheap query that
only changes when another connection committed — and re-reading the pending
list, so the UI catches up well within the two seconds the issue allows (the
waiting turn itself is woken by ``Inbox.wait`` sooner).

Signals:
    item_added(object): a new pending :class:`InboxItem`.
    item_resolved(object): an item left the pending list (resolved here or elsewhere).
    pending_changed(): the pending set changed (counts, badges, tray).
    database_changed(): another connection (another process: the CLI, a second
        window) committed to the database; views that list stored things (the
        sessions sidebar) re-read them. Emitted at most once per poll, only when
        ``PRAGMA data_version`` moved.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from openworker_qt.core.approvals import ApprovalRequest, QuestionRequest
from openworker_qt.core.inbox import Inbox, InboxItem, task_command
from openworker_qt.core.risk import RiskClass

log = logging.getLogger(__name__)


def approval_request(item: InboxItem) -> ApprovalRequest:
    try:
        risk = RiskClass(item.risk)
    except ValueError:
        risk = RiskClass.EXTERNAL
    return ApprovalRequest(
        session_id=item.session_id,
        call_id=item.tool_call_id or f"inbox-{item.id}",
        tool=item.tool,
        arguments=item.arguments,
        risk=risk,
        reason=item.reason,
        target=item.target,
        can_always=item.can_always,
        standing_target=item.standing_target,
        about=item.about,
        always_command=task_command(item),
        always_scope=item.always_scope,
    )


def question_request(item: InboxItem) -> QuestionRequest:
    prompt = str(item.arguments.get("question") or item.arguments.get("plan")
                 or item.arguments.get("path") or item.title)
    return QuestionRequest(
        session_id=item.session_id,
        call_id=item.tool_call_id or f"inbox-{item.id}",
        kind=item.kind,
        prompt=prompt,
        options=item.options,
        extra=dict(item.arguments),
    )


class InboxBridge(QObject):
    """See module docstring."""

    item_added = Signal(object)
    item_resolved = Signal(object)
    pending_changed = Signal()
    database_changed = Signal()

    def __init__(self, inbox: Inbox, parent: QObject | None = None, *, poll_ms: int = 1000) -> None:
        super().__init__(parent)
        self.inbox = inbox
        self._pending: dict[int, InboxItem] = {i.id: i for i in inbox.pending()}
        self._version = inbox.data_version()
        inbox.listeners.append(self._on_inbox_item)
        self._timer = QTimer(self)
        self._timer.setInterval(poll_ms)
        self._timer.timeout.connect(self._on_timer_poll)
        self._timer.start()

    def detach(self) -> None:
        self._timer.stop()
        if self._on_inbox_item in self.inbox.listeners:
            self.inbox.listeners.remove(self._on_inbox_item)

    # ------------------------------------------------------------------ reading

    def pending(self, session_id: str | None = None, kind: str | None = None) -> list[InboxItem]:
        return [
            i for i in sorted(self._pending.values(), key=lambda i: (i.created_at, i.id))
            if (session_id is None or i.session_id == session_id) and (kind is None or i.kind == kind)
        ]

    def get(self, item_id: int) -> InboxItem | None:
        return self._pending.get(item_id)

    def lookup(self, item_id: int) -> InboxItem | None:
        """The item as stored now, answered or not (``get`` knows the pending only)."""
        return self.inbox.get(item_id)

    def find(self, session_id: str, call_id: str) -> InboxItem | None:
        for item in self._pending.values():
            if item.session_id == session_id and item.tool_call_id == call_id:
                return item
        return None

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for item in self._pending.values():
            out[item.session_id] = out.get(item.session_id, 0) + 1
        return out

    # ------------------------------------------------------------------ writing

    def resolve(self, item_id: int, resolution: str, *, by: str = "window") -> bool:
        """Answer an item; False if someone else answered first."""
        won = self.inbox.resolve(item_id, resolution, by=by)
        if not won:
            self.refresh()  # show what actually happened
        return won

    def resolve_call(self, session_id: str, call_id: str, resolution: str, *, by: str = "window") -> bool:
        item = self.find(session_id, call_id)
        return item is not None and self.resolve(item.id, resolution, by=by)

    # ------------------------------------------------------------------ intake

    def _on_inbox_item(self, item: InboxItem) -> None:
        if item.pending:
            if item.id not in self._pending:
                self._pending[item.id] = item
                self.item_added.emit(item)
                self.pending_changed.emit()
        elif self._pending.pop(item.id, None) is not None:
            self.item_resolved.emit(item)
            self.pending_changed.emit()

    def _on_timer_poll(self) -> None:
        try:
            version = self.inbox.data_version()
        except Exception:  # database closed during shutdown
            self._timer.stop()
            return
        if version != self._version:
            self._version = version
            self.refresh()
            self.database_changed.emit()

    def refresh(self) -> None:
        """Re-read the pending list and announce the difference."""
        current = {i.id: i for i in self.inbox.pending()}
        gone = [i for k, i in self._pending.items() if k not in current]
        new = [i for k, i in current.items() if k not in self._pending]
        self._pending = current
        for item in gone:
            resolved: Any = self.inbox.get(item.id) or item
            self.item_resolved.emit(resolved)
        for item in new:
            self.item_added.emit(item)
        if gone or new:
            self.pending_changed.emit()
