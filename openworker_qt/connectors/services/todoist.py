"""The Todoist connector (Projects): Reads your tasks (today and overdue, or any filter); adds
and completes tasks."""

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
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token


def _todoist(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Todoist", values, "https://api.todoist.com/api/v1", policy)


async def _todoist_validate(api: HttpApi) -> Identity:
    me = await api.get("user")
    return Identity(str(me.get("full_name") or me.get("email")), "Todoist")


async def _todoist_tasks(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("tasks/filter", params={"query": a.get("filter") or "today | overdue",
                                                  "limit": 100})
    return dumps([{"id": t.get("id"), "content": t.get("content"),
                   "due": (t.get("due") or {}).get("string") or (t.get("due") or {}).get("date"),
                   "priority": t.get("priority"), "project_id": t.get("project_id")}
                  for t in (data or {}).get("results") or []])


async def _todoist_add(api: HttpApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"content": a["content"]}
    if str(a["project"]).strip().lower() != "inbox":
        body["project_id"] = str(a["project"])
    if a.get("due"):
        body["due_string"] = a["due"]
    made = await api.post("tasks", json_body=body)
    return f"Task {made.get('id', '')} added to {a['project']}."


async def _todoist_complete(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post(f"tasks/{_id(a['task'])}/close")
    return f"Task {a['task']} completed."


SPEC = ConnectorSpec(
    id="todoist", name="Todoist", category="Projects",
    description="Reads your tasks (today and overdue, or any filter); adds and completes "
                "tasks.",
    fields=(_token("API token", "Todoist → Settings → Integrations → Developer → API token."),),
    client=_todoist, validate=_todoist_validate, api_url="https://api.todoist.com/api/v1",
    tools=(
        ToolDef("todoist_tasks", "List tasks matching a Todoist filter.",
                obj({"filter": s("Todoist filter, default 'today | overdue'")}), _todoist_tasks),
        ToolDef("todoist_add_task", "Add a task to a project.",
                obj({"project": s("project id, or 'inbox'"), "content": s("the task"),
                     "due": s("when, in words: 'tomorrow 9am', 'every friday'")},
                    ("project", "content")), _todoist_add, action=True, target_arg="project"),
        ToolDef("todoist_complete_task", "Mark a task done.",
                obj({"task": s("task id")}, ("task",)), _todoist_complete, action=True,
                target_arg="task"),
    ),
)
