"""Tool families: what a persona's ``tools:`` list names.

A persona offers the tools of the families it lists, and nothing else; it
cannot add a tool, change a tool's risk class or its folders (the registry's
own :class:`~openworker_qt.core.tool_api.Tool` objects are kept as they are;
the permission engine decides about every call as before).

Tools this table does not know yet fall in ``other`` (a built-in tool) or
``connectors`` (an MCP server's or a connector's tool), so a new tool is only
offered by personas that ask for those families.

A team's board tools (``teams/board_tools.py``) are the one exception: they are
built only for a session that is a team's lead or worker, and come with that role
whatever the persona (a worker must be able to report on its item), so
:func:`filter_tools` keeps them; no persona lists them.
"""

from __future__ import annotations

from collections.abc import Iterable

from openworker_qt.core.tool_api import Tool, ToolRegistry

__all__ = ["BOARD", "FAMILIES", "FAMILY_WORDS", "family_of", "filter_tools"]

#: The family of a team's board tools: offered by the session's role, not its persona.
BOARD = "board"
#: Family of each built-in tool by name.
_BY_NAME: dict[str, str] = {
    "read_file": "files", "list_files": "files", "write_file": "files",
    "replace_in_file": "files", "apply_patch": "files", "glob": "files", "grep": "files",
    "git_status": "git", "git_diff": "git", "git_log": "git", "git_show": "git",
    "git_branch": "git", "git_commit": "git",
    "run_shell": "shell", "shell_task_output": "shell", "shell_task_kill": "shell",
    "shell_tasks": "shell", "install_tool": "shell",
    "ask_user": "ask", "propose_plan": "ask", "request_directory": "ask",
    "create_deliverable": "deliverables",
    "todo_write": "todo",
    "web_fetch": "web", "web_search": "web",
    "explore": "explorer",
    "load_skill": "skills",
    "remember": "memory", "memory_read": "memory", "memory_update": "memory",
    "memory_forget": "memory",
    "create_automation": "automation", "update_automation": "automation",
    "delete_automation": "automation", "list_automations": "automation",
    "sleep_for": "automation", "sleep_until": "automation", "wake_on": "automation",
    "wake_on_event": "automation",
    "board_list": BOARD, "board_create": BOARD, "board_assign": BOARD,
    "board_transition": BOARD, "board_comment": BOARD, "board_link": BOARD,
    "board_result": BOARD, "board_claim": BOARD,
}

#: Every family, with what it lets a persona do, in plain words (the consent dialog).
FAMILY_WORDS: dict[str, str] = {
    "files": "Read files in the folders you give it, and change them (each change follows "
             "your permission mode)",
    "git": "Look at Git history and make commits in your projects",
    "shell": "Run commands on this computer (each command follows your permission mode)",
    "ask": "Ask you questions, propose plans and ask for access to more folders",
    "deliverables": "Save finished documents (reports, spreadsheets, PDFs) for you",
    "todo": "Keep a to-do list you can see",
    "web": "Search the web and read web pages",
    "explorer": "Send a read-only helper to look through your files",
    "skills": "Use the skills installed on this computer",
    "memory": "Remember facts about you and your work between conversations",
    "automation": "Schedule work to run on its own, and pause a task until a time or an "
                  "event (scheduling always asks you first)",
    "connectors": "Use your connected services (mail, chat, calendars and others)",
    "other": "Use other tools built into OpenWorker",
}

FAMILIES: tuple[str, ...] = tuple(FAMILY_WORDS)


def family_of(tool: Tool) -> str:
    """The family ``tool`` belongs to."""
    family = _BY_NAME.get(tool.name)
    if family is not None and tool.builtin:
        return family
    if not tool.builtin:
        return "connectors"
    if tool.name.startswith("memory_"):
        return "memory"
    return "other"


def filter_tools(registry: ToolRegistry, families: Iterable[str],
                 services: Iterable[str] | None = None) -> ToolRegistry:
    """The tools of ``registry`` in ``families``, the same objects in the same order.
    ``services``: the only connectors and MCP servers (by name) whose tools may be
    offered — an installed persona's own allowlist, its ``connectors:``; None: any."""
    wanted = {*families, BOARD}
    allowed = None if services is None else set(services)

    def offered(tool: Tool) -> bool:
        if family_of(tool) not in wanted:
            return False
        return allowed is None or tool.builtin or tool.origin.partition(":")[2] in allowed

    return ToolRegistry([tool for tool in registry if offered(tool)])
