"""The ClickUp connector (Projects): Reads the tasks in a list; adds tasks and comments on
them."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
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
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token


def _clickup(values: Credentials, policy: RetryPolicy) -> HttpApi:
    # A personal token goes as it is (no "Bearer").
    return HttpApi("ClickUp", _url(values, "https://api.clickup.com/api/v2"), policy=policy,
                   headers={"Authorization": values.get("token", "")})


async def _clickup_validate(api: HttpApi) -> Identity:
    me = (await api.get("user")).get("user") or {}
    return Identity(str(me.get("username") or me.get("email")), "ClickUp")


async def _clickup_tasks(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"list/{_id(a['list'])}/task",
                         params={"include_closed": str(bool(a.get("closed"))).lower()})
    return dumps([{"id": t.get("id"), "name": t.get("name"),
                   "status": (t.get("status") or {}).get("status"), "due_date": t.get("due_date"),
                   "assignees": [u.get("username") for u in t.get("assignees") or []],
                   "url": t.get("url")} for t in data.get("tasks") or []])


async def _clickup_comment(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post(f"task/{_id(a['task'])}/comment",
                   json_body={"comment_text": a["text"], "notify_all": False})
    return f"Commented on task {a['task']}."


async def _clickup_create(api: HttpApi, a: dict[str, Any]) -> str:
    body = {"name": a["name"], **({"description": a["description"]} if a.get("description")
                                  else {})}
    made = await api.post(f"list/{_id(a['list'])}/task", json_body=body)
    return f"Task created in list {a['list']}: {made.get('url', made.get('id', ''))}"


SPEC = ConnectorSpec(
    id="clickup", name="ClickUp", category="Projects",
    description="Reads the tasks in a list; adds tasks and comments on them.",
    fields=(_token("Personal API token", "ClickUp → your avatar → Settings → Apps → "
                   "API Token (starts with pk_)."),),
    client=_clickup, validate=_clickup_validate, api_url="https://api.clickup.com/api/v2",
    tools=(
        ToolDef("clickup_list_tasks", "List the tasks in a ClickUp list.",
                obj({"list": s("list id (in the list's address)"),
                     "closed": {"type": "boolean", "description": "include closed tasks"}},
                    ("list",)), _clickup_tasks),
        ToolDef("clickup_comment", "Comment on a task.",
                obj({"task": s("task id"), "text": s("the comment")}, ("task", "text")),
                _clickup_comment, action=True, target_arg="task"),
        ToolDef("clickup_create_task", "Create a task in a list.",
                obj({"list": s("list id"), "name": s("the task's name"),
                     "description": s("details (optional)")}, ("list", "name")),
                _clickup_create, action=True, target_arg="list"),
    ),
)
