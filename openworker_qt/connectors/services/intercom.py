"""The Intercom connector (Support): Reads recent conversations; replies to a customer or adds
an internal note."""

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
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token


def _intercom(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Intercom", values, "https://api.intercom.io", policy,
                   **{"Intercom-Version": "2.11", "Accept": "application/json"})


async def _intercom_validate(api: HttpApi) -> Identity:
    me = await api.get("me")
    return Identity(str(me.get("email") or me.get("name")),
                    str((me.get("app") or {}).get("name") or "Intercom"))


async def _intercom_conversations(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("conversations", params={"per_page": 20})
    out = []
    for c in data.get("conversations") or []:
        source = c.get("source") or {}
        out.append({"id": c.get("id"), "title": c.get("title") or source.get("subject"),
                    "state": c.get("state"), "from": (source.get("author") or {}).get("email"),
                    "body": str(source.get("body") or "")[:500], "updated_at": c.get("updated_at")})
    return dumps(out)


async def _intercom_reply(api: HttpApi, a: dict[str, Any]) -> str:
    me = await api.get("me")  # replies are sent as the token's admin
    note = bool(a.get("note", False))
    await api.post(f"conversations/{_id(a['conversation'])}/reply", json_body={
        "message_type": "note" if note else "comment", "type": "admin",
        "admin_id": str(me.get("id", "")), "body": a["body"]})
    kind = "internal note" if note else "reply"
    return f"Sent a {kind} in conversation {a['conversation']}."


SPEC = ConnectorSpec(
    id="intercom", name="Intercom", category="Support",
    description="Reads recent conversations; replies to a customer or adds an internal note.",
    fields=(_token("Access token", "Intercom → Settings → Integrations → Developer Hub → "
                   "your app → Authentication."),),
    client=_intercom, validate=_intercom_validate, api_url="https://api.intercom.io",
    tools=(
        ToolDef("intercom_conversations", "List recent conversations.", obj({}),
                _intercom_conversations),
        ToolDef("intercom_reply", "Reply in a conversation (the customer sees it unless "
                "it is a note).",
                obj({"conversation": s("conversation id"), "body": s("the reply"),
                     "note": {"type": "boolean", "description": "an internal note instead"}},
                    ("conversation", "body")), _intercom_reply, action=True,
                target_arg="conversation"),
    ),
)
