"""Audit trail: every stage of every tool call, queryable per session.

Stages: ``proposed``, ``auto_allowed`` (with the rule that allowed it),
``approval_requested``, ``approval_resolved``, ``started``, ``finished``,
``denied``, ``filtered``, ``interrupted``, ``rerun_confirmation``.

``started`` is committed *before* a tool runs. On resume, a call that has a
``started`` entry but no result may already have had its effect, so the engine
asks before running a consequential one again (see ``engine.py``).

The ``proposed`` entry of a call also records its risk class and its tool's
origin (``builtin``, ``mcp:<server>``, ``connector:<name>``; empty for a tool name
the model made up), in their own columns so they can be queried.

Only an argument preview is stored (never raw arguments). A model can still put
a secret it has seen into a call (a path, a command, a made-up tool name), so
:class:`AuditLog` takes a ``redact`` function (the runtime passes
:func:`openworker_qt.storage.secrets.redact`) and applies it to every text it
stores — the tool name, the call ids and rule, every string in the details — and
to the ids it looks up, which therefore match the redacted history a resumed
turn reads its calls from.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from openworker_qt.storage.db import Database

MIGRATIONS = [
    """
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        stage TEXT NOT NULL,
        rule TEXT,
        detail TEXT NOT NULL DEFAULT '{}',
        ts REAL NOT NULL
    );
    CREATE INDEX audit_by_call ON audit(session_id, call_id, id);
    """,
    """
    ALTER TABLE audit ADD COLUMN risk TEXT;
    ALTER TABLE audit ADD COLUMN origin TEXT;
    ALTER TABLE audit ADD COLUMN call_key TEXT;
    CREATE INDEX audit_by_key ON audit(session_id, call_key);
    """,
]


_INSERT = (
    "INSERT INTO audit(session_id, call_id, tool, stage, rule, detail, ts, risk, origin,"
    " call_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    session_id: str
    call_id: str
    tool: str
    stage: str
    rule: str | None
    detail: dict[str, Any]
    ts: float
    risk: str | None = None
    origin: str | None = None
    call_key: str | None = None


class AuditSink(Protocol):
    def record(
        self, session_id: str, call_id: str, tool: str, stage: str, *, rule: str | None = None,
        risk: str | None = None, origin: str | None = None, call_key: str | None = None,
        **detail: Any,
    ) -> None: ...

    def was_started(
        self, session_id: str, call_id: str, *, call_key: str | None = None
    ) -> bool: ...


Redact = Callable[[str], str]


def scrub(value: Any, redact: Redact) -> Any:
    """``value`` with ``redact`` applied to every string in it (dict keys included)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {scrub(k, redact): scrub(v, redact) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(v, redact) for v in value]
    return value


def _same(text: str) -> str:
    return text


class AuditLog:
    """The audit table. ``redact`` is applied to every text stored (see the module
    docstring); without one, texts are stored as given."""

    def __init__(self, db: Database, *, redact: Redact | None = None) -> None:
        self.db = db
        self.redact: Redact = redact or _same
        db.ensure("audit", MIGRATIONS)

    def _opt(self, text: str | None) -> str | None:
        return None if text is None else self.redact(text)

    def record(
        self, session_id: str, call_id: str, tool: str, stage: str, *, rule: str | None = None,
        risk: str | None = None, origin: str | None = None, call_key: str | None = None,
        **detail: Any,
    ) -> None:
        r = self.redact
        self.db.execute(
            _INSERT,
            (session_id, r(call_id), r(tool), stage, self._opt(rule),
             json.dumps(scrub(detail, r), ensure_ascii=False, default=lambda o: r(str(o)))
             if detail else "{}",
             time.time(), risk, self._opt(origin), self._opt(call_key)),
        )

    def for_session(self, session_id: str) -> list[AuditEntry]:
        rows = self.db.query(
            "SELECT * FROM audit WHERE session_id = ? ORDER BY id", (session_id,)
        )
        return [_entry(r) for r in rows]

    def stages(self, session_id: str, call_id: str) -> list[str]:
        rows = self.db.query(
            "SELECT stage FROM audit WHERE session_id = ? AND call_id = ? ORDER BY id",
            (session_id, self.redact(call_id)),
        )
        return [str(r[0]) for r in rows]

    def was_started(self, session_id: str, call_id: str, *, call_key: str | None = None) -> bool:
        """Did this call start? With a ``call_key`` (a call instance, see
        ``core/inbox.py``) only that instance counts: vendors reuse call ids across
        turns. A key equal to the vendor id is a call stored before keys existed."""
        if call_key is not None and call_key != call_id:
            sql, params = "call_key = ?", (session_id, self.redact(call_key))
        else:
            sql, params = "call_id = ?", (session_id, self.redact(call_id))
        rows = self.db.query(
            f"SELECT 1 FROM audit WHERE session_id = ? AND {sql} AND stage = 'started' LIMIT 1",
            params,
        )
        return bool(rows)


class MemoryAudit:
    """An audit sink in memory (sub-agents, tests)."""

    def __init__(self) -> None:
        self.entries: list[AuditEntry] = []

    def record(
        self, session_id: str, call_id: str, tool: str, stage: str, *, rule: str | None = None,
        risk: str | None = None, origin: str | None = None, call_key: str | None = None,
        **detail: Any,
    ) -> None:
        self.entries.append(AuditEntry(
            session_id, call_id, tool, stage, rule, detail, time.time(), risk, origin, call_key,
        ))

    def was_started(self, session_id: str, call_id: str, *, call_key: str | None = None) -> bool:
        keyed = call_key is not None and call_key != call_id
        return any(
            e.session_id == session_id and e.stage == "started"
            and (e.call_key == call_key if keyed else e.call_id == call_id)
            for e in self.entries
        )


def _entry(row: Any) -> AuditEntry:
    try:
        detail = json.loads(row["detail"] or "{}")
    except ValueError:
        detail = {}
    return AuditEntry(
        row["session_id"], row["call_id"], row["tool"], row["stage"], row["rule"],
        detail if isinstance(detail, dict) else {}, float(row["ts"]), row["risk"], row["origin"],
        row["call_key"],
    )
