"""The Gmail connector (Mail): Search your mail and send messages."""

from __future__ import annotations

import base64
from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    HttpApi,
    Identity,
    ToolDef,
    dumps,
    obj,
    path_segment,
    s,
)
from openworker_qt.connectors.services.common import (
    GOOGLE_FIELDS,
    MAIL_SEND_PARAMS,
    google_oauth,
    mime,
    oauth_bearer,
)

GMAIL_OAUTH = google_oauth("https://www.googleapis.com/auth/gmail.modify")


_gmail = oauth_bearer("Gmail", GMAIL_OAUTH, "https://gmail.googleapis.com/gmail/v1")


async def _gmail_validate(api: HttpApi) -> Identity:
    me = await api.get("users/me/profile")
    return Identity(str(me.get("emailAddress")), "Gmail")


async def _gmail_search(api: HttpApi, a: dict[str, Any]) -> str:
    found = await api.get("users/me/messages",
                          params={"q": a.get("query") or "in:inbox", "maxResults": 10})
    out = []
    for ref in (found or {}).get("messages") or []:
        msg = await api.get(f"users/me/messages/{path_segment(ref['id'])}",
                            params={"format": "metadata",
                                    "metadataHeaders": ["From", "Subject", "Date"]})
        headers = {h["name"]: h["value"] for h in msg.get("payload", {}).get("headers", [])}
        out.append({"id": ref["id"], **headers, "snippet": msg.get("snippet", "")})
    return dumps(out)


async def _gmail_send(api: HttpApi, a: dict[str, Any]) -> str:
    raw = base64.urlsafe_b64encode(bytes(mime("", a["to"], a["subject"], a["body"]))).decode()
    sent = await api.post("users/me/messages/send", json_body={"raw": raw})
    return f"Sent to {a['to']} (message {sent.get('id', '')})."


SPEC = ConnectorSpec(
    id="gmail", name="Gmail", category="Mail",
    description="Search your mail and send messages.",
    fields=GOOGLE_FIELDS, extra={"oauth": GMAIL_OAUTH},
    client=_gmail, validate=_gmail_validate, api_url="https://gmail.googleapis.com/gmail/v1",
    tools=(
        ToolDef("gmail_search", "Search mail with Gmail's search syntax (from:, is:unread, …).",
                obj({"query": s("Gmail search, default in:inbox")}), _gmail_search),
        ToolDef("gmail_send", "Send an e-mail.", MAIL_SEND_PARAMS, _gmail_send,
                action=True, target_arg="to"),
    ),
)
