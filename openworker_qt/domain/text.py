"""Text that can be stored: no lone surrogates.

A Python string may hold a UTF-16 surrogate code point on its own (``"\\ud800"``):
JSON's ``\\ud800`` escape parses to one, and so do undecodable bytes read with
``surrogateescape``. UTF-8 cannot encode it, so SQLite, the audit trail, a log file
or a terminal raise ``UnicodeEncodeError`` when such a string reaches them. A model
can write one on purpose, so every string from a model is passed through
:func:`storable` where it enters (the engine: assistant text, reasoning, tool-call
names, ids and arguments; tool output too).

:func:`storable_text` joins a surrogate *pair* into the character it encodes and
replaces every lone surrogate with U+FFFD (the replacement character, ``�``).
Everything else is left as it is, and a string or structure without a surrogate
is returned itself (no copy). Pure functions; imports nothing of the package.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["REPLACEMENT", "has_surrogate", "storable", "storable_text"]

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """True if ``text`` holds a surrogate code point (paired or not)."""
    return _SURROGATE.search(text) is not None


def storable_text(text: str) -> str:
    """``text`` with surrogate pairs joined and lone surrogates replaced by U+FFFD
    (``text`` itself when it has none)."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _needs_work(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node) is not None:
                return True
        elif isinstance(node, dict):
            for key, item in node.items():
                if isinstance(key, str) and _SURROGATE.search(key) is not None:
                    return True
                stack.append(item)
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return False


def storable(value: Any) -> Any:
    """``value`` with every string in it made storable (:func:`storable_text`),
    dictionary keys included, at any depth (iterative). Dicts, lists and tuples are
    copied only when something in them changes; otherwise ``value`` itself.

    Two keys that differ only in their surrogates may become one key: the later
    value wins, as it would for a duplicate key in JSON."""
    if isinstance(value, str):
        return storable_text(value)
    if not _needs_work(value):
        return value
    return _copy(value)


def _copy(value: Any) -> Any:
    # Containers are rebuilt bottom-up: each node's children first (post-order).
    done: dict[int, Any] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, expanded = stack.pop()
        if isinstance(node, str) or not isinstance(node, (dict, list, tuple)):
            continue
        if not expanded:
            stack.append((node, True))
            children = node.values() if isinstance(node, dict) else node
            stack.extend((c, False) for c in children if isinstance(c, (dict, list, tuple)))
            continue

        def fix(item: Any) -> Any:
            if isinstance(item, str):
                return storable_text(item)
            if isinstance(item, (dict, list, tuple)):
                return done[id(item)]
            return item

        if isinstance(node, dict):
            out: Any = {
                (storable_text(k) if isinstance(k, str) else k): fix(v) for k, v in node.items()
            }
        elif isinstance(node, tuple):
            out = tuple(fix(v) for v in node)
        else:
            out = [fix(v) for v in node]
        done[id(node)] = out
    return done[id(value)]
