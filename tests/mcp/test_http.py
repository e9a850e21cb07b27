"""Streamable HTTP and the old SSE transport, against the SDK's server side on a
loopback port: tools, progress, headers with ${VAR} from the keyring, a server
that is not there."""

from __future__ import annotations

import pytest

from openworker_qt.mcp.config import parse_server
from openworker_qt.mcp.manager import McpManager
from openworker_qt.mcp.status import McpFailure, State
from openworker_qt.storage import secrets
from tests.mcp.helpers import Card, HttpServer, call, context, free_port


async def connected(raw: dict) -> McpManager:
    manager = McpManager([parse_server("web", raw)], get_secret=secrets.get_secret,
                         connect_timeout=20)
    await manager.start_all()
    await manager.wait_ready(30)
    return manager


async def test_streamable_http_tools_and_progress() -> None:
    secrets.set_secret("WEB_TOKEN", "abc")
    async with HttpServer("behave", "--http", "{port}") as web:
        manager = await connected({"url": web.url(),
                                   "headers": {"X-Token": "${WEB_TOKEN}"}})
        try:
            assert manager.servers["web"].status.state is State.READY
            registry = manager.tools()
            assert (await call(registry, "web", "add", {"a": 5, "b": 6})).content == "11"
            assert (await call(registry, "web", "header", {"name": "X-Token"})).content == "abc"
            card = Card()
            assert (await call(registry, "web", "slow", {"steps": 2}, context(card))).content == "done"
            assert "(2/2)" in card.text
        finally:
            await manager.stop_all()


async def test_legacy_sse() -> None:
    async with HttpServer("behave", "--sse", "{port}") as web:
        manager = await connected({"type": "sse", "url": web.url("/sse")})
        try:
            assert (await call(manager.tools(), "web", "add", {"a": 1, "b": 1})).content == "2"
        finally:
            await manager.stop_all()


async def test_nothing_listening_is_a_clear_status() -> None:
    manager = McpManager([parse_server("web", {"url": f"http://127.0.0.1:{free_port()}/mcp"})],
                         connect_timeout=20)
    srv = manager.servers["web"]
    await srv.start()
    with pytest.raises(McpFailure, match="could not be reached at http://127.0.0.1"):
        await srv.ensure_ready()
    await manager.stop_all()
