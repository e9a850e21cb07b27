"""The inbox: a persistent, cross-session queue of human attention.

Approvals, questions, plan approvals, directory grants and notices live here as
rows of the shared SQLite database, so every surface — window, tray,
notification, CLI in another process, Slack — sees and answers the same items.

Contract:
  * An item goes ``pending`` → ``resolved`` exactly once. :meth:`Inbox.resolve`
    is a single conditional UPDATE, so the first answer wins across threads and
    processes; a second answer returns False and changes nothing.
  * :meth:`Inbox.add` is idempotent per ``(session_id, tool_call_id)``: adding an
    item for a call that already has one returns the existing item, resolved or
    not. That is what lets a resumed turn re-process its pending calls without
    asking twice.
  * :meth:`Inbox.wait` returns when the item is resolved, whether by this process
    (immediately, through a future) or by another one (noticed by polling
    ``PRAGMA data_version``, which changes only when another connection commits).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from openworker_qt.storage.db import Database

InboxKind = Literal["approval", "question", "plan", "directory", "notice"]
KINDS: tuple[str, ...] = ("approval", "question", "plan", "directory", "notice")

MIGRATIONS = [
    """
    CREATE TABLE inbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        session_id TEXT NOT NULL,
        tool_call_id TEXT,
        tool TEXT NOT NULL DEFAULT '',
        arguments TEXT NOT NULL DEFAULT '{}',
        args_preview TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL DEFAULT '',
        reason TEXT NOT NULL DEFAULT '',
        risk TEXT NOT NULL DEFAULT '',
        target TEXT,
        standing_target TEXT,
        can_always INTEGER NOT NULL DEFAULT 0,
        options TEXT NOT NULL DEFAULT '[]',
        task_id TEXT,
        status TEXT NOT NULL DEFAULT 'pending',
        resolution TEXT,
        resolved_by TEXT,
        created_at REAL NOT NULL,
        resolved_at REAL,
        UNIQUE (session_id, tool_call_id)
    );
    CREATE INDEX inbox_pending ON inbox(status, created_at);
    """,
]


def args_preview(arguments: Mapping[str, Any] | None, limit: int = 80) -> str:
    """``path: g.txt · content: buy milk`` — one line; long values cut with "…"."""
    if not arguments:
        return ""
    parts: list[str] = []
    for key, value in arguments.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text = " ".join(str(text).split())
        if len(text) > limit:
            text = text[: limit - 1] + "…"
        parts.append(f"{key}: {text}")
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class InboxItem:
    id: int
    kind: InboxKind
    session_id: str
    tool_call_id: str | None
    tool: str
    arguments: dict[str, Any]
    args_preview: str
    title: str
    reason: str
    risk: str
    target: str | None
    standing_target: str | None
    can_always: bool
    options: tuple[str, ...]
    task_id: str | None
    status: Literal["pending", "resolved"]
    resolution: str | None
    resolved_by: str | None
    created_at: float
    resolved_at: float | None = None

    @property
    def pending(self) -> bool:
        return self.status == "pending"

    def body(self) -> str:
        """What an approval card shows: the reason first, then the arguments."""
        lines = [self.reason] if self.reason else []
        if self.args_preview:
            lines.append(self.args_preview)
        return "\n".join(lines)


InboxListener = Callable[[InboxItem], None]


@dataclass
class _Waiters:
    futures: dict[int, list[asyncio.Future[InboxItem]]] = field(default_factory=dict)


class Inbox:
    """Inbox items in the shared database. Use one instance per process."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.ensure("inbox", MIGRATIONS)
        self.listeners: list[InboxListener] = []
        self._waiters = _Waiters()

    # ---------------------------------------------------------------- writing

    def add(
        self,
        kind: InboxKind,
        session_id: str,
        *,
        tool_call_id: str | None = None,
        tool: str = "",
        arguments: Mapping[str, Any] | None = None,
        title: str = "",
        reason: str = "",
        risk: str = "",
        target: str | None = None,
        standing_target: str | None = None,
        can_always: bool = False,
        options: tuple[str, ...] | list[str] = (),
        task_id: str | None = None,
    ) -> InboxItem:
        """Add an item, or return the one that already exists for this call."""
        if kind not in KINDS:
            raise ValueError(f"unknown inbox kind {kind!r}")
        args = dict(arguments or {})
        with self.db.transaction() as conn:
            if tool_call_id is not None:
                row = conn.execute(
                    "SELECT * FROM inbox WHERE session_id = ? AND tool_call_id = ?",
                    (session_id, tool_call_id),
                ).fetchone()
                if row is not None:
                    return _item(row)
            cur = conn.execute(
                "INSERT INTO inbox(kind, session_id, tool_call_id, tool, arguments, args_preview,"
                " title, reason, risk, target, standing_target, can_always, options, task_id,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind, session_id, tool_call_id, tool,
                    json.dumps(args, ensure_ascii=False, default=str), args_preview(args),
                    title, reason, risk, target, standing_target, int(can_always),
                    json.dumps(list(options)), task_id, time.time(),
                ),
            )
            row = conn.execute("SELECT * FROM inbox WHERE id = ?", (cur.lastrowid,)).fetchone()
        item = _item(row)
        self._notify(item)
        return item

    def resolve(self, item_id: int, resolution: str, *, by: str = "app") -> bool:
        """Resolve a pending item. True if this call won; False if it was already
        resolved (or does not exist)."""
        if not resolution:
            raise ValueError("a resolution is required")
        cur = self.db.execute(
            "UPDATE inbox SET status = 'resolved', resolution = ?, resolved_by = ?,"
            " resolved_at = ? WHERE id = ? AND status = 'pending'",
            (resolution, by, time.time(), item_id),
        )
        if cur.rowcount != 1:
            return False
        item = self.get(item_id)
        assert item is not None
        self._notify(item)
        return True

    # ---------------------------------------------------------------- reading

    def get(self, item_id: int) -> InboxItem | None:
        rows = self.db.query("SELECT * FROM inbox WHERE id = ?", (item_id,))
        return _item(rows[0]) if rows else None

    def find(self, session_id: str, tool_call_id: str) -> InboxItem | None:
        rows = self.db.query(
            "SELECT * FROM inbox WHERE session_id = ? AND tool_call_id = ?",
            (session_id, tool_call_id),
        )
        return _item(rows[0]) if rows else None

    def pending(self, session_id: str | None = None, kind: str | None = None) -> list[InboxItem]:
        return self.items(session_id=session_id, kind=kind, status="pending")

    def items(
        self,
        *,
        session_id: str | None = None,
        kind: str | None = None,
        status: str | None = None,
        limit: int = 500,
    ) -> list[InboxItem]:
        sql = "SELECT * FROM inbox WHERE 1 = 1"
        params: list[object] = []
        for column, value in (("session_id", session_id), ("kind", kind), ("status", status)):
            if value is not None:
                sql += f" AND {column} = ?"
                params.append(value)
        sql += " ORDER BY created_at, id LIMIT ?"
        params.append(limit)
        return [_item(r) for r in self.db.query(sql, params)]

    def pending_count(self) -> int:
        return int(self.db.query("SELECT COUNT(*) FROM inbox WHERE status = 'pending'")[0][0])

    def data_version(self) -> int:
        """Changes whenever *another* connection committed to the database."""
        return int(self.db.query("PRAGMA data_version")[0][0])

    # ---------------------------------------------------------------- waiting

    async def wait(self, item_id: int, *, poll: float = 0.25) -> InboxItem:
        """Wait until the item is resolved (here or by another process)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[InboxItem] = loop.create_future()
        self._waiters.futures.setdefault(item_id, []).append(fut)
        try:
            version = self.data_version()
            item = self.get(item_id)
            if item is None:
                raise KeyError(f"no inbox item {item_id}")
            while item.pending:
                try:
                    return await asyncio.wait_for(asyncio.shield(fut), timeout=poll)
                except TimeoutError:
                    pass
                now_version = self.data_version()
                if now_version != version:
                    version = now_version
                    item = self.get(item_id) or item
            return item
        finally:
            waiters = self._waiters.futures.get(item_id, [])
            if fut in waiters:
                waiters.remove(fut)
            if not waiters:
                self._waiters.futures.pop(item_id, None)
            if not fut.done():
                fut.cancel()

    def poll_external(self) -> list[InboxItem]:
        """Items resolved by other processes since the last call, for surfaces that
        refresh on a timer. Wakes local waiters of those items as a side effect."""
        out: list[InboxItem] = []
        for item_id in list(self._waiters.futures):
            item = self.get(item_id)
            if item is not None and not item.pending:
                self._wake(item)
                out.append(item)
        return out

    def _notify(self, item: InboxItem) -> None:
        if not item.pending:
            self._wake(item)
        for listener in list(self.listeners):
            try:
                listener(item)
            except Exception:  # a broken surface must not break the inbox
                import logging

                logging.getLogger(__name__).exception("inbox listener failed")

    def _wake(self, item: InboxItem) -> None:
        for fut in self._waiters.futures.get(item.id, []):
            if not fut.done():
                fut.get_loop().call_soon_threadsafe(_set_result, fut, item)


def _set_result(fut: asyncio.Future[InboxItem], item: InboxItem) -> None:
    if not fut.done():
        fut.set_result(item)


def _item(row: Any) -> InboxItem:
    try:
        arguments = json.loads(row["arguments"] or "{}")
    except ValueError:
        arguments = {}
    try:
        options = tuple(str(o) for o in json.loads(row["options"] or "[]"))
    except ValueError:
        options = ()
    return InboxItem(
        id=int(row["id"]),
        kind=cast(InboxKind, row["kind"]),
        session_id=row["session_id"],
        tool_call_id=row["tool_call_id"],
        tool=row["tool"],
        arguments=arguments if isinstance(arguments, dict) else {},
        args_preview=row["args_preview"],
        title=row["title"],
        reason=row["reason"],
        risk=row["risk"],
        target=row["target"],
        standing_target=row["standing_target"],
        can_always=bool(row["can_always"]),
        options=options,
        task_id=row["task_id"],
        status=row["status"],
        resolution=row["resolution"],
        resolved_by=row["resolved_by"],
        created_at=float(row["created_at"]),
        resolved_at=row["resolved_at"],
    )
