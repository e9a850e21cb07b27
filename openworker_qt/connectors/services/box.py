"""The Box connector (Files): Finds files and folders; comments on a file."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
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


SPEC = ConnectorSpec(
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
