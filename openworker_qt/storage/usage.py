"""What a session's model calls used, read from its stored messages.

The engine keeps each call's usage on the assistant message it produced (and a
compaction's on its notice), in the shape of :mod:`openworker_qt.domain.usage`.
Totals are summed by SQLite (``json_extract``) per model, so a long session is
not decoded row by row. Blocking: call from a worker off the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from openworker_qt.domain.usage import KEYS, Usage
from openworker_qt.storage.db import Database

_SUMS = ", ".join(f"SUM(COALESCE(json_extract(data, '$.usage.{k}'), 0))" for k in KEYS)


@dataclass(frozen=True, slots=True)
class ModelUsage:
    model: str
    usage: Usage
    calls: int


def session_usage(db: Database, session_id: str, *, since_id: int = 0) -> list[ModelUsage]:
    """The session's usage per model, the most used first (``since_id``: only messages
    stored after that row id)."""
    rows = db.query(
        f"SELECT COALESCE(json_extract(data, '$.model'), '') AS model, COUNT(*) AS calls, {_SUMS}"
        " FROM messages WHERE session_id = ? AND id > ? AND role IN ('assistant', 'notice')"
        " AND json_extract(data, '$.usage') IS NOT NULL"
        " GROUP BY model ORDER BY calls DESC",
        (session_id, since_id),
    )
    out = []
    for row in rows:
        values = {k: int(row[2 + i] or 0) for i, k in enumerate(KEYS)}
        out.append(ModelUsage(str(row["model"]), Usage(**values), int(row["calls"])))
    return out


def last_turn_start(db: Database, session_id: str) -> int:
    """The row id of the session's latest message typed by the user (0: none)."""
    rows = db.query(
        "SELECT MAX(id) FROM messages WHERE session_id = ? AND role = 'user'", (session_id,)
    )
    return int(rows[0][0] or 0) if rows else 0
