"""The Google Drive connector (Files): Finds files and reads documents; shares a file with
someone."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    HttpApi,
    Identity,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.services.common import GOOGLE_FIELDS, google_oauth, oauth_bearer, pick

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


SPEC = ConnectorSpec(
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
