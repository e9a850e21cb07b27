"""The Notion connector (Docs): Search pages shared with the integration; add text to a page."""

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
    path_segment,
    s,
)
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import token_field as _token_field


def _notion(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Notion", values, "https://api.notion.com/v1", policy,
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


SPEC = ConnectorSpec(
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
