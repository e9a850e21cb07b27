"""A streamable-HTTP MCP server behind its own OAuth 2.1 authorization server
(the SDK's server side: discovery metadata, dynamic client registration, PKCE,
refresh, revocation), on 127.0.0.1:PORT. The "user" approves every sign-in at
once. Access tokens live TOKEN_SECONDS (env, default 3600).

Tools: ``whoami`` (the token's client), ``stats`` (how many codes, refreshes,
registrations the server saw), ``revoke_everything`` (as if the user withdrew the
app's access on the service's website).

    python oauth_server.py PORT
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import time

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

PORT = int(sys.argv[1])
BASE = f"http://127.0.0.1:{PORT}"
TOKEN_SECONDS = int(os.environ.get("TOKEN_SECONDS", "3600"))
#: How long a token got by a refresh lives (default: as long as the first one).
REFRESHED_TOKEN_SECONDS = int(os.environ.get("REFRESHED_TOKEN_SECONDS", str(TOKEN_SECONDS)))


class Provider:
    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.counts = {"registrations": 0, "codes": 0, "refreshes": 0, "pkce": 0}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        self.counts["registrations"] += 1
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(24)
        self.counts["pkce"] += bool(params.code_challenge)
        self.codes[code] = AuthorizationCode(
            code=code, scopes=params.scopes or ["mcp"], expires_at=time.time() + 300,
            client_id=client.client_id, code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource)
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client, authorization_code):
        return self.codes.get(authorization_code)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None,
               seconds: int = TOKEN_SECONDS) -> OAuthToken:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes,
                                          expires_at=int(time.time()) + seconds,
                                          resource=resource)
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes,
                                             resource=resource)
        return OAuthToken(access_token=access, token_type="Bearer", expires_in=seconds,
                          refresh_token=refresh, scope=" ".join(scopes))

    async def exchange_authorization_code(self, client, authorization_code):
        self.codes.pop(authorization_code.code, None)
        self.counts["codes"] += 1
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client, refresh_token):
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        self.refresh.pop(refresh_token.token, None)
        self.counts["refreshes"] += 1
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource,
                           REFRESHED_TOKEN_SECONDS)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


provider = Provider()
server = MCPServer(
    "oauth-demo", version="1.0", auth_server_provider=provider,
    auth=AuthSettings(
        issuer_url=BASE, resource_server_url=f"{BASE}/mcp",
        client_registration_options=ClientRegistrationOptions(enabled=True, valid_scopes=["mcp"],
                                                              default_scopes=["mcp"]),
        revocation_options=RevocationOptions(enabled=True), required_scopes=["mcp"],
    ),
)


@server.tool(description="Who is calling.")
def whoami(ctx: Context) -> str:
    return "signed in"


@server.tool(description="What the authorization server saw.")
def stats() -> str:
    return json.dumps(provider.counts)


@server.tool(description="Withdraw every token, as the service's website would.")
def revoke_everything() -> str:
    provider.access.clear()
    provider.refresh.clear()
    return "revoked"


if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=PORT)
