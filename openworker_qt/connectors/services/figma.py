"""The Figma connector (Design): Reads a design file's pages and frames and its comments;
comments on a file or replies to a comment."""

from __future__ import annotations

import re
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
from openworker_qt.connectors.base import token_field as _token


async def _figma_refusal(response: Any) -> None:
    """Figma answers a bad or expired token with 403 "Invalid token": read it as the
    401 it means (a 403 for a file you may not open stays a 403)."""
    if response.status_code == 403:
        await response.aread()
        if "invalid token" in response.text.lower():
            response.status_code = 401


def _figma(values: Credentials, policy: RetryPolicy) -> HttpApi:
    api = HttpApi("Figma", values.get("api_url") or "https://api.figma.com", policy=policy,
                  headers={"X-Figma-Token": values.get("token", "")})
    api._http.event_hooks["response"].append(_figma_refusal)
    return api


async def _figma_validate(api: HttpApi) -> Identity:
    me = await api.get("v1/me")
    return Identity(str(me.get("handle") or me.get("email")), "Figma")


def _file_key(value: Any) -> str:
    """A file's key, also from its address (figma.com/design/<key>/…)."""
    text = str(value).strip()
    found = re.search(r"figma\.com/(?:file|design|board|proto)/([A-Za-z0-9]+)", text)
    key = found.group(1) if found else text
    if not re.fullmatch(r"[A-Za-z0-9]+", key):
        raise ConnectorError("request", "Give a Figma file's key or its address.")
    return key


async def _figma_file(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"v1/files/{_file_key(a['file'])}", params={"depth": 2})
    pages = ((data or {}).get("document") or {}).get("children") or []
    return dumps({"name": data.get("name"), "last_modified": data.get("lastModified"),
                  "pages": [{"page": p.get("name"), "frames": [
                      f.get("name") for f in p.get("children") or []][:100]} for p in pages]})


async def _figma_comments(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"v1/files/{_file_key(a['file'])}/comments")
    return dumps([{"id": c.get("id"), "by": (c.get("user") or {}).get("handle"),
                   "message": c.get("message"), "at": c.get("created_at"),
                   "resolved": bool(c.get("resolved_at")), "reply_to": c.get("parent_id")
                   or None} for c in (data or {}).get("comments") or []])


async def _figma_comment(api: HttpApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"message": a["message"]}
    if a.get("reply_to"):
        body["comment_id"] = str(a["reply_to"])
    made = await api.post(f"v1/files/{_file_key(a['file'])}/comments", json_body=body)
    return f"Commented on file {a['file']} (comment {made.get('id', '')})."


SPEC = ConnectorSpec(
    id="figma", name="Figma", category="Design",
    description="Reads a design file's pages and frames and its comments; comments on a "
                "file or replies to a comment.",
    fields=(_token("Personal access token", "Figma → Settings → Security → Personal access "
                   "tokens (scopes file_content:read, file_comments:read and :write)."),),
    client=_figma, validate=_figma_validate, api_url="https://api.figma.com",
    tools=(
        ToolDef("figma_file", "Outline a design file: its pages and their frames.",
                obj({"file": s("file key or figma.com address")}, ("file",)), _figma_file),
        ToolDef("figma_comments", "Read a file's comments.",
                obj({"file": s("file key or figma.com address")}, ("file",)), _figma_comments),
        ToolDef("figma_comment", "Comment on a file, or reply to a comment.",
                obj({"file": s("file key or figma.com address"), "message": s("the comment"),
                     "reply_to": s("comment id to reply to")}, ("file", "message")),
                _figma_comment, action=True, target_arg="file"),
    ),
)
