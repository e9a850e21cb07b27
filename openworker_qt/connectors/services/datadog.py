"""The Datadog connector (Operations): Monitors in alert; mute a monitor."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
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
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


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


SPEC = ConnectorSpec(
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
