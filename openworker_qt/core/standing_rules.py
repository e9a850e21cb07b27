"""Standing rules: "always allow this EXTERNAL tool on this exact target".

A rule binds one tool to one exact target string (``send_message →
slack:C0123:1700000000.000100``) within a scope:

* ``session`` — the rule holds for one session (``scope_id`` = session id);
  an "always" answer in the approval card creates one;
* ``task`` — the rule holds for every run of one scheduled task
  (``scope_id`` = task id).

A rule may be bounded: ``expires_at`` (epoch seconds) and/or ``uses_left``
("allow send_message to #ops 5 times in the next 2 hours"). An expired or used
up rule no longer matches; it stays listed with ``include_inactive=True`` until
:meth:`StandingRuleStore.purge`.

The store is the SQLite database shared with the rest of the app and is read on
every check, so a rule revoked from another surface or process (the CLI) takes
effect on the very next call. Consuming a use is transactional and idempotent
per ``(session_id, call_id)``: evaluating the same call twice (or again after a
crash and resume) spends one use, never two.

The store does not know risk classes: it is the permission engine that only
ever consults rules for EXTERNAL calls and, in a scheduled task's run, task
rules for the exact string of a shell command ("always for this task: this exact
command", target = the command), so a rule can never cover a local write, nor a
shell command outside its task, whatever the table holds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from openworker_qt.core.wider_grants import WiderGrants
from openworker_qt.storage.db import Database

RuleScope = Literal["task", "session"]
SCOPES: tuple[RuleScope, ...] = ("task", "session")

ARROW = "→"

MIGRATIONS: list[str] = [
    """
    CREATE TABLE standing_rules (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        scope TEXT NOT NULL CHECK (scope IN ('task', 'session')),
        scope_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        target TEXT NOT NULL CHECK (length(trim(target)) > 0),
        created_at REAL NOT NULL,
        expires_at REAL,
        uses_left INTEGER CHECK (uses_left IS NULL OR uses_left >= 0),
        UNIQUE (scope, scope_id, tool, target)
    );
    CREATE INDEX standing_rules_lookup ON standing_rules (tool, target);
    CREATE TABLE standing_rule_uses (
        rule_id INTEGER NOT NULL REFERENCES standing_rules (id) ON DELETE CASCADE,
        session_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        used_at REAL NOT NULL,
        PRIMARY KEY (rule_id, session_id, call_id)
    )
    """,
]


def rule_label(tool: str, target: str) -> str:
    """How a rule is cited in decisions and the audit: ``send_message → slack:T1/C1``."""
    return f"{tool} {ARROW} {target}"


def parse_entry(entry: str) -> tuple[str, str]:
    """Split a ``"tool target"`` (or ``"tool → target"``) entry; the target must be non-empty."""
    text = entry.strip()
    tool, _, rest = text.partition(" ")
    rest = rest.strip()
    if rest.startswith(ARROW):
        rest = rest[len(ARROW):].strip()
    if not tool or not rest:
        raise ValueError(f"a standing rule needs a tool and a target, got {entry!r}")
    return tool, rest


@dataclass(frozen=True, slots=True)
class StandingRule:
    id: int
    scope: RuleScope
    scope_id: str
    tool: str
    target: str
    created_at: float
    expires_at: float | None = None
    uses_left: int | None = None

    @property
    def label(self) -> str:
        return rule_label(self.tool, self.target)

    @property
    def entry(self) -> str:
        return f"{self.tool} {self.target}"

    def active(self, now: float) -> bool:
        if self.expires_at is not None and now >= self.expires_at:
            return False
        return self.uses_left is None or self.uses_left > 0

    def public(self) -> dict[str, Any]:
        """A JSON-able view for surfaces (settings page, CLI, automation editor)."""
        return {
            "id": self.id,
            "entry": self.entry,
            "label": self.label,
            "tool": self.tool,
            "target": self.target,
            "scope": self.scope,
            "scope_id": self.scope_id,
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "uses_left": self.uses_left,
        }


def _row(row: Any) -> StandingRule:
    return StandingRule(
        id=int(row["id"]),
        scope=cast(RuleScope, row["scope"]),
        scope_id=str(row["scope_id"]),
        tool=str(row["tool"]),
        target=str(row["target"]),
        created_at=float(row["created_at"]),
        expires_at=None if row["expires_at"] is None else float(row["expires_at"]),
        uses_left=None if row["uses_left"] is None else int(row["uses_left"]),
    )


_COLUMNS = "id, scope, scope_id, tool, target, created_at, expires_at, uses_left"


class StandingRuleStore:
    """Standing rules in the app database. Safe to share between threads and processes."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        #: The sessions' wider answers (command prefixes, folders), kept beside the
        #: rules in memory only: they end with their session or the process.
        self.wider = WiderGrants()
        db.ensure("standing_rules", MIGRATIONS)

    @classmethod
    def in_memory(cls, *, clock: Callable[[], float] = time.time) -> StandingRuleStore:
        """A private store (tests, sub-agents): nothing outlives the process."""
        return cls(Database(":memory:"), clock=clock)

    # ----------------------------------------------------------------- writes

    def add(
        self,
        tool: str,
        target: str,
        *,
        scope: RuleScope,
        scope_id: str,
        expires_at: float | None = None,
        ttl_seconds: float | None = None,
        uses: int | None = None,
    ) -> StandingRule:
        """Add (or renew) the rule ``tool → target`` in ``scope``.

        The same (scope, scope_id, tool, target) is stored once: adding it again
        returns the existing rule with the new bounds (a re-grant renews an
        expired or used-up rule). ``ttl_seconds`` is a convenience for
        ``expires_at = now + ttl_seconds``.
        """
        if scope not in SCOPES:
            raise ValueError(f"unknown standing rule scope {scope!r} (expected task or session)")
        if not isinstance(tool, str) or not tool.strip():
            raise ValueError("a standing rule needs a tool name")
        if not isinstance(target, str) or not target.strip():
            raise ValueError(f"a standing rule for {tool} needs a non-empty target")
        if not scope_id:
            raise ValueError(f"a {scope} rule needs the {scope} id")
        if uses is not None and uses < 1:
            raise ValueError("a use-bounded rule needs at least one use")
        now = self.clock()
        if ttl_seconds is not None:
            if ttl_seconds <= 0:
                raise ValueError("a time-bounded rule needs a positive duration")
            ttl_end = now + ttl_seconds
            expires_at = ttl_end if expires_at is None else min(expires_at, ttl_end)
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO standing_rules"
                " (scope, scope_id, tool, target, created_at, expires_at, uses_left)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (scope, scope_id, tool, target) DO UPDATE SET"
                " expires_at = excluded.expires_at, uses_left = excluded.uses_left",
                (scope, scope_id, tool, target, now, expires_at, uses),
            )
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM standing_rules"
                " WHERE scope = ? AND scope_id = ? AND tool = ? AND target = ?",
                (scope, scope_id, tool, target),
            ).fetchone()
        return _row(row)

    def add_entry(self, entry: str, *, scope: RuleScope, scope_id: str) -> StandingRule:
        """Add a rule from a ``"tool target"`` string."""
        tool, target = parse_entry(entry)
        return self.add(tool, target, scope=scope, scope_id=scope_id)

    def revoke(self, rule_id: int) -> bool:
        """Remove one rule by id; ``False`` if there was none."""
        with self.db.transaction() as conn:
            cur = conn.execute("DELETE FROM standing_rules WHERE id = ?", (rule_id,))
            return cur.rowcount > 0

    def revoke_rule(self, tool: str, target: str, *, scope: RuleScope, scope_id: str) -> bool:
        """Remove the rule ``tool → target`` of one scope; ``False`` if there was none."""
        with self.db.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM standing_rules"
                " WHERE scope = ? AND scope_id = ? AND tool = ? AND target = ?",
                (scope, scope_id, tool, target),
            )
            return cur.rowcount > 0

    def clear(self, *, scope: RuleScope, scope_id: str) -> int:
        """Remove every rule of one scope (a task deleted, a session forgotten)."""
        with self.db.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM standing_rules WHERE scope = ? AND scope_id = ?", (scope, scope_id)
            )
            return cur.rowcount

    def purge(self) -> int:
        """Delete expired and used-up rules."""
        now = self.clock()
        with self.db.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM standing_rules"
                " WHERE (expires_at IS NOT NULL AND expires_at <= ?) OR uses_left = 0",
                (now,),
            )
            return cur.rowcount

    # ------------------------------------------------------------------ reads

    def get(self, rule_id: int) -> StandingRule | None:
        rows = self.db.query(f"SELECT {_COLUMNS} FROM standing_rules WHERE id = ?", (rule_id,))
        return _row(rows[0]) if rows else None

    def list_rules(
        self,
        *,
        scope: RuleScope | None = None,
        scope_id: str | None = None,
        include_inactive: bool = False,
    ) -> list[StandingRule]:
        sql = f"SELECT {_COLUMNS} FROM standing_rules WHERE 1 = 1"
        params: list[object] = []
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        if scope_id is not None:
            sql += " AND scope_id = ?"
            params.append(scope_id)
        rules = [_row(r) for r in self.db.query(sql + " ORDER BY id", params)]
        if include_inactive:
            return rules
        now = self.clock()
        return [r for r in rules if r.active(now)]

    def match(
        self,
        tool: str,
        target: str,
        scopes: Sequence[tuple[RuleScope, str]],
        *,
        call: tuple[str, str] | None = None,
    ) -> StandingRule | None:
        """The active rule for exactly ``tool → target`` in one of ``scopes``, if any.

        When the rule is use-bounded, one use is spent for ``call`` =
        ``(session_id, call_id)`` — once: matching the same call again finds it
        already paid for. Without ``call`` a bounded rule is only peeked at.
        Unbounded rules are preferred over bounded ones (no use is spent when
        an unbounded grant covers the call anyway).
        """
        wanted = [(s, i) for s, i in scopes if s in SCOPES and i]
        if not wanted or not target:
            return None
        where = " OR ".join("(scope = ? AND scope_id = ?)" for _ in wanted)
        params: list[object] = [tool, target]
        for s, i in wanted:
            params += [s, i]
        sql = (
            f"SELECT {_COLUMNS} FROM standing_rules WHERE tool = ? AND target = ? AND ({where})"
            " ORDER BY (uses_left IS NOT NULL), (expires_at IS NOT NULL), id"
        )
        now = self.clock()
        candidates = [_row(r) for r in self.db.query(sql, params)]
        if call is not None:
            paid = self._paid(candidates, call)
            if paid is not None:
                return paid
        for rule in candidates:
            if not rule.active(now):
                continue
            if rule.uses_left is None or call is None:
                return rule
            spent = self._spend(rule.id, call, now)
            if spent is not None:
                return spent
        return None

    def _paid(self, rules: Sequence[StandingRule], call: tuple[str, str]) -> StandingRule | None:
        bounded = [r for r in rules if r.uses_left is not None]
        if not bounded:
            return None
        marks = ",".join("?" for _ in bounded)
        rows = self.db.query(
            f"SELECT rule_id FROM standing_rule_uses WHERE session_id = ? AND call_id = ?"
            f" AND rule_id IN ({marks})",
            [call[0], call[1], *[r.id for r in bounded]],
        )
        if not rows:
            return None
        paid_id = int(rows[0][0])
        rule = next(r for r in bounded if r.id == paid_id)
        now = self.clock()
        # Already paid for this call: honour it unless the time bound has passed since.
        if rule.expires_at is not None and now >= rule.expires_at:
            return None
        return rule

    def _spend(self, rule_id: int, call: tuple[str, str], now: float) -> StandingRule | None:
        with self.db.transaction() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM standing_rules WHERE id = ?", (rule_id,)
            ).fetchone()
            if row is None:
                return None
            rule = _row(row)
            if not rule.active(now):
                return None
            inserted = conn.execute(
                "INSERT OR IGNORE INTO standing_rule_uses (rule_id, session_id, call_id, used_at)"
                " VALUES (?, ?, ?, ?)",
                (rule_id, call[0], call[1], now),
            ).rowcount
            if inserted:
                conn.execute(
                    "UPDATE standing_rules SET uses_left = uses_left - 1 WHERE id = ?", (rule_id,)
                )
                row = conn.execute(
                    f"SELECT {_COLUMNS} FROM standing_rules WHERE id = ?", (rule_id,)
                ).fetchone()
            return _row(row)
