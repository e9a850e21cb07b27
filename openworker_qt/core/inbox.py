"""The inbox: a persistent, cross-session queue of human attention.

Approvals, questions, plan approvals, directory grants and notices live here as
rows of the shared SQLite database, so every surface — window, tray,
notification, CLI in another process, Slack — sees and answers the same items.
The contract (answered once, idempotent per call instance, answers by kind,
redaction, waiting): ``docs/architecture.md``, "The inbox".
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from openworker_qt.core.audit import Redact, scrub
from openworker_qt.domain import choices
from openworker_qt.storage.db import Database

InboxKind = Literal["approval", "question", "plan", "directory", "notice"]
KINDS: tuple[str, ...] = ("approval", "question", "plan", "directory", "notice")
Action = Literal["approve", "always", "deny", "answer"]

#: What an approval item may be resolved with (see ``core/approvers.py``).
APPROVAL_RESOLUTIONS = frozenset(
    {"once", "allow", "approve", "always", "always_task", "always_command", "always_prefix",
     "always_folder", "deny"}
)
#: Answers that allow more than the call asked: a command prefix, a folder's writes.
WIDER = frozenset({"always_prefix", "always_folder"})
#: The resolution of an ask withdrawn because the user stopped the turn.
WITHDRAWN = "cancelled"
#: The resolution of an ask whose call was closed, not run, because a new user
#: message arrived first (resolved ``by`` :data:`SUPERSEDED_BY`).
SUPERSEDED = "superseded"
SUPERSEDED_BY = "engine"


class InboxError(ValueError):
    """An answer that does not fit the item (approving a question, a text answer to
    an approval, …). The message says what to do instead."""


#: Tools whose plan items may be approved *with a text* (an edited version of what
#: was proposed): tool name → a check of that text that raises ``ValueError`` saying
#: what is wrong. A team's plan (``team_plan``, teams/plan_answer.py) registers its
#: own; the plugin that owns the tool registers it when imported (the runtime does).
APPROVE_WITH_TEXT: dict[str, Callable[[str], None]] = {}

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
    # Items are keyed per call instance (call_key), no longer per vendor call id.
    # Existing rows keep their vendor id as key, so a turn parked before the
    # upgrade still finds its item.
    """
    CREATE TABLE inbox_v2 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        session_id TEXT NOT NULL,
        tool_call_id TEXT,
        call_key TEXT,
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
        UNIQUE (session_id, call_key)
    );
    INSERT INTO inbox_v2(id, kind, session_id, tool_call_id, call_key, tool, arguments,
        args_preview, title, reason, risk, target, standing_target, can_always, options,
        task_id, status, resolution, resolved_by, created_at, resolved_at)
    SELECT id, kind, session_id, tool_call_id, tool_call_id, tool, arguments,
        args_preview, title, reason, risk, target, standing_target, can_always, options,
        task_id, status, resolution, resolved_by, created_at, resolved_at FROM inbox;
    DROP TABLE inbox;
    ALTER TABLE inbox_v2 RENAME TO inbox;
    CREATE INDEX inbox_pending ON inbox(status, created_at);
    CREATE INDEX inbox_by_call ON inbox(session_id, tool_call_id);
    """,
    # What an MCP server says its tool does, shown with the approval.
    "ALTER TABLE inbox ADD COLUMN about TEXT NOT NULL DEFAULT '';",
    # The command prefix or folder a wider "always" would allow (ApprovalRequest.always_scope).
    "ALTER TABLE inbox ADD COLUMN always_scope TEXT;",
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
    call_key: str | None = None
    about: str = ""  # what the tool's MCP server says it does (approvals)
    always_scope: str | None = None  # a command prefix or a folder (approvals)

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

    def __init__(self, db: Database, *, redact: Redact | None = None) -> None:
        self.db = db
        self.redact: Redact = redact or (lambda text: text)
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
        call_key: str | None = None,
        about: str = "",
        always_scope: str | None = None,
    ) -> InboxItem:
        """Add an item, or return the one that already exists for this call
        instance (``call_key``; the ``tool_call_id`` when no key is given)."""
        if kind not in KINDS:
            raise ValueError(f"unknown inbox kind {kind!r}")
        r = self.redact
        args = scrub(dict(arguments or {}), r)
        key = call_key if call_key is not None else tool_call_id
        key, tool_call_id = self._opt(key), self._opt(tool_call_id)
        target, standing_target = self._opt(target), self._opt(standing_target)
        with self.db.transaction() as conn:
            if key is not None:
                row = conn.execute(
                    "SELECT * FROM inbox WHERE session_id = ? AND call_key = ?",
                    (session_id, key),
                ).fetchone()
                if row is not None:
                    return _item(row)
            cur = conn.execute(
                "INSERT INTO inbox(kind, session_id, tool_call_id, call_key, tool, arguments,"
                " args_preview, title, reason, risk, target, standing_target, can_always,"
                " options, task_id, created_at, about, always_scope)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind, session_id, tool_call_id, key, r(tool),
                    json.dumps(args, ensure_ascii=False, default=lambda o: r(str(o))),
                    args_preview(args), r(title), r(reason), risk, target, standing_target,
                    int(can_always), json.dumps([r(str(o)) for o in options]), task_id,
                    time.time(), r(about), self._opt(always_scope),
                ),
            )
            row = conn.execute("SELECT * FROM inbox WHERE id = ?", (cur.lastrowid,)).fetchone()
        item = _item(row)
        self._notify(item)
        return item

    def respond(
        self, item_id: int, action: Action, text: str = "", *, by: str = "app"
    ) -> bool:
        """Answer an item with a verb — ``approve``, ``always``, ``deny`` or ``answer``
        (with ``text``) — checked against the item's kind (``docs/architecture.md``, "The inbox").

        True if this answer won; False if the item was already resolved. Raises
        :class:`InboxError` when the verb does not fit the item, and KeyError when
        there is no such item.
        """
        item = self.get(item_id)
        if item is None:
            raise KeyError(f"no inbox item #{item_id}")
        return self.resolve(item_id, resolution_for(item, action, text), by=by)

    def resolve(self, item_id: int, resolution: str, *, by: str = "app") -> bool:
        """Resolve a pending item. True if this call won; False if it was already
        resolved (or does not exist). An approval only takes an approval verdict
        (:data:`APPROVAL_RESOLUTIONS`, ``cancelled`` or ``superseded``): anything else raises
        :class:`InboxError` and changes nothing."""
        if not resolution:
            raise ValueError("a resolution is required")
        kind = self.db.query("SELECT kind, always_scope FROM inbox WHERE id = ?", (item_id,))
        if kind and kind[0][0] == "approval" and resolution.strip().lower() not in (
            APPROVAL_RESOLUTIONS | {WITHDRAWN, SUPERSEDED}
        ):
            raise InboxError(
                f"#{item_id} is an approval: approve or deny it; it takes no text answer"
            )
        if kind and not kind[0][1] and resolution.strip().lower() in WIDER:
            raise InboxError(f"#{item_id} offers no command prefix or folder to allow always")
        cur = self.db.execute(
            "UPDATE inbox SET status = 'resolved', resolution = ?, resolved_by = ?,"
            " resolved_at = ? WHERE id = ? AND status = 'pending'",
            (self.redact(resolution), by, time.time(), item_id),
        )
        if cur.rowcount != 1:
            return False
        item = self.get(item_id)
        assert item is not None
        self._notify(item)
        return True

    def _opt(self, text: str | None) -> str | None:
        return None if text is None else self.redact(text)

    # ---------------------------------------------------------------- reading

    def get(self, item_id: int) -> InboxItem | None:
        rows = self.db.query("SELECT * FROM inbox WHERE id = ?", (item_id,))
        return _item(rows[0]) if rows else None

    def find(self, session_id: str, tool_call_id: str) -> InboxItem | None:
        """The item for the vendor call id ``tool_call_id`` in this session: the
        pending one if there is one, else the newest (ids repeat across turns)."""
        rows = self.db.query(
            "SELECT * FROM inbox WHERE session_id = ? AND tool_call_id = ?"
            " ORDER BY status = 'pending' DESC, id DESC LIMIT 1",
            (session_id, self.redact(tool_call_id)),
        )
        return _item(rows[0]) if rows else None

    def find_key(self, session_id: str, call_key: str) -> InboxItem | None:
        """The item of one call instance (see :meth:`add`)."""
        rows = self.db.query(
            "SELECT * FROM inbox WHERE session_id = ? AND call_key = ?",
            (session_id, self.redact(call_key)),
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


def task_command(item: InboxItem) -> str | None:
    """The shell command a scheduled task's approval asks to run (its "always"
    answer is "always for this task: this exact command"), or None."""
    if item.kind != "approval" or item.risk != "exec" or not item.task_id:
        return None
    command = item.target or item.arguments.get("command")
    return command if isinstance(command, str) and command.strip() else None


def resolution_for(item: InboxItem, action: Action, text: str = "") -> str:
    """The stored resolution for answering ``item`` with ``action`` (the table in
    ``docs/architecture.md``, "The inbox"), or :class:`InboxError` saying what to use instead."""
    ref = f"#{item.id}"
    text = text.strip()
    if item.kind == "notice":
        raise InboxError(f"{ref} is a notice: there is nothing to approve, deny or answer")
    if item.kind == "question":
        if action != "answer":
            raise InboxError(
                f"{ref} is a question, not an approval: reply with `answer {item.id} TEXT`"
            )
        if not text:
            raise InboxError(f"{ref}: an answer needs some text")
        return _question_answer(item, text)
    if action == "answer":
        if item.kind == "plan":
            if not text:
                raise InboxError(f"{ref}: feedback on a plan needs some text")
            return f"deny: {text}"
        raise InboxError(f"{ref} is {_a(item.kind)}: approve or deny it; it takes no text answer")
    if action == "deny":
        return "deny"
    if action == "always":
        if task_command(item):
            return "always_command"  # the run binds it to the task and the exact command
        if item.kind != "approval" or not item.can_always:
            raise InboxError(
                f"{ref} cannot be allowed always (only actions on an exact external target, "
                "or an MCP server's tool, can)"
            )
        return "always"
    if action == "approve":
        if text and item.kind == "plan" and item.tool in APPROVE_WITH_TEXT:
            try:
                APPROVE_WITH_TEXT[item.tool](text)
            except ValueError as exc:
                raise InboxError(f"{ref}: the edited plan cannot be used: {exc}") from exc
            return f"approve: {text}"
        return "once" if item.kind == "approval" else "approve"
    raise InboxError(f"unknown action {action!r} (expected approve, always, deny or answer)")


def _question_answer(item: InboxItem, text: str) -> str:
    """A question's stored answer; one with choices takes a number (``2``, ``1,3``),
    a label or, where allowed, the user's own words; grouped questions one answer
    a question, ``N: …`` lines or a JSON array (``domain/choices.py``)."""
    group = choices.group_from(item.arguments)
    spec = choices.spec_from(item.arguments)
    if group is None and spec is None:
        return text
    try:
        if group is not None:  # several questions, answered together
            return choices.normalize_group(group, text)
        assert spec is not None
        return choices.normalize(spec, text)
    except ValueError as exc:
        raise InboxError(f"#{item.id}: {exc}") from None


def closed_by_app(item: InboxItem) -> str | None:
    """What to tell someone answering ``item`` after the app closed it itself (see
    ``docs/architecture.md``, "The inbox"), or None if it is pending or a person answered it."""
    if item.pending:
        return None
    if item.resolution == SUPERSEDED and item.resolved_by == SUPERSEDED_BY:
        return (
            f"#{item.id} was closed because the conversation moved on: a new message was "
            "sent before it was answered, so nothing was run. Ask again in the session "
            "if it is still needed."
        )
    if item.resolution == WITHDRAWN and item.resolved_by == "stop":
        return f"#{item.id} was withdrawn because the turn was stopped; nothing was run."
    return None


def _a(kind: str) -> str:
    return {"approval": "an approval", "directory": "a folder request"}.get(kind, f"a {kind}")


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
        call_key=row["call_key"],
        about=row["about"],
        always_scope=row["always_scope"],
    )
