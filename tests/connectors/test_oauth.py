"""OAuth sign-in (authorization code + PKCE through a loopback redirect) and
refresh tokens, against a local authorization server and API of our own."""

from __future__ import annotations

import asyncio
import base64
import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest
import pytest_asyncio
from aiohttp import web

from openworker_qt.connectors.base import ConnectorError
from openworker_qt.connectors.oauth import OAuth, sign_in
from openworker_qt.connectors.registry import secret_name
from openworker_qt.connectors.services.gmail import GMAIL_OAUTH
from openworker_qt.storage import secrets
from tests.connectors.helpers import Sleeps, runtime


class AuthServer:
    """Google's endpoints as far as the flow goes: /authorize, /token, and Gmail's profile."""

    def __init__(self) -> None:
        self.url = ""
        self.challenge = ""
        self.google = True  # Google's consent page is asked for offline access
        self.tokens: list[dict[str, str]] = []
        self.token_auth: list[str] = []  # the token requests' Authorization headers
        self.authorized: list[str] = []
        self.scopes: list[str] = []
        self.replies: dict[str, Any] = {}  # another service's API: path → JSON
        self._runner: web.AppRunner | None = None

    async def authorize(self, request: web.Request) -> web.Response:
        q = request.query
        assert q["code_challenge_method"] == "S256" and q["response_type"] == "code"
        assert q.get("access_type") == "offline" or not self.google
        self.scopes.append(q["scope"])
        self.challenge = q["code_challenge"]
        raise web.HTTPFound(f"{q['redirect_uri']}?code=code-1&state={q['state']}")

    async def token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.tokens.append({k: str(v) for k, v in form.items()})
        self.token_auth.append(request.headers.get("Authorization", ""))
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

    async def api(self, request: web.Request) -> web.Response:
        self.authorized.append(request.headers.get("Authorization", ""))
        tail = request.match_info["tail"]
        if tail not in self.replies:
            return web.json_response({"error": f"no {tail}"}, status=404)
        return web.json_response(self.replies[tail])

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/authorize", self.authorize)
        app.router.add_post("/token", self.token)
        app.router.add_get("/gmail/v1/users/me/profile", self.profile)
        app.router.add_get("/api/{tail:.*}", self.api)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"

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


# ------------------------------------------- Microsoft Teams, QuickBooks, DocuSign


@dataclass(frozen=True)
class Signed:
    """A connector that signs in: its other fields, where its API answers who it is."""

    id: str
    service: str  # "Sign in with …"
    basic: bool  # the client's secret as HTTP Basic credentials (else in the form)
    fields: dict[str, str]
    path: str  # under the stub's /api/
    reply: dict[str, Any]
    identity: str
    scope: str  # one of the scopes it asks for


SIGNED = [
    Signed("teams", "Microsoft", False, {}, "graph/me",
           {"displayName": "Ana Lima"}, "Connected as Ana Lima in Microsoft Teams",
           "ChannelMessage.Send"),
    Signed("quickbooks", "Intuit", True, {"company": "9130"},
           "qbo/v3/company/9130/companyinfo/9130", {"CompanyInfo": {"CompanyName": "Acme Books"}},
           "Connected as Acme Books in QuickBooks", "com.intuit.quickbooks.accounting"),
    Signed("docusign", "DocuSign", True, {"account": "acc-1"},
           "ds/restapi/v2.1/accounts/acc-1", {"accountName": "Acme Inc"},
           "Connected as Acme Inc in DocuSign", "signature"),
]
API = {"teams": "graph", "quickbooks": "qbo", "docusign": "ds"}


