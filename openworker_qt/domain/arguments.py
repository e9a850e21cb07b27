"""Tool-call arguments as a model wrote them: a JSON object of bounded depth.

A model can write anything, including ``{"path": [[[[…5000 levels…]]]]}``. Python's
``json`` recurses once per level, and so does every recursive walk after it (the
redaction of a message, its outbound copy, ``json.dumps`` when it is stored), so
arguments nested deeper than :data:`MAX_DEPTH` are refused where they are parsed,
as that one call's invalid arguments: nothing deeper travels further.

:func:`map_json` copies JSON-shaped data without recursing, for walks over data
that did not come through :func:`parse_arguments` (provider state, tool output).
Pure functions; imports nothing of the package.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "TOO_DEEP_ARGUMENTS",
    "ArgumentsError",
    "map_json",
    "parse_arguments",
    "too_deep",
]

#: The deepest nesting of objects and arrays accepted in a call's arguments (the
#: object itself is level 1). Real tool arguments use a handful of levels.
MAX_DEPTH = 100

#: Stands in for arguments a vendor's SDK had already parsed and that are nested
#: deeper than :data:`MAX_DEPTH`: valid JSON that :func:`parse_arguments` refuses
#: as too deep, so the call gets the same error as if the text had come through.
TOO_DEEP_ARGUMENTS = '{"_": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"


class ArgumentsError(ValueError):
    """The arguments are not a JSON object of bounded depth; the message says why."""


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True if ``value`` nests dicts and lists more than ``limit`` levels (iterative)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


def _too_deep_message() -> str:
    return f"arguments are nested too deeply (more than {MAX_DEPTH} levels)"


def parse_arguments(text: str | Any) -> dict[str, Any]:
    """The arguments object of a call: its JSON text parsed (empty text: ``{}``), or an
    already parsed value checked.

    Raises:
        ArgumentsError: not valid JSON, not an object, or nested deeper than
            :data:`MAX_DEPTH`.
    """
    if isinstance(text, str):
        if not text.strip():
            return {}
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            if exc.msg == "Extra data" and text[exc.pos:].lstrip().startswith("{"):
                raise ArgumentsError(
                    "arguments are several JSON objects one after another (not valid "
                    "JSON): the call was not run; make one call per set of arguments"
                ) from None
            raise ArgumentsError(
                f"arguments are not valid JSON ({exc.msg} at char {exc.pos})"
            ) from None
        except RecursionError:
            raise ArgumentsError(_too_deep_message()) from None
    else:
        value = text
    if not isinstance(value, dict):
        raise ArgumentsError(f"arguments must be a JSON object, got {type(value).__name__}")
    if too_deep(value):
        raise ArgumentsError(_too_deep_message())
    return value


def map_json(value: Any, leaf: Callable[[Any], Any]) -> Any:
    """A copy of JSON-shaped ``value`` (dicts and lists copied, key order kept) with
    ``leaf`` applied to every other value. Iterative: any depth is fine."""
    if isinstance(value, dict):
        root: Any = {}
    elif isinstance(value, list):
        root = []
    else:
        return leaf(value)
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            if isinstance(item, dict):
                copied: Any = {}
                stack.append((item, copied))
            elif isinstance(item, list):
                copied = []
                stack.append((item, copied))
            else:
                copied = leaf(item)
            if isinstance(target, dict):
                target[key] = copied
            else:
                target.append(copied)
    return root
