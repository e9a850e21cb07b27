"""The tools every session is offered: :func:`default_tools` builds them, and
:data:`TOOL_MODULES` names the modules it imports (warmed ahead of a first turn).

The tool modules themselves are imported inside :func:`default_tools`, never at
start (tests/test_startup_modules.py): the window's worker imports them after
the first paint (``deferred``), the runtime before a session's first turn.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.memory import MemoryStore, memory_tools
from openworker_qt.storage.paths import app_paths

if TYPE_CHECKING:
    from openworker_qt.connectors.registry import ConnectorRegistry
    from openworker_qt.storage.conversations import SessionInfo
    from openworker_qt.tools.explore import Explorer

__all__ = ["TOOL_MODULES", "default_tools", "import_tool_modules"]

log = logging.getLogger(__name__)

#: What :func:`default_tools` imports (``deferred`` imports them after the first paint;
#: :func:`import_tool_modules` before a session's first turn, in a worker).
TOOL_MODULES = (
    "openworker_qt.core.permissions",  # the permission engine decider_for builds
    "openworker_qt.agents.skills",
    "openworker_qt.automation.tools",
    "openworker_qt.tools.files",
    "openworker_qt.tools.edits",
    "openworker_qt.tools.search",
    "openworker_qt.tools.git",
    "openworker_qt.tools.shell",
    "openworker_qt.tools.interaction",
    "openworker_qt.tools.installs",
    "openworker_qt.tools.deliverables",
    "openworker_qt.tools.todo",
    "openworker_qt.tools.web",
    "openworker_qt.tools.explore",
)


def import_tool_modules() -> None:
    """Import :data:`TOOL_MODULES` (blocking: call it from a worker). A module that
    fails to import is left for its first real use to report."""
    for name in TOOL_MODULES:
        try:
            importlib.import_module(name)
        except Exception:
            log.debug("importing %s ahead of use failed", name, exc_info=True)


def default_tools(
    _info: SessionInfo, explorer: Explorer | None = None, memory: MemoryStore | None = None,
    connectors: ConnectorRegistry | None = None, *, author: Callable[[], str] | None = None,
) -> ToolRegistry:
    from openworker_qt.agents.skills import load_skill_tool
    from openworker_qt.automation.tools import automation_tools, wake_tools
    from openworker_qt.tools.deliverables import deliverable_tools
    from openworker_qt.tools.edits import edit_tools
    from openworker_qt.tools.explore import explore_tool
    from openworker_qt.tools.files import file_tools
    from openworker_qt.tools.git import git_tools
    from openworker_qt.tools.installs import install_tools
    from openworker_qt.tools.interaction import interaction_tools
    from openworker_qt.tools.search import search_tools
    from openworker_qt.tools.shell import shell_tools
    from openworker_qt.tools.todo import todo_tools
    from openworker_qt.tools.web import web_tools

    registry = ToolRegistry([
        *file_tools(), *edit_tools(), *search_tools(), *git_tools(), *shell_tools(),
        *interaction_tools(), *install_tools(), *deliverable_tools(author), *todo_tools(), *web_tools(),
        load_skill_tool(lambda: app_paths().data / "skills"), *automation_tools(),
    ])
    if connectors is not None:  # the tools of the connectors the user connected
        for tool in connectors.tools():
            registry.add(tool)
    if explorer is not None:  # the explorer's child gets this session's read tools
        # (as they are now: not the memory tools added below, which save facts)
        registry.add(explore_tool(explorer, ToolRegistry(list(registry))))
    for tool in wake_tools():  # pausing is the session's, not an explorer's
        registry.add(tool)
    if memory is not None:
        for tool in memory_tools(memory):
            registry.add(tool)
    return registry
