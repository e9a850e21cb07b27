"""The memory tools: ``remember``, ``memory_update``, ``memory_forget``, ``memory_read``.

Risk: all four are READ (as ``domain/risk.py`` lists them, like ``todo_write``).
They change only the agent's own notes in the app's database: no file, no
command, nothing leaves the machine. ``remember``, ``memory_update`` and
``memory_forget`` are ``persists``: the read-only modes (discuss, plan), which
promise to change nothing, refuse them with a message that says so; in the other
modes they run without asking. ``memory_read`` runs in every mode. A saved fact can never widen what the agent
may do — the permission engine never reads memory — and it reaches later
sessions only as a line of data under a header that says it is a note, not an
instruction. The user sees every fact, with the session that saved it and the
date, on the Memory settings page, and can edit or delete it there, or switch
saving off.

Saving off (``memory.enabled = false``): ``remember``, ``memory_update`` and
``memory_forget`` refuse with a message that says so and changes nothing;
``memory_read`` still works. The switch is read on every call, so turning it on
or off takes effect at once, mid-conversation.

A session sees (and may change) the global facts and its own folder's; a fact of
another folder is "no memory #id" to it.
"""

from __future__ import annotations

import time
from typing import Any

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.memory.store import (
    MAX_CONTENT,
    Fact,
    MemoryError,
    MemoryStore,
    normal_scope,
    one_line,
)

SAVING_OFF = (
    "Saving memories is turned off in the user's settings, so nothing was {what}. "
    "memory_read still works."
)
READ_LIMIT = 50


def _id(args: dict[str, Any]) -> int | None:
    raw = args.get("id")
    if isinstance(raw, str):
        raw = raw.strip().lstrip("#")
    try:
        return int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _where(fact: Fact) -> str:
    return "global" if fact.scope == "global" else "this folder"


def _line(fact: Fact) -> str:
    day = time.strftime("%Y-%m-%d", time.localtime(fact.created_at))
    source = f", from session {fact.source_session}" if fact.source_session else ""
    return f"- [#{fact.id}] {one_line(fact.content, 10_000)} ({_where(fact)}, saved {day}{source})"


def memory_tools(store: MemoryStore) -> list[Tool]:
    """The four tools on ``store`` (its ``saving`` switch is read on every call)."""

    def saving(ctx: ToolContext) -> bool:
        return bool(store.saving(str(ctx.workspace)))

    def visible(fact_id: int | None, ctx: ToolContext) -> Fact | None:
        fact = store.get(fact_id) if fact_id is not None else None
        return fact if fact is not None and store.visible(fact, ctx.workspace) else None

    async def remember(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if not saving(ctx):
            return ToolResult(SAVING_OFF.format(what="saved"), is_error=True)
        content = str(args.get("content") or "")
        scope = normal_scope(args.get("scope"))
        same = store.same(content, scope=scope, workspace=ctx.workspace) if content.strip() else None
        if same is not None:
            return ToolResult(f"Already saved as memory #{same.id}; nothing was added.")
        try:
            fact = store.add(content, scope=scope, workspace=ctx.workspace,
                             session_id=ctx.session_id, summary=str(args.get("summary") or ""))
        except MemoryError as exc:
            return ToolResult(f"Not saved: {exc}.", is_error=True)
        return ToolResult(f"Saved as memory #{fact.id} ({_where(fact)}).")

    async def update(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if not saving(ctx):
            return ToolResult(SAVING_OFF.format(what="changed"), is_error=True)
        fact_id = _id(args)
        if visible(fact_id, ctx) is None:
            return ToolResult(f"There is no memory #{args.get('id')} (memory_read lists them).",
                              is_error=True)
        content = args.get("content")
        summary = args.get("summary")
        if content is None and summary is None:
            return ToolResult("Give the new content (or a new summary).", is_error=True)
        try:
            fact = store.update(fact_id,  # type: ignore[arg-type]
                                None if content is None else str(content),
                                summary=None if summary is None else str(summary))
        except MemoryError as exc:
            return ToolResult(f"Not changed: {exc}.", is_error=True)
        if fact is None:
            return ToolResult(f"There is no memory #{fact_id}.", is_error=True)
        return ToolResult(f"Memory #{fact.id} updated.")

    async def forget(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if not saving(ctx):
            return ToolResult(SAVING_OFF.format(what="forgotten"), is_error=True)
        fact = visible(_id(args), ctx)
        if fact is None or not store.delete(fact.id):
            return ToolResult(f"There is no memory #{args.get('id')} (memory_read lists them).",
                              is_error=True)
        return ToolResult(f"Memory #{fact.id} forgotten.")

    async def read(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        query = str(args.get("query") or "")
        raw_scope = args.get("scope")
        scope = normal_scope(raw_scope) if raw_scope in ("global", "workspace") else None
        try:
            offset = max(int(args.get("offset") or 0), 0)
        except (TypeError, ValueError):
            offset = 0
        facts = store.facts(ctx.workspace, scope=scope, query=query,
                            limit=READ_LIMIT + 1, offset=offset)
        if not facts:
            what = f" matching {query!r}" if query.strip() else ""
            more = "" if saving(ctx) else " Saving new memories is turned off."
            return ToolResult(f"No saved memories{what}.{more}")
        lines = [_line(f) for f in facts[:READ_LIMIT]]
        if len(facts) > READ_LIMIT:
            lines.append(f"More: call memory_read with offset {offset + READ_LIMIT}.")
        if not saving(ctx):
            lines.append("(Saving new memories is turned off: these can be read, not changed.)")
        return ToolResult("\n".join(lines))

    scope_schema = {
        "type": "string", "enum": ["workspace", "global"],
        "description": "workspace (default): true of this folder; global: true wherever "
                       "the user works",
    }
    id_schema = {"type": "integer", "description": "The fact's number (#id)."}
    return [
        Tool(
            name="remember",
            description=(
                "Save a fact for later sessions: a correction or preference (with its reason), "
                "context not found in files. One short, self-contained fact; dates in full. "
                "Update an existing fact instead of saving a near-duplicate."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "content": {"type": "string", "maxLength": MAX_CONTENT,
                                "description": "The fact."},
                    "scope": scope_schema,
                    "summary": {"type": "string",
                                "description": "Optional: a few words shown when space is short."},
                },
                "required": ["content"],
            },
            handler=remember,
            risk=RiskClass.READ,
            persists=True,
        ),
        Tool(
            name="memory_update",
            description="Change a saved fact (by #id) when it is no longer exactly true.",
            parameters={
                "type": "object",
                "properties": {
                    "id": id_schema,
                    "content": {"type": "string", "maxLength": MAX_CONTENT},
                    "summary": {"type": "string"},
                },
                "required": ["id"],
            },
            handler=update,
            risk=RiskClass.READ,
            persists=True,
        ),
        Tool(
            name="memory_forget",
            description="Delete a saved fact (by #id) that is wrong or no longer needed.",
            parameters={"type": "object", "properties": {"id": id_schema}, "required": ["id"]},
            handler=forget,
            risk=RiskClass.READ,
            persists=True,
        ),
        Tool(
            name="memory_read",
            description=(
                "List saved facts (global and this folder's), newest first, with their #id; "
                "optionally only those containing the words of `query`."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "scope": scope_schema,
                    "offset": {"type": "integer", "minimum": 0},
                },
            },
            handler=read,
            risk=RiskClass.READ,
            concurrency_safe=True,
        ),
    ]
