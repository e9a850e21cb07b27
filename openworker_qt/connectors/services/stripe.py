"""The Stripe connector (Finance): Reads payments, customers and your balance. Read-only unless
you allow changes: then it can also refund a payment (each refund asks you first).

Until the user turns "Allow changes" on, its action tools are not offered at all
(:func:`offered`), and the client refuses them too.
"""

from __future__ import annotations

import uuid
from typing import Any

from openworker_qt.connectors.base import (
    ConnectorError,
    ConnectorSpec,
    Credentials,
    Field,
    HttpApi,
    Identity,
    RetryPolicy,
    ToolDef,
    dumps,
    is_on,
    n,
    obj,
    s,
)
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.services.common import pick


class _StripeApi(HttpApi):
    allow_changes: bool = False
    test_mode: bool = False

    async def change(self, path: str, data: dict[str, Any]) -> Any:
        if not self.allow_changes:  # the tool is not offered then; refused here as well
            raise ConnectorError("config", "Stripe is connected read-only: turn on “Allow "
                                 "changes” in Settings → Connectors → Stripe first.")
        # Stripe's own guard against a repeat, beside HttpApi never repeating a write.
        return await self.request("POST", path, data=data, idempotent=False,
                                  headers={"Idempotency-Key": str(uuid.uuid4())})


def _stripe(values: Credentials, policy: RetryPolicy) -> _StripeApi:
    key = values.get("token", "")
    api = _StripeApi("Stripe", values.get("api_url") or "https://api.stripe.com", policy=policy,
                     headers={"Authorization": f"Bearer {key}", "Stripe-Version": "2024-06-20"})
    api.allow_changes = is_on(values.get("allow_changes"))
    api.test_mode = "_test_" in key
    return api


async def _stripe_validate(api: _StripeApi) -> Identity:
    acct = await api.get("v1/account")
    name = (((acct.get("settings") or {}).get("dashboard") or {}).get("display_name")
            or (acct.get("business_profile") or {}).get("name") or acct.get("email")
            or acct.get("id"))
    return Identity(str(name), "Stripe (test mode)" if api.test_mode else "Stripe")


def _money(amount: Any, currency: Any) -> str:
    try:
        return f"{int(amount) / 100:.2f} {str(currency).upper()}"
    except (TypeError, ValueError):
        return ""


async def _stripe_payments(api: _StripeApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"limit": int(a.get("limit") or 20)}
    if a.get("customer"):
        params["customer"] = a["customer"]
    data = await api.get("v1/payment_intents", params=params)
    return dumps([{"id": p.get("id"), "amount": _money(p.get("amount"), p.get("currency")),
                   "status": p.get("status"), "customer": p.get("customer"),
                   "description": p.get("description"), "created": p.get("created")}
                  for p in (data or {}).get("data") or []])


async def _stripe_customers(api: _StripeApi, a: dict[str, Any]) -> str:
    words = str(a["query"]).replace("'", "")
    data = await api.get("v1/customers/search", params={
        "query": f"email~'{words}' OR name~'{words}'", "limit": 20})
    return dumps(pick((data or {}).get("data"), "id", "name", "email", "created", "currency",
                       "delinquent"))


async def _stripe_balance(api: _StripeApi, a: dict[str, Any]) -> str:
    data = await api.get("v1/balance")
    return dumps({kind: [_money(b.get("amount"), b.get("currency")) for b in data.get(kind) or []]
                  for kind in ("available", "pending")})


async def _stripe_refund(api: _StripeApi, a: dict[str, Any]) -> str:
    payment = str(a["payment"])
    data: dict[str, Any] = {"charge" if payment.startswith(("ch_", "py_")) else
                            "payment_intent": payment}
    if a.get("amount"):
        data["amount"] = int(a["amount"])
    if a.get("reason"):
        data["reason"] = a["reason"]
    made = await api.change("v1/refunds", data)
    return (f"Refund {made.get('id', '')} of {_money(made.get('amount'), made.get('currency'))} "
            f"for {payment}: {made.get('status', '')}.")


STRIPE_READS = (
    ToolDef("stripe_payments", "List recent payments (all, or one customer's).",
            obj({"customer": s("customer id (cus_…)"), "limit": n("how many (max 100)")}),
            _stripe_payments),
    ToolDef("stripe_search_customers", "Find customers by e-mail or name.",
            obj({"query": s("part of an e-mail or name")}, ("query",)), _stripe_customers),
    ToolDef("stripe_balance", "The account's available and pending balance.", obj({}),
            _stripe_balance),
)


STRIPE_ACTIONS = (
    ToolDef("stripe_refund", "Refund a payment, in full or in part (only when changes are "
            "allowed in Settings).",
            obj({"payment": s("payment intent (pi_…) or charge (ch_…) id"),
                 "amount": n("in the currency's smallest unit (cents); default: all"),
                 "reason": s("duplicate, fraudulent or requested_by_customer")}, ("payment",)),
            _stripe_refund, action=True, target_arg="payment"),
)


def offered(tool: ToolDef, settings: Credentials) -> bool:
    """Stripe's action tools exist only once the user allowed changes."""
    return not tool.action or is_on(settings.get("allow_changes"))


SPEC = ConnectorSpec(
    id="stripe", name="Stripe", category="Finance",
    description="Reads payments, customers and your balance. Read-only unless you allow "
                "changes: then it can also refund a payment (each refund asks you first).",
    fields=(_token("Secret or restricted key", "Stripe → Developers → API keys. A restricted "
                   "key with read access is enough while changes are off."),
            Field("allow_changes", "Allow changes", "On: the agent may also refund payments "
                  "(each refund still asks you). Off: Stripe stays read-only.",
                  secret=False, required=False, kind="bool")),
    client=_stripe, validate=_stripe_validate, api_url="https://api.stripe.com",
    tools=STRIPE_READS + STRIPE_ACTIONS, extra={"offered": offered},
)
