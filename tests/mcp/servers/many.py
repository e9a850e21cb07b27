"""A stdio MCP server (the SDK's server side) listing many tools: ``python many.py N``
offers tool_0 … tool_{N-1}, each answering with its own name."""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("many", version="1.0")


def answer(i: int):
    def tool() -> str:
        return f"tool_{i}"
    return tool


for i in range(int(sys.argv[1]) if len(sys.argv) > 1 else 500):
    server.add_tool(answer(i), name=f"tool_{i}", description=f"Tool number {i}.")

if __name__ == "__main__":
    server.run("stdio")
