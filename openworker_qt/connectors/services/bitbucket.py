"""The Bitbucket connector (Code): Reads a repository's pull requests; comments on a pull
request."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
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
from openworker_qt.connectors.base import token_field as _token


def _bitbucket(values: Credentials, policy: RetryPolicy) -> HttpApi:
    import httpx2

    url = values.get("api_url") or "https://api.bitbucket.org/2.0"
    user = values.get("username", "")
    if user:  # an Atlassian API token (or an app password) with the account's e-mail
        return HttpApi("Bitbucket", url, policy=policy,
                       auth=httpx2.BasicAuth(user, values.get("token", "")))
    return _bearer("Bitbucket", values, url, policy)  # a workspace or repository access token


async def _bitbucket_validate(api: HttpApi) -> Identity:
    try:
        me = await api.get("user")
    except ConnectorError as exc:
        # A token Bitbucket accepts but may not read its profile with (a repository or
        # workspace access token, or no read:user scope) is refused with 403, not 401.
        if exc.status == 403:
            return Identity("an access token", "Bitbucket")
        raise
    return Identity(str(me.get("display_name") or me.get("nickname")), "Bitbucket")


def _repo(value: Any) -> str:
    return owner_repo(value, "workspace/repository")


async def _bitbucket_prs(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"repositories/{_repo(a['repo'])}/pullrequests",
                         params={"state": (a.get("state") or "OPEN").upper(), "pagelen": 30})
    return dumps([{"id": p.get("id"), "title": p.get("title"), "state": p.get("state"),
                   "author": (p.get("author") or {}).get("display_name"),
                   "updated_on": p.get("updated_on"),
                   "url": ((p.get("links") or {}).get("html") or {}).get("href")}
                  for p in (data or {}).get("values") or []])


async def _bitbucket_comment(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post(f"repositories/{_repo(a['repo'])}/pullrequests/{int(a['pr'])}/comments",
                          json_body={"content": {"raw": a["body"]}})
    return f"Commented on {a['repo']} pull request #{a['pr']} (comment {made.get('id', '')})."


SPEC = ConnectorSpec(
    id="bitbucket", name="Bitbucket", category="Code",
    description="Reads a repository's pull requests; comments on a pull request.",
    fields=(_token("API token", "Bitbucket → Personal settings → Atlassian account settings → "
                   "Security → API tokens (scopes read:pullrequest and write:pullrequest); or a "
                   "workspace or repository access token."),
            Field("username", "Atlassian e-mail", "For an API token: the e-mail you sign in "
                  "with. Leave empty for an access token.", secret=False, required=False)),
    client=_bitbucket, validate=_bitbucket_validate, api_url="https://api.bitbucket.org/2.0",
    tools=(
        ToolDef("bitbucket_pull_requests", "List a repository's pull requests.",
                obj({"repo": s("workspace/repository"),
                     "state": s("OPEN (default), MERGED, DECLINED")}, ("repo",)),
                _bitbucket_prs),
        ToolDef("bitbucket_comment", "Comment on a pull request.",
                obj({"repo": s("workspace/repository"), "pr": n("pull request number"),
                     "body": s("the comment (Markdown)")}, ("repo", "pr", "body")),
                _bitbucket_comment, action=True, target_arg="repo"),
    ),
)
