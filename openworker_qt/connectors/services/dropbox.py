"""The Dropbox connector (Files): Lists your folders and files; makes a share link to a file or
folder."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
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
from openworker_qt.connectors.base import token_field as _token


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


SPEC = ConnectorSpec(
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
