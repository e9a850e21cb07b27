"""The Jira connector (Projects): Search issues with JQL and comment on them."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    HttpApi,
    Identity,
    ToolDef,
    dumps,
    obj,
    path_segment,
    s,
)
from openworker_qt.connectors.services.atlassian import (
    ATLASSIAN_FIELDS,
    atlassian_client,
    atlassian_site,
)


async def _jira_validate(api: HttpApi) -> Identity:
    me = await api.get("rest/api/3/myself")
    return Identity(str(me.get("displayName") or me.get("emailAddress")), atlassian_site(api))


async def _jira_search(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("rest/api/3/search/jql", params={
        "jql": a.get("jql") or "assignee = currentUser() AND resolution = Unresolved",
        "fields": "summary,status,assignee,updated", "maxResults": 30})
    issues = [{"key": i.get("key"), **{k: v for k, v in (i.get("fields") or {}).items()}}
              for i in (data or {}).get("issues") or []]
    return dumps(issues)


def _adf(text: str) -> dict[str, Any]:
    """Plain text as an Atlassian document (paragraph per line)."""
    return {"type": "doc", "version": 1, "content": [
        {"type": "paragraph", "content": [{"type": "text", "text": line}] if line else []}
        for line in text.split("\n")]}


async def _jira_comment(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post(f"rest/api/3/issue/{path_segment(a['issue'])}/comment",
                   json_body={"body": _adf(a["body"])})
    return f"Commented on {a['issue']}."


SPEC = ConnectorSpec(
    id="jira", name="Jira", category="Projects",
    description="Search issues with JQL and comment on them.",
    fields=ATLASSIAN_FIELDS, client=atlassian_client("Jira"), validate=_jira_validate,
    tools=(
        ToolDef("jira_search", "Search issues with JQL (default: open issues assigned to me).",
                obj({"jql": s("a JQL query")}), _jira_search),
        ToolDef("jira_comment", "Comment on an issue.",
                obj({"issue": s("issue key, e.g. OPS-12"), "body": s("the comment")},
                    ("issue", "body")), _jira_comment, action=True, target_arg="issue"),
    ),
)
