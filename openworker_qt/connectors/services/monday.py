"""The monday.com connector (Projects): Items on your boards; updates on items."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    Credentials,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import GraphQLApi


class _Monday(GraphQLApi):
    path = ""


def _monday(values: Credentials, policy: RetryPolicy) -> GraphQLApi:
    return _Monday("monday.com", _url(values, "https://api.monday.com/v2"), policy=policy,
                   headers={"Authorization": values.get("token", ""), "API-Version": "2024-10"})


async def _monday_validate(api: GraphQLApi) -> Identity:
    data = await api.gql("query { me { name account { name } } }")
    me = data.get("me") or {}
    return Identity(str(me.get("name")), str((me.get("account") or {}).get("name", "")))


async def _monday_items(api: GraphQLApi, a: dict[str, Any]) -> str:
    data = await api.gql("query($b: [ID!]) { boards(ids: $b) { name items_page(limit: 50) "
                         "{ items { id name state } } } }", {"b": [str(a["board"])]})
    return dumps(data.get("boards"))


async def _monday_update(api: GraphQLApi, a: dict[str, Any]) -> str:
    await api.gql("mutation($i: ID!, $t: String!) { create_update(item_id: $i, body: $t) "
                  "{ id } }", {"i": str(a["item"]), "t": a["text"]}, read=False)
    return f"Update posted on item {a['item']}."


SPEC = ConnectorSpec(
    id="monday", name="monday.com", category="Projects",
    description="Items on your boards; updates on items.",
    fields=(_token("API token", "monday.com → your avatar → Developers → My access tokens."),),
    client=_monday, validate=_monday_validate, api_url="https://api.monday.com/v2",
    tools=(
        ToolDef("monday_board_items", "List a board's items.",
                obj({"board": s("board id")}, ("board",)), _monday_items),
        ToolDef("monday_update", "Post an update on an item.",
                obj({"item": s("item id"), "text": s("the update")}, ("item", "text")),
                _monday_update, action=True, target_arg="item"),
    ),
)
