"""The Vercel connector (Operations): Reads your recent deployments and their state; redeploys
a project."""

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
    bearer_headers,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


class _VercelApi(HttpApi):
    team: str = ""

    def scoped(self, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**(params or {}), **({"teamId": self.team} if self.team else {})}


def _vercel(values: Credentials, policy: RetryPolicy) -> _VercelApi:
    api = _VercelApi("Vercel", values.get("api_url") or "https://api.vercel.com", policy=policy,
                     headers=bearer_headers(values))
    api.team = values.get("team", "")
    return api


async def _vercel_validate(api: _VercelApi) -> Identity:
    me = (await api.get("v2/user")).get("user") or {}
    return Identity(f"@{me.get('username')}", api.team or "Vercel")


async def _vercel_deployments(api: _VercelApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"limit": 20}
    if a.get("project"):
        params["app"] = a["project"]
    if a.get("state"):
        params["state"] = str(a["state"]).upper()
    data = await api.get("v6/deployments", params=api.scoped(params))
    return dumps(pick((data or {}).get("deployments"), "uid", "name", "url", "state",
                       "target", "created", "creator"))


async def _vercel_redeploy(api: _VercelApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"name": a["project"], "deploymentId": a["deployment"]}
    if a.get("production"):
        body["target"] = "production"
    made = await api.post("v13/deployments", params=api.scoped(), json_body=body)
    return f"Redeploying {a['project']}: https://{made.get('url', '')} ({made.get('readyState', '')})."


SPEC = ConnectorSpec(
    id="vercel", name="Vercel", category="Operations",
    description="Reads your recent deployments and their state; redeploys a project.",
    fields=(_token("Access token", "Vercel → Account Settings → Tokens."),
            Field("team", "Team ID", "Only for a team's projects: Team Settings → General → "
                  "Team ID.", secret=False, required=False)),
    client=_vercel, validate=_vercel_validate, api_url="https://api.vercel.com",
    tools=(
        ToolDef("vercel_deployments", "List recent deployments (all projects, or one).",
                obj({"project": s("project name"),
                     "state": s("READY, ERROR, BUILDING, QUEUED, CANCELED")}),
                _vercel_deployments),
        ToolDef("vercel_redeploy", "Build and deploy an existing deployment of a project again.",
                obj({"project": s("project name"), "deployment": s("deployment id to rebuild"),
                     "production": {"type": "boolean", "description": "deploy to production"}},
                    ("project", "deployment")), _vercel_redeploy,
                action=True, target_arg="project"),
    ),
)
