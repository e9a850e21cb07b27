"""OAuth sign-in (authorization code + PKCE through a loopback redirect) and
refresh tokens, against a local authorization server and API of our own."""

from __future__ import annotations

import asyncio
import base64
import hashlib
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
import pytest_asyncio
from aiohttp import web

from openworker_qt.connectors.base import ConnectorError
from openworker_qt.connectors.oauth import sign_in
from openworker_qt.connectors.registry import secret_name
from openworker_qt.connectors.services import GMAIL_OAUTH
from openworker_qt.storage import secrets
from tests.connectors.helpers import Sleeps, runtime


class AuthServer:
    """Google's endpoints as far as the flow goes: /authorize, /token, and Gmail's profile."""

    def __init__(self) -> None:
        self.url = ""
        self.challenge = ""
        self.tokens: list[dict[str, str]] = []
        self.authorized: list[str] = []
        self._runner: web.AppRunner | None = None

    async def authorize(self, request: web.Request) -> web.Response:
        q = request.query
        assert q["code_challenge_method"] == "S256" and q["response_type"] == "code"
        assert q["access_type"] == "offline"
        self.challenge = q["code_challenge"]
        raise web.HTTPFound(f"{q['redirect_uri']}?code=code-1&state={q['state']}")

    async def token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.tokens.append({k: str(v) for k, v in form.items()})
        if form["grant_type"] == "authorization_code":
            digest = hashlib.sha256(str(form["code_verifier"]).encode()).digest()
            if (form["code"] != "code-1"
                    or base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != self.challenge):
                return web.json_response({"error": "invalid_grant"}, status=400)
            return web.json_response({"access_token": "at-1", "refresh_token": "rt-1",
                                      "expires_in": 3600})
        if form["refresh_token"] == "rt-1":
            return web.json_response({"access_token": "at-2", "expires_in": 3600})
        return web.json_response({"error": "invalid_grant"}, status=400)

    async def profile(self, request: web.Request) -> web.Response:
        self.authorized.append(request.headers.get("Authorization", ""))
        return web.json_response({"emailAddress": "ana@acme.com"})

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/authorize", self.authorize)
        app.router.add_post("/token", self.token)
        app.router.add_get("/gmail/v1/users/me/profile", self.profile)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@pytest_asyncio.fixture
async def auth() -> AsyncIterator[AuthServer]:
    server = AuthServer()
    await server.start()
    yield server
    await server.stop()


def browser(opened: list[str]) -> Any:
    """The user's browser: follows the consent page's redirect to the loopback listener."""
    tasks: list[asyncio.Task[Any]] = []

    async def visit(url: str) -> None:
        async with httpx2.AsyncClient(follow_redirects=True) as http:
            await http.get(url)

    def open_url(url: str) -> bool:
        opened.append(url)
        tasks.append(asyncio.ensure_future(visit(url)))
        return True

    return open_url


async def test_sign_in_then_the_refresh_token_gets_access_tokens(auth: AuthServer) -> None:
    opened: list[str] = []
    tokens = await sign_in(GMAIL_OAUTH, "cid-1", browser(opened),
                           authorize_url=f"{auth.url}/authorize", token_url=f"{auth.url}/token")
    assert tokens["refresh_token"] == "rt-1"
    assert "gmail.modify" in opened[0] and "redirect_uri=http%3A%2F%2F127.0.0.1" in opened[0]
    exchange = auth.tokens[0]
    assert exchange["grant_type"] == "authorization_code" and exchange["code_verifier"]

    rt = runtime(Sleeps())
    try:
        identity = await rt.connectors.connect("gmail", {
            "client_id": "cid-1", "refresh_token": "rt-1", "token_url": f"{auth.url}/token",
            "api_url": f"{auth.url}/gmail/v1"})
        assert identity.text() == "Connected as ana@acme.com in Gmail"
        assert auth.authorized == ["Bearer at-2"]
        assert secrets.get_secret(secret_name("gmail", "refresh_token")) == "rt-1"
        # A revoked refresh token: a clear error, nothing stored changes.
        with pytest.raises(ConnectorError) as raised:
            await rt.connectors.connect("gmail", {
                "client_id": "cid-1", "refresh_token": "rt-revoked",
                "token_url": f"{auth.url}/token", "api_url": f"{auth.url}/gmail/v1"})
        assert raised.value.kind == "auth" and "Sign in again" in raised.value.message
        assert secrets.get_secret(secret_name("gmail", "refresh_token")) == "rt-1"
    finally:
        rt.close()


async def test_a_callback_with_another_state_is_refused(auth: AuthServer) -> None:
    async def forged(url: str) -> None:
        redirect = url.split("redirect_uri=")[1].split("&")[0].replace("%3A", ":").replace("%2F", "/")
        async with httpx2.AsyncClient() as http:
            reply = await http.get(f"{redirect}?code=code-1&state=forged")
        assert reply.status_code == 400

    tasks: list[asyncio.Task[None]] = []
    with pytest.raises(ConnectorError) as raised:
        await sign_in(GMAIL_OAUTH, "cid-1", lambda url: tasks.append(asyncio.ensure_future(forged(url))),
                      authorize_url=f"{auth.url}/authorize", token_url=f"{auth.url}/token",
                      wait_for_user=1.0)
    await asyncio.gather(*tasks)
    assert "not finished in time" in raised.value.message
    assert auth.tokens == []  # no code was exchanged


async def test_the_settings_page_offers_sign_in_where_the_service_has_it(qtbot: Any) -> None:
    from openworker_qt.ui.settings_connectors import ConnectorsPage

    rt = runtime(Sleeps())
    try:
        page = ConnectorsPage(rt.connectors)
        qtbot.addWidget(page)
        page.show()
        page.select("github")
        assert not page.sign_in_button.isVisible()
        page.select("outlook")
        assert page.sign_in_button.isVisible()
        assert page.sign_in_button.text() == "Sign in with Microsoft"
        opened: list[str] = []
        page.open_url = opened.append
        page.sign_in_button.click()  # no client id yet: said, and no browser opened
        task = page.task
        assert task is not None
        await asyncio.wait_for(asyncio.shield(task), 20)
        await asyncio.sleep(0)
        assert "needs your OAuth client id" in page.message.text()
        assert opened == []
    finally:
        rt.close()
