"""An MCP server (the SDK's server side, stdio) whose tools are named on its command line.

``named.py LABEL TOOL [TOOL ...]``: each tool answers ``"<tool> on <label>"``, so a
test can tell which server a call reached.
"""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer

label, *tools = sys.argv[1:]
server = MCPServer(label, version="1.0")

for tool in tools:
    server.add_tool(lambda tool=tool: f"{tool} on {label}", name=tool,
                    description=f"Say which server this is ({tool}).")

if __name__ == "__main__":
    server.run("stdio")
