"""What several service connectors share: the fields worth the model's attention, Google's
and Microsoft's sign-ins, GraphQL and organisation-scoped APIs, a mail message, a site
address, HTML as text."""

from __future__ import annotations

import datetime as dt
import re
from email.message import EmailMessage
from typing import Any

from openworker_qt.connectors import oauth
from openworker_qt.connectors.base import (
    ConnectorError,
    Credentials,
    Field,
    HttpApi,
    RetryPolicy,
    obj,
    s,
)


def pick(items: Any, *keys: str) -> list[dict[str, Any]]:
    """Only the fields worth the model's attention, from a list of objects."""
    out = []
    for item in items or []:
        if isinstance(item, dict):
            out.append({k: item.get(k) for k in keys if item.get(k) is not None})
    return out


def google_oauth(scope: str) -> oauth.OAuth:
    """Google's browser sign-in for one scope (offline: a refresh token comes back)."""
    return oauth.OAuth("Google", "https://accounts.google.com/o/oauth2/v2/auth",
                       "https://oauth2.googleapis.com/token", (scope,),
                       {"access_type": "offline", "prompt": "consent"})


MICROSOFT_OAUTH = oauth.OAuth(
    "Microsoft", "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    ("offline_access", "User.Read", "Mail.Read", "Mail.Send", "Calendars.Read"))


def oauth_fields(service: str, console: str) -> tuple[Field, ...]:
    """Sign in with the user's own OAuth client, or paste a short-lived access token."""
    return (
        Field("client_id", "OAuth client id", f"Your own Desktop app client from {console}; "
              "then use Sign in.", secret=False, required=False),
        Field("client_secret", "OAuth client secret", "The client's secret, if it has one.",
              required=False),
        Field("refresh_token", "Sign-in", f"Filled in by Sign in with {service}.",
              required=False),
        Field("token", "Access token (instead)", "A pasted access token works until it "
              "expires (about an hour): for a quick try.", required=False),
    )


GOOGLE_FIELDS = oauth_fields("Google", "Google Cloud Console → APIs & Services → Credentials")


def oauth_bearer(service: str, spec_oauth: oauth.OAuth, default_url: str, **headers: str) -> Any:
    """A connector's client builder: an :class:`HttpApi` sending the access token of
    ``spec_oauth`` (refreshed from the stored sign-in, or the pasted token)."""
    def build(values: Credentials, policy: RetryPolicy) -> HttpApi:
        token = oauth.access_token(spec_oauth, values)  # blocking: built in a worker
        return HttpApi(service, values.get("api_url") or default_url, policy=policy,
                       headers={"Authorization": f"Bearer {token}", **headers})

    return build


def mime(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    if sender:
        msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    return msg


MAIL_SEND_PARAMS = obj({"to": s("recipient address(es), comma-separated"),
                        "subject": s("subject"), "body": s("plain-text body")},
                       ("to", "subject", "body"))


class GraphQLApi(HttpApi):
    """A GraphQL endpoint (Linear, monday.com): errors come back in the body."""

    path = "graphql"

    async def gql(self, query: str, variables: dict[str, Any] | None = None, *,
                  read: bool = True) -> dict[str, Any]:
        refused = ConnectorError("auth", "{service} refused the key (expired or revoked). "
                                 "Reconnect {service} in Settings → Connectors.",
                                 service=self.service)
        try:
            data = await self.request("POST", self.path, idempotent=read,
                                      json_body={"query": query, "variables": variables or {}})
        except ConnectorError as exc:
            if exc.status == 400 and "auth" in exc.message.lower():
                raise refused from exc
            raise
        errors = (data or {}).get("errors")
        if errors:
            codes = {str((e.get("extensions") or {}).get("code", "")) for e in errors}
            if codes & {"AUTHENTICATION_ERROR", "UNAUTHENTICATED"}:
                raise refused
            raise ConnectorError("request", "{service}: {detail}", service=self.service,
                                 detail=errors[0].get("message", "error"))
        return dict((data or {}).get("data") or {})


def site_url(values: Credentials, service: str) -> str:
    """The address of the user's own site of ``service`` (an ``http(s)://`` one)."""
    url = values.get("api_url") or values.get("site") or ""
    if not url.startswith(("https://", "http://")):
        raise ConnectorError("config", "The {service} address must start with https://.",
                             service=service)
    return url


def address_field(help_text: str, *, required: bool = False, placeholder: str = "") -> Field:
    """The field of the service's API address (a region, a self-hosted server)."""
    return Field("api_url", "API address", help_text, secret=False, required=required,
                 placeholder=placeholder)


def html_text(html: Any) -> str:
    """Message bodies that come as HTML, as plain text."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", str(html or ""))).strip()


def days_ago(days: int) -> dt.date:
    """The date ``days`` before today (UTC)."""
    return dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days)


class OrgApi(HttpApi):
    """An API whose calls are scoped to one organisation or project of the settings."""

    scope: str = ""
