"""What a team session's model calls cost, recorded on the board as ``spend``.

After each model call of a team session the session's whole cost so far (its
usage per model, from the database's running sums, priced by the prices table)
is compared with what the board already holds for that session; the difference
is recorded as one ``spend`` event (for the worker's item, or the team for the
lead), keyed by the session and its number of calls, so a call is never counted
twice, also after a restart.
"""

from __future__ import annotations

from collections.abc import Callable

from openworker_qt.providers.pricing import PriceTable
from openworker_qt.storage.db import Database
from openworker_qt.storage.usage import session_usage
from openworker_qt.teams.store import TeamStore

__all__ = ["SpendMeter"]


class SpendMeter:
    def __init__(self, db: Database, prices: Callable[[], PriceTable]) -> None:
        self.db = db
        self.prices = prices

    def total(self, session_id: str) -> tuple[float, int, int]:
        """(dollars, tokens, calls) of the session so far (unknown prices count 0)."""
        table = self.prices()
        usd, tokens, calls = 0.0, 0, 0
        for used in session_usage(self.db, session_id):
            usd += table.cost(used.model, used.usage) or 0.0
            tokens += used.usage.input_tokens + used.usage.output_tokens
            calls += used.calls
        return usd, tokens, calls

    @staticmethod
    def recorded(store: TeamStore, team_id: str, item_id: str) -> tuple[float, int]:
        """What the board holds for the session: its item's spend (one session per
        item), or the lead's share (the team's less its items')."""
        if item_id:
            item = store.item(item_id)
            return (item.cost_usd, item.tokens) if item is not None else (0.0, 0)
        team = store.team(team_id)
        items = store.items(team_id)
        if team is None:
            return 0.0, 0
        return (team.spent_usd - sum(i.cost_usd for i in items),
                team.tokens - sum(i.tokens for i in items))

    def account(self, store: TeamStore, team_id: str, session_id: str, item_id: str) -> bool:
        """Record what the session spent since the board last heard; True if it did."""
        usd, tokens, calls = self.total(session_id)
        seen_usd, seen_tokens = self.recorded(store, team_id, item_id)
        if calls == 0 or (usd - seen_usd <= 1e-9 and tokens <= seen_tokens):
            return False
        store.record(team_id, "spend", item_id, key=f"spend:{session_id}:{calls}",
                     usd=max(0.0, usd - seen_usd), tokens=max(0, tokens - seen_tokens))
        return True
