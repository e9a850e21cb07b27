"""The QuickBooks connector (Finance): Reads open invoices and anything else in your books
(customers, bills, payments) through read-only queries; e-mails an invoice to its customer."""

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
from openworker_qt.connectors.base import path_segment as _seg
from openworker_qt.connectors.oauth import OAuth, access_token
from openworker_qt.connectors.services.common import OrgApi, address_field, oauth_fields

QBO_MINOR = {"minorversion": "75"}


#: Intuit's sign-in: a confidential client (its secret as HTTP Basic credentials).
QUICKBOOKS_OAUTH = OAuth("Intuit", "https://appcenter.intuit.com/connect/oauth2",
                         "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer",
                         ("com.intuit.quickbooks.accounting",), client_auth="basic")


def _quickbooks(values: Credentials, policy: RetryPolicy) -> OrgApi:
    base = (values.get("api_url") or "https://quickbooks.api.intuit.com").rstrip("/")
    realm = quote(values.get("company", ""), safe="")
    token = access_token(QUICKBOOKS_OAUTH, values)  # blocking: built in a worker
    api = OrgApi("QuickBooks", f"{base}/v3/company/{realm}", policy=policy,
                  headers={"Authorization": f"Bearer {token}",
                           "Accept": "application/json"})
    api.scope = realm
    return api


async def _quickbooks_validate(api: OrgApi) -> Identity:
    info = (await api.get(f"companyinfo/{api.scope}", params=QBO_MINOR)).get("CompanyInfo") or {}
    return Identity(str(info.get("CompanyName") or info.get("LegalName") or api.scope),
                    "QuickBooks")


async def _qbo_select(api: OrgApi, query: str) -> dict[str, Any]:
    if not query.strip().lower().startswith("select"):
        raise ConnectorError("request", "QuickBooks queries read only: start with SELECT.")
    data = await api.get("query", params={"query": query, **QBO_MINOR})
    return dict((data or {}).get("QueryResponse") or {})


async def _quickbooks_invoices(api: OrgApi, a: dict[str, Any]) -> str:
    where = "Balance > '0'"
    if a.get("customer"):
        where += f" AND CustomerRef = '{int(a['customer'])}'"
    found = await _qbo_select(api, f"select * from Invoice where {where} "
                                   "orderby DueDate maxresults 50")
    return dumps([{"id": i.get("Id"), "number": i.get("DocNumber"),
                   "customer": (i.get("CustomerRef") or {}).get("name"),
                   "total": i.get("TotalAmt"), "balance": i.get("Balance"),
                   "due": i.get("DueDate"), "email": (i.get("BillEmail") or {}).get("Address")}
                  for i in found.get("Invoice") or []])


async def _quickbooks_query(api: OrgApi, a: dict[str, Any]) -> str:
    return dumps(await _qbo_select(api, str(a["query"])))


async def _quickbooks_send(api: OrgApi, a: dict[str, Any]) -> str:
    params = dict(QBO_MINOR)
    if a.get("to"):
        params["sendTo"] = a["to"]
    sent = await api.request("POST", f"invoice/{_seg(a['invoice'])}/send", params=params,
                             headers={"Content-Type": "application/octet-stream"})
    invoice = (sent or {}).get("Invoice") or {}
    to = (invoice.get("BillEmail") or {}).get("Address") or a.get("to") or "the customer"
    return f"Invoice {invoice.get('DocNumber') or a['invoice']} e-mailed to {to}."


SPEC = ConnectorSpec(
    id="quickbooks", name="QuickBooks", category="Finance",
    description="Reads open invoices and anything else in your books (customers, bills, "
                "payments) through read-only queries; e-mails an invoice to its customer.",
    fields=(*oauth_fields("Intuit", "developer.intuit.com → your app → Keys and credentials "
                          "(add http://127.0.0.1 as a redirect URI)"),
            Field("company", "Company ID (realm)", "QuickBooks → the gear → Account and "
                  "settings → Billing & subscription → Company ID.", secret=False),
            address_field("Only for a sandbox company: https://sandbox-quickbooks.api.intuit.com.")),
    client=_quickbooks, validate=_quickbooks_validate, extra={"oauth": QUICKBOOKS_OAUTH},
    api_url="https://quickbooks.api.intuit.com",
    tools=(
        ToolDef("quickbooks_open_invoices", "List unpaid invoices (all, or one customer's).",
                obj({"customer": s("customer id")}), _quickbooks_invoices),
        ToolDef("quickbooks_query", "Read anything in the books with a QuickBooks query, e.g. "
                "select * from Customer where DisplayName like 'Acme%'.",
                obj({"query": s("a SELECT query")}, ("query",)), _quickbooks_query),
        ToolDef("quickbooks_send_invoice", "E-mail an invoice (to its customer's address, or "
                "another).", obj({"invoice": s("invoice id"),
                                  "to": s("e-mail address (default: the customer's)")},
                                 ("invoice",)), _quickbooks_send,
                action=True, target_arg="invoice"),
    ),
)
