"""The morning-brief connectors on their services' HTTP APIs.

GitHub, GitLab, Google Calendar, Gmail, Outlook (mail and calendar through
Microsoft Graph), Jira, Confluence, Linear and Notion. Each talks to the
service's documented REST (or GraphQL) API through :class:`~.base.HttpApi`
(httpx2, already the transport of the model SDKs) rather than a vendor SDK:
PyGithub, python-gitlab, google-api-python-client, msgraph-sdk, atlassian and
notion-client are synchronous or pull in large dependency trees for the handful
of calls these tools make, and none of them honours ``Retry-After`` the way
:class:`~.base.HttpApi` does for every connector alike.

Every connector: a validation call returning who the token belongs to; read
tools (READ); action tools (EXTERNAL, asked for) naming their target argument:
the repository, the project, the calendar, the recipient, the issue, the space,
the page.
"""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlparse

from openworker_qt.connectors import oauth
from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    bearer_headers,
    dumps,
    n,
    obj,
    owner_repo,
    path_segment,
    s,
)
from openworker_qt.connectors.base import token_field as _token_field


def _bearer(service: str, values: Credentials, url: str, policy: RetryPolicy,
            **headers: str) -> HttpApi:
    return HttpApi(service, url, policy=policy, headers=bearer_headers(values, **headers))


def pick(items: Any, *keys: str) -> list[dict[str, Any]]:
    """Only the fields worth the model's attention, from a list of objects."""
    out = []
    for item in items or []:
        if isinstance(item, dict):
            out.append({k: item.get(k) for k in keys if item.get(k) is not None})
    return out


# ------------------------------------------------------------------------ GitHub


