"""The Close connector (Sales): Finds leads and their contacts; adds a note to a lead."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    Credentials,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import token_field as _token


def _close(values: Credentials, policy: RetryPolicy) -> HttpApi:
    import httpx2

    # The API key is the Basic user name, with no password.
    return HttpApi("Close", _url(values, "https://api.close.com/api/v1"), policy=policy,
                   auth=httpx2.BasicAuth(values.get("token", ""), ""))


async def _close_validate(api: HttpApi) -> Identity:
    me = await api.get("me/")
    orgs = me.get("organizations") or [{}]
    name = " ".join(x for x in (me.get("first_name"), me.get("last_name")) if x)
    return Identity(str(me.get("email") or name), str(orgs[0].get("name") or "Close"))


async def _close_leads(api: HttpApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"_limit": 25, "_fields": "id,display_name,status_label,url,contacts"}
    if a.get("query"):
        params["query"] = a["query"]
    data = await api.get("lead/", params=params)
    return dumps([{"id": ld.get("id"), "name": ld.get("display_name"),
                   "status": ld.get("status_label"), "url": ld.get("url"),
                   "contacts": [c.get("name") for c in ld.get("contacts") or []]}
                  for ld in data.get("data") or []])


async def _close_note(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post("activity/note/", json_body={"lead_id": str(a["lead"]),
                                                       "note": a["text"]})
    return f"Note {made.get('id', '')} added to lead {a['lead']}."


SPEC = ConnectorSpec(
    id="close", name="Close", category="Sales",
    description="Finds leads and their contacts; adds a note to a lead.",
    fields=(_token("API key", "Close → Settings → Developer → API keys."),),
    client=_close, validate=_close_validate, api_url="https://api.close.com/api/v1",
    tools=(
        ToolDef("close_search_leads", "Find leads (Close search syntax, or words).",
                obj({"query": s("e.g. 'acme' or 'status:\"Potential\"' (default: recent)")}),
                _close_leads),
        ToolDef("close_add_note", "Add a note to a lead.",
                obj({"lead": s("lead id (lead_…)"), "text": s("the note")}, ("lead", "text")),
                _close_note, action=True, target_arg="lead"),
    ),
)
