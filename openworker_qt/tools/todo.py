"""``todo_write``: the to-do list the agent keeps for multi-step work.

Each call replaces the session's whole list: items with an ``id``, a ``text`` and
a ``status`` (``pending``, ``in_progress`` or ``done``). The call changes nothing
outside the conversation, so it is READ (see ``domain/risk.py``).

The list is *stored* by being part of the history: a successful call's result
carries the validated list in its display data (``_display["todos"]`` on the
stored ``role: tool`` message). The current list is the one of the session's
last successful ``todo_write``; a refused call leaves the previous list in place.
The window shows the same list live (from ``ToolFinished``) and when a session is
reopened, through one reducer for both (``qt/session_panels.py``).

Bad input is refused whole with an error saying what to fix (nothing of the
previous list is lost): not a list, more than :data:`MAX_ITEMS` items, a missing
or repeated id, empty or too long text, an unknown status, more than one item
in progress.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult

NAME = "todo_write"
MAX_ITEMS = 50
MAX_TEXT = 300  # characters per item
MAX_ID = 40
STATUSES = ("pending", "in_progress", "done")
_MARKS = {"pending": "[ ]", "in_progress": "[>]", "done": "[x]"}


@dataclass(frozen=True, slots=True)
class TodoItem:
    id: str
    text: str
    status: str

    def as_dict(self) -> dict[str, str]:
        return {"id": self.id, "text": self.text, "status": self.status}


class TodoError(ValueError):
    """The list the model sent cannot be used; the message says why."""


def parse_todos(raw: Any) -> list[TodoItem]:
    """The validated items of ``raw`` (the ``todos`` argument); :class:`TodoError` if bad."""
    if not isinstance(raw, list):
        raise TodoError("'todos' must be a list of items, each with id, text and status")
    if len(raw) > MAX_ITEMS:
        raise TodoError(f"the list has {len(raw)} items; at most {MAX_ITEMS} are allowed — "
                        "merge small steps")
    items: list[TodoItem] = []
    seen: set[str] = set()
    for n, entry in enumerate(raw, 1):
        if not isinstance(entry, Mapping):
            raise TodoError(f"item {n} is not an object with id, text and status")
        raw_id = entry.get("id")
        if isinstance(raw_id, bool) or not isinstance(raw_id, str | int):
            raise TodoError(f"item {n} has no id (a short string such as \"{n}\")")
        item_id = str(raw_id).strip()
        if not item_id:
            raise TodoError(f"item {n} has an empty id")
        if len(item_id) > MAX_ID:
            raise TodoError(f"item {n}'s id is {len(item_id)} characters; at most {MAX_ID}")
        if item_id in seen:
            raise TodoError(f"the id {item_id!r} is used twice; ids must be unique")
        seen.add(item_id)
        text = entry.get("text")
        if not isinstance(text, str) or not text.strip():
            raise TodoError(f"item {item_id!r} has no text")
        text = " ".join(text.split())
        if len(text) > MAX_TEXT:
            raise TodoError(f"item {item_id!r}'s text is {len(text)} characters; at most "
                            f"{MAX_TEXT}")
        status = entry.get("status", "pending")
        if status not in STATUSES:
            raise TodoError(f"item {item_id!r} has status {status!r}; use one of "
                            + ", ".join(STATUSES))
        items.append(TodoItem(item_id, text, str(status)))
    running = [i.id for i in items if i.status == "in_progress"]
    if len(running) > 1:
        raise TodoError("more than one item is in_progress (" + ", ".join(running)
                        + "); work on one step at a time")
    return items


def render(items: list[TodoItem]) -> str:
    """The list as the model reads it back."""
    if not items:
        return "The to-do list is now empty."
    done = sum(1 for i in items if i.status == "done")
    lines = [f"To-do list updated ({done} of {len(items)} done):"]
    lines += [f"{_MARKS[i.status]} {i.id}. {i.text}" for i in items]
    return "\n".join(lines)


async def todo_write(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    try:
        items = parse_todos(args.get("todos"))
    except TodoError as exc:
        return ToolResult(f"Error: {exc}. The previous list is unchanged.", is_error=True)
    return ToolResult(render(items), display={"todos": [i.as_dict() for i in items]})


def todos_from_display(display: Any) -> list[TodoItem] | None:
    """The list carried by a ``todo_write`` result's display data (``None`` if none)."""
    if not isinstance(display, Mapping) or "todos" not in display:
        return None
    try:
        return parse_todos(display["todos"])
    except TodoError:
        return None  # a stored row we cannot read shows no list rather than a wrong one


class ToolResultSource(Protocol):
    """Where a session's stored tool results are read back (the conversation store)."""

    def last_tool_results(self, session_id: str, name: str,
                          limit: int = ...) -> Sequence[Mapping[str, Any]]: ...


TODO_WRITE = Tool(
    name=NAME,
    description=(
        "Keep a to-do list for multi-step work; the user sees it live above the message "
        "box. Each call replaces the whole list. Use it for tasks of three or more steps: "
        "write the steps first, mark one in_progress before you start it and done as soon "
        "as it is finished (at most one in_progress at a time). Send an empty list to clear "
        f"it. At most {MAX_ITEMS} items of {MAX_TEXT} characters."
    ),
    parameters={
        "type": "object",
        "properties": {
            "todos": {
                "type": "array",
                "maxItems": MAX_ITEMS,
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "Short and unique, e.g. \"1\"."},
                        "text": {"type": "string", "maxLength": MAX_TEXT},
                        "status": {"type": "string", "enum": list(STATUSES)},
                    },
                    "required": ["id", "text", "status"],
                },
            },
        },
        "required": ["todos"],
    },
    handler=todo_write,
    risk=RiskClass.READ,
)


def todo_tools() -> list[Tool]:
    return [TODO_WRITE]
