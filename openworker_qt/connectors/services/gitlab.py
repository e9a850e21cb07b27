"""The GitLab connector (Code): Issues and merge requests on gitlab.com or your own GitLab."""

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
    path_segment,
    s,
)
from openworker_qt.connectors.base import token_field as _token_field
from openworker_qt.connectors.services.common import pick


def _gitlab(values: Credentials, policy: RetryPolicy) -> HttpApi:
    url = values.get("api_url") or "https://gitlab.com/api/v4"
    return HttpApi("GitLab", url, policy=policy,
                   headers={"PRIVATE-TOKEN": values.get("token", "")})


async def _gitlab_validate(api: HttpApi) -> Identity:
    me = await api.get("user")
    return Identity(f"@{me.get('username')}", "GitLab")


async def _gitlab_issues(api: HttpApi, a: dict[str, Any]) -> str:
    issues = await api.get(f"projects/{path_segment(a['project'])}/issues",
                           params={"state": a.get("state") or "opened", "per_page": 30})
    return dumps(pick(issues, "iid", "title", "state", "web_url", "updated_at"))


async def _gitlab_comment(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post(f"projects/{path_segment(a['project'])}/issues/{int(a['iid'])}/notes",
                   json_body={"body": a["body"]})
    return f"Commented on {a['project']}#{a['iid']}."


SPEC = ConnectorSpec(
    id="gitlab", name="GitLab", category="Code",
    description="Issues and merge requests on gitlab.com or your own GitLab.",
    fields=(_token_field("Personal access token",
                         "GitLab → Preferences → Access tokens; scope read_api (api to comment)."),
            Field("api_url", "API address", "Only for a self-managed GitLab, e.g. "
                  "https://gitlab.example.com/api/v4.", secret=False, required=False)),
    client=_gitlab, validate=_gitlab_validate, api_url="https://gitlab.com/api/v4",
    tools=(
        ToolDef("gitlab_list_issues", "List a project's issues.",
                obj({"project": s("group/project path or numeric id"),
                     "state": s("opened, closed or all")}, ("project",)), _gitlab_issues),
        ToolDef("gitlab_comment", "Comment on an issue.",
                obj({"project": s("group/project"), "iid": n("issue number in the project"),
                     "body": s("the comment (Markdown)")}, ("project", "iid", "body")),
                _gitlab_comment, action=True, target_arg="project"),
    ),
)
