"""A session's tokens and their estimated cost, for the status bar (no widgets here).

:class:`UsageReader` reads a session's usage per model from the database (a few rows
of running totals the database keeps, however long the session:
:func:`openworker_qt.storage.usage.session_usage`; blocking, so the label calls
:meth:`~UsageReader.rows` from a worker) and prices it from the shipped list and the
user's ``[prices]`` settings, read each time (the price table is rebuilt only when
that setting changed). The price tables and their words load at the first use: a
window whose session used no tokens never imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from openworker_qt.domain.usage import ModelUsage, Usage

if TYPE_CHECKING:
    from openworker_qt.providers.pricing import PriceTable
    from openworker_qt.storage.db import Database

__all__ = ["ModelUsage", "UsageReader"]


class UsageReader:
    """See module docstring. ``prices()``: the config's ``[prices]`` table now."""

    def __init__(self, db: Database, prices: Callable[[], Any]) -> None:
        self.db = db
        self._prices = prices
        self._table_for: Any = object()
        self._table: PriceTable | None = None

    def rows(self, session_id: str) -> list[ModelUsage]:
        """The session's usage per model, the most used first (blocking: a worker's)."""
        from openworker_qt.storage.usage import session_usage

        return session_usage(self.db, session_id)

    def table(self) -> PriceTable:
        from openworker_qt.providers.pricing import PriceTable

        raw = self._prices()
        if self._table is None or raw is not self._table_for:
            self._table_for = raw
            self._table = PriceTable.from_config(raw)[0]
        return self._table

    def cost(self, model: str, usage: Usage) -> float | None:
        """What ``usage`` of ``model`` cost at list prices (None: no price known)."""
        return self.table().cost(model, usage)

    def total(self, rows: Iterable[ModelUsage]) -> tuple[Usage, float | None]:
        """The rows' sum and its cost (None when a model's price is not known)."""
        rows = list(rows)
        total = Usage.total(r.usage for r in rows)
        if not rows:  # (nothing used: no price to look up)
            return total, 0
        costs = [self.cost(r.model, r.usage) for r in rows]
        cost = None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
        return total, cost

    @staticmethod
    def describe(usage: Usage, cost: float | None = None) -> str:
        """``12k in · 800 out · ≈ $0.04`` (the tooltip's lines)."""
        from openworker_qt.providers.pricing import describe

        return describe(usage, cost)

    @staticmethod
    def format_cost(dollars: float | None) -> str:
        from openworker_qt.providers.pricing import format_cost

        return format_cost(dollars)
