"""Slack on slack-sdk: the connector's descriptor and its tools.

Threads and channels are named by *target* strings, ``slack:<channel>`` or
``slack:<channel>:<thread_ts>``: the same string is the argument the send tools
take, the key a standing rule binds to, and (for a thread a session owns, see
:mod:`.slack_listener`) the key that finds the session again after a restart.

Tools: read a channel, read a thread, search (needs a user token: Slack lets
only users search), send a message, send a file and react. Sending a file is a
tool of its own with its own approval: a rule allowing ``slack_send_message``
to a thread never lets a file go there.

Rate limits: a 429 is waited out per its ``Retry-After`` (up to the policy's
limit); a server error is retried for reads only, so a message is posted at
most once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    n,
    not_data,
    obj,
    s,
)

AUTH_ERRORS = frozenset({"invalid_auth", "not_authed", "token_expired", "token_revoked",
                         "account_inactive", "missing_scope"})
READ_METHODS = frozenset({"auth.test", "apps.connections.open", "conversations.history", "conversations.replies",
                          "search.messages", "users.info", "conversations.info"})
DEFAULT_API = "https://slack.com/api/"


def parse_target(target: str, *, need_ts: bool = False) -> tuple[str, str | None]:
    """``slack:<channel>[:<ts>]`` → (channel, ts); a clear error otherwise."""
    parts = str(target or "").split(":")
    if len(parts) not in (2, 3) or parts[0] != "slack" or not parts[1]:
        raise ConnectorError("request", "{target} is not a Slack target: use "
                             "slack:<channel id> or slack:<channel id>:<thread ts>.",
                             target=repr(target))
    ts = parts[2] if len(parts) == 3 and parts[2] else None
    if need_ts and ts is None:
        raise ConnectorError("request", "{target} names no message: use "
                             "slack:<channel id>:<message ts>.", target=repr(target))
    return parts[1], ts


def thread_target(channel: str, thread_ts: str) -> str:
    return f"slack:{channel}:{thread_ts}"


class SlackApi:
    """A slack-sdk AsyncWebClient with the connectors' rules for errors and limits."""

    def __init__(self, values: Credentials, policy: RetryPolicy, *, token_key: str = "bot_token"
                 ) -> None:
        from slack_sdk.web.async_client import AsyncWebClient

        self.values = values
        self.policy = policy
        self.base_url = (values.get("api_url") or DEFAULT_API).rstrip("/") + "/"
        self.client = AsyncWebClient(token=values.get(token_key) or None,
                                     base_url=self.base_url, retry_handlers=[])

    def with_token(self, key: str) -> SlackApi:
        if not self.values.get(key):
            raise ConnectorError("config", "Slack has no {token}: add it in "
                                 "Settings → Connectors → Slack (searching needs a user token, "
                                 "xoxp-…).", token=key.replace("_", " "))
        return SlackApi(self.values, self.policy, token_key=key)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        from slack_sdk.errors import SlackApiError

        from openworker_qt.connectors.base import retry_after

        policy = self.policy
        for attempt in range(1, policy.attempts + 1):
            last = attempt == policy.attempts
            try:
                response = await self.client.api_call(method, json=params)
                return dict(response.data) if isinstance(response.data, dict) else {}
            except SlackApiError as exc:
                answer = exc.response
                if not hasattr(answer, "data"):  # the SDK could not read the body as JSON
                    raise not_data("Slack", page=_is_page(answer),
                                   status=getattr(answer, "status", None)) from exc
                status = int(getattr(answer, "status_code", 0) or 0)
                data = answer.data if isinstance(answer.data, dict) else {}
                error = str(data.get("error", "")) if data else ""
                if status < 300 and not error:  # a success that is not Slack's data
                    raise not_data("Slack", page=_is_page(answer), status=status) from exc
                if status == 429 or error == "ratelimited":
                    wait = retry_after(exc.response.headers.get("Retry-After"))
                    wait = policy.backoff * 2 ** (attempt - 1) if wait is None else wait
                    if wait > policy.max_wait or last:
                        raise ConnectorError(
                            "rate_limited", "{service} is rate limiting requests; it asks to "
                            "wait {seconds} s. Try again later.", status=429, service="Slack",
                            seconds=f"{wait:.0f}") from exc
                    await policy.sleep(wait)
                    continue
                if status >= 500:
                    if method in READ_METHODS and not last:
                        await policy.sleep(policy.backoff * 2 ** (attempt - 1))
                        continue
                    raise ConnectorError("server", "{service} had a problem on its side (HTTP "
                                         "{code}). Try again later.", status=status,
                                         service="Slack", code=status) from exc
                if error in AUTH_ERRORS:
                    raise ConnectorError("auth", "{service} refused the token ({error}). "
                                         "Reconnect {service} in Settings → Connectors.",
                                         status=status, service="Slack", error=error) from exc
                raise ConnectorError("request", "{service} refused the request: {error}.",
                                     status=status, service="Slack", error=error or status) from exc
            except (TimeoutError, OSError) as exc:
                raise ConnectorError("network", "{service} could not be reached.",
                                     service="Slack") from exc
        raise AssertionError("unreachable")  # pragma: no cover


