"""The PostHog connector (Analytics): Answers questions about your product's events with HogQL
(SQL) queries and lists feature flags; turns a feature flag on or off."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from openworker_qt.connectors.base import (
    ConnectorSpec,
    Credentials,
    Field,
    Identity,
    RetryPolicy,
    ToolDef,
    bearer_headers,
    dumps,
    n,
    obj,
    s,
)
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import OrgApi, address_field, pick


def _posthog(values: Credentials, policy: RetryPolicy) -> OrgApi:
    api = OrgApi("PostHog", values.get("api_url") or "https://us.posthog.com", policy=policy,
                  headers=bearer_headers(values))
    api.scope = quote(values.get("project", ""), safe="")
    return api


async def _posthog_validate(api: OrgApi) -> Identity:
    me = await api.get("api/users/@me/")
    return Identity(str(me.get("email") or me.get("first_name")),
                    str((me.get("organization") or {}).get("name", "")))


async def _posthog_query(api: OrgApi, a: dict[str, Any]) -> str:
    data = await api.request("POST", f"api/projects/{api.scope}/query/", idempotent=True,
                             json_body={"query": {"kind": "HogQLQuery", "query": a["query"]}})
    columns = (data or {}).get("columns") or []
    rows = ((data or {}).get("results") or [])[:200]
    return dumps([dict(zip(columns, row, strict=False)) if isinstance(row, list) else row
                  for row in rows])


async def _posthog_flags(api: OrgApi, a: dict[str, Any]) -> str:
    params = {"search": a["search"]} if a.get("search") else None
    data = await api.get(f"api/projects/{api.scope}/feature_flags/", params=params)
    return dumps(pick((data or {}).get("results"), "id", "key", "name", "active",
                       "rollout_percentage"))


async def _posthog_set_flag(api: OrgApi, a: dict[str, Any]) -> str:
    active = bool(a.get("active"))
    await api.request("PATCH", f"api/projects/{api.scope}/feature_flags/{int(a['flag'])}/",
                      json_body={"active": active})
    return f"Feature flag {a['flag']} turned {'on' if active else 'off'}."


SPEC = ConnectorSpec(
    id="posthog", name="PostHog", category="Analytics",
    description="Answers questions about your product's events with HogQL (SQL) queries and "
                "lists feature flags; turns a feature flag on or off.",
    fields=(_token("Personal API key", "PostHog → Settings → Personal API keys (scopes "
                   "query:read, feature_flag:read, and feature_flag:write to switch flags)."),
            Field("project", "Project ID", "The number in your PostHog address: "
                  "/project/<id>/.", secret=False, placeholder="12345"),
            address_field("Only for the EU cloud (https://eu.posthog.com) or a self-hosted PostHog.",
                     placeholder="https://us.posthog.com")),
    client=_posthog, validate=_posthog_validate, api_url="https://us.posthog.com",
    tools=(
        ToolDef("posthog_query", "Run a HogQL (SQL) query over the project's events, persons "
                "and sessions, e.g. select event, count() from events where timestamp > "
                "now() - interval 7 day group by event.",
                obj({"query": s("the HogQL SELECT")}, ("query",)), _posthog_query),
        ToolDef("posthog_feature_flags", "List the project's feature flags.",
                obj({"search": s("words in the flag's key or name")}), _posthog_flags),
        ToolDef("posthog_set_feature_flag", "Turn a feature flag on or off for everyone it "
                "targets.", obj({"flag": n("feature flag id"),
                                 "active": {"type": "boolean", "description": "on (true) or "
                                            "off (false)"}}, ("flag", "active")),
                _posthog_set_flag, action=True, target_arg="flag"),
    ),
)
