"""The explorer sub-agent (``explore``): a child engine that reads, searches and reports.

The parent model hands it a question; a child :class:`~openworker_qt.core.engine.TurnEngine`
answers it with a fresh context (an in-memory history holding only the question),
its own system prompt and only the parent's read tools — never ``explore`` itself
(no recursion), never a tool that asks the user, never the shell. Its decider is the
session's permission engine forced into plan mode (reads fenced to the session's read
roots, every write refused) and it has no approver and no questioner, so anything that
would need a person is refused. Its turn is capped at a few model calls.

Only the child's final answer comes back, as this call's result (capped). While it
works, each step it takes is reported into the parent's tool card (``ToolContext.report``
→ ``ToolProgress`` carrying the parent's call id). When the parent is stopped, the
tool task is cancelled: the child is interrupted and its provider stream closed.

It is READ and concurrency-safe, so several explorers asked for in one response
run side by side.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import Decider
from openworker_qt.core.engine import AGENT_USAGE, TurnEngine
from openworker_qt.core.history import MemoryHistory
from openworker_qt.core.messages import AGENT_MODEL
from openworker_qt.core.provider_api import ProviderResolver
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolRegistry, ToolResult
from openworker_qt.core.tool_calls import truncate

EXPLORE = "explore"
DEFAULT_MAX_ITERATIONS = 8
MAX_REPORT_CHARS = 20_000

EXPLORER_PROMPT = (
    "You are an explorer working for another agent: read, search, report. "
    "Use the read-only tools you have to answer the task you are given. You cannot "
    "change anything, run commands or ask the user. Be quick: you have only a few "
    "steps. End with a concise report of what you found, naming the files and lines "
    "that matter; that report is all the other agent will see."
)


@dataclass(slots=True)
class Explorer:
    """What an explorer needs from the session that starts it.

    ``model``: the model the child uses (the parent session's, read at each call);
    ``decider``: a fresh permission engine in plan mode over the session's read roots.
    """

    resolver: ProviderResolver
    model: Callable[[], str]
    decider: Callable[[], Decider]
    max_iterations: int = DEFAULT_MAX_ITERATIONS
    max_report_chars: int = MAX_REPORT_CHARS
    system_prompt: str = EXPLORER_PROMPT


def child_tools(parent: ToolRegistry) -> ToolRegistry:
    """The tools a child may use: the parent's read tools, minus ``explore`` (no
    recursion), tools that ask the user, and the shell's task tools."""
    return ToolRegistry([
        tool for tool in parent
        if tool.name != EXPLORE
        and tool.interaction is None
        and not tool.name.startswith("shell_")
        and tool.risk_class() is RiskClass.READ
    ])


def _step_line(event: ev.ToolStarted, arguments: dict[str, Any]) -> str:
    target = next((str(v) for k, v in arguments.items()
                   if k in ("path", "pattern", "query") and v not in (None, "")), "")
    return f"{event.name} {target}".rstrip() + "\n"


def explore_tool(explorer: Explorer, parent: ToolRegistry) -> Tool:
    """The ``explore`` tool of a session whose tools are ``parent``."""

    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        task = str(args.get("task") or "").strip()
        if not task:
            return ToolResult("Error: give the explorer a task (what to find out).",
                              is_error=True)
        child = TurnEngine(
            session_id=f"{ctx.session_id}/explore-{uuid.uuid4().hex[:8]}",
            store=MemoryHistory(),
            resolver=explorer.resolver,
            model=explorer.model(),
            tools=child_tools(parent),
            decider=explorer.decider(),
            approver=None,
            questioner=None,
            workspace=ctx.workspace,
            system_prompt=explorer.system_prompt,
            max_iterations=explorer.max_iterations,
        )
        report = ""
        end: ev.TurnEnded | None = None
        proposed: dict[str, dict[str, Any]] = {}
        steps = 0
        events = child.run(task, source="agent").__aiter__()
        try:
            async for event in events:
                if isinstance(event, ev.ToolProposed):
                    proposed[event.call_id] = dict(event.arguments)
                elif isinstance(event, ev.ToolStarted):
                    steps += 1
                    ctx.report(_step_line(event, proposed.get(event.call_id, {})))
                elif isinstance(event, ev.ToolFinished) and event.status != "ok":
                    ctx.report(f"{event.name}: {event.status}\n")
                elif isinstance(event, ev.AssistantMessage):
                    text = event.message.get("content")
                    if isinstance(text, str) and text.strip():
                        report = text
                elif isinstance(event, ev.TurnEnded):
                    end = event
        except asyncio.CancelledError:
            # The parent was stopped: stop the child and close its provider stream.
            child.request_interrupt()
            with contextlib.suppress(BaseException):
                await events.aclose()  # type: ignore[attr-defined]
            raise
        finally:
            with contextlib.suppress(BaseException):
                await events.aclose()  # type: ignore[attr-defined]
        usage = dict(end.usage) if end is not None else {}
        status = end.status if end is not None else "error"
        # The child's tokens join the parent turn's usage (the engine adds them up).
        display = {"explorer_steps": steps, "explorer_status": status, AGENT_USAGE: usage,
                   AGENT_MODEL: child.model}
        if status == "completed" and report.strip():
            return ToolResult(truncate(report, explorer.max_report_chars), display=display)
        if status == "max_iterations":
            note = (f"The explorer stopped after {explorer.max_iterations} steps without "
                    "finishing.")
            body = f"{note} Its last words:\n{report}" if report.strip() else note
            return ToolResult(truncate(body, explorer.max_report_chars), is_error=not report,
                              display=display)
        detail = end.detail if end is not None and end.detail else "it gave no report"
        return ToolResult(f"Error: the explorer did not finish ({status}): {detail}",
                          is_error=True, display=display)

    return Tool(
        name=EXPLORE,
        description=(
            "Start an explorer: a helper with a fresh context and read-only tools (read, "
            "list, glob, grep, git reads) that investigates a task and returns only its "
            "report. Use it to look through many files without filling your own context. "
            "Several explorers may run at once. It cannot change anything or ask the user."
        ),
        parameters={
            "type": "object",
            "properties": {
                "task": {"type": "string",
                         "description": "What to find out, with any paths worth starting from."},
            },
            "required": ["task"],
        },
        handler=handler,
        risk=RiskClass.READ,
        concurrency_safe=True,
    )
