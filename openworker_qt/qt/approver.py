"""QtApprover: the attended sessions' approver and questioner, answered by widgets.

The engine awaits :meth:`QtApprover.approve` (an ``Approver``) or
:meth:`QtApprover.ask` (a ``Questioner``). Each call registers a pending ask
keyed by ``(session_id, call_id)`` and announces it; any surface (inline card,
dialog, inbox window, tray menu, notification action) answers through
:meth:`resolve` / :meth:`answer`. The first answer wins; later ones return
``False``, and every surface learns the outcome from ``resolved`` so it can
close or update itself.

An optional *outside* hook lets a store shared with other processes (the
inbox) resolve an ask: :meth:`attach_outside` gets a callable polled every
``poll_ms``; it returns answers found elsewhere (e.g. by the CLI).

Signals:
    requested(object): an :class:`ApprovalRequest` or :class:`QuestionRequest` now waits.
    resolved(str, str, str): session id, call id, outcome (``once``/``deny``/… or the answer).
    pending_changed(): the set of pending asks changed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest, QuestionRequest

Key = tuple[str, str]
#: Called with the pending keys; returns {key: answer string} for asks answered elsewhere.
OutsidePoll = Callable[[list[Key]], dict[Key, str]]


@dataclass(slots=True)
class PendingAsk:
    request: ApprovalRequest | QuestionRequest
    future: asyncio.Future[str]

    @property
    def key(self) -> Key:
        return (self.request.session_id, self.request.call_id)

    @property
    def is_approval(self) -> bool:
        return isinstance(self.request, ApprovalRequest)


class QtApprover(QObject):
    """Pending approvals/questions of attended sessions (see module docstring)."""

    requested = Signal(object)
    resolved = Signal(str, str, str)
    pending_changed = Signal()

    def __init__(self, parent: QObject | None = None, *, poll_ms: int = 1000) -> None:
        super().__init__(parent)
        self._pending: dict[Key, PendingAsk] = {}
        self._outside: OutsidePoll | None = None
        self._on_register: Callable[[ApprovalRequest | QuestionRequest], None] | None = None
        self._on_resolve: Callable[[Key, str], None] | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(poll_ms)
        self._timer.timeout.connect(self._poll_outside)

    # ----------------------------------------------------------- engine side

    async def approve(self, request: ApprovalRequest) -> ApprovalOutcome:
        answer = await self._wait(request)
        try:
            return ApprovalOutcome(answer)
        except ValueError:
            return ApprovalOutcome.DENY

    async def ask(self, request: QuestionRequest) -> str:
        return await self._wait(request)

    async def _wait(self, request: ApprovalRequest | QuestionRequest) -> str:
        key = (request.session_id, request.call_id)
        existing = self._pending.get(key)
        if existing is not None:  # resumed turn asking again: share the same ask
            return await asyncio.shield(existing.future)
        fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        ask = PendingAsk(request, fut)
        self._pending[key] = ask
        if self._on_register is not None:
            self._on_register(request)
        self.requested.emit(request)
        self.pending_changed.emit()
        try:
            return await fut
        finally:
            # Stopped while waiting (the engine cancels us): the ask is gone.
            if self._pending.get(key) is ask:  # not settled: cancelled by a stop
                del self._pending[key]
                if self._on_resolve is not None:
                    self._on_resolve(key, "cancelled")
                self.resolved.emit(key[0], key[1], "cancelled")
                self.pending_changed.emit()

    # ----------------------------------------------------------- surface side

    def pending(self, session_id: str | None = None) -> list[ApprovalRequest | QuestionRequest]:
        return [
            a.request for a in self._pending.values()
            if session_id is None or a.request.session_id == session_id
        ]

    def get(self, session_id: str, call_id: str) -> ApprovalRequest | QuestionRequest | None:
        ask = self._pending.get((session_id, call_id))
        return ask.request if ask else None

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for sid, _ in self._pending:
            out[sid] = out.get(sid, 0) + 1
        return out

    def resolve(self, session_id: str, call_id: str, outcome: ApprovalOutcome | str) -> bool:
        """Answer an approval. Returns False if it was already answered (first wins)."""
        value = outcome.value if isinstance(outcome, ApprovalOutcome) else str(outcome)
        return self._settle((session_id, call_id), value, local=True)

    def answer(self, session_id: str, call_id: str, text: str) -> bool:
        """Answer a question / plan / directory ask."""
        return self._settle((session_id, call_id), text, local=True)

    def _settle(self, key: Key, value: str, *, local: bool) -> bool:
        ask = self._pending.pop(key, None)
        if ask is None or ask.future.done():
            return False
        if local and self._on_resolve is not None:
            self._on_resolve(key, value)
        ask.future.set_result(value)
        self.resolved.emit(key[0], key[1], value)
        self.pending_changed.emit()
        return True

    # ------------------------------------------------------------ outside store

    def attach_outside(
        self,
        poll: OutsidePoll,
        *,
        on_register: Callable[[ApprovalRequest | QuestionRequest], None] | None = None,
        on_resolve: Callable[[Key, str], None] | None = None,
    ) -> None:
        """Mirror asks into a shared store and pick up answers given elsewhere."""
        self._outside = poll
        self._on_register = on_register
        self._on_resolve = on_resolve
        self._timer.start()

    def _poll_outside(self) -> None:
        if self._outside is None or not self._pending:
            return
        for key, value in self._outside(list(self._pending)).items():
            self._settle(key, value, local=False)
