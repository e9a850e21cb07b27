"""Teams and their boards in the app's SQLite database (issue 29).

The truth is ``team_events``, an append-only log: one row per fact (a verb of the board,
a fact the runner records), numbered by ``seq``. ``teams``, ``team_items`` and
``team_sessions`` are its projection: the log folded (``teams/fold.py``). Each append
checks the verb against the projection, writes the event, folds it into the projection
and writes the audit row **in one transaction**, so a process killed at any point leaves
either all of it or none: the projection is always the fold of the log, and
:meth:`TeamStore.rebuild` refolds it from the log to prove (or repair) that.

An event may carry an idempotency ``key`` (unique per team): a runner resumed after a
crash that records the same fact again (the same worker's spend of the same turn, the
same session started for the same item) changes nothing.

A damaged row (JSON that does not parse, a kind this version does not know) makes that
team's board unreadable with a :class:`~openworker_qt.teams.fold.FoldError` saying so;
the other teams are not touched.

Listeners are called after an append commits (after the caller's own batch, if it wrapped
the call in one: then they are called when the call returns, before that batch commits).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from openworker_qt.core.audit import AuditLog, AuditSink, Redact, scrub
from openworker_qt.storage.db import Database
from openworker_qt.teams.fold import Board, FoldError, apply, fold, worker_from_json
from openworker_qt.teams.fold import worker_to_json as _worker_json
from openworker_qt.teams.model import (
    SYSTEM,
    USER,
    Actor,
    BoardError,
    BoardEvent,
    Item,
    ItemState,
    Plan,
    Team,
    TeamState,
)
from openworker_qt.teams.rules import ENDED, act_event, record_event

__all__ = ["MIGRATIONS", "TeamStore"]

log = logging.getLogger(__name__)

MIGRATIONS = [
    """
    CREATE TABLE team_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        team_id TEXT NOT NULL,
        at REAL NOT NULL,
        actor TEXT NOT NULL,
        kind TEXT NOT NULL,
        item_id TEXT NOT NULL DEFAULT '',
        data TEXT NOT NULL DEFAULT '{}',
        key TEXT,
        UNIQUE (team_id, key)
    );
    CREATE INDEX team_events_of ON team_events (team_id, seq);
    CREATE TABLE teams (
        id TEXT PRIMARY KEY,
        outcome TEXT NOT NULL,
        lead_session_id TEXT NOT NULL,
        state TEXT NOT NULL,
        workers TEXT NOT NULL DEFAULT '[]',
        budget_usd REAL,
        budget_tokens INTEGER,
        max_parallel INTEGER NOT NULL DEFAULT 3,
        allow_claim INTEGER NOT NULL DEFAULT 0,
        spent_usd REAL NOT NULL DEFAULT 0,
        tokens INTEGER NOT NULL DEFAULT 0,
        next_check_in REAL NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        last_seq INTEGER NOT NULL
    );
    CREATE INDEX teams_by_state ON teams (state, created_at);
    CREATE TABLE team_items (
        id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        criteria TEXT NOT NULL DEFAULT '',
        state TEXT NOT NULL,
        assignee TEXT NOT NULL DEFAULT '',
        created_by TEXT NOT NULL DEFAULT '',
        session_id TEXT NOT NULL DEFAULT '',
        cost_usd REAL NOT NULL DEFAULT 0,
        tokens INTEGER NOT NULL DEFAULT 0,
        budget_usd REAL,
        last_comment TEXT NOT NULL DEFAULT '',
        last_comment_by TEXT NOT NULL DEFAULT '',
        result_text TEXT NOT NULL DEFAULT '',
        result_files TEXT NOT NULL DEFAULT '[]',
        after_ids TEXT NOT NULL DEFAULT '[]',
        stuck INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX team_items_of ON team_items (team_id, position);
    CREATE TABLE team_sessions (
        session_id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        role TEXT NOT NULL
    );
    CREATE INDEX team_sessions_of ON team_sessions (team_id)
    """,
]

BoardListener = Callable[[BoardEvent], None]
#: The tool name and session of a board change's audit row.
AUDIT_TOOL = "team_board"


def audit_session(team_id: str) -> str:
    """The audit table's session id for a team's board changes."""
    return f"team:{team_id}"


@dataclass(slots=True)
class _Appended:
    event: BoardEvent
    new: bool


class TeamStore:
    """Teams, their boards and their logs (see the module docstring).

    ``audit``: where every board change is written as an audit row (stage: the event's
    kind); it must write to ``db`` (the row joins the append's transaction). Without
    one, an :class:`~openworker_qt.core.audit.AuditLog` on ``db``. ``redact`` is applied
    to every text of an event before it is stored (the runtime passes
    :func:`openworker_qt.storage.secrets.redact`).
    """

    def __init__(self, db: Database, *, audit: AuditSink | None = None,
                 redact: Redact | None = None) -> None:
        self.db = db
        db.ensure("teams", MIGRATIONS)
        self.audit: AuditSink = audit if audit is not None else AuditLog(db, redact=redact)
        self.redact: Redact | None = redact
        self.listeners: list[BoardListener] = []

    # ------------------------------------------------------------------ writing

    def create_team(self, outcome: str, lead_session_id: str, *, max_parallel: int = 3,
                    budget_usd: float | None = None, budget_tokens: int | None = None,
                    allow_claim: bool = False) -> Team:
        """A new team, planning its outcome, led by the session ``lead_session_id``."""
        if not outcome.strip():
            raise BoardError("a team needs an outcome")
        if not 1 <= max_parallel <= 16:
            raise BoardError("workers in parallel: between 1 and 16")
        for name, value in (("budget_usd", budget_usd), ("budget_tokens", budget_tokens)):
            if value is not None and not value >= 0:
                raise BoardError(f"{name} must be at least 0")
        team_id = uuid.uuid4().hex[:10]
        data = {"outcome": outcome, "lead_session_id": lead_session_id,
                "max_parallel": max_parallel, "budget_usd": budget_usd,
                "budget_tokens": budget_tokens, "allow_claim": allow_claim}
        with self.db.transaction() as conn:
            if self._session_team(conn, lead_session_id) is not None:
                raise BoardError(f"session {lead_session_id} already belongs to a team")
            done = self._append(conn, Board(), team_id, "team_created", "", USER, data, None)
        self._notify(done)
        team = self.team(team_id)
        assert team is not None
        return team

    def act(self, actor: Actor, verb: str, team_id: str, item_id: str = "",
            **args: Any) -> BoardEvent:
        """``actor`` does the board verb ``verb`` (see ``model.VERBS``); raises
        :class:`BoardError` with the reason when it is refused. ``key`` (for
        ``create``): an idempotency key; a second call with it returns the first
        one's event and changes nothing."""
        key = args.pop("key", None)
        with self.db.transaction() as conn:
            done = self._act(conn, actor, verb, team_id, item_id, args, key)
        self._notify(done)
        return done.event

    async def act_async(self, actor: Actor, verb: str, team_id: str, item_id: str = "",
                        **args: Any) -> BoardEvent:
        """:meth:`act` for the event loop: the write lock is awaited without blocking it."""
        key = args.pop("key", None)
        async with self.db.writing():
            with self.db.transaction() as conn:
                done = self._act(conn, actor, verb, team_id, item_id, args, key)
        self._notify(done)
        return done.event

    def record(self, team_id: str, kind: str, item_id: str = "", *, key: str | None = None,
               actor: Actor = SYSTEM, **data: Any) -> BoardEvent | None:
        """Record the runner's fact ``kind`` (``rules.RECORD_KINDS``); None when ``key``
        was recorded already (nothing changes). Raises :class:`BoardError` on a fact
        that does not fit the board."""
        with self.db.transaction() as conn:
            done = self._record(conn, team_id, kind, item_id, key, actor, data)
        self._notify(done)
        return done.event if done is not None and done.new else None

    async def record_async(self, team_id: str, kind: str, item_id: str = "", *,
                           key: str | None = None, actor: Actor = SYSTEM,
                           **data: Any) -> BoardEvent | None:
        """:meth:`record` for the event loop (see :meth:`act_async`)."""
        async with self.db.writing():
            with self.db.transaction() as conn:
                done = self._record(conn, team_id, kind, item_id, key, actor, data)
        self._notify(done)
        return done.event if done is not None and done.new else None

    def _act(self, conn: sqlite3.Connection, actor: Actor, verb: str, team_id: str,
             item_id: str, args: dict[str, Any], key: str | None) -> _Appended:
        existing = self._keyed(conn, team_id, key)
        if existing is not None:
            return _Appended(existing, False)
        board = self._load(conn, team_id)
        kind, target, data = act_event(board, actor, verb, item_id, args)
        return self._append(conn, board, team_id, kind, target, actor, data, key)

    def _record(self, conn: sqlite3.Connection, team_id: str, kind: str, item_id: str,
                key: str | None, actor: Actor, data: dict[str, Any]) -> _Appended | None:
        if self._keyed(conn, team_id, key) is not None:
            return None
        board = self._load(conn, team_id)
        checked = record_event(board, kind, item_id, data)
        session_id = checked.get("session_id")
        if session_id:
            owner = self._session_team(conn, str(session_id))
            if owner is not None and owner != team_id:
                raise BoardError(f"session {session_id} belongs to another team")
        return self._append(conn, board, team_id, kind, item_id, actor, checked, key)

    def _append(self, conn: sqlite3.Connection, board: Board, team_id: str, kind: str,
                item_id: str, actor: Actor, data: dict[str, Any],
                key: str | None) -> _Appended:
        """Write the event, fold it into ``board`` and write what changed, and the audit
        row: all in the caller's transaction."""
        if self.redact is not None:
            data = scrub(data, self.redact)
        at = time.time()
        cursor = conn.execute(
            "INSERT INTO team_events (team_id, at, actor, kind, item_id, data, key)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (team_id, at, str(actor), kind, item_id, json.dumps(data, ensure_ascii=False), key))
        assert cursor.lastrowid is not None
        event = BoardEvent(cursor.lastrowid, team_id, at, str(actor), kind, item_id, data)
        before = board.copy()
        apply(board, event)
        self._write(conn, before, board)
        self.audit.record(audit_session(team_id), f"board:{event.seq}", AUDIT_TOOL, kind,
                          actor=event.actor, item=item_id, data=data)
        return _Appended(event, True)

    def _notify(self, done: _Appended | None) -> None:
        if done is None or not done.new:
            return
        for listener in list(self.listeners):
            try:
                listener(done.event)
            except Exception:  # a broken surface must not break the board
                log.exception("team board listener failed")

    # -------------------------------------------------------------- projection

    def _write(self, conn: sqlite3.Connection, before: Board, after: Board) -> None:
        team = after.require_team()
        conn.execute(_UPSERT_TEAM, _team_params(team, after.last_seq))
        for position, (item_id, item) in enumerate(after.items.items()):
            if before.items.get(item_id) != item:
                conn.execute(_UPSERT_ITEM, _item_params(item, position))
        for session_id, role in after.sessions.items():
            if before.sessions.get(session_id) != role:
                conn.execute(
                    "INSERT INTO team_sessions (session_id, team_id, role) VALUES (?, ?, ?)"
                    " ON CONFLICT (session_id) DO UPDATE SET team_id = excluded.team_id,"
                    " role = excluded.role", (session_id, team.id, role))

    def _load(self, conn: sqlite3.Connection, team_id: str) -> Board:
        row = conn.execute("SELECT * FROM teams WHERE id = ?", (team_id,)).fetchone()
        if row is None:
            raise BoardError(f"there is no team {team_id}")
        with _readable(team_id):
            team = _team_of(row)
            items = {r["id"]: _item_of(r) for r in conn.execute(
                "SELECT * FROM team_items WHERE team_id = ? ORDER BY position", (team_id,))}
            sessions = {str(r[0]): str(r[1]) for r in conn.execute(
                "SELECT session_id, role FROM team_sessions WHERE team_id = ?", (team_id,))}
        return Board(team, items, sessions, int(row["last_seq"]))

    def rebuild(self, team_id: str) -> Team:
        """Refold the team's projection from its log (and return the team). Raises
        :class:`FoldError` when the log cannot be read; the projection is then left
        as it was."""
        with self.db.transaction() as conn:
            board = fold(self._events(conn, team_id, 0))
            if board.team is None:
                raise BoardError(f"there is no team {team_id}")
            for table, column in (("team_items", "team_id"), ("team_sessions", "team_id"),
                                  ("teams", "id")):
                conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (team_id,))
            self._write(conn, Board(), board)
        return board.team

    # ------------------------------------------------------------------ reading

    def team(self, team_id: str) -> Team | None:
        rows = self.db.query("SELECT * FROM teams WHERE id = ?", (team_id,))
        if not rows:
            return None
        with _readable(team_id):
            return _team_of(rows[0])

    def teams(self, *, active_only: bool = False) -> list[Team]:
        """Every team, newest first (``active_only``: those not done, stopped or failed).
        A team whose row cannot be read is listed as failed, saying so."""
        sql = "SELECT * FROM teams"
        params: tuple[str, ...] = ()
        if active_only:
            sql += f" WHERE state NOT IN ({', '.join('?' * len(ENDED))})"
            params = tuple(sorted(s.value for s in ENDED))
        out: list[Team] = []
        for row in self.db.query(sql + " ORDER BY created_at DESC, id", params):
            try:
                with _readable(str(row["id"])):
                    out.append(_team_of(row))
            except FoldError as exc:
                log.warning("%s", exc)
                out.append(Team(str(row["id"]), str(row["outcome"]), str(row["lead_session_id"]),
                                TeamState.FAILED, summary=str(exc)))
        return out

    def team_for_session(self, session_id: str) -> tuple[Team, str] | None:
        """The team a session works for and its role there (``lead``, ``worker:<name>``)."""
        rows = self.db.query("SELECT team_id, role FROM team_sessions WHERE session_id = ?",
                             (session_id,))
        if not rows:
            return None
        team = self.team(str(rows[0][0]))
        return None if team is None else (team, str(rows[0][1]))

    def items(self, team_id: str) -> list[Item]:
        """The team's items in board order (the order they were created)."""
        rows = self.db.query("SELECT * FROM team_items WHERE team_id = ? ORDER BY position",
                             (team_id,))
        with _readable(team_id):
            return [_item_of(r) for r in rows]

    def item(self, item_id: str) -> Item | None:
        rows = self.db.query("SELECT * FROM team_items WHERE id = ?", (item_id,))
        if not rows:
            return None
        with _readable(str(rows[0]["team_id"])):
            return _item_of(rows[0])

    def events(self, team_id: str, after: int = 0) -> list[BoardEvent]:
        """The team's log from ``seq`` ``after`` on (exclusive)."""
        link_rows = self.db.query(_EVENTS, (team_id, after))
        return [_event_of(team_id, r) for r in link_rows]

    def _events(self, conn: sqlite3.Connection, team_id: str, after: int) -> Iterator[BoardEvent]:
        for row in conn.execute(_EVENTS, (team_id, after)):
            yield _event_of(team_id, row)

    def plan(self, team_id: str) -> Plan | None:
        """The plan last proposed or accepted for the team, or None."""
        rows = self.db.query(
            "SELECT seq, data FROM team_events WHERE team_id = ? AND kind IN"
            " ('plan_proposed', 'plan_accepted') ORDER BY seq DESC LIMIT 1", (team_id,))
        if not rows:
            return None
        with _readable(team_id, int(rows[0][0])):
            return Plan.from_json(json.loads(rows[0][1])["plan"])

    def over_budget(self, team_id: str, item_id: str = "") -> str | None:
        """None, or a sentence saying which budget (the item's, then the team's) has been
        reached."""
        team = self.team(team_id)
        if team is None:
            raise BoardError(f"there is no team {team_id}")
        if item_id:
            item = self.item(item_id)
            if item is None or item.team_id != team_id:
                raise BoardError(f"there is no item {item_id} on this team's board")
            if item.budget_usd is not None and item.cost_usd >= item.budget_usd:
                return (f"Item {item.id} has spent ${item.cost_usd:.2f} of its "
                        f"${item.budget_usd:.2f} budget.")
        if team.budget_usd is not None and team.spent_usd >= team.budget_usd:
            return f"The team has spent ${team.spent_usd:.2f} of its ${team.budget_usd:.2f} budget."
        if team.budget_tokens is not None and team.tokens >= team.budget_tokens:
            return f"The team has used {team.tokens:,} of its {team.budget_tokens:,} tokens."
        return None

    def quiet_items(self, team_id: str, *, quiet_for: float,
                    now: float | None = None) -> list[Item]:
        """The team's items in progress with no event for ``quiet_for`` seconds and not
        flagged yet: the ones to flag stuck (issue 29, item 10). Any event on an item
        (a comment, a spend, a result) is a sign of life."""
        moment = time.time() if now is None else now
        return [i for i in self.items(team_id) if i.state is ItemState.IN_PROGRESS
                and not i.stuck and moment - i.updated_at >= quiet_for]

    @staticmethod
    def _keyed(conn: sqlite3.Connection, team_id: str, key: str | None) -> BoardEvent | None:
        if key is None:
            return None
        row = conn.execute(f"{_EVENT_COLUMNS} WHERE team_id = ? AND key = ?",
                           (team_id, key)).fetchone()
        return None if row is None else _event_of(team_id, row)

    @staticmethod
    def _session_team(conn: sqlite3.Connection, session_id: str) -> str | None:
        row = conn.execute("SELECT team_id FROM team_sessions WHERE session_id = ?",
                           (session_id,)).fetchone()
        return None if row is None else str(row[0])


# ---------------------------------------------------------------------- rows

_EVENT_COLUMNS = "SELECT seq, at, actor, kind, item_id, data FROM team_events"
_EVENTS = f"{_EVENT_COLUMNS} WHERE team_id = ? AND seq > ? ORDER BY seq"

_TEAM_COLUMNS = ("id", "outcome", "lead_session_id", "state", "workers", "budget_usd",
                 "budget_tokens", "max_parallel", "allow_claim", "spent_usd", "tokens",
                 "next_check_in", "summary", "created_at", "updated_at", "last_seq")
_ITEM_COLUMNS = ("id", "team_id", "position", "title", "criteria", "state", "assignee",
                 "created_by", "session_id", "cost_usd", "tokens", "budget_usd", "last_comment",
                 "last_comment_by", "result_text", "result_files", "after_ids", "stuck",
                 "created_at", "updated_at")


def _upsert(table: str, columns: tuple[str, ...]) -> str:
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns[1:])
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            f" ON CONFLICT (id) DO UPDATE SET {updates}")


