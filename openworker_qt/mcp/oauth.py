"""OAuth 2.1 for HTTP MCP servers, on the SDK's client support.

The SDK's :class:`~mcp.client.auth.OAuthClientProvider` does discovery
(protected-resource and authorization-server metadata), dynamic client
registration, PKCE and refresh. What this module adds:

* tokens and the registered client live in the keyring (entries
  ``mcp-oauth/<server>/tokens`` and ``…/client``; a ``${VAR}`` can never name them);
* the system browser and a loopback redirect (``http://127.0.0.1:<port>/callback``,
  the port configurable per server: ``"oauth": {"port": 33418}``);
* signing in happens only when the user asks (Settings → Sign in, or
  ``openworker-qt mcp login NAME``). A background connection that would need the
  browser — first use, a refresh that failed, a revoked token — stops with
  :class:`SignInRequired`, whose message says to sign in again.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

log = logging.getLogger(__name__)

DEFAULT_PORT = 33418
SIGN_IN_TIMEOUT = 300.0
CLIENT_NAME = "OpenWorker Qt"


class SignInRequired(Exception):
    """The server needs the user to sign in (again) in the browser."""


def entry(server: str, what: str) -> str:
    return f"mcp-oauth/{server}/{what}"


class KeyringStorage:
    """The SDK's TokenStorage on the keyring (calls run in a worker)."""

    def __init__(self, server: str, get_secret: Callable[[str], str | None],
                 set_secret: Callable[[str, str], None]) -> None:
        self.server = server
        self.get_secret = get_secret
        self.set_secret = set_secret

    async def _load(self, what: str, model: Any) -> Any:
        raw = await asyncio.to_thread(self.get_secret, entry(self.server, what))
        if not raw:
            return None
        try:
            return model.model_validate_json(raw)
        except ValueError:
            log.warning("the stored %s of MCP server %s is unreadable; signing in again",
                        what, self.server)
            return None

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        return await self._load("tokens", OAuthToken)

    async def set_tokens(self, tokens: Any) -> None:
        await asyncio.to_thread(self.set_secret, entry(self.server, "tokens"),
                                tokens.model_dump_json(exclude_none=True))

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        return await self._load("client", OAuthClientInformationFull)

    async def set_client_info(self, client_info: Any) -> None:
        await asyncio.to_thread(self.set_secret, entry(self.server, "client"),
                                client_info.model_dump_json(exclude_none=True))


class LoopbackCallback:
    """A one-shot HTTP listener on 127.0.0.1 that receives the browser's redirect."""

    def __init__(self, port: int = DEFAULT_PORT) -> None:
        self.port = port
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[tuple[str, str | None, str | None]] | None = None

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self.port}/callback"

    def expect(self) -> None:
        """A new round: the next redirect answers it (an earlier one is stale)."""
        if self._result is not None and not self._result.done():
            self._result.cancel()
        self._result = asyncio.get_running_loop().create_future()

    async def start(self) -> None:
        self.expect()
        try:
            self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
        except OSError as exc:
            raise SignInRequired(
                f"the sign-in needs the local port {self.port}, which is in use "
                f"({exc.strerror or exc}); choose another port for this server "
                "(\"oauth\": {\"port\": …}) and try again.") from None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readline(), 10)
            parts = request.decode("latin-1").split()
            target = parts[1] if len(parts) > 1 else "/"
            query = parse_qs(urlparse(target).query)

            def one(*keys: str) -> str | None:
                for key in keys:
                    if query.get(key):
                        return query[key][0]
                return None

            error = one("error_description", "error")
            code = one("code")
            if urlparse(target).path == "/callback" and (code or error):
                text = ("Signed in. You can close this tab and go back to OpenWorker Qt."
                        if code else f"Sign-in failed: {error}")
                if self._result is not None and not self._result.done():
                    if code:
                        self._result.set_result((code, one("state"), one("iss")))
                    else:
                        self._result.set_exception(SignInRequired(f"the sign-in failed: {error}"))
                status = "200 OK"
            else:
                text, status = "Not found", "404 Not Found"
            body = f"<!doctype html><title>OpenWorker Qt</title><p>{html.escape(text)}</p>".encode()
            writer.write(f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
                         f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
            await writer.drain()
        except (TimeoutError, OSError):
            pass
        finally:
            writer.close()

    async def wait(self, within: float = SIGN_IN_TIMEOUT) -> Any:
        from mcp.client.auth import AuthorizationCodeResult

        assert self._result is not None
        try:
            code, state, iss = await asyncio.wait_for(asyncio.shield(self._result), within)
        except TimeoutError:
            raise SignInRequired(
                f"nobody finished signing in within {within / 60:g} minutes.") from None
        return AuthorizationCodeResult(code=code, state=state, iss=iss)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None


def _open_browser(url: str) -> None:
    import webbrowser

    if not webbrowser.open(url):
        raise SignInRequired(f"no browser could be opened; open this address yourself: {url}")


Session = tuple["LoopbackCallback", "Callable[[str], Awaitable[None]] | None"]


def provider(
    server: str,
    url: str,
    *,
    port: int,
    scope: str | None,
    get_secret: Callable[[str], str | None],
    set_secret: Callable[[str, str], None],
    signing_in: Callable[[], Session | None] = lambda: None,
) -> Any:
    """The SDK's OAuth provider for ``server``. ``signing_in()`` is asked each time the
    flow needs the browser: while the user signs in it gives the loopback listener
    (and the browser to use; default: the system's); otherwise the flow stops with
    :class:`SignInRequired` (a connection in the background never opens a browser)."""
    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientMetadata

    metadata = OAuthClientMetadata(
        client_name=CLIENT_NAME, redirect_uris=[f"http://127.0.0.1:{port}/callback"],  # type: ignore[list-item]
        grant_types=["authorization_code", "refresh_token"], response_types=["code"],
        token_endpoint_auth_method="none", scope=scope,
    )

    async def redirect_handler(auth_url: str) -> None:
        current = signing_in()
        if current is None:
            raise SignInRequired("needs you to sign in again (Settings → MCP servers → Sign in, "
                                 f"or `openworker-qt mcp login {server}`).")
        callback, browser = current
        callback.expect()
        if browser is not None:
            await browser(auth_url)
        else:
            await asyncio.to_thread(_open_browser, auth_url)

    async def callback_handler() -> Any:
        current = signing_in()
        if current is None:
            raise SignInRequired("the sign-in was stopped; sign in again.")
        return await current[0].wait()

    return OAuthClientProvider(
        server_url=url, client_metadata=metadata,
        storage=KeyringStorage(server, get_secret, set_secret),
        redirect_handler=redirect_handler, callback_handler=callback_handler,
    )


def forget(server: str, delete_secret: Callable[[str], object]) -> None:
    """Sign out: drop the stored tokens and registration (blocking)."""
    for what in ("tokens", "client"):
        delete_secret(entry(server, what))


def describe_tokens(raw: str | None) -> str:
    if not raw:
        return "not signed in"
    try:
        data = json.loads(raw)
    except ValueError:
        return "unreadable sign-in"
    return "signed in" + (" (can refresh)" if data.get("refresh_token") else "")
