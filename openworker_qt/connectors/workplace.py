"""More of the everyday set: Asana, monday.com, HubSpot, PagerDuty, Datadog,
Zendesk, Discord and Telegram, on their documented HTTP APIs (see
:mod:`.services` for why httpx2 rather than vendor SDKs).

Each: a validation call naming who the key belongs to, a read tool (READ) and
an action tool (EXTERNAL, asked for) naming its exact target (the task, the
item, the contact, the incident, the monitor, the ticket, the channel, the chat).
"""

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
    bearer_api,
    dumps,
    n,
    obj,
    path_segment,
    refused,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services import GraphQLApi, pick

# ------------------------------------------------------------------------- Asana


def _asana(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return bearer_api("Asana", values, "https://app.asana.com/api/1.0", policy)


async def _asana_validate(api: HttpApi) -> Identity:
    me = (await api.get("users/me"))["data"]
    spaces = me.get("workspaces") or [{}]
    return Identity(str(me.get("name") or me.get("email")), str(spaces[0].get("name", "")))


async def _asana_tasks(api: HttpApi, a: dict[str, Any]) -> str:
    workspace = a.get("workspace")
    if not workspace:
        spaces = (await api.get("users/me"))["data"].get("workspaces") or []
        if not spaces:
            raise ConnectorError("request", "This Asana account has no workspace.")
        workspace = spaces[0]["gid"]
    data = await api.get("tasks", params={
        "assignee": "me", "workspace": workspace, "completed_since": "now",
        "opt_fields": "name,due_on,permalink_url", "limit": 50})
    return dumps(pick(data.get("data"), "gid", "name", "due_on", "permalink_url"))


async def _asana_comment(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post(f"tasks/{path_segment(a['task'])}/stories", json_body={"data": {"text": a["text"]}})
    return f"Commented on task {a['task']}."


ASANA = ConnectorSpec(
    id="asana", name="Asana", category="Projects",
    description="Your open tasks; comments on tasks.",
    fields=(_token("Personal access token", "Asana → Settings → Apps → Developer apps → "
                   "Personal access tokens."),),
    client=_asana, validate=_asana_validate, api_url="https://app.asana.com/api/1.0",
    tools=(
        ToolDef("asana_my_tasks", "List my incomplete tasks.",
                obj({"workspace": s("workspace gid (default: the first)")}), _asana_tasks),
        ToolDef("asana_comment", "Comment on a task.",
                obj({"task": s("task gid"), "text": s("the comment")}, ("task", "text")),
                _asana_comment, action=True, target_arg="task"),
    ),
)

# -------------------------------------------------------------------- monday.com


class _Monday(GraphQLApi):
    path = ""


def _monday(values: Credentials, policy: RetryPolicy) -> GraphQLApi:
    return _Monday("monday.com", _url(values, "https://api.monday.com/v2"), policy=policy,
                   headers={"Authorization": values.get("token", ""), "API-Version": "2024-10"})


async def _monday_validate(api: GraphQLApi) -> Identity:
    data = await api.gql("query { me { name account { name } } }")
    me = data.get("me") or {}
    return Identity(str(me.get("name")), str((me.get("account") or {}).get("name", "")))


async def _monday_items(api: GraphQLApi, a: dict[str, Any]) -> str:
    data = await api.gql("query($b: [ID!]) { boards(ids: $b) { name items_page(limit: 50) "
                         "{ items { id name state } } } }", {"b": [str(a["board"])]})
    return dumps(data.get("boards"))


async def _monday_update(api: GraphQLApi, a: dict[str, Any]) -> str:
    await api.gql("mutation($i: ID!, $t: String!) { create_update(item_id: $i, body: $t) "
                  "{ id } }", {"i": str(a["item"]), "t": a["text"]}, read=False)
    return f"Update posted on item {a['item']}."


MONDAY = ConnectorSpec(
    id="monday", name="monday.com", category="Projects",
    description="Items on your boards; updates on items.",
    fields=(_token("API token", "monday.com → your avatar → Developers → My access tokens."),),
    client=_monday, validate=_monday_validate, api_url="https://api.monday.com/v2",
    tools=(
        ToolDef("monday_board_items", "List a board's items.",
                obj({"board": s("board id")}, ("board",)), _monday_items),
        ToolDef("monday_update", "Post an update on an item.",
                obj({"item": s("item id"), "text": s("the update")}, ("item", "text")),
                _monday_update, action=True, target_arg="item"),
    ),
)

# ----------------------------------------------------------------------- HubSpot


def _hubspot(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return bearer_api("HubSpot", values, "https://api.hubapi.com", policy)


async def _hubspot_validate(api: HttpApi) -> Identity:
    info = await api.get("account-info/v3/details")
    return Identity(f"account {info.get('portalId')}", "HubSpot")


async def _hubspot_contacts(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.request("POST", "crm/v3/objects/contacts/search", idempotent=True, json_body={
        "query": a.get("query", ""), "limit": 20,
        "properties": ["firstname", "lastname", "email", "company"]})
    return dumps([{"id": r.get("id"), **(r.get("properties") or {})}
                  for r in data.get("results") or []])


async def _hubspot_note(api: HttpApi, a: dict[str, Any]) -> str:
    import time

    made = await api.post("crm/v3/objects/notes", json_body={
        "properties": {"hs_note_body": a["text"], "hs_timestamp": int(time.time() * 1000)},
        "associations": [{"to": {"id": str(a["contact"])}, "types": [
            {"associationCategory": "HUBSPOT_DEFINED", "associationTypeId": 202}]}]})
    return f"Note {made.get('id', '')} added to contact {a['contact']}."


HUBSPOT = ConnectorSpec(
    id="hubspot", name="HubSpot", category="Sales",
    description="Search contacts; add notes to them.",
    fields=(_token("Private app token", "HubSpot → Settings → Integrations → Private apps "
                   "(scopes crm.objects.contacts.read and .write)."),),
    client=_hubspot, validate=_hubspot_validate, api_url="https://api.hubapi.com",
    tools=(
        ToolDef("hubspot_search_contacts", "Search contacts by name, e-mail or company.",
                obj({"query": s("words to find")}), _hubspot_contacts),
        ToolDef("hubspot_add_note", "Add a note to a contact.",
                obj({"contact": s("contact id"), "text": s("the note")}, ("contact", "text")),
                _hubspot_note, action=True, target_arg="contact"),
    ),
)

# --------------------------------------------------------------------- PagerDuty


def _pagerduty(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return HttpApi("PagerDuty", _url(values, "https://api.pagerduty.com"), policy=policy,
                   headers={"Authorization": f"Token token={values.get('token', '')}",
                            "Accept": "application/vnd.pagerduty+json;version=2",
                            "From": values.get("email", "")})


async def _pagerduty_validate(api: HttpApi) -> Identity:
    me = (await api.get("users/me")).get("user") or {}
    return Identity(str(me.get("name") or me.get("email")), "PagerDuty")


async def _pagerduty_incidents(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("incidents", params={"statuses[]": ["triggered", "acknowledged"],
                                              "limit": 25})
    return dumps(pick(data.get("incidents"), "id", "title", "status", "urgency", "created_at",
                       "html_url"))


async def _pagerduty_ack(api: HttpApi, a: dict[str, Any]) -> str:
    await api.request("PUT", f"incidents/{path_segment(a['incident'])}", idempotent=False,
                      json_body={"incident": {"type": "incident_reference",
                                              "status": "acknowledged"}})
    return f"Incident {a['incident']} acknowledged."


PAGERDUTY = ConnectorSpec(
    id="pagerduty", name="PagerDuty", category="Operations",
    description="Open incidents; acknowledge one.",
    fields=(_token("User API token", "PagerDuty → My Profile → User Settings → Create API "
                   "User Token."),
            Field("email", "Your PagerDuty e-mail", "Sent as the From of what you change.",
                  secret=False)),
    client=_pagerduty, validate=_pagerduty_validate, api_url="https://api.pagerduty.com",
    tools=(
        ToolDef("pagerduty_incidents", "List triggered and acknowledged incidents.", obj({}),
                _pagerduty_incidents),
        ToolDef("pagerduty_acknowledge", "Acknowledge an incident.",
                obj({"incident": s("incident id")}, ("incident",)), _pagerduty_ack,
                action=True, target_arg="incident"),
    ),
)

# ----------------------------------------------------------------------- Datadog


def _datadog(values: Credentials, policy: RetryPolicy) -> HttpApi:
    site = values.get("site") or "datadoghq.com"
    return HttpApi("Datadog", _url(values, f"https://api.{site}"), policy=policy,
                   headers={"DD-API-KEY": values.get("token", ""),
                            "DD-APPLICATION-KEY": values.get("app_key", "")})


async def _datadog_validate(api: HttpApi) -> Identity:
    me = ((await api.get("api/v2/current_user")).get("data") or {}).get("attributes") or {}
    return Identity(str(me.get("name") or me.get("email")), "Datadog")


async def _datadog_monitors(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("api/v1/monitor", params={"group_states": "alert,warn"})
    return dumps(pick(data, "id", "name", "overall_state", "type", "query"))


async def _datadog_mute(api: HttpApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {}
    if a.get("end"):
        body["end"] = int(a["end"])
    await api.post(f"api/v1/monitor/{int(a['monitor'])}/mute", json_body=body)
    return f"Monitor {a['monitor']} muted."


DATADOG = ConnectorSpec(
    id="datadog", name="Datadog", category="Operations",
    description="Monitors in alert; mute a monitor.",
    fields=(_token("API key", "Datadog → Organization Settings → API Keys."),
            Field("app_key", "Application key", "Organization Settings → Application Keys."),
            Field("site", "Site", "datadoghq.com, datadoghq.eu, us3.datadoghq.com, …",
                  secret=False, required=False, placeholder="datadoghq.com")),
    client=_datadog, validate=_datadog_validate, api_url="https://api.datadoghq.com",
    tools=(
        ToolDef("datadog_alerting_monitors", "List monitors in alert or warning.", obj({}),
                _datadog_monitors),
        ToolDef("datadog_mute_monitor", "Mute a monitor (until a time, or until unmuted).",
                obj({"monitor": n("monitor id"), "end": n("POSIX time to unmute at")},
                    ("monitor",)), _datadog_mute, action=True, target_arg="monitor"),
    ),
)

# ----------------------------------------------------------------------- Zendesk


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


ZENDESK = ConnectorSpec(
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

# ----------------------------------------------------------------------- Discord


def _discord(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return HttpApi("Discord", _url(values, "https://discord.com/api/v10"), policy=policy,
                   headers={"Authorization": f"Bot {values.get('token', '')}"})


async def _discord_validate(api: HttpApi) -> Identity:
    me = await api.get("users/@me")
    return Identity(f"@{me.get('username')}", "Discord")


async def _discord_read(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"channels/{path_segment(a['channel'])}/messages",
                         params={"limit": int(a.get("limit") or 30)})
    return dumps([{"id": m.get("id"), "author": (m.get("author") or {}).get("username"),
                   "content": m.get("content"), "timestamp": m.get("timestamp")}
                  for m in data or []])


async def _discord_send(api: HttpApi, a: dict[str, Any]) -> str:
    sent = await api.post(f"channels/{path_segment(a['channel'])}/messages",
                          json_body={"content": a["content"]})
    return f"Sent to channel {a['channel']} (message {sent.get('id', '')})."


DISCORD = ConnectorSpec(
    id="discord", name="Discord", category="Chat",
    description="Read and post in channels your bot is in.",
    fields=(_token("Bot token", "Discord Developer Portal → your application → Bot → Reset "
                   "Token; invite the bot to your server."),),
    client=_discord, validate=_discord_validate, api_url="https://discord.com/api/v10",
    tools=(
        ToolDef("discord_read_channel", "Read a channel's recent messages.",
                obj({"channel": s("channel id"), "limit": n("how many (max 100)")},
                    ("channel",)), _discord_read),
        ToolDef("discord_send", "Post a message in a channel.",
                obj({"channel": s("channel id"), "content": s("the message")},
                    ("channel", "content")), _discord_send, action=True, target_arg="channel"),
    ),
)

# ---------------------------------------------------------------------- Telegram


class _TelegramApi(HttpApi):
    async def call(self, method: str, *, read: bool = True, **params: Any) -> Any:
        data = await self.request("POST", method, json_body=params, idempotent=read)
        if not isinstance(data, dict) or not data.get("ok"):
            raise ConnectorError("request", "{service}: {detail}", service="Telegram",
                                 detail=(data or {}).get("description", "error"))
        return data.get("result")


def _telegram(values: Credentials, policy: RetryPolicy) -> _TelegramApi:
    base = _url(values, "https://api.telegram.org").rstrip("/")
    return _TelegramApi("Telegram", f"{base}/bot{values.get('token', '')}", policy=policy)


async def _telegram_validate(api: _TelegramApi) -> Identity:
    me = await api.call("getMe")
    return Identity(f"@{me.get('username')}", "Telegram")


async def _telegram_updates(api: _TelegramApi, a: dict[str, Any]) -> str:
    updates = await api.call("getUpdates", limit=50, timeout=0)
    out = []
    for u in updates or []:
        msg = u.get("message") or u.get("channel_post") or {}
        out.append({"chat": (msg.get("chat") or {}).get("id"),
                    "from": (msg.get("from") or {}).get("username"), "text": msg.get("text")})
    return dumps(out)


async def _telegram_send(api: _TelegramApi, a: dict[str, Any]) -> str:
    sent = await api.call("sendMessage", read=False, chat_id=a["chat"], text=a["text"])
    return f"Sent to chat {a['chat']} (message {sent.get('message_id', '')})."


TELEGRAM = ConnectorSpec(
    id="telegram", name="Telegram", category="Chat",
    description="Messages sent to your bot; messages from it.",
    fields=(_token("Bot token", "From @BotFather: /newbot, then copy the token."),),
    client=_telegram, validate=_telegram_validate, api_url="https://api.telegram.org",
    tools=(
        ToolDef("telegram_updates", "Read the messages recently sent to the bot.", obj({}),
                _telegram_updates),
        ToolDef("telegram_send", "Send a message to a chat.",
                obj({"chat": s("chat id or @channelusername"), "text": s("the message")},
                    ("chat", "text")), _telegram_send, action=True, target_arg="chat"),
    ),
)

SPECS = [ASANA, MONDAY, HUBSPOT, PAGERDUTY, DATADOG, ZENDESK, DISCORD, TELEGRAM]
