"""A streamable-HTTP MCP server (the SDK's server side) that wants a bearer token:
requests without ``Authorization: Bearer <TOKEN>`` get 401.

    python bearer.py PORT TOKEN
"""

from __future__ import annotations

import sys

import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.responses import PlainTextResponse

PORT, TOKEN = int(sys.argv[1]), sys.argv[2]
server = MCPServer("bearer", version="1.0")


@server.tool(description="Say hello.")
def hello() -> str:
    return "hello"


inner = server.streamable_http_app()


async def app(scope, receive, send):
    if scope["type"] == "http":
        headers = dict(scope.get("headers") or [])
        if headers.get(b"authorization", b"").decode() != f"Bearer {TOKEN}":
            response = PlainTextResponse("unauthorized", status_code=401,
                                         headers={"WWW-Authenticate": "Bearer"})
            await response(scope, receive, send)
            return
    await inner(scope, receive, send)


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning")
