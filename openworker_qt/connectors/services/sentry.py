"""The Sentry connector (Operations): Reads the errors and issues of your organisation's
projects; resolves or ignores an issue."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    Identity,
    RetryPolicy,
    ToolDef,
    bearer_headers,
    dumps,
    obj,
    refused,
    s,
)
from openworker_qt.connectors.base import path_segment as _seg
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import OrgApi, address_field


def _sentry(values: Credentials, policy: RetryPolicy) -> OrgApi:
    api = OrgApi("Sentry", values.get("api_url") or "https://sentry.io/api/0", policy=policy,
                  headers=bearer_headers(values))
    api.scope = quote(values.get("org", ""), safe="")
    return api


async def _sentry_validate(api: OrgApi) -> Identity:
    me = (await api.get("")) or {}
    user = me.get("user") if isinstance(me, dict) else None
    if not user:  # the root answers an unknown token as an anonymous visitor
        raise refused("Sentry")
    org = await api.get(f"organizations/{api.scope}/")
    return Identity(str(user.get("name") or user.get("email")), str(org.get("name") or api.scope))


async def _sentry_issues(api: OrgApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"query": a.get("query") or "is:unresolved",
                              "statsPeriod": "14d", "limit": 25}
    if a.get("project"):
        params["project"] = a["project"]
    data = await api.get(f"organizations/{api.scope}/issues/", params=params)
    return dumps([{**{k: i.get(k) for k in ("id", "shortId", "title", "culprit", "count",
                                             "userCount", "lastSeen", "status", "permalink")},
                   "project": (i.get("project") or {}).get("slug")} for i in data or []])


async def _sentry_resolve(api: OrgApi, a: dict[str, Any]) -> str:
    status = a.get("status") or "resolved"
    if status not in {"resolved", "unresolved", "ignored"}:
        raise ConnectorError("request", "The status is resolved, unresolved or ignored.")
    await api.request("PUT", f"organizations/{api.scope}/issues/{_seg(a['issue'])}/",
                      json_body={"status": status}, idempotent=False)
    return f"Issue {a['issue']} marked {status}."


SPEC = ConnectorSpec(
    id="sentry", name="Sentry", category="Operations",
    description="Reads the errors and issues of your organisation's projects; resolves or "
                "ignores an issue.",
    fields=(_token("Auth token", "Sentry → Settings → Account → API → Personal tokens "
                   "(scopes event:read, and event:write to resolve issues)."),
            Field("org", "Organization slug", "The name in your Sentry address: "
                  "sentry.io/organizations/<slug>/.", secret=False, placeholder="acme"),
            address_field("Only for the EU region (https://de.sentry.io/api/0) or a self-hosted "
                     "Sentry (https://sentry.example.com/api/0).")),
    client=_sentry, validate=_sentry_validate, api_url="https://sentry.io/api/0",
    tools=(
        ToolDef("sentry_issues", "List the organisation's issues (default: unresolved, last "
                "14 days), with how often they happened.",
                obj({"query": s("Sentry search, e.g. 'is:unresolved level:error'"),
                     "project": s("project id to limit to")}), _sentry_issues),
        ToolDef("sentry_set_issue_status", "Resolve, ignore or reopen an issue.",
                obj({"issue": s("issue id"), "status": s("resolved (default), ignored or "
                                                         "unresolved")}, ("issue",)),
                _sentry_resolve, action=True, target_arg="issue"),
    ),
)
