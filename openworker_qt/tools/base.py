"""The tool protocol, re-exported from :mod:`openworker_qt.core.tool_api`.

The engine owns the protocol, so it lives in the core; this name stays for code
written against ``openworker_qt.tools.base``. New code imports from the core.
"""

from openworker_qt.core.tool_api import (
    Handler,
    Interaction,
    Tool,
    ToolContext,
    ToolRegistry,
    ToolResult,
)

__all__ = [
    "Handler",
    "Interaction",
    "Tool",
    "ToolContext",
    "ToolRegistry",
    "ToolResult",
]
