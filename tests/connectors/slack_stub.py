"""A local Slack: the Web API over HTTP and Socket Mode over a websocket, on 127.0.0.1.

It speaks what slack-sdk speaks to slack.com: ``POST /api/<method>`` with a
bearer token (JSON or form bodies), answering ``{"ok": ...}`` JSON, and
``apps.connections.open`` handing out a ``ws://127.0.0.1`` URL where the Socket
Mode protocol runs: ``hello`` on connect, envelopes (``events_api``,
``interactive``) the client must acknowledge with ``{"envelope_id": ...}``,
``disconnect`` messages, and unacknowledged envelopes delivered again on the
next connection (as Slack does).

Tests drive it: :meth:`SlackStub.mention`, :meth:`SlackStub.click`,
:meth:`SlackStub.drop` (close the socket from the server side),
:meth:`SlackStub.ask_to_reconnect`, and :attr:`SlackStub.fail` queues answers
(a 429 with ``Retry-After``, a 500) for a method's next calls.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web


@dataclass
class Call:
    method: str
    token: str
    args: dict[str, Any]


@dataclass
class Posted:
    channel: str
    text: str
    ts: str
    thread_ts: str | None = None
    blocks: list[dict[str, Any]] = field(default_factory=list)


class SlackStub:
    def __init__(self, *, bot_token: str = "xoxb-test-bot-token", app_token: str = "xapp-test-app-token",
                 user_token: str = "xoxp-test-user-token") -> None:
        self.tokens = {bot_token: "bot", app_token: "app", user_token: "user"}
        self.calls: list[Call] = []
        self.posted: list[Posted] = []
        self.updated: list[dict[str, Any]] = []
        self.ephemeral: list[dict[str, Any]] = []
        self.reactions: list[dict[str, Any]] = []
        self.uploads: list[bytes] = []
        self.fail: dict[str, list[tuple[int, dict[str, Any], dict[str, str]]]] = {}
        self.acks: list[str] = []
        self.connections = 0
        self.url = ""
        self._ts = itertools.count(1)
        self._env = itertools.count(1)
        self._unacked: dict[str, dict[str, Any]] = {}
        self._ws: web.WebSocketResponse | None = None
        self._connected = asyncio.Event()
        self._acked = asyncio.Condition()
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ server

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_post("/upload/{file}", self._upload)
        app.router.add_get("/link", self._socket)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"{self.url}/api/"

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    # ----------------------------------------------------------------- web API

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if request.content_type == "application/json":
            args = await request.json()
        else:
            args = dict(await request.post())
        if "token" in args and not token:
            token = str(args.pop("token"))
        self.calls.append(Call(method, token, dict(args)))
        queued = self.fail.get(method)
        if queued:
            status, body, headers = queued.pop(0)
            return web.json_response(body, status=status, headers=headers)
        kind = self.tokens.get(token)
        if kind is None:
            return web.json_response({"ok": False, "error": "invalid_auth"})
        if method == "apps.connections.open":
            if kind != "app":
                return web.json_response({"ok": False, "error": "not_allowed_token_type"})
            return web.json_response({"ok": True, "url": f"ws://127.0.0.1:{self.url.rsplit(':', 1)[1]}/link"})
        if method == "search.messages" and kind != "user":
            return web.json_response({"ok": False, "error": "not_allowed_token_type"})
        handler = getattr(self, "_m_" + method.replace(".", "_"), None)
        if handler is None:
            return web.json_response({"ok": False, "error": "unknown_method"})
        return web.json_response({"ok": True, **handler(args)})

    def _m_auth_test(self, _args: dict[str, Any]) -> dict[str, Any]:
        return {"user": "openworker", "user_id": "UBOT", "team": "Acme", "team_id": "T1"}

    #: Members' and channels' names (users.info, conversations.info); others are unknown.
    names = {"U1": "ana", "U2": "ben", "C0ACME": "sales"}

    def _m_users_info(self, args: dict[str, Any]) -> dict[str, Any]:
        user = str(args.get("user", ""))
        return {"user": {"id": user, "name": user.lower(), "real_name": "",
                         "profile": {"display_name": self.names.get(user, "")}}}

    def _m_conversations_info(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = str(args.get("channel", ""))
        return {"channel": {"id": channel, "name": self.names.get(channel, "")}}

    def _m_chat_postMessage(self, args: dict[str, Any]) -> dict[str, Any]:  # noqa: N802 (Slack's method name)
        ts = f"1700000100.{next(self._ts):06d}"
        blocks = args.get("blocks") or []
        if isinstance(blocks, str):
            blocks = json.loads(blocks)
        self.posted.append(Posted(str(args["channel"]), str(args.get("text", "")), ts,
                                  args.get("thread_ts"), blocks))
        return {"channel": args["channel"], "ts": ts}

    def _m_chat_update(self, args: dict[str, Any]) -> dict[str, Any]:
        self.updated.append(args)
        return {"channel": args["channel"], "ts": args["ts"]}

    def _m_chat_postEphemeral(self, args: dict[str, Any]) -> dict[str, Any]:  # noqa: N802 (Slack's method name)
        self.ephemeral.append(args)
        return {"message_ts": "1700000200.000001"}

    def _m_reactions_add(self, args: dict[str, Any]) -> dict[str, Any]:
        self.reactions.append(args)
        return {}

    def _m_conversations_history(self, args: dict[str, Any]) -> dict[str, Any]:
        found = [p for p in self.posted if p.channel == args["channel"]]
        return {"messages": [{"user": "U1", "text": p.text, "ts": p.ts} for p in found]}

    def _m_conversations_replies(self, args: dict[str, Any]) -> dict[str, Any]:
        found = [p for p in self.posted if p.channel == args["channel"]
                 and (p.thread_ts == args["ts"] or p.ts == args["ts"])]
        return {"messages": [{"user": "U1", "text": p.text, "ts": p.ts} for p in found]}

    def _m_search_messages(self, args: dict[str, Any]) -> dict[str, Any]:
        hits = [p for p in self.posted if str(args["query"]) in p.text]
        return {"messages": {"matches": [{"channel": {"id": p.channel}, "text": p.text,
                                          "ts": p.ts} for p in hits]}}

    def _m_files_getUploadURLExternal(self, args: dict[str, Any]) -> dict[str, Any]:  # noqa: N802 (Slack's method name)
        return {"upload_url": f"{self.url}/upload/F1", "file_id": "F1"}

    def _m_files_completeUploadExternal(self, args: dict[str, Any]) -> dict[str, Any]:  # noqa: N802 (Slack's method name)
        files = args.get("files")
        files = json.loads(files) if isinstance(files, str) else files
        self.posted.append(Posted(str(args.get("channel_id", "")), "(file)", "0",
                                  args.get("thread_ts")))
        return {"files": [{"id": f["id"], "title": f.get("title", "")} for f in files]}

    async def _upload(self, request: web.Request) -> web.Response:
        self.uploads.append(await request.read())
        return web.Response(text="OK - 1", content_type="text/plain")

    # ------------------------------------------------------------- socket mode

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._ws = ws
        self.connections += 1
        await ws.send_json({"type": "hello", "num_connections": 1,
                            "debug_info": {"host": "stub"}, "connection_info": {"app_id": "A1"}})
        for envelope in list(self._unacked.values()):  # delivered again, as Slack does
            await ws.send_json({**envelope, "retry_attempt": 1, "retry_reason": "timeout"})
        self._connected.set()
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                data = json.loads(msg.data)
                envelope_id = data.get("envelope_id")
                if envelope_id:
                    async with self._acked:
                        self.acks.append(envelope_id)
                        self._unacked.pop(envelope_id, None)
                        self._acked.notify_all()
        if self._ws is ws:
            self._ws = None
            self._connected.clear()
        return ws

    @property
    def live(self) -> bool:
        """Whether a Socket Mode client is connected now."""
        return self._ws is not None and not self._ws.closed

    async def connected(self) -> None:
        await asyncio.wait_for(self._connected.wait(), 20)

    async def send(self, envelope: dict[str, Any], *, keep: bool = True) -> str:
        """Send an envelope on the live socket (kept for redelivery until acknowledged)."""
        await self.connected()
        assert self._ws is not None
        if keep:
            self._unacked[envelope["envelope_id"]] = envelope
        await self._ws.send_json(envelope)
        return str(envelope["envelope_id"])

    def event_envelope(self, event: dict[str, Any], *, event_id: str | None = None) -> dict[str, Any]:
        n = next(self._env)
        return {"type": "events_api", "envelope_id": f"env-{n}", "accepts_response_payload": False,
                "payload": {"type": "event_callback", "team_id": "T1", "event": event,
                            "event_id": event_id or f"Ev{n:04d}", "event_time": 1700000000}}

    async def mention(self, channel: str, ts: str, text: str, *, user: str = "U1",
                      thread_ts: str | None = None, event_id: str | None = None) -> str:
        event = {"type": "app_mention", "user": user, "text": f"<@UBOT> {text}",
                 "channel": channel, "ts": ts, "event_ts": ts}
        if thread_ts:
            event["thread_ts"] = thread_ts
        return await self.send(self.event_envelope(event, event_id=event_id))

    async def click(self, user: str, channel: str, action_id: str, value: str) -> str:
        n = next(self._env)
        return await self.send({
            "type": "interactive", "envelope_id": f"env-{n}", "accepts_response_payload": False,
            "payload": {"type": "block_actions", "user": {"id": user}, "channel": {"id": channel},
                        "team": {"id": "T1"}, "trigger_id": f"tr{n}",
                        "actions": [{"action_id": action_id, "value": value, "type": "button",
                                     "block_id": "b"}]}})

    async def pick(self, user: str, channel: str, element: dict[str, Any], block_id: str,
                   values: list[str]) -> str:
        """A change to a menu or check boxes of a card (``element`` as the card has it):
        Slack sends what is selected now."""
        n = next(self._env)
        chosen = [o for o in element["options"] if o["value"] in values]
        action: dict[str, Any] = {"action_id": element["action_id"], "type": element["type"],
                                  "block_id": block_id}
        if element["type"] == "static_select":
            action["selected_option"] = chosen[0]
        else:
            action["selected_options"] = chosen
        return await self.send({
            "type": "interactive", "envelope_id": f"env-{n}", "accepts_response_payload": False,
            "payload": {"type": "block_actions", "user": {"id": user}, "channel": {"id": channel},
                        "team": {"id": "T1"}, "trigger_id": f"tr{n}", "actions": [action]}})

    async def acked(self, envelope_id: str) -> None:
        async with self._acked:
            await asyncio.wait_for(self._acked.wait_for(lambda: envelope_id in self.acks), 20)

    async def drop(self) -> None:
        """Close the socket from the server's side (the client must reconnect)."""
        ws, self._ws = self._ws, None
        self._connected.clear()
        if ws is not None:
            await ws.close()

    async def ask_to_reconnect(self) -> None:
        """Slack's ``disconnect`` message (refresh_requested)."""
        await self.connected()
        assert self._ws is not None
        await self._ws.send_json({"type": "disconnect", "reason": "refresh_requested",
                                  "debug_info": {"host": "stub"}})
