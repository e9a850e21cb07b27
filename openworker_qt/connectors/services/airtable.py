"""The Airtable connector (Projects): Reads your bases and their records; adds records to a
table."""

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
    n,
    obj,
    s,
)
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


def _airtable(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return _bearer("Airtable", values, "https://api.airtable.com/v0", policy)


async def _airtable_validate(api: HttpApi) -> Identity:
    me = await api.get("meta/whoami")
    return Identity(str(me.get("email") or me.get("id")), "Airtable")


async def _airtable_bases(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get("meta/bases")
    return dumps(pick(data.get("bases"), "id", "name", "permissionLevel"))


async def _airtable_records(api: HttpApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"maxRecords": int(a.get("limit") or 50)}
    if a.get("formula"):
        params["filterByFormula"] = a["formula"]
    data = await api.get(f"{_id(a['base'])}/{_id(a['table'])}", params=params)
    return dumps(pick(data.get("records"), "id", "fields"))


async def _airtable_create(api: HttpApi, a: dict[str, Any]) -> str:
    fields = a.get("fields")
    if not isinstance(fields, dict) or not fields:
        raise ConnectorError("request", "Give the new record's fields as an object, "
                             'e.g. {"Name": "Ana"}.')
    made = await api.post(f"{_id(a['base'])}/{_id(a['table'])}",
                          json_body={"fields": fields, "typecast": True})
    return f"Record {made.get('id', '')} added to {a['table']} in base {a['base']}."


SPEC = ConnectorSpec(
    id="airtable", name="Airtable", category="Projects",
    description="Reads your bases and their records; adds records to a table.",
    fields=(_token("Personal access token", "airtable.com/create/tokens (scopes "
                   "data.records:read, data.records:write, schema.bases:read; "
                   "user.email:read shows your address)."),),
    client=_airtable, validate=_airtable_validate, api_url="https://api.airtable.com/v0",
    tools=(
        ToolDef("airtable_bases", "List the bases the token can see.", obj({}),
                _airtable_bases),
        ToolDef("airtable_list_records", "List a table's records, optionally filtered.",
                obj({"base": s("base id (app…)"), "table": s("table name or id"),
                     "formula": s("an Airtable formula that records must match"),
                     "limit": n("at most this many (default 50)")}, ("base", "table")),
                _airtable_records),
        ToolDef("airtable_create_record", "Add a record to a table.",
                obj({"base": s("base id (app…)"), "table": s("table name or id"),
                     "fields": {"type": "object", "description": "field name → value"}},
                    ("base", "table", "fields")),
                _airtable_create, action=True, target_arg="base"),
    ),
)
