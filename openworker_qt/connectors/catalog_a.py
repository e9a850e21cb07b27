"""Work, files, sales and support: ClickUp, Trello, Airtable, Todoist, Google Drive,
Dropbox, Box, OneDrive and SharePoint (Microsoft Graph), Salesforce, Intercom,
Attio and Close.

All twelve talk to the service's documented REST API through
:class:`~.base.HttpApi` (httpx2). Of their Python clients, the official ones
(dropbox, box-sdk-gen, msgraph-sdk, google-api-python-client,
todoist-api-python) and the most used community ones (py-trello, pyairtable,
simple-salesforce, python-intercom, closeio) are synchronous on ``requests`` or
bring large generated trees for the two or three calls a connector makes, and
none waits out a ``Retry-After`` or refuses to repeat a write after a server
error the way :class:`~.base.HttpApi` does for every connector alike; ClickUp
and Attio have no official Python client.

Each connector: a validation call naming who the credentials belong to; read
tools (READ); action tools (EXTERNAL, asked for) naming their exact target (the
task, the card, the base, the project, the file, the item, the record, the
conversation, the lead), so that an "always" answer binds to that target only.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlparse

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
    refused,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services import GOOGLE_FIELDS, google_oauth, oauth_bearer, pick


def _site(values: Credentials, service: str) -> str:
    url = values.get("api_url") or values.get("site") or ""
    if not url.startswith(("https://", "http://")):
        raise ConnectorError("config", "The {service} address must start with https://.",
                             service=service)
    return url


# ----------------------------------------------------------------------- ClickUp


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


CLICKUP = ConnectorSpec(
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

# ------------------------------------------------------------------------ Trello


def _trello(values: Credentials, policy: RetryPolicy) -> HttpApi:
    # The key and token in a header rather than the query: they stay out of URLs.
    auth = (f'OAuth oauth_consumer_key="{values.get("key", "")}", '
            f'oauth_token="{values.get("token", "")}"')
    return HttpApi("Trello", _url(values, "https://api.trello.com/1"), policy=policy,
                   headers={"Authorization": auth})


async def _trello_validate(api: HttpApi) -> Identity:
    me = await api.get("members/me", params={"fields": "username,fullName"})
    return Identity(f"@{me.get('username')}", "Trello")


async def _trello_boards(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("members/me/boards", params={"filter": "open", "fields": "name,url"})
    return dumps(pick(data, "id", "name", "url"))


async def _trello_cards(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"boards/{_id(a['board'])}/cards",
                         params={"fields": "name,desc,due,idList,shortUrl"})
    return dumps(pick(data, "id", "name", "desc", "due", "idList", "shortUrl"))


async def _trello_comment(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post(f"cards/{_id(a['card'])}/actions/comments", params={"text": a["text"]})
    return f"Commented on card {a['card']}."


async def _trello_add_card(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post("cards", params={"idList": str(a["list"]), "name": a["name"],
                                           "desc": a.get("description") or ""})
    return f"Card added to list {a['list']}: {made.get('shortUrl', made.get('id', ''))}"


TRELLO = ConnectorSpec(
    id="trello", name="Trello", category="Projects",
    description="Reads your boards and their cards; adds cards and comments on them.",
    fields=(Field("key", "API key", "trello.com/power-ups/admin → your Power-Up → API key."),
            _token("Token", "On the same page, follow the Token link and allow access.")),
    client=_trello, validate=_trello_validate, api_url="https://api.trello.com/1",
    tools=(
        ToolDef("trello_boards", "List my open boards.", obj({}), _trello_boards),
        ToolDef("trello_board_cards", "List the cards on a board.",
                obj({"board": s("board id or short link")}, ("board",)), _trello_cards),
        ToolDef("trello_comment", "Comment on a card.",
                obj({"card": s("card id or short link"), "text": s("the comment")},
                    ("card", "text")), _trello_comment, action=True, target_arg="card"),
        ToolDef("trello_add_card", "Add a card to a list.",
                obj({"list": s("list id (a card's idList)"), "name": s("the card's title"),
                     "description": s("details (optional)")}, ("list", "name")),
                _trello_add_card, action=True, target_arg="list"),
    ),
)

# ---------------------------------------------------------------------- Airtable


def _airtable(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Airtable", values, "https://api.airtable.com/v0", policy)


async def _airtable_validate(api: HttpApi) -> Identity:
    me = await api.get("meta/whoami")
    return Identity(str(me.get("email") or me.get("id")), "Airtable")


async def _airtable_bases(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("meta/bases")
    return dumps(pick(data.get("bases"), "id", "name", "permissionLevel"))


async def _airtable_records(api: HttpApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"maxRecords": int(a.get("limit") or 50)}
    if a.get("formula"):
        params["filterByFormula"] = a["formula"]
    data = await api.get(f"{_id(a['base'])}/{_id(a['table'])}", params=params)
    return dumps(pick(data.get("records"), "id", "fields"))


async def _airtable_create(api: HttpApi, a: dict[str, Any]) -> str:
    fields = a.get("fields")
    if not isinstance(fields, dict) or not fields:
        raise ConnectorError("request", "Give the new record's fields as an object, "
                             'e.g. {"Name": "Ana"}.')
    made = await api.post(f"{_id(a['base'])}/{_id(a['table'])}",
                          json_body={"fields": fields, "typecast": True})
    return f"Record {made.get('id', '')} added to {a['table']} in base {a['base']}."


AIRTABLE = ConnectorSpec(
    id="airtable", name="Airtable", category="Projects",
    description="Reads your bases and their records; adds records to a table.",
    fields=(_token("Personal access token", "airtable.com/create/tokens (scopes "
                   "data.records:read, data.records:write, schema.bases:read; "
                   "user.email:read shows your address)."),),
    client=_airtable, validate=_airtable_validate, api_url="https://api.airtable.com/v0",
    tools=(
        ToolDef("airtable_bases", "List the bases the token can see.", obj({}),
                _airtable_bases),
        ToolDef("airtable_list_records", "List a table's records, optionally filtered.",
                obj({"base": s("base id (app…)"), "table": s("table name or id"),
                     "formula": s("an Airtable formula that records must match"),
                     "limit": n("at most this many (default 50)")}, ("base", "table")),
                _airtable_records),
        ToolDef("airtable_create_record", "Add a record to a table.",
                obj({"base": s("base id (app…)"), "table": s("table name or id"),
                     "fields": {"type": "object", "description": "field name → value"}},
                    ("base", "table", "fields")),
                _airtable_create, action=True, target_arg="base"),
    ),
)

# ----------------------------------------------------------------------- Todoist


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


TODOIST = ConnectorSpec(
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

# ------------------------------------------------------------------ Google Drive

DRIVE_READ_MAX = 5_000_000  # bytes: a file read whole, then cut for the model
GOOGLE_EXPORTS = {"application/vnd.google-apps.document": "text/plain",
                  "application/vnd.google-apps.spreadsheet": "text/csv",
                  "application/vnd.google-apps.presentation": "text/plain"}


DRIVE_OAUTH = google_oauth("https://www.googleapis.com/auth/drive")
# Sign in with the user's own OAuth client (refreshed), or a pasted access token.
_drive = oauth_bearer("Google Drive", DRIVE_OAUTH, "https://www.googleapis.com/drive/v3")


async def _drive_validate(api: HttpApi) -> Identity:
    me = (await api.get("about", params={"fields": "user"})).get("user") or {}
    return Identity(str(me.get("emailAddress") or me.get("displayName")), "Google Drive")


async def _drive_search(api: HttpApi, a: dict[str, Any]) -> str:
    q = "trashed = false"
    if a.get("query"):
        words = str(a["query"]).replace("\\", "\\\\").replace("'", "\\'")
        q = f"fullText contains '{words}' and {q}"
    data = await api.get("files", params={
        "q": q, "pageSize": 30, "orderBy": "modifiedTime desc",
        "fields": "files(id,name,mimeType,modifiedTime,webViewLink)"})
    return dumps(pick(data.get("files"), "id", "name", "mimeType", "modifiedTime", "webViewLink"))


async def _drive_read(api: HttpApi, a: dict[str, Any]) -> str:
    file = _id(a["file"])
    meta = await api.get(f"files/{file}", params={"fields": "name,mimeType,size"})
    kind = str(meta.get("mimeType", ""))
    if int(meta.get("size") or 0) > DRIVE_READ_MAX:
        return (f"{meta.get('name')} is {int(meta['size']) // 1_000_000} MB: too large to read "
                "here. Search for the part you need, or open it in Drive.")
    if kind in GOOGLE_EXPORTS:
        text = await api.get(f"files/{file}/export", params={"mimeType": GOOGLE_EXPORTS[kind]},
                            expect="text")
    elif kind.startswith("text/") or kind in ("application/json", "text/csv"):
        text = await api.get(f"files/{file}", params={"alt": "media"}, expect="text")
    else:
        return f"{meta.get('name')} is a {kind} file, not text: open it in Drive to see it."
    body = text if isinstance(text, str) else dumps(text)
    return f"{meta.get('name')}\n\n{body[:12_000]}"


async def _drive_share(api: HttpApi, a: dict[str, Any]) -> str:
    role = a.get("role") or "reader"
    if role not in ("reader", "commenter", "writer"):
        raise ConnectorError("request", "The role is reader, commenter or writer.")
    await api.post(f"files/{_id(a['file'])}/permissions", params={"sendNotificationEmail": "true"},
                   json_body={"type": "user", "role": role, "emailAddress": a["email"]})
    return f"Shared file {a['file']} with {a['email']} ({role})."


GDRIVE = ConnectorSpec(
    id="google_drive", name="Google Drive", category="Files",
    description="Finds files and reads documents; shares a file with someone.",
    fields=GOOGLE_FIELDS, extra={"oauth": DRIVE_OAUTH},
    client=_drive, validate=_drive_validate, api_url="https://www.googleapis.com/drive/v3",
    tools=(
        ToolDef("drive_search", "Find files by the words in them (newest first).",
                obj({"query": s("words to find (default: recent files)")}), _drive_search),
        ToolDef("drive_read_file", "Read a document, sheet (as CSV) or text file.",
                obj({"file": s("file id")}, ("file",)), _drive_read),
        ToolDef("drive_share", "Share a file with a person (they get an e-mail).",
                obj({"file": s("file id"), "email": s("their e-mail address"),
                     "role": s("reader (default), commenter or writer")}, ("file", "email")),
                _drive_share, action=True, target_arg="file"),
    ),
)

# ----------------------------------------------------------------------- Dropbox


def _dropbox(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Dropbox", values, "https://api.dropboxapi.com/2", policy)


async def _dropbox_validate(api: HttpApi) -> Identity:
    me = await api.request("POST", "users/get_current_account", idempotent=True)
    return Identity(str(me.get("email") or (me.get("name") or {}).get("display_name")),
                    "Dropbox")


def _dropbox_path(value: Any) -> str:
    path = str(value or "").strip()
    return "" if path in ("", "/") else "/" + path.lstrip("/")


async def _dropbox_list(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.request("POST", "files/list_folder", idempotent=True,
                             json_body={"path": _dropbox_path(a.get("path")), "limit": 200})
    return dumps([{"type": e.get(".tag"), "name": e.get("name"), "path": e.get("path_display"),
                   "size": e.get("size"), "modified": e.get("server_modified")}
                  for e in data.get("entries") or []])


async def _dropbox_share(api: HttpApi, a: dict[str, Any]) -> str:
    path = _dropbox_path(a["path"])
    try:
        made = await api.post("sharing/create_shared_link_with_settings", json_body={"path": path})
    except ConnectorError as exc:
        if exc.status != 409 or "shared_link_already_exists" not in exc.message:
            raise
        # One link per file: the one made before is the answer.
        found = await api.request("POST", "sharing/list_shared_links", idempotent=True,
                                  json_body={"path": path, "direct_only": True})
        made = next(iter(found.get("links") or []), {})
    return f"Link to {a['path']}: {made.get('url', '')}"


DROPBOX = ConnectorSpec(
    id="dropbox", name="Dropbox", category="Files",
    description="Lists your folders and files; makes a share link to a file or folder.",
    fields=(_token("Access token", "dropbox.com/developers/apps → your app → Generate access "
                   "token (scopes files.metadata.read, sharing.write)."),),
    client=_dropbox, validate=_dropbox_validate, api_url="https://api.dropboxapi.com/2",
    tools=(
        ToolDef("dropbox_list_folder", "List a folder's files and folders.",
                obj({"path": s("folder path, e.g. /Reports (default: the top)")}), _dropbox_list),
        ToolDef("dropbox_share_link", "Make a link anyone with it can open.",
                obj({"path": s("file or folder path")}, ("path",)), _dropbox_share,
                action=True, target_arg="path"),
    ),
)

# --------------------------------------------------------------------------- Box


def _box(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Box", values, "https://api.box.com/2.0", policy)


async def _box_validate(api: HttpApi) -> Identity:
    me = await api.get("users/me")
    return Identity(str(me.get("login") or me.get("name")), "Box")


async def _box_search(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("search", params={
        "query": a["query"], "limit": 30, "fields": "id,type,name,modified_at,path_collection"})
    return dumps([{"id": e.get("id"), "type": e.get("type"), "name": e.get("name"),
                   "modified_at": e.get("modified_at"),
                   "folder": "/".join(p.get("name", "") for p in
                                      (e.get("path_collection") or {}).get("entries") or [])}
                  for e in data.get("entries") or []])


async def _box_comment(api: HttpApi, a: dict[str, Any]) -> str:
    await api.post("comments", json_body={"item": {"type": "file", "id": str(a["file"])},
                                          "message": a["message"]})
    return f"Commented on file {a['file']}."


BOX = ConnectorSpec(
    id="box", name="Box", category="Files",
    description="Finds files and folders; comments on a file.",
    fields=(_token("Developer token", "Box Developer Console → your app → Configuration → "
                   "Developer token (an OAuth access token works too)."),),
    client=_box, validate=_box_validate, api_url="https://api.box.com/2.0",
    tools=(
        ToolDef("box_search", "Find files and folders by name or content.",
                obj({"query": s("words to find")}, ("query",)), _box_search),
        ToolDef("box_comment", "Comment on a file.",
                obj({"file": s("file id"), "message": s("the comment")}, ("file", "message")),
                _box_comment, action=True, target_arg="file"),
    ),
)

# ----------------------------------------------------- OneDrive and SharePoint


def _onedrive(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("OneDrive", values, "https://graph.microsoft.com/v1.0", policy)


async def _onedrive_validate(api: HttpApi) -> Identity:
    me = await api.get("me")
    return Identity(str(me.get("userPrincipalName") or me.get("mail")), "Microsoft 365")


def _drive_path(a: dict[str, Any]) -> str:
    return f"drives/{_id(a['drive'])}" if a.get("drive") else "me/drive"


async def _onedrive_search(api: HttpApi, a: dict[str, Any]) -> str:
    words = quote(str(a["query"]).replace("'", "''"), safe="")
    data = await api.get(f"{_drive_path(a)}/root/search(q='{words}')", params={
        "$top": 30, "$select": "id,name,webUrl,lastModifiedDateTime,size,parentReference"})
    return dumps([{"id": i.get("id"), "name": i.get("name"), "webUrl": i.get("webUrl"),
                   "modified": i.get("lastModifiedDateTime"),
                   "folder": (i.get("parentReference") or {}).get("path")}
                  for i in data.get("value") or []])


async def _sharepoint_sites(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("sites", params={"search": a.get("query") or "*"})
    return dumps(pick(data.get("value"), "id", "displayName", "webUrl"))


async def _onedrive_link(api: HttpApi, a: dict[str, Any]) -> str:
    scope = a.get("scope") or "organization"
    if scope not in ("organization", "anonymous"):
        raise ConnectorError("request", "The scope is organization or anonymous.")
    made = await api.post(f"{_drive_path(a)}/items/{_id(a['item'])}/createLink",
                          json_body={"type": "view", "scope": scope})
    return f"Link to item {a['item']}: {(made.get('link') or {}).get('webUrl', '')}"


DRIVE_ARG = s("a SharePoint document library's drive id (default: your OneDrive)")

ONEDRIVE = ConnectorSpec(
    id="onedrive", name="OneDrive and SharePoint", category="Files",
    description="Finds files in your OneDrive or a SharePoint library, and SharePoint sites; "
                "makes a view link to a file.",
    fields=(_token("Access token", "A Microsoft Graph access token with Files.ReadWrite.All "
                   "and Sites.Read.All (for example from Graph Explorer → Access token)."),),
    client=_onedrive, validate=_onedrive_validate, api_url="https://graph.microsoft.com/v1.0",
    tools=(
        ToolDef("onedrive_search", "Find files by name or content.",
                obj({"query": s("words to find"), "drive": DRIVE_ARG}, ("query",)),
                _onedrive_search),
        ToolDef("sharepoint_sites", "Find SharePoint sites (their ids lead to their libraries).",
                obj({"query": s("words in the site's name")}), _sharepoint_sites),
        ToolDef("onedrive_share_link", "Make a view-only link to a file or folder.",
                obj({"item": s("item id"), "drive": DRIVE_ARG,
                     "scope": s("organization (default: people in your organisation) or "
                                "anonymous (anyone with the link)")}, ("item",)),
                _onedrive_link, action=True, target_arg="item"),
    ),
)

# -------------------------------------------------------------------- Salesforce

SALESFORCE_VERSION = "v61.0"


def _salesforce(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return HttpApi("Salesforce", _site(values, "Salesforce"), policy=policy,
                   headers=bearer_headers(values))


async def _salesforce_validate(api: HttpApi) -> Identity:
    me = await api.get("services/oauth2/userinfo")
    return Identity(str(me.get("preferred_username") or me.get("name")),
                    urlparse(str(api._http.base_url)).hostname or "")


async def _salesforce_query(api: HttpApi, a: dict[str, Any]) -> str:
    soql = str(a["soql"]).strip()
    if not soql.lower().startswith("select"):
        raise ConnectorError("request", "Only SELECT queries are read here.")
    data = await api.get(f"services/data/{SALESFORCE_VERSION}/query", params={"q": soql})
    rows = [{k: v for k, v in r.items() if k != "attributes"} for r in data.get("records") or []]
    return dumps({"total": data.get("totalSize"), "records": rows})


async def _salesforce_update(api: HttpApi, a: dict[str, Any]) -> str:
    fields = a.get("fields")
    if not isinstance(fields, dict) or not fields:
        raise ConnectorError("request", "Give the fields to change as an object, "
                             'e.g. {"StageName": "Closed Won"}.')
    await api.request("PATCH", f"services/data/{SALESFORCE_VERSION}/sobjects/"
                      f"{_id(a['object'])}/{_id(a['record'])}", json_body=fields)
    return f"{a['object']} {a['record']} updated: {', '.join(fields)}."


SALESFORCE = ConnectorSpec(
    id="salesforce", name="Salesforce", category="Sales",
    description="Reads accounts, contacts, opportunities and any record (SOQL); "
                "changes fields on a record.",
    fields=(Field("site", "Salesforce address", "Your My Domain address, e.g. "
                  "https://acme.my.salesforce.com", secret=False,
                  placeholder="https://acme.my.salesforce.com"),
            _token("Access token", "An OAuth access token for that address (for example "
                   "`sf org display` → Access Token).")),
    client=_salesforce, validate=_salesforce_validate,
    tools=(
        ToolDef("salesforce_query", "Run a SOQL SELECT query.",
                obj({"soql": s("e.g. SELECT Id, Name FROM Opportunity WHERE IsClosed = false")},
                    ("soql",)), _salesforce_query),
        ToolDef("salesforce_update_record", "Change fields on a record.",
                obj({"object": s("object type, e.g. Opportunity"), "record": s("record id"),
                     "fields": {"type": "object", "description": "field name → new value"}},
                    ("object", "record", "fields")),
                _salesforce_update, action=True, target_arg="record"),
    ),
)

# ---------------------------------------------------------------------- Intercom


def _intercom(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Intercom", values, "https://api.intercom.io", policy,
                   **{"Intercom-Version": "2.11", "Accept": "application/json"})


async def _intercom_validate(api: HttpApi) -> Identity:
    me = await api.get("me")
    return Identity(str(me.get("email") or me.get("name")),
                    str((me.get("app") or {}).get("name") or "Intercom"))


async def _intercom_conversations(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("conversations", params={"per_page": 20})
    out = []
    for c in data.get("conversations") or []:
        source = c.get("source") or {}
        out.append({"id": c.get("id"), "title": c.get("title") or source.get("subject"),
                    "state": c.get("state"), "from": (source.get("author") or {}).get("email"),
                    "body": str(source.get("body") or "")[:500], "updated_at": c.get("updated_at")})
    return dumps(out)


async def _intercom_reply(api: HttpApi, a: dict[str, Any]) -> str:
    me = await api.get("me")  # replies are sent as the token's admin
    note = bool(a.get("note", False))
    await api.post(f"conversations/{_id(a['conversation'])}/reply", json_body={
        "message_type": "note" if note else "comment", "type": "admin",
        "admin_id": str(me.get("id", "")), "body": a["body"]})
    kind = "internal note" if note else "reply"
    return f"Sent a {kind} in conversation {a['conversation']}."


INTERCOM = ConnectorSpec(
    id="intercom", name="Intercom", category="Support",
    description="Reads recent conversations; replies to a customer or adds an internal note.",
    fields=(_token("Access token", "Intercom → Settings → Integrations → Developer Hub → "
                   "your app → Authentication."),),
    client=_intercom, validate=_intercom_validate, api_url="https://api.intercom.io",
    tools=(
        ToolDef("intercom_conversations", "List recent conversations.", obj({}),
                _intercom_conversations),
        ToolDef("intercom_reply", "Reply in a conversation (the customer sees it unless "
                "it is a note).",
                obj({"conversation": s("conversation id"), "body": s("the reply"),
                     "note": {"type": "boolean", "description": "an internal note instead"}},
                    ("conversation", "body")), _intercom_reply, action=True,
                target_arg="conversation"),
    ),
)

# ------------------------------------------------------------------------- Attio


def _attio(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Attio", values, "https://api.attio.com/v2", policy)


async def _attio_validate(api: HttpApi) -> Identity:
    me = await api.get("self")
    if not me.get("active"):  # a revoked token answers, inactive
        raise refused("Attio")
    return Identity(f"the {me.get('workspace_name')} workspace", "Attio")


def _attio_value(values: Any) -> Any:
    if not isinstance(values, list) or not values:
        return None
    first = values[0] if isinstance(values[0], dict) else {}
    for key in ("value", "full_name", "email_address", "domain", "phone_number",
                "currency_value", "target_record_id"):
        if first.get(key) is not None:
            return first[key]
    for key in ("option", "status"):
        if isinstance(first.get(key), dict):
            return first[key].get("title")
    return None


async def _attio_records(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.request("POST", f"objects/{_id(a.get('object') or 'people')}/records/query",
                             idempotent=True, json_body={"limit": int(a.get("limit") or 25)})
    out = []
    for r in data.get("data") or []:
        row = {"id": (r.get("id") or {}).get("record_id")}
        for name, vals in (r.get("values") or {}).items():
            v = _attio_value(vals)
            if v is not None:
                row[name] = v
        out.append(row)
    return dumps(out)


async def _attio_note(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post("notes", json_body={"data": {
        "parent_object": a.get("object") or "people", "parent_record_id": str(a["record"]),
        "title": a.get("title") or "Note", "format": "plaintext", "content": a["text"]}})
    note = ((made or {}).get("data") or {}).get("id") or {}
    return f"Note {note.get('note_id', '')} added to record {a['record']}."


ATTIO_OBJECT = s("people, companies, deals or another object's slug (default: people)")

ATTIO = ConnectorSpec(
    id="attio", name="Attio", category="Sales",
    description="Reads people, companies and deals; adds a note to a record.",
    fields=(_token("Access token", "Attio → Workspace settings → Developers → New access "
                   "token (records and notes: read-write)."),),
    client=_attio, validate=_attio_validate, api_url="https://api.attio.com/v2",
    tools=(
        ToolDef("attio_list_records", "List records of an object.",
                obj({"object": ATTIO_OBJECT, "limit": n("at most this many (default 25)")}),
                _attio_records),
        ToolDef("attio_add_note", "Add a note to a record.",
                obj({"object": ATTIO_OBJECT, "record": s("record id"), "title": s("title"),
                     "text": s("the note")}, ("record", "text")),
                _attio_note, action=True, target_arg="record"),
    ),
)

# ------------------------------------------------------------------------- Close


def _close(values: Credentials, policy: RetryPolicy) -> HttpApi:
    import httpx2

    # The API key is the Basic user name, with no password.
    return HttpApi("Close", _url(values, "https://api.close.com/api/v1"), policy=policy,
                   auth=httpx2.BasicAuth(values.get("token", ""), ""))


async def _close_validate(api: HttpApi) -> Identity:
    me = await api.get("me/")
    orgs = me.get("organizations") or [{}]
    name = " ".join(x for x in (me.get("first_name"), me.get("last_name")) if x)
    return Identity(str(me.get("email") or name), str(orgs[0].get("name") or "Close"))


async def _close_leads(api: HttpApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"_limit": 25, "_fields": "id,display_name,status_label,url,contacts"}
    if a.get("query"):
        params["query"] = a["query"]
    data = await api.get("lead/", params=params)
    return dumps([{"id": ld.get("id"), "name": ld.get("display_name"),
                   "status": ld.get("status_label"), "url": ld.get("url"),
                   "contacts": [c.get("name") for c in ld.get("contacts") or []]}
                  for ld in data.get("data") or []])


async def _close_note(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post("activity/note/", json_body={"lead_id": str(a["lead"]),
                                                       "note": a["text"]})
    return f"Note {made.get('id', '')} added to lead {a['lead']}."


CLOSE = ConnectorSpec(
    id="close", name="Close", category="Sales",
    description="Finds leads and their contacts; adds a note to a lead.",
    fields=(_token("API key", "Close → Settings → Developer → API keys."),),
    client=_close, validate=_close_validate, api_url="https://api.close.com/api/v1",
    tools=(
        ToolDef("close_search_leads", "Find leads (Close search syntax, or words).",
                obj({"query": s("e.g. 'acme' or 'status:\"Potential\"' (default: recent)")}),
                _close_leads),
        ToolDef("close_add_note", "Add a note to a lead.",
                obj({"lead": s("lead id (lead_…)"), "text": s("the note")}, ("lead", "text")),
                _close_note, action=True, target_arg="lead"),
    ),
)

SPECS = [CLICKUP, TRELLO, AIRTABLE, TODOIST, GDRIVE, DROPBOX, BOX, ONEDRIVE, SALESFORCE,
         INTERCOM, ATTIO, CLOSE]