def _is_page(answer: Any) -> bool:
    """An answer of the SDK's (a response, or what it read) that is a web page."""
    headers = getattr(answer, "headers", None) or {}
    ctype = str(getattr(answer, "content_type", "") or headers.get("content-type", "")
                or headers.get("Content-Type", ""))
    data = getattr(answer, "data", None)
    return "html" in ctype.lower() or (isinstance(data, (str, bytes))
                                       and str(data[:20]).lower().lstrip().startswith("<"))


def _client(values: Credentials, policy: RetryPolicy) -> SlackApi:
    return SlackApi(values, policy)


async def _validate(api: SlackApi) -> Identity:
    me = await api.call("auth.test")
    if api.values.get("app_token"):  # the listener's token: checked too
        await api.with_token("app_token").call("apps.connections.open")
    return Identity(f"@{me.get('user')}", str(me.get("team", "")))


def _messages(data: dict[str, Any]) -> str:
    keep = ("user", "text", "ts", "thread_ts", "reply_count")
    return dumps([{k: m[k] for k in keep if k in m} for m in data.get("messages") or []])


async def _read_channel(api: SlackApi, a: dict[str, Any]) -> str:
    channel = str(a["channel"]).removeprefix("slack:")
    return _messages(await api.call("conversations.history", channel=channel,
                                    limit=int(a.get("limit") or 30)))


async def _read_thread(api: SlackApi, a: dict[str, Any]) -> str:
    channel, ts = parse_target(a["target"], need_ts=True)
    return _messages(await api.call("conversations.replies", channel=channel, ts=ts, limit=100))


async def _search(api: SlackApi, a: dict[str, Any]) -> str:
    data = await api.with_token("user_token").call("search.messages", query=a["query"], count=20)
    matches = (data.get("messages") or {}).get("matches") or []
    return dumps([{"channel": (m.get("channel") or {}).get("id"), "user": m.get("user"),
                   "text": m.get("text"), "ts": m.get("ts"), "permalink": m.get("permalink")}
                  for m in matches])


async def _send(api: SlackApi, a: dict[str, Any]) -> str:
    channel, ts = parse_target(a["target"])
    params: dict[str, Any] = {"channel": channel, "text": a["text"]}
    if ts:
        params["thread_ts"] = ts
    sent = await api.call("chat.postMessage", **params)
    return f"Posted to {a['target']} (ts {sent.get('ts', '')})."


def _read_inside(folder: str, name: str) -> tuple[Path, bytes]:
    """The bytes of ``name`` in ``folder`` (only there: never a file elsewhere)."""
    workspace = Path(folder).resolve()
    path = (workspace / name).expanduser().resolve()
    if not path.is_relative_to(workspace):
        raise ConnectorError("request", "Only files in the session's folder ({folder}) "
                             "can be sent to Slack.", folder=workspace)
    try:
        return path, path.read_bytes()
    except OSError as exc:
        raise ConnectorError("request", "Cannot read {name}: {problem}.", name=name,
                             problem=exc.strerror) from exc


