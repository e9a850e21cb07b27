"""The Zendesk connector (Support): Search tickets; reply or add internal notes."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    n,
    obj,
    refused,
    s,
)
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


def _zendesk(values: Credentials, policy: RetryPolicy) -> HttpApi:
    import httpx2

    url = values.get("api_url") or values.get("site") or ""
    if not url.startswith(("https://", "http://")):
        raise ConnectorError("config", "The {service} address must start with https://.",
                             service="Zendesk")
    return HttpApi("Zendesk", url, policy=policy, auth=httpx2.BasicAuth(
        f"{values.get('email', '')}/token", values.get("token", "")))


async def _zendesk_validate(api: HttpApi) -> Identity:
    me = (await api.get("api/v2/users/me.json")).get("user") or {}
    if not me.get("id"):  # Zendesk answers anonymous callers with an anonymous user
        raise refused("Zendesk")
    return Identity(str(me.get("name") or me.get("email")),
                    urlparse(str(api._http.base_url)).hostname or "")


async def _zendesk_search(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("api/v2/search.json", params={
        "query": a.get("query") or "type:ticket status<solved"})
    return dumps(pick(data.get("results"), "id", "subject", "status", "priority", "updated_at"))


async def _zendesk_comment(api: HttpApi, a: dict[str, Any]) -> str:
    public = bool(a.get("public", False))
    await api.request("PUT", f"api/v2/tickets/{int(a['ticket'])}.json", idempotent=False,
                      json_body={"ticket": {"comment": {"body": a["body"], "public": public}}})
    kind = "public reply" if public else "internal note"
    return f"Added an {kind} to ticket {a['ticket']}."


SPEC = ConnectorSpec(
    id="zendesk", name="Zendesk", category="Support",
    description="Search tickets; reply or add internal notes.",
    fields=(Field("site", "Zendesk address", "e.g. https://acme.zendesk.com", secret=False,
                  placeholder="https://acme.zendesk.com"),
            Field("email", "Agent e-mail", "The address you sign in with.", secret=False),
            _token("API token", "Admin Center → Apps and integrations → Zendesk API.")),
    client=_zendesk, validate=_zendesk_validate,
    tools=(
        ToolDef("zendesk_search", "Search tickets (Zendesk search syntax).",
                obj({"query": s("default: unsolved tickets")}), _zendesk_search),
        ToolDef("zendesk_comment", "Add a comment to a ticket (internal unless public).",
                obj({"ticket": n("ticket id"), "body": s("the comment"),
                     "public": {"type": "boolean", "description": "a reply the requester sees"}},
                    ("ticket", "body")), _zendesk_comment, action=True, target_arg="ticket"),
    ),
)
