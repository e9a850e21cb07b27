"""Saved memories: short facts the agent keeps across sessions, in SQLite.

A fact has a *scope*: ``global`` (true wherever the user works: a preference, a
name, a habit) or ``workspace`` (true of one folder: its conventions, where
things are). A session sees the global facts and those of its own folder. Each
fact records where it came from (the session that saved it) and when.

Saving can be switched off in the settings (``memory.enabled``; a workspace file
may only turn it off): the store still reads, the tools refuse to write and say
so (:mod:`openworker_qt.memory.tools`).

Blocking calls (SQLite): the engine's tools use them as other stores are used
on the loop (a few small statements); the window calls them from a worker.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from openworker_qt.storage.db import Database

log = logging.getLogger(__name__)

Scope = Literal["global", "workspace"]
SCOPES: tuple[Scope, ...] = ("global", "workspace")

MAX_CONTENT = 2_000  # characters of one fact
MAX_SUMMARY = 120

MIGRATIONS = [
    """
    CREATE TABLE memory_facts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        scope TEXT NOT NULL CHECK (scope IN ('global', 'workspace')),
        workspace TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '',
        source_session TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX memory_facts_by_place ON memory_facts(scope, workspace, updated_at);
    CREATE INDEX memory_facts_by_time ON memory_facts(updated_at, id);
    """,
]


_BY_TIME = "INDEXED BY memory_facts_by_time"


class MemoryError(ValueError):
    """A fact that cannot be saved as given; the message says what to change."""


@dataclass(frozen=True, slots=True)
class Fact:
    id: int
    scope: Scope
    workspace: str
    content: str
    summary: str
    source_session: str
    created_at: float
    updated_at: float

    @property
    def short(self) -> str:
        """One line: the summary, or the start of the content."""
        return one_line(self.summary or self.content, MAX_SUMMARY)


def one_line(text: str, limit: int) -> str:
    """``text`` on one line (so a fact can never start a line of its own in a prompt),
    cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def normal_scope(scope: object) -> Scope:
    """``global`` stays global; anything else (``session``, unknown) is ``workspace``."""
    return "global" if str(scope or "").strip().lower() == "global" else "workspace"


def workspace_key(workspace: object) -> str:
    """The folder as stored: absolute, symlinks resolved, no trailing separator."""
    text = str(workspace or "").strip()
    return os.path.realpath(os.path.expanduser(text)) if text else ""


OnSaved = Callable[["Fact", "Fact | None"], None]


