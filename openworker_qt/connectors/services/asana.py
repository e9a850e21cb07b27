"""The Asana connector (Projects): Your open tasks; comments on tasks."""

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
    bearer_api,
    dumps,
    obj,
    path_segment,
    s,
)
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


def _asana(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return bearer_api("Asana", values, "https://app.asana.com/api/1.0", policy)


async def _asana_validate(api: HttpApi) -> Identity:
    me = (await api.get("users/me"))["data"]
    spaces = me.get("workspaces") or [{}]
    return Identity(str(me.get("name") or me.get("email")), str(spaces[0].get("name", "")))


async def _asana_tasks(api: HttpApi, a: dict[str, Any]) -> str:
    workspace = a.get("workspace")
    if not workspace:
        spaces = (await api.get("users/me"))["data"].get("workspaces") or []
        if not spaces:
            raise ConnectorError("request", "This Asana account has no workspace.")
        workspace = spaces[0]["gid"]
    data = await api.get("tasks", params={
        "assignee": "me", "workspace": workspace, "completed_since": "now",
        "opt_fields": "name,due_on,permalink_url", "limit": 50})
    return dumps(pick(data.get("data"), "gid", "name", "due_on", "permalink_url"))


async def _asana_comment(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post(f"tasks/{path_segment(a['task'])}/stories", json_body={"data": {"text": a["text"]}})
    return f"Commented on task {a['task']}."


SPEC = ConnectorSpec(
    id="asana", name="Asana", category="Projects",
    description="Your open tasks; comments on tasks.",
    fields=(_token("Personal access token", "Asana → Settings → Apps → Developer apps → "
                   "Personal access tokens."),),
    client=_asana, validate=_asana_validate, api_url="https://app.asana.com/api/1.0",
    tools=(
        ToolDef("asana_my_tasks", "List my incomplete tasks.",
                obj({"workspace": s("workspace gid (default: the first)")}), _asana_tasks),
        ToolDef("asana_comment", "Comment on a task.",
                obj({"task": s("task gid"), "text": s("the comment")}, ("task", "text")),
                _asana_comment, action=True, target_arg="task"),
    ),
)
