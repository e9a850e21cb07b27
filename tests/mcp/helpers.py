"""Shared pieces of the MCP tests: the test servers and how to run them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.mcp.client import McpServer
from openworker_qt.mcp.config import ServerConfig, parse_server
from openworker_qt.mcp.tools import tool_name

SERVERS = Path(__file__).parent / "servers"
REPO = Path(__file__).resolve().parents[2]
NODE_MODULES = REPO / "tests" / "mcp" / "node" / "node_modules"
EVERYTHING = NODE_MODULES / ".bin" / "mcp-server-everything"
VENV_BIN = Path(sys.executable).parent


def script(name: str, *args: str, **extra: Any) -> ServerConfig:
    """A stdio server running tests/mcp/servers/<name>.py with this Python."""
    raw = {"command": sys.executable, "args": [str(SERVERS / f"{name}.py"), *args], **extra}
    return parse_server(extra.pop("name", name), raw)


def server(config: ServerConfig, **kw: Any) -> McpServer:
    kw.setdefault("connect_timeout", 20.0)
    return McpServer(config, **kw)


class Card:
    """What a tool card shows while the call runs (ctx.report)."""

    def __init__(self) -> None:
        self.pieces: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self.pieces)


def context(card: Card | None = None, tmp: Path | None = None) -> ToolContext:
    return ToolContext("s1", tmp or Path.cwd(), progress=(card.pieces.append if card else None))


async def call(registry: Any, srv: str, tool: str, args: dict[str, Any],
               ctx: ToolContext | None = None) -> ToolResult:
    found = registry.get(tool_name(srv, tool))
    assert found is not None, f"{tool} not in {registry.names()}"
    out = await found.handler(args, ctx or context())
    assert isinstance(out, ToolResult)
    return out


async def until(condition: Any, within: float = 20.0) -> None:
    """Poll ``condition()`` until true (a bound, not a measurement)."""
    import asyncio

    async with asyncio.timeout(within):
        while not condition():  # noqa: ASYNC110 (state in another process: no event to wait on)
            await asyncio.sleep(0.05)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HttpServer:
    """tests/mcp/servers/<name>.py serving HTTP on a loopback port, as a subprocess."""

    def __init__(self, name: str, *args: str) -> None:
        self.port = free_port()
        self.args = [sys.executable, str(SERVERS / f"{name}.py"),
                     *[a.replace("{port}", str(self.port)) for a in args]]
        self.proc: Any = None

    async def __aenter__(self) -> HttpServer:
        import asyncio
        import subprocess

        self.proc = subprocess.Popen(self.args, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def listening() -> bool:
            import socket

            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            except OSError:
                return False
            return True

        async with asyncio.timeout(30):
            while not listening():
                assert self.proc.poll() is None, self.proc.stderr.read().decode()
                await asyncio.sleep(0.05)
        return self

    async def __aexit__(self, *exc: object) -> None:
        import asyncio

        self.proc.terminate()
        try:
            await asyncio.to_thread(self.proc.wait, 10)
        except Exception:
            self.proc.kill()
        self.proc.stderr.close()

    def url(self, path: str = "/mcp") -> str:
        return f"http://127.0.0.1:{self.port}{path}"
