"""The Microsoft Teams connector (Chat): Reads your teams, their channels and chats; posts a
message in a channel or chat."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    n,
    obj,
    s,
)
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import path_segment as _seg
from openworker_qt.connectors.oauth import OAuth, access_token
from openworker_qt.connectors.services.common import MICROSOFT_OAUTH, html_text, oauth_fields, pick

#: Microsoft's sign-in (a public client with PKCE), with Teams' permissions.
TEAMS_OAUTH = OAuth(MICROSOFT_OAUTH.service, MICROSOFT_OAUTH.authorize_url,
                    MICROSOFT_OAUTH.token_url,
                    ("offline_access", "User.Read", "Team.ReadBasic.All",
                     "Channel.ReadBasic.All", "ChannelMessage.Read.All", "ChannelMessage.Send",
                     "Chat.ReadWrite"))


def _teams(values: Credentials, policy: RetryPolicy) -> HttpApi:
    token = access_token(TEAMS_OAUTH, values)  # blocking: built in a worker
    return _bearer("Microsoft Teams", {**values, "token": token},
                   "https://graph.microsoft.com/v1.0", policy)


async def _teams_validate(api: HttpApi) -> Identity:
    me = await api.get("me", params={"$select": "displayName,userPrincipalName"})
    return Identity(str(me.get("displayName") or me.get("userPrincipalName")), "Microsoft Teams")


async def _teams_list(api: HttpApi, a: dict[str, Any]) -> str:
    teams = (await api.get("me/joinedTeams")).get("value") or []
    out = []
    for team in teams[:20]:
        chans = (await api.get(f"teams/{_seg(team.get('id'))}/channels",
                               params={"$select": "id,displayName"})).get("value") or []
        out.append({"team": team.get("displayName"), "id": team.get("id"),
                    "channels": pick(chans, "id", "displayName")})
    return dumps(out)


def _where(a: dict[str, Any]) -> str:
    if a.get("chat"):
        return f"chats/{_seg(a['chat'])}/messages"
    if a.get("team") and a.get("channel"):
        return f"teams/{_seg(a['team'])}/channels/{_seg(a['channel'])}/messages"
    raise ConnectorError("request", "Name a chat, or a team and one of its channels.")


async def _teams_read(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(_where(a), params={"$top": int(a.get("limit") or 20)})
    return dumps([{"id": m.get("id"), "when": m.get("createdDateTime"),
                   "from": ((m.get("from") or {}).get("user") or {}).get("displayName"),
                   "text": html_text((m.get("body") or {}).get("content"))}
                  for m in (data or {}).get("value") or [] if m.get("messageType") in
                  (None, "message")])


async def _teams_post(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post(_where(a), json_body={"body": {"contentType": "text",
                                                         "content": a["text"]}})
    return f"Posted in {a.get('channel') or a.get('chat')}: {made.get('webUrl', '')}".strip()


SPEC = ConnectorSpec(
    id="teams", name="Microsoft Teams", category="Chat",
    description="Reads your teams, their channels and chats; posts a message in a channel or "
                "chat.",
    fields=oauth_fields("Microsoft", "the Microsoft Entra admin center → App registrations "
                        "(a public client with the redirect http://localhost)"),
    extra={"oauth": TEAMS_OAUTH},
    client=_teams, validate=_teams_validate, api_url="https://graph.microsoft.com/v1.0",
    tools=(
        ToolDef("teams_list", "List the teams you are in and their channels.", obj({}),
                _teams_list),
        ToolDef("teams_read", "Read the recent messages of a channel (team and channel) or "
                "of a chat.", obj({"team": s("team id"), "channel": s("channel id"),
                                   "chat": s("chat id (instead of team and channel)"),
                                   "limit": n("how many (max 50)")}), _teams_read),
        ToolDef("teams_post", "Post a message in a channel (team and channel).",
                obj({"team": s("team id"), "channel": s("channel id"),
                     "text": s("the message")}, ("team", "channel", "text")),
                _teams_post, action=True, target_arg="channel"),
        ToolDef("teams_send_chat", "Send a message in a chat.",
                obj({"chat": s("chat id"), "text": s("the message")}, ("chat", "text")),
                _teams_post, action=True, target_arg="chat"),
    ),
)
