"""The Mixpanel connector (Analytics): Reads how often an event happened, by day or broken down
by a property; adds annotations (release notes) to your charts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    Credentials,
    Field,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import path_segment as _seg
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import OrgApi, address_field, days_ago


def _mixpanel(values: Credentials, policy: RetryPolicy) -> OrgApi:
    import httpx2

    api = OrgApi("Mixpanel", values.get("api_url") or "https://mixpanel.com/api", policy=policy,
                  auth=httpx2.BasicAuth(values.get("username", ""), values.get("token", "")))
    api.scope = values.get("project", "")
    return api


async def _mixpanel_validate(api: OrgApi) -> Identity:
    me = (await api.get("app/me")).get("results") or {}
    return Identity(str(me.get("user_email") or me.get("user_name") or "a service account"),
                    f"Mixpanel project {api.scope}")


async def _mixpanel_counts(api: OrgApi, a: dict[str, Any]) -> str:
    project = str(a.get("project") or api.scope)
    params = {"project_id": project, "event": a["event"], "unit": a.get("unit") or "day",
              "from_date": a.get("from_date") or days_ago(7).isoformat(),
              "to_date": a.get("to_date") or days_ago(0).isoformat()}
    if a.get("by"):
        params["on"] = 'properties["{}"]'.format(str(a["by"]).replace('"', ""))
    data = await api.get("query/segmentation", params=params)
    return dumps({"project": project, "event": a["event"],
                  "counts": ((data or {}).get("data") or {}).get("values")})


async def _mixpanel_annotate(api: OrgApi, a: dict[str, Any]) -> str:
    when = str(a.get("date") or dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S"))
    await api.post(f"app/projects/{_seg(a['project'])}/annotations",
                   json_body={"date": when, "description": a["description"]})
    return f"Annotation added to project {a['project']} at {when}."


SPEC = ConnectorSpec(
    id="mixpanel", name="Mixpanel", category="Analytics",
    description="Reads how often an event happened, by day or broken down by a property; "
                "adds annotations (release notes) to your charts.",
    fields=(Field("username", "Service account username", "Organization Settings → Service "
                  "Accounts → Add (role Analyst, or Admin to annotate).", secret=False),
            _token("Service account secret", "Shown once, when the service account is made."),
            Field("project", "Project ID", "Project Settings → Overview → Project ID.",
                  secret=False),
            address_field("Only for EU or India data residency: https://eu.mixpanel.com/api or "
                     "https://in.mixpanel.com/api.")),
    client=_mixpanel, validate=_mixpanel_validate, api_url="https://mixpanel.com/api",
    tools=(
        ToolDef("mixpanel_event_counts", "How many times an event happened per day (or hour, "
                "week, month), optionally broken down by a property.",
                obj({"event": s("event name"), "from_date": s("YYYY-MM-DD (default: 7 days "
                                                               "ago)"),
                     "to_date": s("YYYY-MM-DD (default: today)"),
                     "unit": s("minute, hour, day, week or month"),
                     "by": s("property to break down by"),
                     "project": s("project id (default: the one in Settings)")}, ("event",)),
                _mixpanel_counts),
        ToolDef("mixpanel_annotate", "Add an annotation to a project's charts (e.g. a release).",
                obj({"project": s("project id"), "description": s("what happened"),
                     "date": s("YYYY-MM-DD HH:MM:SS (default: now)")},
                    ("project", "description")), _mixpanel_annotate,
                action=True, target_arg="project"),
    ),
)
