"""Risk classes and the classification of tool calls.

Every tool call is classified before anything else is decided about it:

* ``READ``: looks, never changes anything (the only non-consequential class);
* ``WRITE_LOCAL``: changes files on this machine;
* ``EXEC``: runs a program;
* ``EXTERNAL``: acts in the world outside this machine (sends, posts, books).

Precedence, highest first: the user's local override (config), the built-in
table by tool name, the tool's own declared metadata (a connector that says it
needs approval is EXTERNAL), and finally READ for anything that declares
nothing. MCP tools are registered with ``needs_approval=True`` unless the user
says otherwise, so an unknown MCP tool is EXTERNAL.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping


class RiskClass(enum.StrEnum):
    READ = "read"
    WRITE_LOCAL = "write_local"
    EXEC = "exec"
    EXTERNAL = "external"

    @property
    def consequential(self) -> bool:
        return self is not RiskClass.READ


BUILTIN_RISK: Mapping[str, RiskClass] = {
    # files
    "read_file": RiskClass.READ,
    "list_files": RiskClass.READ,
    "grep": RiskClass.READ,
    "glob": RiskClass.READ,
    "write_file": RiskClass.WRITE_LOCAL,
    "replace_in_file": RiskClass.WRITE_LOCAL,
    "apply_patch": RiskClass.WRITE_LOCAL,
    "apply_unified_diff": RiskClass.WRITE_LOCAL,
    "create_deliverable": RiskClass.WRITE_LOCAL,
    # shell
    "run_shell": RiskClass.EXEC,
    "shell_task_output": RiskClass.READ,
    "shell_task_kill": RiskClass.READ,
    # git
    "git_status": RiskClass.READ,
    "git_log": RiskClass.READ,
    "git_diff": RiskClass.READ,
    "git_commit": RiskClass.WRITE_LOCAL,
    # agent bookkeeping
    "todo_write": RiskClass.READ,
    "ask_user": RiskClass.READ,
    "request_directory": RiskClass.READ,
    "propose_plan": RiskClass.READ,
    "load_skill": RiskClass.READ,
    "explore": RiskClass.READ,
    "memory_read": RiskClass.READ,
    "remember": RiskClass.READ,
    "memory_update": RiskClass.READ,
    "memory_forget": RiskClass.READ,
    # web
    "web_search": RiskClass.READ,
    "web_fetch": RiskClass.READ,
    # messaging
    "send_message": RiskClass.EXTERNAL,
    "send_file": RiskClass.EXTERNAL,
}


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
    """The risk class of tool ``name``: override > built-in table > declaration."""
    if overrides and name in overrides:
        return overrides[name]
    if name in BUILTIN_RISK:
        return BUILTIN_RISK[name]
    if declared is not None:
        return declared
    if needs_approval:
        return RiskClass.EXTERNAL
    return RiskClass.READ
