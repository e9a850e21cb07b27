"""The HubSpot connector (Sales): Search contacts; add notes to them."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    Credentials,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    bearer_api,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.base import token_field as _token


def _hubspot(values: Credentials, policy: RetryPolicy) -> HttpApi:
    return bearer_api("HubSpot", values, "https://api.hubapi.com", policy)


async def _hubspot_validate(api: HttpApi) -> Identity:
    info = await api.get("account-info/v3/details")
    return Identity(f"account {info.get('portalId')}", "HubSpot")


async def _hubspot_contacts(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.request("POST", "crm/v3/objects/contacts/search", idempotent=True, json_body={
        "query": a.get("query", ""), "limit": 20,
        "properties": ["firstname", "lastname", "email", "company"]})
    return dumps([{"id": r.get("id"), **(r.get("properties") or {})}
                  for r in data.get("results") or []])


async def _hubspot_note(api: HttpApi, a: dict[str, Any]) -> str:
    import time

    made = await api.post("crm/v3/objects/notes", json_body={
        "properties": {"hs_note_body": a["text"], "hs_timestamp": int(time.time() * 1000)},
        "associations": [{"to": {"id": str(a["contact"])}, "types": [
            {"associationCategory": "HUBSPOT_DEFINED", "associationTypeId": 202}]}]})
    return f"Note {made.get('id', '')} added to contact {a['contact']}."


SPEC = ConnectorSpec(
    id="hubspot", name="HubSpot", category="Sales",
    description="Search contacts; add notes to them.",
    fields=(_token("Private app token", "HubSpot → Settings → Integrations → Private apps "
                   "(scopes crm.objects.contacts.read and .write)."),),
    client=_hubspot, validate=_hubspot_validate, api_url="https://api.hubapi.com",
    tools=(
        ToolDef("hubspot_search_contacts", "Search contacts by name, e-mail or company.",
                obj({"query": s("words to find")}), _hubspot_contacts),
        ToolDef("hubspot_add_note", "Add a note to a contact.",
                obj({"contact": s("contact id"), "text": s("the note")}, ("contact", "text")),
                _hubspot_note, action=True, target_arg="contact"),
    ),
)
