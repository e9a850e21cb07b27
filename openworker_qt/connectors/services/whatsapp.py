"""The WhatsApp Business connector (Chat): Reads your approved message templates; sends a
WhatsApp message from your business number (free text within 24 hours of the customer's last
message, else a template)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    bearer_headers,
    dumps,
    obj,
    refused,
    s,
)
from openworker_qt.connectors.base import token_field as _token


class _MetaGraph(HttpApi):
    """Meta's Graph API: an expired token comes back as HTTP 400, error code 190."""

    async def request(self, method: str, path: str, **kw: Any) -> Any:
        try:
            return await super().request(method, path, **kw)
        except ConnectorError as exc:
            if exc.status == 400 and ('"code": 190' in exc.message
                                      or "OAuthException" in exc.message):
                raise refused(self.service) from exc
            raise


def _whatsapp(values: Credentials, policy: RetryPolicy) -> _MetaGraph:
    return _MetaGraph("WhatsApp", values.get("api_url") or "https://graph.facebook.com/v21.0",
                      policy=policy,
                      headers=bearer_headers(values))


class _WhatsApp:
    """The Graph client with the numbers of the settings."""

    def __init__(self, values: Credentials, policy: RetryPolicy) -> None:
        self.api = _whatsapp(values, policy)
        self.phone = quote(values.get("phone", ""), safe="")
        self.account = quote(values.get("account", ""), safe="")

    async def __aenter__(self) -> _WhatsApp:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.api.aclose()


async def _whatsapp_validate(wa: _WhatsApp) -> Identity:
    info = await wa.api.get(wa.phone, params={"fields": "display_phone_number,verified_name"})
    return Identity(str(info.get("verified_name") or info.get("display_phone_number")),
                    str(info.get("display_phone_number") or "WhatsApp"))


async def _whatsapp_templates(wa: _WhatsApp, a: dict[str, Any]) -> str:
    if not wa.account:
        raise ConnectorError("config", "Add the WhatsApp Business Account ID in Settings → "
                             "Connectors → WhatsApp to list templates.")
    data = await wa.api.get(f"{wa.account}/message_templates", params={
        "fields": "name,language,status,category,components", "limit": 50})
    return dumps([{"name": t.get("name"), "language": t.get("language"),
                   "status": t.get("status"), "category": t.get("category"),
                   "text": " / ".join(str(c.get("text")) for c in t.get("components") or []
                                      if c.get("text"))}
                  for t in (data or {}).get("data") or []])


async def _whatsapp_send(wa: _WhatsApp, a: dict[str, Any]) -> str:
    if not re.fullmatch(r"\+?[\d\s().-]{6,24}", str(a["to"]).strip()):
        raise ConnectorError("request", "Give the phone number with its country code, "
                             "e.g. +4915112345678.")
    to = re.sub(r"\D", "", str(a["to"]))
    body: dict[str, Any] = {"messaging_product": "whatsapp", "recipient_type": "individual",
                            "to": to}
    if a.get("template"):
        template: dict[str, Any] = {"name": a["template"],
                                    "language": {"code": a.get("language") or "en_US"}}
        if a.get("parameters"):
            template["components"] = [{"type": "body", "parameters": [
                {"type": "text", "text": str(p)} for p in a["parameters"]]}]
        body.update(type="template", template=template)
    elif a.get("text"):
        body.update(type="text", text={"body": a["text"]})
    else:
        raise ConnectorError("request", "Give the text of the message, or a template.")
    sent = await wa.api.post(f"{wa.phone}/messages", json_body=body)
    ids = [m.get("id") for m in (sent or {}).get("messages") or []]
    return f"Sent to +{to} (message {', '.join(map(str, ids))})."


SPEC = ConnectorSpec(
    id="whatsapp", name="WhatsApp Business", category="Chat",
    description="Reads your approved message templates; sends a WhatsApp message from your "
                "business number (free text within 24 hours of the customer's last message, "
                "else a template).",
    fields=(_token("Access token", "Meta Business Suite → Business settings → System users → "
                   "Generate token (whatsapp_business_messaging, "
                   "whatsapp_business_management)."),
            Field("phone", "Phone number ID", "WhatsApp Manager → Phone numbers, or the "
                  "app's WhatsApp → API Setup page.", secret=False),
            Field("account", "WhatsApp Business Account ID", "On the same API Setup page; "
                  "needed to list templates.", secret=False, required=False)),
    client=_WhatsApp, validate=_whatsapp_validate, api_url="https://graph.facebook.com/v21.0",
    tools=(
        ToolDef("whatsapp_templates", "List the message templates of the business account.",
                obj({}), _whatsapp_templates),
        ToolDef("whatsapp_send", "Send a WhatsApp message: text, or a template with its "
                "values.", obj({"to": s("phone number with country code, e.g. +4915112345678"),
                               "text": s("the message (only within 24 h of theirs)"),
                               "template": s("template name"),
                               "language": s("template language, e.g. en_US"),
                               "parameters": {"type": "array", "items": {"type": "string"},
                                              "description": "the template's values, in order"}},
                              ("to",)), _whatsapp_send, action=True, target_arg="to"),
    ),
)
