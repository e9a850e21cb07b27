"""The tokens and estimated cost of the open session, discreetly, in the status bar.

Shows the session's total in a few characters ("12k tokens · ≈ $0.04"); the
tooltip (and the accessible description) gives the last turn and the session in
detail: input (and how much of it came from the provider's cache), output (and
how much of it was thinking), the estimate per model. The totals are read from
the database in a worker by the window's :class:`~openworker_qt.qt.usage_reader.UsageReader`
(a few rows of running totals the database keeps, however long the session),
never on the GUI thread; it prices them from the shipped list and the user's
``[prices]`` settings.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QWidget

from openworker_qt.core import events as ev
from openworker_qt.domain.usage import ModelUsage, Usage, compact_count
from openworker_qt.qt.usage_reader import UsageReader

log = logging.getLogger(__name__)


class UsageLabel(QLabel):
    """See module docstring. ``reader``: where the session's usage and prices come from."""

    def __init__(self, reader: UsageReader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageLabel")
        self.setAccessibleName(self.tr("Tokens and cost"))
        self.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted: information
        self.reader = reader
        self.session_id: str | None = None
        self.turn = Usage()
        self.turn_cost: float | None = None
        self.rows: list[ModelUsage] = []
        self._task: asyncio.Task[None] | None = None
        self._models: dict[str, str] = {}  # session id -> the model of its running turn
        self.hide()

    def show_session(self, session_id: str | None) -> None:
        """Follow another session (``None``: a new one, nothing used yet)."""
        self.session_id = session_id
        self.turn, self.turn_cost = Usage(), None
        self.rows = []
        self._render()
        self.refresh()

    def on_event(self, event: Any) -> None:
        """Follow the engine's events: a turn's model when it starts, its usage at its end."""
        if isinstance(event, ev.TurnStarted):
            self._models[event.session_id] = event.model
        elif isinstance(event, ev.TurnEnded):
            model = self._models.pop(event.session_id, "")
            self.turn_ended(event.session_id, event.usage, model)

    def turn_ended(self, session_id: str, usage: Mapping[str, int], model: str) -> None:
        """A turn of ``session_id`` ended: its own usage, then the session's total."""
        if session_id != self.session_id:
            return
        self.turn = Usage.of(usage)
        self.turn_cost = self.reader.cost(model, self.turn)
        self.refresh()

    def refresh(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self.session_id is None:
            return
        self._task = asyncio.ensure_future(self._load(self.session_id))

    async def _load(self, session_id: str) -> None:
        try:
            rows = await asyncio.to_thread(self.reader.rows, session_id)
        except asyncio.CancelledError:
            return
        except Exception:  # (the window is closing, the database is gone): shown next time
            log.debug("reading the usage of %s failed", session_id, exc_info=True)
            return
        if session_id == self.session_id:
            self.rows = rows
            self._render()

    def session_total(self) -> tuple[Usage, float | None]:
        return self.reader.total(self.rows)

    def _render(self) -> None:
        total, cost = self.session_total()
        if not total:
            self.setText("")
            self.setToolTip("")
            self.hide()
            return
        describe = self.reader.describe
        tokens = compact_count(total.input_tokens + total.output_tokens)
        if total.estimated:  # a local server that counts nothing: an estimate
            text = self.tr("~{tokens} tokens (estimated)").format(tokens=tokens)
        elif total.estimated_tokens:
            text = self.tr("{tokens} tokens ({estimated} estimated)").format(
                tokens=tokens, estimated=compact_count(total.estimated_tokens))
        else:
            text = self.tr("{tokens} tokens").format(tokens=tokens)
        if cost is not None:
            text += f" · ≈ {self.reader.format_cost(cost)}"
        self.setText(text)
        lines = []
        if self.turn:
            lines.append(self.tr("Last turn: {usage}").format(usage=describe(self.turn, self.turn_cost)))
        lines.append(self.tr("This session: {usage}").format(usage=describe(total, cost)))
        if len(self.rows) > 1:
            for row in self.rows:
                lines.append(f"  {row.model}: {describe(row.usage, self.reader.cost(row.model, row.usage))}")
        lines.append(self.tr("Costs are estimates from list prices; edit them under [prices] "
                             "in the settings file."))
        tip = "\n".join(lines)
        self.setToolTip(tip)
        self.setAccessibleDescription(tip)
        self.show()
