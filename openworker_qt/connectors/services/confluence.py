"""The Confluence connector (Docs): Search pages and create new ones."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    HttpApi,
    Identity,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.services.atlassian import (
    ATLASSIAN_FIELDS,
    atlassian_client,
    atlassian_site,
)


async def _confluence_validate(api: HttpApi) -> Identity:
    me = await api.get("wiki/rest/api/user/current")
    return Identity(str(me.get("displayName") or me.get("email")), atlassian_site(api))


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


SPEC = ConnectorSpec(
    id="confluence", name="Confluence", category="Docs",
    description="Search pages and create new ones.",
    fields=ATLASSIAN_FIELDS, client=atlassian_client("Confluence"), validate=_confluence_validate,
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
