"""The DocuSign connector (Signing): Reads your envelopes and whether they are signed, and your
templates; sends a template to someone to sign."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    obj,
    s,
)
from openworker_qt.connectors.oauth import OAuth, access_token
from openworker_qt.connectors.services.common import (
    OrgApi,
    address_field,
    days_ago,
    oauth_fields,
    pick,
)

#: DocuSign's sign-in (production accounts; a developer account signs in at
#: account-d.docusign.com: its token address goes in as ``token_url``).
DOCUSIGN_OAUTH = OAuth("DocuSign", "https://account.docusign.com/oauth/auth",
                       "https://account.docusign.com/oauth/token", ("signature", "extended"),
                       client_auth="basic")


def _docusign(values: Credentials, policy: RetryPolicy) -> OrgApi:
    base = (values.get("api_url") or "").rstrip("/")
    if not base.startswith(("https://", "http://")):
        raise ConnectorError("config", "The {service} address must start with https://.",
                             service="DocuSign")
    if not base.endswith("/restapi"):
        base += "/restapi"
    token = access_token(DOCUSIGN_OAUTH, values)  # blocking: built in a worker
    api = OrgApi("DocuSign", f"{base}/v2.1", policy=policy,
                  headers={"Authorization": f"Bearer {token}"})
    api.scope = "accounts/" + quote(values.get("account", ""), safe="")
    return api


async def _docusign_validate(api: OrgApi) -> Identity:
    info = await api.get(api.scope)
    return Identity(str(info.get("accountName") or info.get("accountIdGuid")), "DocuSign")


async def _docusign_envelopes(api: OrgApi, a: dict[str, Any]) -> str:
    params = {"from_date": (a.get("since") or days_ago(30).isoformat()), "count": 50,
              "order_by": "last_modified", "order": "desc"}
    if a.get("status"):
        params["status"] = a["status"]
    data = await api.get(f"{api.scope}/envelopes", params=params)
    return dumps(pick((data or {}).get("envelopes"), "envelopeId", "emailSubject", "status",
                       "sentDateTime", "completedDateTime", "lastModifiedDateTime"))


async def _docusign_templates(api: OrgApi, a: dict[str, Any]) -> str:
    data = await api.get(f"{api.scope}/templates", params={"count": 100})
    return dumps([{"templateId": t.get("templateId"), "name": t.get("name"),
                   "description": t.get("description"),
                   "roles": [r.get("roleName") for r in
                             ((t.get("recipients") or {}).get("signers") or [])]}
                  for t in (data or {}).get("envelopeTemplates") or []])


async def _docusign_send(api: OrgApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"templateId": a["template"], "status": "sent", "templateRoles": [
        {"email": a["email"], "name": a["name"], "roleName": a.get("role") or "Signer"}]}
    if a.get("subject"):
        body["emailSubject"] = a["subject"]
    made = await api.post(f"{api.scope}/envelopes", json_body=body)
    return f"Sent for signature to {a['email']} (envelope {made.get('envelopeId', '')})."


SPEC = ConnectorSpec(
    id="docusign", name="DocuSign", category="Signing",
    description="Reads your envelopes and whether they are signed, and your templates; sends "
                "a template to someone to sign.",
    fields=(*oauth_fields("DocuSign", "DocuSign → Settings → Apps and Keys (its integration "
                          "key; add http://127.0.0.1 as a redirect URI)"),
            Field("account", "API account ID", "DocuSign → Settings → Apps and Keys → API "
                  "Account ID.", secret=False),
            address_field("Your account's base URI, on the same page (e.g. https://na3.docusign.net;"
                     " https://demo.docusign.net for a developer account).", required=True,
                     placeholder="https://na3.docusign.net")),
    client=_docusign, validate=_docusign_validate, extra={"oauth": DOCUSIGN_OAUTH},
    tools=(
        ToolDef("docusign_envelopes", "List envelopes sent in the last 30 days (or since a "
                "date) and their state.",
                obj({"since": s("YYYY-MM-DD"), "status": s("sent, delivered, completed, "
                                                          "declined or voided")}),
                _docusign_envelopes),
        ToolDef("docusign_templates", "List the account's templates and their roles.", obj({}),
                _docusign_templates),
        ToolDef("docusign_send_template", "Send a template to one person to sign.",
                obj({"template": s("template id"), "email": s("signer's e-mail"),
                     "name": s("signer's full name"), "role": s("template role (default: "
                                                              "Signer)"),
                     "subject": s("e-mail subject")}, ("template", "email", "name")),
                _docusign_send, action=True, target_arg="email"),
    ),
)
