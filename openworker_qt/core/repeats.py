"""A model that asks again for what it was just given.

Some servers drop tool results from the prompt (llama-cpp-python's
``chatml-function-calling`` format has no ``tool`` role): the model never sees
what its call returned and asks for it again, step after step, until the turn's
step limit. Said as it is, the limit alone reads like a long task cut short; so
when the turn's last step repeated the step before it — the same tool with the
same arguments, right after that call's result — the words say what happened.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

#: What the user is told (after "Stopped after N steps: "), ``{tool}`` the tool asked for.
REPEATED_WORDS = ("the model kept asking for the same thing ({tool}, with the same details) "
                  "right after getting it; it may not be able to read tool results. Try "
                  "another model or another server.")


def _key(call: Any) -> tuple[str, str] | None:
    """(tool, arguments in a canonical form) of a stored tool call."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not function.get("name"):
        return None
    raw = function.get("arguments")
    try:  # (``{"path": "a"}`` and ``{ "path":"a" }`` are the same request)
        args = json.dumps(json.loads(raw), sort_keys=True) if isinstance(raw, str) and raw.strip() else "{}"
    except ValueError:
        args = str(raw)
    return str(function["name"]), args


def _steps(history: Sequence[Any]) -> list[tuple[dict[str, Any], bool]]:
    """The last two assistant messages with calls, newest first, each with whether
    only its predecessor's results sat between them (no user message, no answer)."""
    found: list[tuple[dict[str, Any], bool]] = []
    clean = True
    for msg in reversed(history):
        role = msg.get("role") if isinstance(msg, dict) else None
        if role == "assistant" and msg.get("tool_calls"):
            found.append((msg, clean))
            if len(found) == 2:
                break
            clean = True
        elif role in ("user", "assistant"):
            if found:
                clean = False
            if role == "user":
                break
    return found


def repeated_call(history: Sequence[Any]) -> str | None:
    """The tool the model asked for again in the last step with the same arguments
    as in the step just before it, after that call's result; else None."""
    steps = _steps(history)
    if len(steps) < 2 or not steps[1][1]:
        return None
    (last, _), (before, _) = steps
    earlier = {_key(c) for c in before.get("tool_calls") or ()}
    results = {m.get("tool_call_id") for m in history if isinstance(m, dict) and m.get("role") == "tool"}
    if not all(c.get("id") in results for c in before.get("tool_calls") or ()):
        return None  # (that call had no result: nothing was given yet)
    for call in last.get("tool_calls") or ():
        key = _key(call)
        if key is not None and key in earlier:
            return key[0]
    return None


def limit_words(history: Sequence[Any], iterations: int, limit: int) -> str:
    """The words for a turn stopped at its step limit."""
    tool = repeated_call(history)
    if tool is not None:
        return f"Stopped after {iterations} steps: " + REPEATED_WORDS.format(tool=tool)
    return (f"Stopped after {iterations} steps: the iteration limit ({limit}) was reached. "
            "Send a message to continue.")
