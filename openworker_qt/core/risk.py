"""Risk classes and the classification of tool calls.

Every tool call is classified before anything else is decided about it:

* ``READ``: looks, never changes anything and sends nothing off this machine
  (the only non-consequential class);
* ``WRITE_LOCAL``: changes files on this machine;
* ``EXEC``: runs a program;
* ``EXTERNAL``: sends data off this machine or acts in the world outside it
  (fetches a URL, searches the web, sends, posts, books). Anything we cannot
  vouch for is EXTERNAL too.

The classes are ordered by how much they can do, ``READ < WRITE_LOCAL < EXEC <
EXTERNAL``; :func:`raise_to` and ``max`` over :func:`rank` follow that order.

The class of a call, by precedence (:func:`classify`):

1. the user's override (``permissions.risk_overrides`` in the global config):
   the user may set any class, lower ones included — it is their machine;
2. otherwise the *higher* of the tool's own declaration and the built-in table
   (:data:`BUILTIN_RISK`, by tool name). The table can only raise a class, never
   lower it: a tool that says it sends data off the machine stays EXTERNAL even
   if its name happens to be ``read_file``.

A tool that declares nothing is EXTERNAL (the model is not trusted, and neither
is a tool nobody vouched for). A tool that declares READ but says it needs
approval is raised to EXTERNAL: a read never asks, so the declaration that it
must ask wins. A tool name the model made up is EXTERNAL as well (the engine
refuses to run it anyway).

Where a tool comes from is its *origin*: ``builtin`` (this codebase),
``mcp:<server>`` (a tool of a configured MCP server) or ``connector:<name>``
(a connector). It is recorded with every call in the audit trail.

:class:`RiskClass` and :data:`BUILTIN_RISK` are plain data in
:mod:`openworker_qt.domain.risk` (the settings check workspace files against them
too); this module re-exports them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from openworker_qt.domain.risk import BUILTIN_RISK, RiskClass

__all__ = [
    "BUILTIN",
    "BUILTIN_RISK",
    "RiskClass",
    "check_origin",
    "classify",
    "connector_origin",
    "mcp_origin",
    "parse_risk",
    "raise_to",
    "rank",
]


_ORDER: tuple[RiskClass, ...] = (
    RiskClass.READ, RiskClass.WRITE_LOCAL, RiskClass.EXEC, RiskClass.EXTERNAL,
)


def rank(risk: RiskClass) -> int:
    """The position of ``risk`` in ``READ < WRITE_LOCAL < EXEC < EXTERNAL``."""
    return _ORDER.index(risk)


def raise_to(risk: RiskClass, floor: RiskClass) -> RiskClass:
    """The higher of the two classes."""
    return risk if rank(risk) >= rank(floor) else floor


def parse_risk(value: str) -> RiskClass:
    """Parse a risk name from config (case-insensitive; ``write`` means WRITE_LOCAL)."""
    v = value.strip().lower()
    if v in ("write", "write_local", "local_write"):
        return RiskClass.WRITE_LOCAL
    try:
        return RiskClass(v)
    except ValueError as exc:
        names = ", ".join(r.value for r in RiskClass)
        raise ValueError(f"unknown risk class {value!r} (expected one of: {names})") from exc


def classify(
    name: str,
    *,
    declared: RiskClass | None = None,
    needs_approval: bool = False,
    overrides: Mapping[str, RiskClass] | None = None,
) -> RiskClass:
    """The risk class of tool ``name`` (see the module docstring for the precedence):
    the user's override, else the higher of the declaration (EXTERNAL when absent)
    and the built-in table."""
    if overrides and name in overrides:
        return overrides[name]
    risk = declared if declared is not None else RiskClass.EXTERNAL
    if needs_approval and risk is RiskClass.READ:
        risk = RiskClass.EXTERNAL
    floor = BUILTIN_RISK.get(name)
    return raise_to(risk, floor) if floor is not None else risk


# ------------------------------------------------------------------- origins

BUILTIN = "builtin"
_ORIGIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def mcp_origin(server: str) -> str:
    """The origin of a tool offered by the MCP server configured as ``server``."""
    return f"mcp:{_origin_name(server, 'MCP server')}"


def connector_origin(name: str) -> str:
    """The origin of a tool offered by the connector ``name``."""
    return f"connector:{_origin_name(name, 'connector')}"


def check_origin(origin: str) -> str:
    """``origin`` if it is ``builtin``, ``mcp:<server>`` or ``connector:<name>``;
    otherwise ValueError."""
    if origin == BUILTIN:
        return origin
    kind, sep, name = origin.partition(":")
    if sep and kind in ("mcp", "connector") and _ORIGIN_NAME.fullmatch(name):
        return origin
    raise ValueError(
        f"unknown tool origin {origin!r} (expected 'builtin', 'mcp:<server>' or "
        "'connector:<name>')"
    )


def _origin_name(name: str, what: str) -> str:
    if not _ORIGIN_NAME.fullmatch(name):
        raise ValueError(
            f"{what} name {name!r} must be 1–64 letters, digits, '.', '_' or '-'"
        )
    return name
