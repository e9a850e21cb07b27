"""The Atlassian sign-in (site, e-mail, API token) that Jira and Confluence share."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from openworker_qt.connectors.base import (
    ConnectorError,
    Credentials,
    Field,
    HttpApi,
    RetryPolicy,
)

ATLASSIAN_FIELDS = (
    Field("site", "Site address", "Your Atlassian site, e.g. https://acme.atlassian.net.",
          secret=False, placeholder="https://acme.atlassian.net"),
    Field("email", "Account e-mail", "The e-mail address you sign in to Atlassian with.",
          secret=False),
    Field("token", "API token", "Create one at id.atlassian.com → Security → API tokens."),
)


def atlassian_client(service: str) -> Any:
    def build(values: Credentials, policy: RetryPolicy) -> HttpApi:
        import httpx2

        url = values.get("api_url") or values.get("site") or ""
        if not url.startswith(("https://", "http://")):
            raise ConnectorError("config", "The {service} site must be an https:// address.",
                                 service=service)
        return HttpApi(service, url, policy=policy,
                       auth=httpx2.BasicAuth(values.get("email", ""), values.get("token", "")))

    return build


def atlassian_site(api: HttpApi) -> str:
    return urlparse(str(api._http.base_url)).hostname or ""
