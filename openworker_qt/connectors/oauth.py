"""OAuth 2.0 for the connectors whose services offer it (Google, Microsoft, Intuit,
DocuSign).

* :func:`sign_in` runs the authorization-code flow with PKCE (S256) the way a
  desktop app should (RFC 8252): the browser opens the service's consent page,
  which sends the code back to a one-shot listener on ``127.0.0.1`` (a random
  port); the ``state`` is checked and the code exchanged for tokens. The user's
  own OAuth client (a "Desktop app" client id, its secret where the service
  issues one) is used: OpenWorker ships no client of its own.
* :func:`access_token` turns a stored refresh token into an access token
  (cached in memory until shortly before it expires). Blocking: the connectors
  build their clients in a worker.

The refresh token is a secret field of the connector (keyring); access tokens
never leave memory.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from openworker_qt.connectors.base import ConnectorError, Credentials

SIGN_IN_TIMEOUT = 300.0
EARLY = 60.0  # an access token is renewed this long before it expires


@dataclass(frozen=True, slots=True)
class OAuth:
    service: str
    authorize_url: str
    token_url: str
    scopes: tuple[str, ...]
    extra: Mapping[str, str] = field(default_factory=dict)  # e.g. access_type=offline
    #: How the client's secret reaches the token endpoint: in the form ("post"), or as
    #: HTTP Basic credentials ("basic": Intuit, DocuSign). Without a secret, neither.
    client_auth: str = "post"

    def token_endpoint(self, values: Credentials) -> str:
        return values.get("token_url") or self.token_url

    def client_credentials(self, form: dict[str, str], client_id: str,
                           client_secret: str) -> tuple[str, str] | None:
        """Adds the client to a token request's ``form``; returns the Basic auth pair
        when the service wants the secret that way."""
        form["client_id"] = client_id
        if not client_secret:
            return None
        if self.client_auth == "basic":
            return client_id, client_secret
        form["client_secret"] = client_secret
        return None


_cache: dict[tuple[str, str], tuple[str, float]] = {}
_lock = threading.Lock()


def _refused(oauth: OAuth, detail: str) -> ConnectorError:
    return ConnectorError("auth", "{service} refused the sign-in ({detail}: expired or "
                          "revoked). Sign in again in Settings → Connectors.",
                          service=oauth.service, detail=detail)


def _token_reply(oauth: OAuth, status: int, body: Any) -> dict[str, Any]:
    if status >= 500:
        raise ConnectorError("server", "{service}'s sign-in service had a problem "
                             "(HTTP {code}). Try again later.", status=status,
                             service=oauth.service, code=status)
    if not isinstance(body, dict) or status >= 400 or not body.get("access_token"):
        error = body.get("error", f"HTTP {status}") if isinstance(body, dict) else f"HTTP {status}"
        raise _refused(oauth, str(error))
    return body


def access_token(oauth: OAuth, values: Credentials) -> str:
    """An access token: the pasted one, or one got with the stored refresh token."""
    refresh = values.get("refresh_token", "")
    if not refresh:
        token = values.get("token", "")
        if not token:
            raise ConnectorError("config", "Sign in with {service}, or paste an access "
                                 "token, in Settings → Connectors.", service=oauth.service)
        return token
    key = (oauth.token_endpoint(values), refresh)
    with _lock:
        hit = _cache.get(key)
        if hit is not None and hit[1] > time.time():
            return hit[0]
    import httpx2

    form = {"grant_type": "refresh_token", "refresh_token": refresh}
    basic = oauth.client_credentials(form, values.get("client_id", ""),
                                     values.get("client_secret", ""))
    try:
        response = httpx2.post(oauth.token_endpoint(values), data=form, auth=basic,
                               timeout=30.0)
    except httpx2.HTTPError as exc:
        raise ConnectorError("network", "{service} could not be reached.",
                             service=oauth.service) from exc
    body = _token_reply(oauth, response.status_code, _json(response))
    expires = time.time() + float(body.get("expires_in") or 3600) - EARLY
    with _lock:
        _cache[key] = (str(body["access_token"]), expires)
    return str(body["access_token"])


def _json(response: Any) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def pkce() -> tuple[str, str]:
    """(verifier, S256 challenge)."""
    verifier = secrets.token_urlsafe(64)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


async def sign_in(
    oauth: OAuth,
    client_id: str,
    open_browser: Callable[[str], object],
    *,
    client_secret: str = "",
    authorize_url: str = "",
    token_url: str = "",
    wait_for_user: float = SIGN_IN_TIMEOUT,
) -> dict[str, Any]:
    """The authorization-code flow with PKCE through a loopback redirect (see module
    docstring). Returns the token response (with ``refresh_token``)."""
    from aiohttp import web

    if not client_id:
        raise ConnectorError("config", "Signing in with {service} needs your OAuth "
                             "client id (a Desktop app client).", service=oauth.service)
    verifier, challenge = pkce()
    state = secrets.token_urlsafe(24)
    got: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def callback(request: web.Request) -> web.Response:
        query = request.query
        if query.get("state") != state:
            return web.Response(status=400, text="This sign-in link is not the one OpenWorker "
                                "started. Start again from OpenWorker.")
        if not got.done():
            if query.get("code"):
                got.set_result(query["code"])
            else:
                got.set_exception(_refused(oauth, query.get("error", "no code")))
        return web.Response(text="Signed in. You can close this tab and return to OpenWorker.")

    app = web.Application()
    app.router.add_get("/callback", callback)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        redirect = f"http://127.0.0.1:{port}/callback"
        params = {"client_id": client_id, "redirect_uri": redirect, "response_type": "code",
                  "scope": " ".join(oauth.scopes), "code_challenge": challenge,
                  "code_challenge_method": "S256", "state": state, **oauth.extra}
        open_browser(f"{authorize_url or oauth.authorize_url}?{urlencode(params)}")
        try:
            code = await asyncio.wait_for(got, wait_for_user)
        except TimeoutError as exc:
            raise ConnectorError("auth", "The {service} sign-in was not finished in "
                                 "time. Start it again.", service=oauth.service) from exc
    finally:
        await runner.cleanup()
    import httpx2

    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
            "code_verifier": verifier}
    basic = oauth.client_credentials(form, client_id, client_secret)
    try:
        async with httpx2.AsyncClient(timeout=30.0, auth=basic) as http:
            response = await http.post(token_url or oauth.token_url, data=form)
    except httpx2.HTTPError as exc:
        raise ConnectorError("network", "{service} could not be reached.",
                             service=oauth.service) from exc
    body = _token_reply(oauth, response.status_code, _json(response))
    if not body.get("refresh_token"):
        raise ConnectorError("auth", "{service} gave no refresh token; sign in again "
                             "(and allow offline access).", service=oauth.service)
    return body
