"""``mcp test`` (and the settings page's Test button, which shares its check) with
an HTTP server that wants credentials: after ``mcp login`` the stored sign-in is
used, and a refused token says so in plain words."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from openworker_qt.cli import main
from openworker_qt.mcp import config as mc
from openworker_qt.mcp.config import parse_server
from openworker_qt.mcp.doctor import check_server
from openworker_qt.storage import secrets
from openworker_qt.storage.paths import app_paths
from tests.mcp.helpers import HttpServer, free_port
from tests.mcp.test_oauth import Browser


def serving(name: str, *args: str) -> HttpServer:
    web = HttpServer(name, *args)
    asyncio.run(web.__aenter__())
    return web


def test_mcp_test_uses_the_sign_in_made_by_mcp_login(capsys: pytest.CaptureFixture[str]) -> None:
    from openworker_qt.mcp.client import McpServer

    web = serving("oauth_server", "{port}")
    try:
        config = parse_server("svc", {"url": web.url(), "oauth": {"port": free_port()}})
        mc.save_global(app_paths().ensure().config, [config])
        assert main(["mcp", "test", "svc"]) == 1  # not signed in yet: says so
        assert "sign in" in capsys.readouterr().out

        async def login() -> None:  # what `mcp login svc` does, with a browser that approves
            srv = McpServer(config, get_secret=secrets.get_secret, set_secret=secrets.set_secret)
            await srv.sign_in(browser=Browser(), within=30)
            await srv.stop()

        asyncio.run(login())
        assert main(["mcp", "test", "svc"]) == 0
        out = capsys.readouterr().out
        assert "answered and offers 3 tools" in out and "whoami" in out
    finally:
        asyncio.run(web.__aexit__(None, None, None))


def test_a_refused_token_says_unauthorized(capsys: pytest.CaptureFixture[str]) -> None:
    web = serving("bearer", "{port}", "s3cret")
    try:
        entry: dict[str, Any] = {"url": web.url(),
                                 "headers": {"Authorization": "Bearer ${BEARER_TOKEN}"}}
        mc.save_global(app_paths().ensure().config, [parse_server("bearer", entry)])
        secrets.set_secret("BEARER_TOKEN", "wrong")
        assert main(["mcp", "test", "bearer"]) == 1
        out = capsys.readouterr().out
        assert ("unauthorized: check the token (or sign in again: openworker-qt mcp login "
                "bearer)") in out
        assert "Server returned an error response" not in out
        secrets.set_secret("BEARER_TOKEN", "s3cret")
        assert main(["mcp", "test", "bearer"]) == 0
        assert "bearer 1.0 answered and offers 1 tools" in capsys.readouterr().out
        # The same check the settings page's Test button runs:
        config = parse_server("bearer", {"url": web.url(),
                                         "headers": {"Authorization": "Bearer nope"}})
        result = asyncio.run(check_server(config, get_secret=secrets.get_secret,
                                          set_secret=secrets.set_secret))
        assert not result.ok and "unauthorized: check the token" in result.message
    finally:
        asyncio.run(web.__aexit__(None, None, None))
