"""The PagerDuty connector (Operations): Open incidents; acknowledge one."""

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
    obj,
    path_segment,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


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


SPEC = ConnectorSpec(
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
