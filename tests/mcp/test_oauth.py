"""OAuth 2.1 against a local streamable-HTTP server with its own authorization
server (the SDK's server side): discovery, dynamic client registration, PKCE,
the loopback redirect, tokens in the keyring, refresh, and a revoked token that
asks the user to sign in again — never a browser opened by itself."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from openworker_qt.core.background import spawn
from openworker_qt.mcp import oauth
from openworker_qt.mcp.client import McpServer
from openworker_qt.mcp.config import parse_server
from openworker_qt.mcp.status import McpFailure, State
from openworker_qt.storage import secrets
from tests.mcp.helpers import HttpServer, free_port


class Browser:
    """The user's browser: follows the authorization server's redirects back to the
    app's loopback listener (the user approves at once)."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    async def __call__(self, url: str) -> None:
        import httpx2

        self.opened.append(url)

        async def visit() -> None:
            async with httpx2.AsyncClient(follow_redirects=True, timeout=20) as client:
                response = await client.get(url)
                assert "Signed in" in response.text, response.text

        spawn(visit())  # the browser runs beside the app


@pytest_asyncio.fixture
async def web(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[HttpServer]:
    monkeypatch.setenv("TOKEN_SECONDS", "3600")
    async with HttpServer("oauth_server", "{port}") as server:
        yield server


def server_for(web: HttpServer, **oauth_settings: object) -> McpServer:
    config = parse_server("svc", {"url": web.url(), "oauth": {"port": free_port(), **oauth_settings}})
    return McpServer(config, get_secret=secrets.get_secret, set_secret=secrets.set_secret,
                     connect_timeout=20)


async def tool(srv: McpServer, name: str) -> str:
    result = await srv.request(lambda s: s.call_tool(name, {}), name)
    return str(result.content[0].text)


async def test_first_use_asks_to_sign_in_instead_of_opening_a_browser(web: HttpServer) -> None:
    srv = server_for(web)
    await srv.start()
    with pytest.raises(McpFailure, match="needs you to sign in again"):
        await srv.ensure_ready()
    assert srv.status.state is State.FAILED
    await srv.stop()


async def test_sign_in_registers_uses_pkce_and_keeps_tokens_in_the_keyring(web: HttpServer) -> None:
    srv = server_for(web)
    browser = Browser()
    await srv.sign_in(browser=browser, within=30)
    assert srv.status.state is State.READY
    (url,) = browser.opened
    assert "code_challenge_method=S256" in url and "/authorize?" in url
    assert await tool(srv, "whoami") == "signed in"
    stats = json.loads(await tool(srv, "stats"))
    assert stats["registrations"] == 1 and stats["codes"] == 1 and stats["pkce"] == 1
    stored = secrets.get_secret(oauth.entry("svc", "tokens"))
    assert stored and "refresh_token" in stored
    assert "access_token" not in json.dumps(srv.config.to_json())
    await srv.stop()
    # A new start (the next app launch) uses the stored tokens: no browser.
    again = server_for(web)
    again.config = srv.config
    await again.start()
    await again.ensure_ready()
    assert await tool(again, "whoami") == "signed in"
    await again.stop()


async def test_an_expired_token_is_refreshed_without_the_user(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOKEN_SECONDS", "1")
    # The refreshed token lives an hour: what follows does not race a second expiry on a
    # slow machine (two refreshes in a row work too; this test is about the first).
    monkeypatch.setenv("REFRESHED_TOKEN_SECONDS", "3600")
    async with HttpServer("oauth_server", "{port}") as web:
        srv = server_for(web)
        await srv.sign_in(browser=Browser(), within=30)
        await asyncio.sleep(1.5)  # the access token expires (the server says 1 s)
        assert await tool(srv, "whoami") == "signed in"
        assert json.loads(await tool(srv, "stats"))["refreshes"] >= 1
        await srv.stop()


async def test_a_revoked_token_says_sign_in_again(web: HttpServer) -> None:
    srv = server_for(web)
    await srv.sign_in(browser=Browser(), within=30)
    assert await tool(srv, "revoke_everything") == "revoked"
    with pytest.raises(McpFailure, match="sign in again"):
        await tool(srv, "whoami")
    # The next connection cannot refresh either: the same clear status, no browser.
    with pytest.raises(McpFailure, match="sign in again"):
        await tool(srv, "whoami")
    assert srv.status.state is State.FAILED
    # Signing in again fixes it.
    await srv.sign_in(browser=Browser(), within=30)
    assert await tool(srv, "whoami") == "signed in"
    await srv.stop()


async def test_a_busy_sign_in_port_is_explained(web: HttpServer) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        srv = server_for(web, port=busy.getsockname()[1])
        with pytest.raises(McpFailure, match="which is in use"):
            await srv.sign_in(browser=Browser(), within=30)


def test_the_settings_page_signs_in_and_the_cli_signs_out(
    qtbot, qloop, capsys: pytest.CaptureFixture[str],
) -> None:
    from openworker_qt.cli import main
    from openworker_qt.mcp import config as mc
    from openworker_qt.mcp.manager import McpManager
    from openworker_qt.storage.paths import app_paths
    from openworker_qt.ui.settings_mcp import McpPage
    from tests.ui.conftest import run, until

    async def scenario() -> None:
        async with HttpServer("oauth_server", "{port}") as web:
            config = parse_server("svc", {"url": web.url(), "oauth": {"port": free_port()}})
            config_dir = app_paths().ensure().config
            mc.save_global(config_dir, [config])
            manager = McpManager([config], get_secret=secrets.get_secret,
                                 set_secret=secrets.set_secret, connect_timeout=20)
            page = McpPage(manager, config_dir)
            qtbot.addWidget(page)
            page.show()
            await manager.start_all()
            await until(lambda: "✕ svc" in page.servers.item(0).text(), 30, "needs sign-in")
            assert "sign in again" in page.status.text()
            assert page.sign_in_button.isVisible()
            await page.sign_in(browser=Browser())
            await until(lambda: "● svc · 3 tools" in page.servers.item(0).text(), 30, "signed in")
            await manager.stop_all()
            assert main(["mcp", "logout", "svc"]) == 0
            assert secrets.get_secret(oauth.entry("svc", "tokens")) is None

    run(qloop, scenario)
