"""The Zoom connector (Meetings): Reads your upcoming meetings and their links; schedules a
meeting."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    n,
    obj,
    refused,
    s,
)
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import address_field, pick

# Zoom's access tokens (an hour long), kept in memory per app while they last, so a
# tool call does not sign in again each time. Keyed by a digest of the credentials.
_ZOOM_TOKENS: dict[str, tuple[str, float]] = {}


class _ZoomApi(HttpApi):
    """Zoom's REST API with a Server-to-Server OAuth app: an access token is asked
    for with the app's credentials before the first call (and again, once, when Zoom
    refuses a kept one)."""

    oauth_url = "https://zoom.us/oauth/token"
    account = ""
    credentials: tuple[str, str] = ("", "")

    def _key(self) -> str:
        import hashlib

        raw = "\n".join((self.oauth_url, self.account, *self.credentials))
        return hashlib.sha256(raw.encode()).hexdigest()

    async def request(self, method: str, path: str, **kw: Any) -> Any:
        import time

        kept = _ZOOM_TOKENS.get(self._key())
        fresh = not kept or kept[1] <= time.monotonic()
        access = await self._authorize() if fresh or not kept else kept[0]
        headers = dict(kw.pop("headers", None) or {})
        try:
            return await super().request(
                method, path, headers={**headers, "Authorization": f"Bearer {access}"}, **kw)
        except ConnectorError as exc:
            if exc.kind != "auth" or fresh:
                raise
        _ZOOM_TOKENS.pop(self._key(), None)  # revoked or expired early: sign in once more
        access = await self._authorize()
        return await super().request(
            method, path, headers={**headers, "Authorization": f"Bearer {access}"}, **kw)

    async def _authorize(self) -> str:
        import base64
        import time

        basic = base64.b64encode(":".join(self.credentials).encode()).decode()
        try:
            got = await super().request(
                "POST", self.oauth_url, idempotent=True, absolute=True,
                params={"grant_type": "account_credentials", "account_id": self.account},
                headers={"Authorization": f"Basic {basic}"})
        except ConnectorError as exc:
            if exc.status in (400, 401):  # invalid_client: wrong or revoked credentials
                raise refused("Zoom") from exc
            raise
        access = str((got or {}).get("access_token") or "")
        if not access:
            raise refused("Zoom")
        lasts = float((got or {}).get("expires_in") or 3600)
        _ZOOM_TOKENS[self._key()] = (access, time.monotonic() + max(0.0, lasts - 120))
        return access


def _zoom(values: Credentials, policy: RetryPolicy) -> _ZoomApi:
    api = _ZoomApi("Zoom", values.get("api_url") or "https://api.zoom.us/v2", policy=policy)
    api.oauth_url = values.get("oauth_url") or _ZoomApi.oauth_url
    api.account = values.get("account_id", "")
    api.credentials = (values.get("client_id", ""), values.get("token", ""))
    return api


async def _zoom_validate(api: _ZoomApi) -> Identity:
    me = await api.get("users/me")
    name = " ".join(p for p in (me.get("first_name"), me.get("last_name")) if p)
    return Identity(str(me.get("email") or name), "Zoom")


async def _zoom_meetings(api: _ZoomApi, a: dict[str, Any]) -> str:
    data = await api.get("users/me/meetings", params={"type": a.get("kind") or "upcoming",
                                                      "page_size": 50})
    return dumps(pick((data or {}).get("meetings"), "id", "topic", "start_time", "duration",
                       "timezone", "join_url"))


async def _zoom_create(api: _ZoomApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"topic": a["topic"], "type": 2, "start_time": a["start"],
                            "duration": int(a.get("duration") or 30)}
    if a.get("timezone"):
        body["timezone"] = a["timezone"]
    if a.get("agenda"):
        body["agenda"] = a["agenda"]
    made = await api.post("users/me/meetings", json_body=body)
    return f"Meeting “{a['topic']}” scheduled: {made.get('join_url', made.get('id', ''))}"


SPEC = ConnectorSpec(
    id="zoom", name="Zoom", category="Meetings",
    description="Reads your upcoming meetings and their links; schedules a meeting.",
    fields=(Field("account_id", "Account ID", "Zoom App Marketplace → Develop → Build app → "
                  "Server-to-Server OAuth (scopes meeting:read, meeting:write, user:read); "
                  "its App credentials page shows these three values.", secret=False),
            Field("client_id", "Client ID", "On the same page.", secret=False),
            _token("Client secret", "On the same page."),
            address_field("Only for Zoom for Government: https://api.zoomgov.com/v2."),
            Field("oauth_url", "Sign-in address", "Only for Zoom for Government: "
                  "https://zoomgov.com/oauth/token.", secret=False, required=False)),
    client=_zoom, validate=_zoom_validate, api_url="https://api.zoom.us/v2",
    tools=(
        ToolDef("zoom_meetings", "List your meetings (upcoming by default).",
                obj({"kind": s("upcoming, scheduled, live or previous_meetings")}),
                _zoom_meetings),
        ToolDef("zoom_schedule_meeting", "Schedule a meeting and get its join link.",
                obj({"topic": s("the meeting's title"),
                     "start": s("start time, e.g. 2026-12-02T10:00:00Z"),
                     "duration": n("minutes (default 30)"), "timezone": s("e.g. Europe/Berlin"),
                     "agenda": s("description")}, ("topic", "start")), _zoom_create,
                action=True, target_arg="topic"),
    ),
)
