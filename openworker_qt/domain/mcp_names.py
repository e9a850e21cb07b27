"""The names MCP tools get in the engine: one name per (server, tool), never shared.

The providers take tool names of ``[A-Za-z0-9_-]``, at most 64 characters. A
plain pair keeps a readable name: server ``github``, tool ``create_issue`` is
``mcp__github__create_issue``. Any other pair — ``__`` or a character outside
that set in either name, an ``_`` at an end of one, a name too long — is spelled
readably and ends with ``__`` and a digest of the exact pair. A plain name has
two ``__``, a digest name three, so the two kinds never meet, and the digest
tells pairs apart: server ``a`` tool ``b__c`` and server ``a__b`` tool ``c`` get
different names (both were ``mcp__a__b__c`` before).

Because the mapping is one-to-one, what is keyed by an MCP tool's engine name (a
standing rule, a risk override) belongs to exactly one server's tool. A risk
override may also name the pair itself: ``"mcp:<server>/<tool>"`` (a server name
never holds ``/``); :func:`override_name` turns it into the engine name.

Pure functions; imports nothing of the package.
"""

from __future__ import annotations

import hashlib
import json
import re

#: Where MCP servers are set up: this file in the app's config folder, and in a
#: workspace the first of these (``mcp.config`` reads them; a command that finds
#: none of them imports nothing of MCP).
GLOBAL_FILE = "mcp.json"
WORKSPACE_FILES = (".openworker/mcp.json", ".mcp.json")

PREFIX = "mcp__"
NAME_LIMIT = 64
#: A name part kept as it is: letters, digits and ``-``, single ``_`` inside only.
_PLAIN = re.compile(r"[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*")
_BAD = re.compile(r"[^A-Za-z0-9_-]")
_DIGEST = 10
_DIGEST_RE = re.compile(rf"[0-9a-f]{{{_DIGEST}}}")
PAIR_PREFIX = "mcp:"


def _readable(part: str) -> str:
    """``part`` with what a name cannot hold replaced and no ``__`` left (for the eye)."""
    return re.sub(r"_+", "_", _BAD.sub("_", part)).strip("_") or "x"


def tool_name(server: str, tool: str) -> str:
    """The engine name of ``tool`` on the MCP server ``server`` (see the module doc)."""
    if _PLAIN.fullmatch(server) and _PLAIN.fullmatch(tool):
        name = f"{PREFIX}{server}__{tool}"
        if len(name) <= NAME_LIMIT:
            return name
    digest = hashlib.sha256(json.dumps([server, tool]).encode()).hexdigest()[:_DIGEST]
    room = NAME_LIMIT - len(PREFIX) - 4 - _DIGEST  # (the two "__" after the prefix)
    left = _readable(server)[: max(1, room // 3)]
    right = _readable(tool)[: room - len(left)]
    return f"{PREFIX}{left}__{right}__{digest}"


def server_prefix(server: str) -> str:
    """How the names of ``server``'s tools start, for showing only (``mcp__github__``).
    Never match names with it: a tool's origin says which server it is from."""
    return f"{PREFIX}{server if _PLAIN.fullmatch(server) else _readable(server)}__"


def split_name(name: str) -> tuple[str, str] | None:
    """(server, tool) of a plain engine name; ``None`` for any other name."""
    if not name.startswith(PREFIX):
        return None
    parts = name[len(PREFIX):].split("__")
    if len(parts) != 2 or not all(_PLAIN.fullmatch(p) for p in parts):
        return None
    return parts[0], parts[1]


def has_digest(name: str) -> bool:
    """``name`` is a digest name (:func:`tool_name` of a pair that is not plain)."""
    if not name.startswith(PREFIX):
        return False
    parts = name[len(PREFIX):].split("__")
    return len(parts) == 3 and bool(_DIGEST_RE.fullmatch(parts[2]))


def pair_key(server: str, tool: str) -> str:
    """The override key naming the pair itself: ``mcp:<server>/<tool>``."""
    return f"{PAIR_PREFIX}{server}/{tool}"


def override_name(key: str) -> str:
    """The engine name a risk-override key is for: a ``mcp:<server>/<tool>`` key
    becomes :func:`tool_name` of the pair; any other key is a name already."""
    if key.startswith(PAIR_PREFIX) and "/" in key:
        server, _, tool = key[len(PAIR_PREFIX):].partition("/")
        if server and tool:
            return tool_name(server, tool)
    return key


def stale_name(key: str) -> bool:
    """``key`` looks like an MCP tool name but no pair is named so (any more): a name
    of the old spelling, where ``__`` inside a server or tool name made it ambiguous."""
    return key.startswith(PREFIX) and split_name(key) is None and not has_digest(key)
