"""The Telegram connector (Chat): Messages sent to your bot; messages from it."""

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
    obj,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import token_field as _token


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


SPEC = ConnectorSpec(
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