@pytest.mark.parametrize("case", SIGNED, ids=[c.id for c in SIGNED])
async def test_teams_quickbooks_and_docusign_sign_in_or_take_a_pasted_token(
    auth: AuthServer, case: Signed
) -> None:
    auth.google = False
    auth.replies[case.path] = case.reply
    rt = runtime(Sleeps())
    try:
        spec = rt.connectors.spec(case.id)
        flow = spec.extra["oauth"]
        assert isinstance(flow, OAuth) and flow.service == case.service
        opened: list[str] = []
        tokens = await sign_in(flow, "cid-1", browser(opened), client_secret="shh",
                               authorize_url=f"{auth.url}/authorize",
                               token_url=f"{auth.url}/token")
        assert tokens["refresh_token"] == "rt-1"
        assert case.scope in auth.scopes[0].split()
        exchange = auth.tokens[0]
        basic = "Basic " + base64.b64encode(b"cid-1:shh").decode()
        if case.basic:  # Intuit and DocuSign take the secret as Basic credentials
            assert auth.token_auth[0] == basic and "client_secret" not in exchange
        else:
            assert auth.token_auth[0] == "" and exchange["client_secret"] == "shh"

        api_url = f"{auth.url}/api/{API[case.id]}"
        identity = await rt.connectors.connect(case.id, {
            **case.fields, "client_id": "cid-1", "client_secret": "shh", "refresh_token": "rt-1",
            "token_url": f"{auth.url}/token", "api_url": api_url})
        assert identity.text() == case.identity
        assert auth.authorized == ["Bearer at-2"]  # the refreshed access token
        assert auth.tokens[-1]["grant_type"] == "refresh_token"
        assert secrets.get_secret(secret_name(case.id, "refresh_token")) == "rt-1"
        # A tool runs on the signed-in connection too (its client is built the same way).
        assert {t.name for t in rt.connectors.tools() if t.origin == f"connector:{case.id}"}

        # The alternative: a pasted access token, no sign-in.
        identity = await rt.connectors.connect(case.id, {
            **case.fields, "token": "pasted-token", "api_url": api_url})
        assert identity.text() == case.identity
        assert auth.authorized[-1] == "Bearer pasted-token"
        assert secrets.get_secret(secret_name(case.id, "refresh_token")) is None
        # Neither: a clear error, and what is stored stays.
        with pytest.raises(ConnectorError) as raised:
            await rt.connectors.connect(case.id, {**case.fields, "api_url": api_url})
        assert f"Sign in with {case.service}, or paste an access token" in raised.value.message
        assert secrets.get_secret(secret_name(case.id, "token")) == "pasted-token"
    finally:
        rt.close()


async def test_the_settings_page_signs_in_to_quickbooks(auth: AuthServer, qtbot: Any) -> None:
    from openworker_qt.ui.settings_connectors import ConnectorsPage

    auth.google = False
    case = SIGNED[1]
    auth.replies[case.path] = case.reply
    api_url = f"{auth.url}/api/qbo"
    rt = runtime(Sleeps())
    try:
        # Connected with a pasted token first, at the test's addresses.
        await rt.connectors.connect("quickbooks", {"company": "9130", "token": "pasted",
                                                   "token_url": f"{auth.url}/token",
                                                   "api_url": api_url})
        page = ConnectorsPage(rt.connectors)
        qtbot.addWidget(page)
        page.show()
        page.select("quickbooks")
        assert page.sign_in_button.isVisible()
        assert page.sign_in_button.text() == "Sign in with Intuit"
        opened: list[str] = []
        visit = browser(opened)
        # The consent page is Intuit's; the test's browser goes to the local one.
        page.open_url = lambda url: visit(url.replace(
            "https://appcenter.intuit.com/connect/oauth2", f"{auth.url}/authorize"))
        page.edits["client_id"].setText("cid-1")
        page.edits["client_secret"].setText("shh")
        page.sign_in_button.click()
        task = page.task
        assert task is not None
        await asyncio.wait_for(asyncio.shield(task), 20)
        await asyncio.sleep(0)
        assert page.message.text() == "Connected as Acme Books in QuickBooks"
        assert secrets.get_secret(secret_name("quickbooks", "refresh_token")) == "rt-1"
        assert auth.authorized[-1] == "Bearer at-2"
    finally:
        rt.close()