class MemoryStore:
    """The facts (see module docstring)."""

    def __init__(
        self,
        db: Database,
        *,
        saving: Callable[[str], bool] | None = None,
        on_saved: OnSaved | None = None,
    ) -> None:
        self.db = db
        db.ensure("memory", MIGRATIONS)
        #: Whether new facts may be saved for a session in this folder (settings).
        self.saving: Callable[[str], bool] = saving or (lambda _ws: True)
        #: Called after a save or an update with (fact, previous); never fails a save.
        self.on_saved = on_saved

    # reading -----------------------------------------------------------------

    def get(self, fact_id: int) -> Fact | None:
        rows = self.db.query("SELECT * FROM memory_facts WHERE id = ?", (int(fact_id),))
        return _fact(rows[0]) if rows else None

    def visible(self, fact: Fact, workspace: object) -> bool:
        return fact.scope == "global" or fact.workspace == workspace_key(workspace)

    def facts(
        self,
        workspace: object = None,
        *,
        scope: Scope | None = None,
        query: str = "",
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Fact]:
        """Facts a session in ``workspace`` sees (``None``: every fact, for the settings
        page), newest first; ``query``: only those containing these words."""
        where, params = self._where(workspace, scope)
        for word in query.split():
            where.append("(content LIKE ? ESCAPE '\\' OR summary LIKE ? ESCAPE '\\')")
            pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            params += [pattern, pattern]
        # Walk the facts newest first and stop at the limit (SQLite would otherwise
        # gather every match of the OR and sort them: bench/context.py).
        sql = f"SELECT * FROM memory_facts {_BY_TIME}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [int(limit), int(offset)]
        return [_fact(r) for r in self.db.query(sql, params)]

    def brief(self, workspace: object, *, limit: int, offset: int = 0) -> list[tuple[int, str]]:
        """``(id, summary or the start of the content)`` of the facts a session in
        ``workspace`` sees, newest first (what the prompt's short lines need, read
        without the whole facts)."""
        where, params = self._where(workspace, None)
        sql = ("SELECT id, CASE WHEN summary != '' THEN summary ELSE substr(content, 1, ?) END"
               f" FROM memory_facts {_BY_TIME}")
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?"
        rows = self.db.query(sql, [MAX_SUMMARY * 2, *params, int(limit), int(offset)])
        return [(int(r[0]), one_line(str(r[1]), MAX_SUMMARY)) for r in rows]

    def same(self, content: str, *, scope: object, workspace: object) -> Fact | None:
        """A fact already saved with exactly this content in this scope (and folder)."""
        kind = normal_scope(scope)
        rows = self.db.query(
            "SELECT * FROM memory_facts WHERE content = ? AND scope = ? AND workspace = ?"
            " ORDER BY id LIMIT 1",
            (str(content).strip(), kind, workspace_key(workspace) if kind == "workspace" else ""),
        )
        return _fact(rows[0]) if rows else None

    def count(self, workspace: object = None, *, scope: Scope | None = None) -> int:
        where, params = self._where(workspace, scope)
        sql = "SELECT COUNT(*) FROM memory_facts"
        if where:
            sql += " WHERE " + " AND ".join(where)
        return int(self.db.query(sql, params)[0][0])

    @staticmethod
    def _where(workspace: object, scope: Scope | None) -> tuple[list[str], list[object]]:
        where: list[str] = []
        params: list[object] = []
        if workspace is not None:
            where.append("(scope = 'global' OR (scope = 'workspace' AND workspace = ?))")
            params.append(workspace_key(workspace))
        if scope is not None:
            where.append("scope = ?")
            params.append(scope)
        return where, params

    # writing -----------------------------------------------------------------

    def add(
        self,
        content: str,
        *,
        scope: object = "workspace",
        workspace: object = "",
        session_id: str = "",
        summary: str = "",
    ) -> Fact:
        content, summary = _checked(content, summary)
        kind = normal_scope(scope)
        where = workspace_key(workspace) if kind == "workspace" else ""
        if kind == "workspace" and not where:
            raise MemoryError("this session has no folder: save the fact with scope 'global'")
        ts = time.time()
        cursor = self.db.execute(
            "INSERT INTO memory_facts(scope, workspace, content, summary, source_session,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (kind, where, content, summary, session_id, ts, ts),
        )
        fact = self.get(int(cursor.lastrowid or 0))
        assert fact is not None
        self._saved(fact, None)
        return fact

    def update(self, fact_id: int, content: str | None = None, *,
               summary: str | None = None) -> Fact | None:
        """Change a fact's content and/or summary (a content-only change keeps the
        summary). ``None`` when there is no such fact."""
        previous = self.get(fact_id)
        if previous is None:
            return None
        new_content, new_summary = _checked(
            previous.content if content is None else content,
            previous.summary if summary is None else summary,
        )
        self.db.execute(
            "UPDATE memory_facts SET content = ?, summary = ?, updated_at = ? WHERE id = ?",
            (new_content, new_summary, time.time(), previous.id),
        )
        fact = self.get(previous.id)
        assert fact is not None
        self._saved(fact, previous)
        return fact

    def delete(self, fact_id: int) -> bool:
        return self.db.execute("DELETE FROM memory_facts WHERE id = ?", (int(fact_id),)).rowcount > 0

    def delete_all(self, *, scope: Scope | None = None, workspace: object = None) -> int:
        where, params = self._where(workspace, scope)
        sql = "DELETE FROM memory_facts"
        if where:
            sql += " WHERE " + " AND ".join(where)
        return int(self.db.execute(sql, params).rowcount)

    def _saved(self, fact: Fact, previous: Fact | None) -> None:
        if self.on_saved is None:
            return
        try:
            self.on_saved(fact, previous)
        except Exception:  # a listener never undoes a save
            log.exception("a memory listener failed")


def _checked(content: str, summary: str) -> tuple[str, str]:
    text = str(content or "").strip()
    if not text:
        raise MemoryError("the fact is empty: say what to remember")
    if len(text) > MAX_CONTENT:
        raise MemoryError(
            f"the fact is {len(text)} characters long; keep it under {MAX_CONTENT} "
            "(save the essentials, or split it into several facts)"
        )
    return text, one_line(str(summary or ""), MAX_SUMMARY)


def _fact(r: sqlite3.Row) -> Fact:
    return Fact(
        id=int(r["id"]),
        scope=normal_scope(r["scope"]),
        workspace=str(r["workspace"]),
        content=str(r["content"]),
        summary=str(r["summary"]),
        source_session=str(r["source_session"]),
        created_at=float(r["created_at"]),
        updated_at=float(r["updated_at"]),
    )
