"""The Discord connector (Chat): Read and post in channels your bot is in."""

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
    n,
    obj,
    path_segment,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import token_field as _token


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


SPEC = ConnectorSpec(
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
