"""The GitHub connector (Code): Issues, pull requests and comments in your repositories."""

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
    owner_repo,
    s,
)
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import token_field as _token_field
from openworker_qt.connectors.services.common import pick


def _github(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("GitHub", values, "https://api.github.com", policy,
                   Accept="application/vnd.github+json")


async def _github_validate(api: HttpApi) -> Identity:
    me = await api.get("user")
    return Identity(f"@{me.get('login')}", "GitHub")


async def _github_issues(api: HttpApi, a: dict[str, Any]) -> str:
    issues = await api.get(f"repos/{owner_repo(a['repo'])}/issues",
                           params={"state": a.get("state") or "open", "per_page": 30})
    return dumps(pick(issues, "number", "title", "state", "html_url", "updated_at"))


async def _github_comment(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post(f"repos/{owner_repo(a['repo'])}/issues/{int(a['number'])}/comments",
                          json_body={"body": a["body"]})
    return f"Commented on {a['repo']}#{a['number']}: {made.get('html_url', '')}"


SPEC = ConnectorSpec(
    id="github", name="GitHub", category="Code",
    description="Issues, pull requests and comments in your repositories.",
    fields=(_token_field("Personal access token",
                         "Create a fine-grained token at github.com → Settings → Developer "
                         "settings → Personal access tokens, with read access to issues "
                         "(and write access to comment)."),
            Field("api_url", "API address", "Only for GitHub Enterprise Server, e.g. "
                  "https://github.example.com/api/v3.", secret=False, required=False)),
    client=_github, validate=_github_validate, api_url="https://api.github.com",
    tools=(
        ToolDef("github_list_issues", "List a repository's issues and pull requests.",
                obj({"repo": s("owner/name"), "state": s("open, closed or all")}, ("repo",)),
                _github_issues),
        ToolDef("github_comment", "Comment on an issue or pull request.",
                obj({"repo": s("owner/name"), "number": n("issue or PR number"),
                     "body": s("the comment (Markdown)")}, ("repo", "number", "body")),
                _github_comment, action=True, target_arg="repo"),
    ),
)
