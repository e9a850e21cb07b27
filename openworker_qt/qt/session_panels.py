"""The to-do list and the deliverables of the session on screen: one reducer for the
live events and the stored history alike (no Qt here).

Both lists are made by tool results: a successful ``todo_write`` replaces the to-do
list (``tools/todo.py``), a successful ``create_deliverable`` adds its file (or moves
a rewritten one last). :func:`reduce` applies one such result — a live
``ToolFinished`` or a stored ``role: tool`` message — to a :class:`PanelsState`, and
reopening a session folds its stored results through the same function, so what a
session shows live and what it shows reopened cannot differ.

:class:`SessionPanels` holds the state of the session on screen. Opening a session
(:meth:`~SessionPanels.show`) empties it and reads the stored results in a worker;
results that arrive live meanwhile are shown at once and kept, and when the read is
in (:meth:`~SessionPanels.loaded`) they are applied again over it: the newest results
come last whether the read saw them or not, and nothing stored is lost to a live one.
Views (the to-do panel, the deliverables panel) listen to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openworker_qt.tools.todo import NAME as TODO_TOOL
from openworker_qt.tools.todo import TodoItem, ToolResultSource, todos_from_display

__all__ = [
    "DELIVERABLE_TOOL",
    "TODO_TOOL",
    "fold",
    "PanelsState",
    "SessionPanels",
    "path_from_display",
    "reduce",
    "stored_results",
]

DELIVERABLE_TOOL = "create_deliverable"
#: Stored results read back when a session opens: the to-do list needs its last good
#: one, the deliverables every one (up to this many).
TODO_READS = 20
DELIVERABLE_READS = 500


def path_from_display(display: Any) -> str | None:
    """The file a ``create_deliverable`` result's display data names."""
    if isinstance(display, Mapping) and isinstance(display.get("path"), str):
        return str(display["path"])
    return None


@dataclass(frozen=True, slots=True)
class PanelsState:
    """The session's to-do list and its deliverables (oldest first, each once)."""

    todos: tuple[TodoItem, ...] = ()
    deliverables: tuple[str, ...] = ()


def reduce(state: PanelsState, name: str, status: str, display: Any) -> PanelsState:
    """``state`` after one tool result (a refused or failed call changes nothing, nor
    does a result whose display data cannot be read)."""
    if status != "ok":
        return state
    if name == TODO_TOOL:
        todos = todos_from_display(display)
        return state if todos is None else PanelsState(tuple(todos), state.deliverables)
    if name == DELIVERABLE_TOOL:
        path = path_from_display(display)
        if path is None:
            return state
        kept = tuple(p for p in state.deliverables if p != path)
        return PanelsState(state.todos, (*kept, path))
    return state


def fold(messages: Iterable[Mapping[str, Any]], state: PanelsState | None = None) -> PanelsState:
    """``state`` (or an empty one) after the stored ``role: tool`` messages, oldest first."""
    state = state or PanelsState()
    for msg in messages:
        if msg.get("role") == "tool":
            state = reduce(state, str(msg.get("name") or ""), str(msg.get("status", "ok")),
                           msg.get("_display"))
    return state


def stored_results(store: ToolResultSource, session_id: str) -> list[Mapping[str, Any]]:
    """The session's stored results of both tools, each tool's oldest first (blocking:
    a worker's; the two lists are independent, so their order between them is not kept)."""
    todos = store.last_tool_results(session_id, TODO_TOOL, TODO_READS)
    made = store.last_tool_results(session_id, DELIVERABLE_TOOL, DELIVERABLE_READS)
    return [*reversed(todos), *reversed(made)]


#: ``listener(state, made)``: the state changed; ``made`` is the deliverable a live
#: result just added (the panel selects it), None for any other change.
Listener = Callable[[PanelsState, str | None], None]


class SessionPanels:
    """See module docstring."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.state = PanelsState()
        #: Live results of the session since it was opened, while its stored ones are read.
        self._pending: list[tuple[str, str, Any]] | None = None
        self.listeners: list[Listener] = []

    def show(self, session_id: str | None) -> None:
        """The window shows ``session_id`` now (None: a new session, nothing stored):
        empty lists until :meth:`loaded` brings its stored results."""
        self.session_id = session_id
        self._pending = [] if session_id is not None else None
        self._set(PanelsState(), None, always=True)

    def loading(self) -> bool:
        return self._pending is not None

    def apply(self, name: str, status: str, display: Any) -> str | None:
        """A live tool result of the session on screen (the caller routes only its
        events here); the deliverable it made, if it made one."""
        if self._pending is not None:
            self._pending.append((name, status, display))
        made = (path_from_display(display)
                if name == DELIVERABLE_TOOL and status == "ok" else None)
        self._set(reduce(self.state, name, status, display), made)
        return made

    def loaded(self, session_id: str, stored: Sequence[Mapping[str, Any]]) -> None:
        """The stored results of ``session_id`` are read (a read for a session no longer
        on screen, or one already in, is dropped): they, then the live ones since
        :meth:`show`, make the state."""
        if session_id != self.session_id or self._pending is None:
            return
        state = fold(stored)
        for name, status, display in self._pending:
            state = reduce(state, name, status, display)
        self._pending = None
        self._set(state, None)

    def _set(self, state: PanelsState, made: str | None, *, always: bool = False) -> None:
        changed = state != self.state
        self.state = state
        if changed or made is not None or always:
            for listener in list(self.listeners):
                listener(state, made)
