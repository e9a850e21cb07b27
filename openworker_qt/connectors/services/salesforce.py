"""The Salesforce connector (Sales): Reads accounts, contacts, opportunities and any record
(SOQL); changes fields on a record."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    bearer_headers,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import path_segment as _id
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import site_url

SALESFORCE_VERSION = "v61.0"


def _salesforce(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return HttpApi("Salesforce", site_url(values, "Salesforce"), policy=policy,
                   headers=bearer_headers(values))


async def _salesforce_validate(api: HttpApi) -> Identity:
    me = await api.get("services/oauth2/userinfo")
    return Identity(str(me.get("preferred_username") or me.get("name")),
                    urlparse(str(api._http.base_url)).hostname or "")


async def _salesforce_query(api: HttpApi, a: dict[str, Any]) -> str:
    soql = str(a["soql"]).strip()
    if not soql.lower().startswith("select"):
        raise ConnectorError("request", "Only SELECT queries are read here.")
    data = await api.get(f"services/data/{SALESFORCE_VERSION}/query", params={"q": soql})
    rows = [{k: v for k, v in r.items() if k != "attributes"} for r in data.get("records") or []]
    return dumps({"total": data.get("totalSize"), "records": rows})


async def _salesforce_update(api: HttpApi, a: dict[str, Any]) -> str:
    fields = a.get("fields")
    if not isinstance(fields, dict) or not fields:
        raise ConnectorError("request", "Give the fields to change as an object, "
                             'e.g. {"StageName": "Closed Won"}.')
    await api.request("PATCH", f"services/data/{SALESFORCE_VERSION}/sobjects/"
                      f"{_id(a['object'])}/{_id(a['record'])}", json_body=fields)
    return f"{a['object']} {a['record']} updated: {', '.join(fields)}."


SPEC = ConnectorSpec(
    id="salesforce", name="Salesforce", category="Sales",
    description="Reads accounts, contacts, opportunities and any record (SOQL); "
                "changes fields on a record.",
    fields=(Field("site", "Salesforce address", "Your My Domain address, e.g. "
                  "https://acme.my.salesforce.com", secret=False,
                  placeholder="https://acme.my.salesforce.com"),
            _token("Access token", "An OAuth access token for that address (for example "
                   "`sf org display` → Access Token).")),
    client=_salesforce, validate=_salesforce_validate,
    tools=(
        ToolDef("salesforce_query", "Run a SOQL SELECT query.",
                obj({"soql": s("e.g. SELECT Id, Name FROM Opportunity WHERE IsClosed = false")},
                    ("soql",)), _salesforce_query),
        ToolDef("salesforce_update_record", "Change fields on a record.",
                obj({"object": s("object type, e.g. Opportunity"), "record": s("record id"),
                     "fields": {"type": "object", "description": "field name → new value"}},
                    ("object", "record", "fields")),
                _salesforce_update, action=True, target_arg="record"),
    ),
)