async def _send_file(api: SlackApi, a: dict[str, Any]) -> str:
    channel, ts = parse_target(a["target"])
    path, data = await asyncio.to_thread(_read_inside, str(a.get("_workspace") or "."),
                                         str(a["path"]))
    from slack_sdk.errors import SlackApiError

    try:
        await api.client.files_upload_v2(
            channel=channel, thread_ts=ts, content=data, filename=path.name,
            title=a.get("title") or path.name)
    except SlackApiError as exc:
        error = exc.response.data.get("error") if isinstance(exc.response.data, dict) else ""
        raise ConnectorError("request", "Slack refused the file: {error}.",
                             error=error or "error") from exc
    return f"Sent {path.name} to {a['target']}."


async def _react(api: SlackApi, a: dict[str, Any]) -> str:
    channel, ts = parse_target(a["target"], need_ts=True)
    await api.call("reactions.add", channel=channel, timestamp=ts,
                   name=str(a["emoji"]).strip(":"))
    return f"Reacted :{str(a['emoji']).strip(':')}: to {a['target']}."


TARGET = s("slack:<channel id> or slack:<channel id>:<thread ts>")

SPEC = ConnectorSpec(
    id="slack", name="Slack", category="Chat",
    description="Read and post in channels and threads; an @mention in a thread starts a "
    "session that answers there.",
    fields=(
        Field("bot_token", "Bot token", "xoxb-… from your Slack app → OAuth & Permissions "
              "(scopes: app_mentions:read, channels:history, chat:write, files:write, "
              "reactions:write)."),
        Field("app_token", "App-level token", "xapp-… from Basic Information → App-Level Tokens "
              "(scope connections:write), with Socket Mode turned on. Without it the app can "
              "post but does not hear mentions.", required=False),
        Field("user_token", "User token (for search)", "xoxp-… with search:read; only needed "
              "to search messages.", required=False),
        Field("allowed_users", "Allowed members", "Slack member IDs (comma-separated, e.g. "
              "U024BE7LH) who may start sessions by mentioning the app and answer its approvals "
              "from Slack. Nobody else can.", secret=False, placeholder="U024BE7LH"),
    ),
    client=_client, validate=_validate, api_url=DEFAULT_API,
    extra={"after_connect": "Mentions in Slack are heard from the next start of OpenWorker."},
    tools=(
        ToolDef("slack_read_channel", "Read a channel's recent messages.",
                obj({"channel": s("channel id, e.g. C0123"), "limit": n("how many (max 100)")},
                    ("channel",)), _read_channel),
        ToolDef("slack_read_thread", "Read a thread's messages.",
                obj({"target": s("slack:<channel id>:<thread ts>")}, ("target",)), _read_thread),
        ToolDef("slack_search", "Search messages (Slack search syntax).",
                obj({"query": s("search words, in:#channel, from:@name")}, ("query",)), _search),
        ToolDef("slack_send_message", "Post a message to a channel or a thread.",
                obj({"target": TARGET, "text": s("the message (Slack mrkdwn)")},
                    ("target", "text")), _send, action=True, target_arg="target"),
        ToolDef("slack_send_file", "Upload a file to a channel or thread (asked for on its "
                "own: a permission to post messages does not cover files).",
                obj({"target": TARGET, "path": s("the file's path"), "title": s("a title")},
                    ("target", "path")), _send_file, action=True, target_arg="target"),
        ToolDef("slack_react", "Add an emoji reaction to a message.",
                obj({"target": s("slack:<channel id>:<message ts>"),
                     "emoji": s("emoji name, e.g. eyes")}, ("target", "emoji")),
                _react, action=True, target_arg="target"),
    ),
)
