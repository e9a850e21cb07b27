"""The Trello connector (Projects): Reads your boards and their cards; adds cards and comments
on them."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    Credentials,
    Field,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import api_url as _url
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


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


SPEC = ConnectorSpec(
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
