"""The Attio connector (Sales): Reads people, companies and deals; adds a note to a record."""

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
    n,
    obj,
    refused,
    s,
)
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token


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


SPEC = ConnectorSpec(
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
