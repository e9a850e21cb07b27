"""The Linear connector (Projects): Your assigned issues; comments on issues."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import token_field as _token_field
from openworker_qt.connectors.services.common import GraphQLApi


def _linear(values: Credentials, policy: RetryPolicy) -> GraphQLApi:
    return GraphQLApi("Linear", values.get("api_url") or "https://api.linear.app", policy=policy,
                     headers={"Authorization": values.get("token", "")})


async def _linear_validate(api: GraphQLApi) -> Identity:
    data = await api.gql("query { viewer { name email } organization { name } }")
    return Identity(str(data["viewer"].get("name") or data["viewer"].get("email")),
                    str((data.get("organization") or {}).get("name", "")))


async def _linear_issues(api: GraphQLApi, a: dict[str, Any]) -> str:
    data = await api.gql("query($n: Int) { viewer { assignedIssues(first: $n, filter: "
                         "{ completedAt: { null: true } }) { nodes { identifier title url "
                         "state { name } updatedAt } } } }", {"n": 30})
    return dumps(data["viewer"]["assignedIssues"]["nodes"])


async def _linear_comment(api: GraphQLApi, a: dict[str, Any]) -> str:
    data = await api.gql("mutation($issue: String!, $body: String!) { commentCreate(input: "
                         "{ issueId: $issue, body: $body }) { success } }",
                         {"issue": a["issue"], "body": a["body"]}, read=False)
    if not (data.get("commentCreate") or {}).get("success"):
        raise ConnectorError("request", "Linear did not add the comment.")
    return f"Commented on {a['issue']}."


SPEC = ConnectorSpec(
    id="linear", name="Linear", category="Projects",
    description="Your assigned issues; comments on issues.",
    fields=(_token_field("API key", "Linear → Settings → Security & access → Personal API keys."),),
    client=_linear, validate=_linear_validate, api_url="https://api.linear.app",
    tools=(
        ToolDef("linear_my_issues", "List the open issues assigned to me.", obj({}),
                _linear_issues),
        ToolDef("linear_comment", "Comment on an issue.",
                obj({"issue": s("issue identifier, e.g. ENG-42"), "body": s("Markdown")},
                    ("issue", "body")), _linear_comment, action=True, target_arg="issue"),
    ),
)
