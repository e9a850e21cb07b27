"""A model's tool calls as data: made storable and given their own ids as they arrive,
parsed and classified (:func:`parse_call`), and the texts a call's result gets when it
is refused, cut or not run again. No running here (that is core/tool_step.py)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolRegistry
from openworker_qt.domain.arguments import ArgumentsError, parse_arguments
from openworker_qt.domain.messages import ToolCall
from openworker_qt.domain.text import storable, storable_text

MAX_RESULT_CHARS = 60_000
DENIED_RESULT = "The user denied this call; it was not executed."
# A call that started before the app stopped and whose result was never stored:
# it may have had its effect, so no result may claim it was "not executed".
RERUN_REASON = (
    "This call was started before the app stopped and may already have taken effect. "
    "Run it again?"
)
RERUN_DENIED_RESULT = (
    "Not run again: this call was started before the app stopped and may already have "
    "taken effect; the user chose not to run it again."
)
RERUN_NOBODY_RESULT = (
    "Not run again: this call was started before the app stopped and may already have "
    "taken effect; nobody could be asked here whether to run it again."
)
RERUN_INTERRUPTED_RESULT = (
    "interrupted by user; this call was started before the app stopped and may already "
    "have taken effect. It was not run again."
)
#: What the model is told of a call its answer was cut in (it was not run).
CUT_CALL_ERROR = (
    "your answer was cut at its output limit while this call was being written, so its "
    "arguments are incomplete and it was not run; call it again with shorter arguments "
    "(for example, write a long file in several smaller parts)"
)
CUT_CALL_NOTICE = (
    "The model's answer was cut at its output limit while it was writing a tool call. "
    "The call was not run; the model was told, so it can try again with shorter arguments."
)


def rerun_key(call_key: str) -> str:
    """The key of the ask confirming that a call which started before the app stopped
    may run again (its own call key is taken by the first approval)."""
    return f"{call_key}:rerun"


@dataclass(slots=True)
class ParsedCall:
    id: str
    name: str
    raw_arguments: str
    arguments: dict[str, Any]
    tool: Tool | None
    risk: RiskClass
    error: str | None = None
    #: This call instance, stable across a restart: "<step id>/<vendor id>" (see
    #: TurnEngine._current_step_id). Inbox items and audit checks use it, never the vendor id
    #: alone — providers reuse ids like call_0 in every turn.
    key: str = ""
    #: What the tool's ``prepare`` looked up for the approval card (see ``Tool.prepare``).
    facts: dict[str, Any] = field(default_factory=dict)


def parse_call(raw: ToolCall, tools: ToolRegistry, overrides: Any) -> ParsedCall:
    """One raw call from the model, classified. A name the model made up is EXTERNAL
    and carries an error (it is never run); otherwise the class follows the tool's
    declaration and the built-in table (core/risk.py), the user's overrides first."""
    fn = raw.get("function") or {}
    name = str(fn.get("name", ""))
    text = fn.get("arguments") or "{}"
    tool = tools.get(name)
    risk = tool.risk_class(overrides) if tool else RiskClass.EXTERNAL
    error: str | None = None
    args: dict[str, Any] = {}
    try:  # also refuses nesting deep enough to crash what walks the arguments later
        args = parse_arguments(text)
    except ArgumentsError as exc:
        error = str(exc)
    if tool is None:
        offered = ", ".join(tools.names()) or "none"
        error = f"unknown tool '{name}' (available: {offered})"
    elif error is None and tool.check is not None:
        error = tool.check(args)
    return ParsedCall(str(raw.get("id")), name, str(text), args, tool, risk, error)


def truncate(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    if len(text) <= limit:
        return text
    head = limit // 3
    tail = limit - head
    cut = len(text) - limit
    return f"{text[:head]}\n[… {cut} characters omitted …]\n{text[-tail:]}"


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def storable_arguments(raw: Any) -> Any:
    """A call's arguments text, storable: literal lone surrogates replaced, and an
    object whose JSON escapes parse to one (``"\\ud800"``) written again without
    them, so the stored text says what the tool is given."""
    if not isinstance(raw, str):
        return storable(raw)
    text = storable_text(raw)
    if _ESCAPED_SURROGATE.search(text) is None:
        return text
    try:
        parsed = parse_arguments(text)
    except ArgumentsError:
        return text  # the call fails with its own error; the escapes are plain ASCII
    clean = storable(parsed)
    return text if clean is parsed else json.dumps(clean, ensure_ascii=False)


def unique_ids(calls: list[ToolCall]) -> None:
    """Give each call of one message its own id, before anything is stored: a call
    whose id an earlier call of the message already has (or that has none) gets a
    fresh one (``<id>_2``, …). The stored message, its results, the audit, the inbox
    and every later request then use the new id, so each call is decided, run and
    answered on its own (providers pair a result with its call by id)."""
    taken = {str(c.get("id") or "") for c in calls}
    seen: set[str] = set()
    for call in calls:
        cid = str(call.get("id") or "")
        if cid and cid not in seen:
            seen.add(cid)
            continue
        if cid:
            n = 2
            while f"{cid}_{n}" in taken:
                n += 1
            fresh = f"{cid}_{n}"
        else:
            fresh = f"call_{uuid.uuid4().hex[:12]}"
        call["id"] = fresh
        taken.add(fresh)
        seen.add(fresh)


def refuse_cut_calls(calls: Sequence[ParsedCall]) -> str:
    """An answer cut at the output limit (``finish_reason: length``) with calls in it:
    the last call was being written when it was cut, and any whose arguments do not
    parse are incomplete too. None of those runs (each gets an error result for the
    model); returns the notice for the user."""
    for index, call in enumerate(calls):
        if index == len(calls) - 1 or call.error is not None:
            if call.tool is not None:  # (an unknown tool keeps that error)
                call.error = CUT_CALL_ERROR
    return CUT_CALL_NOTICE