_UPSERT_TEAM = _upsert("teams", _TEAM_COLUMNS)
_UPSERT_ITEM = _upsert("team_items", _ITEM_COLUMNS)


def _team_params(team: Team, last_seq: int) -> tuple[object, ...]:
    return (team.id, team.outcome, team.lead_session_id, team.state.value,
            json.dumps([_worker_json(w) for w in team.workers]), team.budget_usd,
            team.budget_tokens, team.max_parallel, int(team.allow_claim), team.spent_usd,
            team.tokens, team.next_check_in, team.summary, team.created_at, team.updated_at,
            last_seq)


def _item_params(item: Item, position: int) -> tuple[object, ...]:
    return (item.id, item.team_id, position, item.title, item.criteria, item.state.value,
            item.assignee, item.created_by, item.session_id, item.cost_usd, item.tokens,
            item.budget_usd, item.last_comment, item.last_comment_by, item.result_text,
            json.dumps(list(item.result_files)), json.dumps(list(item.after)), int(item.stuck),
            item.created_at, item.updated_at)


@contextmanager
def _readable(team_id: str, seq: int | None = None) -> Iterator[None]:
    """Turn what a damaged row raises into a :class:`FoldError` naming the team."""
    try:
        yield
    except FoldError:
        raise
    except (ValueError, KeyError, TypeError, BoardError) as exc:
        where = f"event {seq}" if seq is not None else "its board"
        raise FoldError(f"team {team_id}: {where} cannot be read ({exc!r}); the other "
                        "teams are not affected") from exc


