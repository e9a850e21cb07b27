"""What a session's model calls used, read from its stored messages.

The engine keeps each call's usage on the assistant message it produced (a
compaction's on its notice, a sub-agent's on its tool result), in the shape of
:mod:`openworker_qt.domain.usage`.
The session's total per model is kept as a running sum by the database itself
(the ``session_usage`` table, schema steps 5 and 6 of ``storage/conversation_schema.py``:
triggers update it in the transaction that writes or deletes a message), so it
is read in a few rows however long the session is. :func:`scan_session_usage`
sums the messages themselves (a part of a session; the reference the running
totals are checked against). Blocking: call from a worker off the GUI thread.
"""

from __future__ import annotations

import sqlite3

from openworker_qt.domain.usage import KEYS, ModelUsage, Usage
from openworker_qt.storage.db import Database

_SUMS = ", ".join(f"SUM(COALESCE(json_extract(data, '$.usage.{k}'), 0))" for k in KEYS)
_COLUMNS = ", ".join(KEYS)


def session_usage(db: Database, session_id: str, *, since_id: int = 0) -> list[ModelUsage]:
    """The session's usage per model, the most used first (``since_id``: only messages
    stored after that row id, summed from the messages)."""
    if since_id:
        return scan_session_usage(db, session_id, since_id=since_id)
    rows = db.query(
        f"SELECT model, calls, {_COLUMNS} FROM session_usage WHERE session_id = ?"
        " ORDER BY calls DESC, model",
        (session_id,),
    )
    return _models(rows)


def scan_session_usage(db: Database, session_id: str, *, since_id: int = 0) -> list[ModelUsage]:
    """:func:`session_usage` summed from the session's messages stored after
    ``since_id`` (reads every one of them: for a part of a session)."""
    rows = db.query(
        f"SELECT CAST(COALESCE(json_extract(data, '$.model'), '') AS TEXT) AS model,"
        f" COUNT(*) AS calls, {_SUMS}"
        " FROM messages WHERE session_id = ? AND id > ? AND role IN ('assistant', 'notice', 'tool')"
        " AND json_extract(CASE WHEN json_valid(data) THEN data END, '$.usage') IS NOT NULL"
        " GROUP BY model ORDER BY calls DESC, model",
        (session_id, since_id),
    )
    return _models(rows)


def _models(rows: list[sqlite3.Row]) -> list[ModelUsage]:
    out = []
    for row in rows:
        values = {k: int(row[2 + i] or 0) for i, k in enumerate(KEYS)}
        out.append(ModelUsage(str(row[0]), Usage(**values), int(row[1])))
    return out


def last_turn_start(db: Database, session_id: str) -> int:
    """The row id of the session's latest message typed by the user (0: none)."""
    rows = db.query(
        "SELECT MAX(id) FROM messages WHERE session_id = ? AND role = 'user'", (session_id,)
    )
    return int(rows[0][0] or 0) if rows else 0
