"""The OneDrive and SharePoint connector (Files): Finds files in your OneDrive or a SharePoint
library, and SharePoint sites; makes a view link to a file."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

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
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


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


SPEC = ConnectorSpec(
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