def _team_of(row: sqlite3.Row) -> Team:
    return Team(
        id=str(row["id"]), outcome=str(row["outcome"]),
        lead_session_id=str(row["lead_session_id"]), state=TeamState(row["state"]),
        workers=tuple(worker_from_json(w) for w in json.loads(row["workers"])),
        budget_usd=row["budget_usd"], budget_tokens=row["budget_tokens"],
        max_parallel=int(row["max_parallel"]), allow_claim=bool(row["allow_claim"]),
        spent_usd=float(row["spent_usd"]), tokens=int(row["tokens"]),
        next_check_in=float(row["next_check_in"]), summary=str(row["summary"]),
        created_at=float(row["created_at"]), updated_at=float(row["updated_at"]))


def _item_of(row: sqlite3.Row) -> Item:
    return Item(
        id=str(row["id"]), team_id=str(row["team_id"]), title=str(row["title"]),
        criteria=str(row["criteria"]), state=ItemState(row["state"]),
        assignee=str(row["assignee"]), created_by=str(row["created_by"]),
        session_id=str(row["session_id"]), cost_usd=float(row["cost_usd"]),
        tokens=int(row["tokens"]), budget_usd=row["budget_usd"],
        last_comment=str(row["last_comment"]), last_comment_by=str(row["last_comment_by"]),
        result_text=str(row["result_text"]),
        result_files=tuple(str(f) for f in json.loads(row["result_files"])),
        after=tuple(str(a) for a in json.loads(row["after_ids"])), stuck=bool(row["stuck"]),
        created_at=float(row["created_at"]), updated_at=float(row["updated_at"]))


def _event_of(team_id: str, row: sqlite3.Row) -> BoardEvent:
    seq = int(row["seq"])
    with _readable(team_id, seq):
        data = json.loads(row["data"])
        if not isinstance(data, dict):
            raise ValueError("its data is not an object")
    return BoardEvent(seq, team_id, float(row["at"]), str(row["actor"]), str(row["kind"]),
                      str(row["item_id"]), data)
