"""The Outlook connector (Mail): Outlook mail and calendar through Microsoft Graph."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    HttpApi,
    Identity,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.services.common import (
    MAIL_SEND_PARAMS,
    MICROSOFT_OAUTH,
    oauth_bearer,
    oauth_fields,
    pick,
)

_graph = oauth_bearer("Outlook", MICROSOFT_OAUTH, "https://graph.microsoft.com/v1.0")


async def _graph_validate(api: HttpApi) -> Identity:
    me = await api.get("me")
    return Identity(str(me.get("userPrincipalName") or me.get("mail")), "Microsoft 365")


async def _outlook_mail(api: HttpApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"$top": 15, "$select": "subject,from,receivedDateTime,bodyPreview"}
    if a.get("search"):
        params["$search"] = f'"{a["search"]}"'
    data = await api.get("me/messages", params=params)
    return dumps(pick((data or {}).get("value"), "subject", "from", "receivedDateTime",
                       "bodyPreview"))


async def _outlook_events(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("me/calendarView", params={
        "startDateTime": a["start"], "endDateTime": a["end"],
        "$select": "subject,start,end,location,attendees,organizer"})
    return dumps(pick((data or {}).get("value"), "subject", "start", "end", "location",
                       "organizer"))


async def _outlook_send(api: HttpApi, a: dict[str, Any]) -> str:
    to = [{"emailAddress": {"address": x.strip()}} for x in str(a["to"]).split(",") if x.strip()]
    await api.post("me/sendMail", json_body={
        "message": {"subject": a["subject"], "body": {"contentType": "Text", "content": a["body"]},
                    "toRecipients": to}, "saveToSentItems": True})
    return f"Sent to {a['to']}."


SPEC = ConnectorSpec(
    id="outlook", name="Outlook", category="Mail",
    description="Outlook mail and calendar through Microsoft Graph.",
    fields=oauth_fields("Microsoft", "the Microsoft Entra admin center → App registrations "
                        "(a public client with the redirect http://localhost)"),
    extra={"oauth": MICROSOFT_OAUTH},
    client=_graph, validate=_graph_validate, api_url="https://graph.microsoft.com/v1.0",
    tools=(
        ToolDef("outlook_list_mail", "List recent mail, optionally matching a search.",
                obj({"search": s("words to search for")}), _outlook_mail),
        ToolDef("outlook_list_events", "List calendar events between two times (ISO 8601).",
                obj({"start": s("start"), "end": s("end")}, ("start", "end")), _outlook_events),
        ToolDef("outlook_send_mail", "Send an e-mail.", MAIL_SEND_PARAMS, _outlook_send,
                action=True, target_arg="to"),
    ),
)