def _github(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("GitHub", values, values.get("api_url") or "https://api.github.com", policy,
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


GITHUB = ConnectorSpec(
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

# ------------------------------------------------------------------------ GitLab


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


GITLAB = ConnectorSpec(
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

# ---------------------------------------------------------------- Google Calendar

def google_oauth(scope: str) -> oauth.OAuth:
    """Google's browser sign-in for one scope (offline: a refresh token comes back)."""
    return oauth.OAuth("Google", "https://accounts.google.com/o/oauth2/v2/auth",
                       "https://oauth2.googleapis.com/token", (scope,),
                       {"access_type": "offline", "prompt": "consent"})


GCAL_OAUTH = google_oauth("https://www.googleapis.com/auth/calendar")
GMAIL_OAUTH = google_oauth("https://www.googleapis.com/auth/gmail.modify")
MICROSOFT_OAUTH = oauth.OAuth(
    "Microsoft", "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    ("offline_access", "User.Read", "Mail.Read", "Mail.Send", "Calendars.Read"))


def oauth_fields(service: str, console: str) -> tuple[Field, ...]:
    """Sign in with the user's own OAuth client, or paste a short-lived access token."""
    return (
        Field("client_id", "OAuth client id", f"Your own Desktop app client from {console}; "
              "then use Sign in.", secret=False, required=False),
        Field("client_secret", "OAuth client secret", "The client's secret, if it has one.",
              required=False),
        Field("refresh_token", "Sign-in", f"Filled in by Sign in with {service}.",
              required=False),
        Field("token", "Access token (instead)", "A pasted access token works until it "
              "expires (about an hour): for a quick try.", required=False),
    )


GOOGLE_FIELDS = oauth_fields("Google", "Google Cloud Console → APIs & Services → Credentials")


def oauth_bearer(service: str, spec_oauth: oauth.OAuth, default_url: str, **headers: str) -> Any:
    """A connector's client builder: an :class:`HttpApi` sending the access token of
    ``spec_oauth`` (refreshed from the stored sign-in, or the pasted token)."""
    def build(values: Credentials, policy: RetryPolicy) -> HttpApi:
        token = oauth.access_token(spec_oauth, values)  # blocking: built in a worker
        return HttpApi(service, values.get("api_url") or default_url, policy=policy,
                       headers={"Authorization": f"Bearer {token}", **headers})

    return build


_gcal = oauth_bearer("Google Calendar", GCAL_OAUTH, "https://www.googleapis.com/calendar/v3")


async def _gcal_validate(api: HttpApi) -> Identity:
    cal = await api.get("users/me/calendarList/primary")
    return Identity(str(cal.get("id")), "Google Calendar")


async def _gcal_events(api: HttpApi, a: dict[str, Any]) -> str:
    params = {"singleEvents": "true", "orderBy": "startTime", "maxResults": 50}
    for key, name in (("time_min", "timeMin"), ("time_max", "timeMax")):
        if a.get(key):
            params[name] = a[key]
    cal = path_segment(a.get("calendar") or "primary")
    data = await api.get(f"calendars/{cal}/events", params=params)
    return dumps(pick((data or {}).get("items"), "summary", "start", "end", "location",
                       "attendees", "htmlLink"))


async def _gcal_create(api: HttpApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"summary": a["summary"], "start": {"dateTime": a["start"]},
                            "end": {"dateTime": a["end"]}}
    if a.get("attendees"):
        body["attendees"] = [{"email": e.strip()} for e in str(a["attendees"]).split(",") if e.strip()]
    cal = path_segment(a["calendar"])
    made = await api.post(f"calendars/{cal}/events", json_body=body)
    return f"Event created: {made.get('htmlLink', made.get('id', ''))}"


GCAL = ConnectorSpec(
    id="google_calendar", name="Google Calendar", category="Calendar",
    description="Your events; new events on a calendar you choose.",
    fields=GOOGLE_FIELDS, extra={"oauth": GCAL_OAUTH},
    client=_gcal, validate=_gcal_validate, api_url="https://www.googleapis.com/calendar/v3",
    tools=(
        ToolDef("gcal_list_events", "List events between two times (RFC 3339).",
                obj({"time_min": s("start, e.g. 2026-12-01T00:00:00Z"), "time_max": s("end"),
                     "calendar": s("calendar id (default: primary)")}), _gcal_events),
        ToolDef("gcal_create_event", "Create an event (attendees get an invitation).",
                obj({"calendar": s("calendar id, e.g. primary"), "summary": s("title"),
                     "start": s("RFC 3339 start"), "end": s("RFC 3339 end"),
                     "attendees": s("comma-separated e-mail addresses")},
                    ("calendar", "summary", "start", "end")),
                _gcal_create, action=True, target_arg="calendar"),
    ),
)

# ------------------------------------------------------------------------- Gmail


_gmail = oauth_bearer("Gmail", GMAIL_OAUTH, "https://gmail.googleapis.com/gmail/v1")


async def _gmail_validate(api: HttpApi) -> Identity:
    me = await api.get("users/me/profile")
    return Identity(str(me.get("emailAddress")), "Gmail")


async def _gmail_search(api: HttpApi, a: dict[str, Any]) -> str:
    found = await api.get("users/me/messages",
                          params={"q": a.get("query") or "in:inbox", "maxResults": 10})
    out = []
    for ref in (found or {}).get("messages") or []:
        msg = await api.get(f"users/me/messages/{path_segment(ref['id'])}",
                            params={"format": "metadata",
                                    "metadataHeaders": ["From", "Subject", "Date"]})
        headers = {h["name"]: h["value"] for h in msg.get("payload", {}).get("headers", [])}
        out.append({"id": ref["id"], **headers, "snippet": msg.get("snippet", "")})
    return dumps(out)


def mime(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    if sender:
        msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    return msg


async def _gmail_send(api: HttpApi, a: dict[str, Any]) -> str:
    raw = base64.urlsafe_b64encode(bytes(mime("", a["to"], a["subject"], a["body"]))).decode()
    sent = await api.post("users/me/messages/send", json_body={"raw": raw})
    return f"Sent to {a['to']} (message {sent.get('id', '')})."


MAIL_SEND_PARAMS = obj({"to": s("recipient address(es), comma-separated"),
                        "subject": s("subject"), "body": s("plain-text body")},
                       ("to", "subject", "body"))

GMAIL = ConnectorSpec(
    id="gmail", name="Gmail", category="Mail",
    description="Search your mail and send messages.",
    fields=GOOGLE_FIELDS, extra={"oauth": GMAIL_OAUTH},
    client=_gmail, validate=_gmail_validate, api_url="https://gmail.googleapis.com/gmail/v1",
    tools=(
        ToolDef("gmail_search", "Search mail with Gmail's search syntax (from:, is:unread, …).",
                obj({"query": s("Gmail search, default in:inbox")}), _gmail_search),
        ToolDef("gmail_send", "Send an e-mail.", MAIL_SEND_PARAMS, _gmail_send,
                action=True, target_arg="to"),
    ),
)

# ----------------------------------------------------------------------- Outlook


_graph = oauth_bearer("Outlook", MICROSOFT_OAUTH, "https://graph.microsoft.com/v1.0")


async def _graph_validate(api: HttpApi) -> Identity:
    me = await api.get("me")
    return Identity(str(me.get("userPrincipalName") or me.get("mail")), "Microsoft 365")


async def _outlook_mail(api: HttpApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"$top": 15, "$select": "subject,from,receivedDateTime,bodyPreview"}
    if a.get("search"):
        params["$search"] = f'"{a["search"]}"'
    data = await api.get("me/messages", params=params)
    return dumps(pick((data or {}).get("value"), "subject", "from", "receivedDateTime",
                       "bodyPreview"))


async def _outlook_events(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("me/calendarView", params={
        "startDateTime": a["start"], "endDateTime": a["end"],
        "$select": "subject,start,end,location,attendees,organizer"})
    return dumps(pick((data or {}).get("value"), "subject", "start", "end", "location",
                       "organizer"))


async def _outlook_send(api: HttpApi, a: dict[str, Any]) -> str:
    to = [{"emailAddress": {"address": x.strip()}} for x in str(a["to"]).split(",") if x.strip()]
    await api.post("me/sendMail", json_body={
        "message": {"subject": a["subject"], "body": {"contentType": "Text", "content": a["body"]},
                    "toRecipients": to}, "saveToSentItems": True})
    return f"Sent to {a['to']}."


OUTLOOK = ConnectorSpec(
    id="outlook", name="Outlook", category="Mail",
    description="Outlook mail and calendar through Microsoft Graph.",
    fields=oauth_fields("Microsoft", "the Microsoft Entra admin center → App registrations "
                        "(a public client with the redirect http://localhost)"),
    extra={"oauth": MICROSOFT_OAUTH},
    client=_graph, validate=_graph_validate, api_url="https://graph.microsoft.com/v1.0",
    tools=(
        ToolDef("outlook_list_mail", "List recent mail, optionally matching a search.",
                obj({"search": s("words to search for")}), _outlook_mail),
        ToolDef("outlook_list_events", "List calendar events between two times (ISO 8601).",
                obj({"start": s("start"), "end": s("end")}, ("start", "end")), _outlook_events),
        ToolDef("outlook_send_mail", "Send an e-mail.", MAIL_SEND_PARAMS, _outlook_send,
                action=True, target_arg="to"),
    ),
)

# ------------------------------------------------------------ Jira and Confluence

ATLASSIAN_FIELDS = (
    Field("site", "Site address", "Your Atlassian site, e.g. https://acme.atlassian.net.",
          secret=False, placeholder="https://acme.atlassian.net"),
    Field("email", "Account e-mail", "The e-mail address you sign in to Atlassian with.",
          secret=False),
    Field("token", "API token", "Create one at id.atlassian.com → Security → API tokens."),
)


def _atlassian(service: str) -> Any:
    def build(values: Credentials, policy: RetryPolicy) -> HttpApi:
        import httpx2

        url = values.get("api_url") or values.get("site") or ""
        if not url.startswith(("https://", "http://")):
            raise ConnectorError("config", "The {service} site must be an https:// address.",
                                 service=service)
        return HttpApi(service, url, policy=policy,
                       auth=httpx2.BasicAuth(values.get("email", ""), values.get("token", "")))

    return build


def _site(api: HttpApi) -> str:
    return urlparse(str(api._http.base_url)).hostname or ""


async def _jira_validate(api: HttpApi) -> Identity:
    me = await api.get("rest/api/3/myself")
    return Identity(str(me.get("displayName") or me.get("emailAddress")), _site(api))


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


JIRA = ConnectorSpec(
    id="jira", name="Jira", category="Projects",
    description="Search issues with JQL and comment on them.",
    fields=ATLASSIAN_FIELDS, client=_atlassian("Jira"), validate=_jira_validate,
    tools=(
        ToolDef("jira_search", "Search issues with JQL (default: open issues assigned to me).",
                obj({"jql": s("a JQL query")}), _jira_search),
        ToolDef("jira_comment", "Comment on an issue.",
                obj({"issue": s("issue key, e.g. OPS-12"), "body": s("the comment")},
                    ("issue", "body")), _jira_comment, action=True, target_arg="issue"),
    ),
)


async def _confluence_validate(api: HttpApi) -> Identity:
    me = await api.get("wiki/rest/api/user/current")
    return Identity(str(me.get("displayName") or me.get("email")), _site(api))


async def _confluence_search(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("wiki/rest/api/search", params={
        "cql": a.get("cql") or f'text ~ "{a.get("text", "")}"', "limit": 20})
    return dumps([{"title": r.get("title"), "excerpt": r.get("excerpt"), "url": r.get("url")}
                  for r in (data or {}).get("results") or []])


async def _confluence_page(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post("wiki/rest/api/content", json_body={
        "type": "page", "title": a["title"], "space": {"key": a["space"]},
        "body": {"storage": {"value": a["body"], "representation": "storage"}}})
    return f"Page created in {a['space']}: {made.get('id', '')}"


CONFLUENCE = ConnectorSpec(
    id="confluence", name="Confluence", category="Docs",
    description="Search pages and create new ones.",
    fields=ATLASSIAN_FIELDS, client=_atlassian("Confluence"), validate=_confluence_validate,
    tools=(
        ToolDef("confluence_search", "Search pages by text or CQL.",
                obj({"text": s("words to find"), "cql": s("a CQL query (instead of text)")}),
                _confluence_search),
        ToolDef("confluence_create_page", "Create a page in a space.",
                obj({"space": s("space key"), "title": s("title"),
                     "body": s("content (Confluence storage format or plain text)")},
                    ("space", "title", "body")),
                _confluence_page, action=True, target_arg="space"),
    ),
)

# ------------------------------------------------------------------------ Linear


class GraphQLApi(HttpApi):
    """A GraphQL endpoint (Linear, monday.com): errors come back in the body."""

    path = "graphql"

    async def gql(self, query: str, variables: dict[str, Any] | None = None, *,
                  read: bool = True) -> dict[str, Any]:
        refused = ConnectorError("auth", "{service} refused the key (expired or revoked). "
                                 "Reconnect {service} in Settings → Connectors.",
                                 service=self.service)
        try:
            data = await self.request("POST", self.path, idempotent=read,
                                      json_body={"query": query, "variables": variables or {}})
        except ConnectorError as exc:
            if exc.status == 400 and "auth" in exc.message.lower():
                raise refused from exc
            raise
        errors = (data or {}).get("errors")
        if errors:
            codes = {str((e.get("extensions") or {}).get("code", "")) for e in errors}
            if codes & {"AUTHENTICATION_ERROR", "UNAUTHENTICATED"}:
                raise refused
            raise ConnectorError("request", "{service}: {detail}", service=self.service,
                                 detail=errors[0].get("message", "error"))
        return dict((data or {}).get("data") or {})


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


LINEAR = ConnectorSpec(
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

# ------------------------------------------------------------------------ Notion


def _notion(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Notion", values, values.get("api_url") or "https://api.notion.com/v1", policy,
                   **{"Notion-Version": "2022-06-28"})


async def _notion_validate(api: HttpApi) -> Identity:
    me = await api.get("users/me")
    workspace = ((me.get("bot") or {}).get("workspace_name")) or ""
    return Identity(str(me.get("name") or me.get("id")), str(workspace))


async def _notion_search(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.request("POST", "search", idempotent=True,
                             json_body={"query": a.get("query", ""), "page_size": 20})
    out = []
    for r in (data or {}).get("results") or []:
        title = ""
        for prop in (r.get("properties") or {}).values():
            if isinstance(prop, dict) and prop.get("type") == "title":
                title = "".join(t.get("plain_text", "") for t in prop.get("title", []))
        out.append({"id": r.get("id"), "object": r.get("object"), "title": title,
                    "url": r.get("url")})
    return dumps(out)


async def _notion_append(api: HttpApi, a: dict[str, Any]) -> str:
    blocks = [{"object": "block", "type": "paragraph", "paragraph": {
        "rich_text": [{"type": "text", "text": {"content": line}}]}}
        for line in str(a["text"]).split("\n")]
    await api.request("PATCH", f"blocks/{path_segment(a['page_id'])}/children",
                      json_body={"children": blocks})
    return f"Added {len(blocks)} paragraph(s) to the page."


NOTION = ConnectorSpec(
    id="notion", name="Notion", category="Docs",
    description="Search pages shared with the integration; add text to a page.",
    fields=(_token_field("Integration secret", "Notion → Settings → Connections → Develop or "
                         "manage integrations; then share the pages with the integration."),),
    client=_notion, validate=_notion_validate, api_url="https://api.notion.com/v1",
    tools=(
        ToolDef("notion_search", "Search pages and databases by title.",
                obj({"query": s("words in the title")}), _notion_search),
        ToolDef("notion_append", "Append paragraphs to a page.",
                obj({"page_id": s("the page id"), "text": s("text; one paragraph per line")},
                    ("page_id", "text")), _notion_append, action=True, target_arg="page_id"),
    ),
)

SPECS = [GITHUB, GITLAB, GCAL, GMAIL, OUTLOOK, JIRA, CONFLUENCE, LINEAR, NOTION]
