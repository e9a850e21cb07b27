"""The Amplitude connector (Analytics): Reads how often an event happened (totals or unique
users, per day); adds annotations (releases, campaigns) to your charts."""

from __future__ import annotations

import datetime as dt
import json
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
    obj,
    refused,
    s,
)
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import address_field, days_ago


class _AmplitudeApi(HttpApi):
    key: str = ""


def _amplitude(values: Credentials, policy: RetryPolicy) -> _AmplitudeApi:
    import httpx2

    api = _AmplitudeApi("Amplitude", values.get("api_url") or "https://amplitude.com/api",
                        policy=policy, auth=httpx2.BasicAuth(values.get("api_key", ""),
                                                             values.get("token", "")))
    api.key = values.get("api_key", "")
    return api


async def _amplitude_validate(api: _AmplitudeApi) -> Identity:
    data = await api.get("2/events/list")
    if not isinstance(data, dict) or "data" not in data:
        raise refused("Amplitude")
    return Identity(f"the project with key …{api.key[-4:]}", "Amplitude")


def _ymd(value: Any, default: dt.date) -> str:
    return str(value).replace("-", "") if value else default.strftime("%Y%m%d")


async def _amplitude_counts(api: _AmplitudeApi, a: dict[str, Any]) -> str:
    data = await api.get("2/events/segmentation", params={
        "e": json.dumps({"event_type": a["event"]}), "m": a.get("metric") or "totals",
        "start": _ymd(a.get("start"), days_ago(7)), "end": _ymd(a.get("end"), days_ago(0))})
    found = (data or {}).get("data") or {}
    return dumps({"event": a["event"], "days": found.get("xValues"),
                  "series": found.get("series"), "labels": found.get("seriesLabels")})


async def _amplitude_annotate(api: _AmplitudeApi, a: dict[str, Any]) -> str:
    params = {"app_id": a["project"], "date": a.get("date") or days_ago(0).isoformat(),
              "label": a["label"]}
    if a.get("details"):
        params["details"] = a["details"]
    await api.request("POST", "2/annotations", params=params)
    return f"Annotation “{a['label']}” added to project {a['project']}."


SPEC = ConnectorSpec(
    id="amplitude", name="Amplitude", category="Analytics",
    description="Reads how often an event happened (totals or unique users, per day); adds "
                "annotations (releases, campaigns) to your charts.",
    fields=(Field("api_key", "API key", "Amplitude → Settings → Projects → your project → "
                  "General.", secret=False),
            _token("Secret key", "On the same page, below the API key."),
            address_field("Only for EU data residency: https://analytics.eu.amplitude.com/api.")),
    client=_amplitude, validate=_amplitude_validate, api_url="https://amplitude.com/api",
    tools=(
        ToolDef("amplitude_event_counts", "How many times an event happened (or how many users "
                "did it) per day.",
                obj({"event": s("event type"), "metric": s("totals (default) or uniques"),
                     "start": s("YYYY-MM-DD (default: 7 days ago)"),
                     "end": s("YYYY-MM-DD (default: today)")}, ("event",)), _amplitude_counts),
        ToolDef("amplitude_annotate", "Add an annotation to a project's charts.",
                obj({"project": s("project (app) id"), "label": s("short title"),
                     "details": s("more words"), "date": s("YYYY-MM-DD (default: today)")},
                    ("project", "label")), _amplitude_annotate,
                action=True, target_arg="project"),
    ),
)
