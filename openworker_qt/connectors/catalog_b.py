"""Engineering, analytics, money, messaging, signing and design connectors:
Sentry, Bitbucket, Vercel, PostHog, Mixpanel, Amplitude, Stripe, QuickBooks,
Microsoft Teams, WhatsApp Business, Zoom, DocuSign and Figma.

All talk to the services' documented REST APIs through :class:`~.base.HttpApi`
(httpx2). Where an official Python client exists it is either for sending
events rather than reading an account (posthog, mixpanel, amplitude,
sentry-sdk), synchronous with a large generated tree (docusign-esign,
python-quickbooks, msgraph-sdk), or, for Stripe, its own retry rules that would
repeat a refund after a server error the way :class:`~.base.HttpApi` never
repeats a write. Zoom, WhatsApp Cloud and Figma have no official Python client.

Each connector: a validation call naming who the credentials belong to; read
tools (READ); action tools (EXTERNAL, asked for) naming their exact target (the
issue, the repository, the project, the feature flag, the payment, the invoice,
the channel, the phone number, the meeting topic, the signer, the file).

Stripe is read-only unless the user turns "Allow changes" on: until then its
action tools are not offered at all (:func:`offered`), and the client refuses
them too.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from typing import Any
from urllib.parse import quote

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
    n,
    obj,
    s,
)
from openworker_qt.connectors.services import pick


def _token(label: str, help_text: str) -> Field:
    return Field("token", label, help_text)


def _address(help_text: str, *, required: bool = False, placeholder: str = "") -> Field:
    return Field("api_url", "API address", help_text, secret=False, required=required,
                 placeholder=placeholder)


def _bearer(service: str, values: Credentials, default: str, policy: RetryPolicy,
            **headers: str) -> HttpApi:
    return HttpApi(service, values.get("api_url") or default, policy=policy,
                   headers={"Authorization": f"Bearer {values.get('token', '')}", **headers})


def _refused(service: str) -> ConnectorError:
    return ConnectorError("auth", f"{service} refused the credentials (expired or revoked). "
                          f"Reconnect {service} in Settings → Connectors.")


def _text(html: Any) -> str:
    """Message bodies that come as HTML, as plain text."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", str(html or ""))).strip()


def _days_ago(days: int) -> dt.date:
    return dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days)


def _on(value: str | None) -> bool:
    return str(value or "").strip().lower() in {"yes", "on", "true", "1", "y"}


# ------------------------------------------------------------------------- Sentry


class _OrgApi(HttpApi):
    """An API whose calls are scoped to one organisation or project of the settings."""

    scope: str = ""


def _sentry(values: Credentials, policy: RetryPolicy) -> _OrgApi:
    api = _OrgApi("Sentry", values.get("api_url") or "https://sentry.io/api/0", policy=policy,
                  headers={"Authorization": f"Bearer {values.get('token', '')}"})
    api.scope = quote(values.get("org", ""), safe="")
    return api


async def _sentry_validate(api: _OrgApi) -> Identity:
    me = (await api.get("")) or {}
    user = me.get("user") if isinstance(me, dict) else None
    if not user:  # the root answers an unknown token as an anonymous visitor
        raise _refused("Sentry")
    org = await api.get(f"organizations/{api.scope}/")
    return Identity(str(user.get("name") or user.get("email")), str(org.get("name") or api.scope))


async def _sentry_issues(api: _OrgApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"query": a.get("query") or "is:unresolved",
                              "statsPeriod": "14d", "limit": 25}
    if a.get("project"):
        params["project"] = a["project"]
    data = await api.get(f"organizations/{api.scope}/issues/", params=params)
    return dumps([{**{k: i.get(k) for k in ("id", "shortId", "title", "culprit", "count",
                                             "userCount", "lastSeen", "status", "permalink")},
                   "project": (i.get("project") or {}).get("slug")} for i in data or []])


async def _sentry_resolve(api: _OrgApi, a: dict[str, Any]) -> str:
    status = a.get("status") or "resolved"
    if status not in {"resolved", "unresolved", "ignored"}:
        raise ConnectorError("request", "The status is resolved, unresolved or ignored.")
    await api.request("PUT", f"organizations/{api.scope}/issues/{quote(str(a['issue']))}/",
                      json_body={"status": status}, idempotent=False)
    return f"Issue {a['issue']} marked {status}."


SENTRY = ConnectorSpec(
    id="sentry", name="Sentry", category="Engineering",
    description="Reads the errors and issues of your organisation's projects; resolves or "
                "ignores an issue.",
    fields=(_token("Auth token", "Sentry → Settings → Account → API → Personal tokens "
                   "(scopes event:read, and event:write to resolve issues)."),
            Field("org", "Organization slug", "The name in your Sentry address: "
                  "sentry.io/organizations/<slug>/.", secret=False, placeholder="acme"),
            _address("Only for the EU region (https://de.sentry.io/api/0) or a self-hosted "
                     "Sentry (https://sentry.example.com/api/0).")),
    client=_sentry, validate=_sentry_validate, api_url="https://sentry.io/api/0",
    tools=(
        ToolDef("sentry_issues", "List the organisation's issues (default: unresolved, last "
                "14 days), with how often they happened.",
                obj({"query": s("Sentry search, e.g. 'is:unresolved level:error'"),
                     "project": s("project id to limit to")}), _sentry_issues),
        ToolDef("sentry_set_issue_status", "Resolve, ignore or reopen an issue.",
                obj({"issue": s("issue id"), "status": s("resolved (default), ignored or "
                                                         "unresolved")}, ("issue",)),
                _sentry_resolve, action=True, target_arg="issue"),
    ),
)

# ---------------------------------------------------------------------- Bitbucket


def _bitbucket(values: Credentials, policy: RetryPolicy) -> HttpApi:
    import httpx2

    url = values.get("api_url") or "https://api.bitbucket.org/2.0"
    user = values.get("username", "")
    if user:  # an Atlassian API token (or an app password) with the account's e-mail
        return HttpApi("Bitbucket", url, policy=policy,
                       auth=httpx2.BasicAuth(user, values.get("token", "")))
    return _bearer("Bitbucket", values, url, policy)  # a workspace or repository access token


async def _bitbucket_validate(api: HttpApi) -> Identity:
    me = await api.get("user")
    return Identity(str(me.get("display_name") or me.get("nickname")), "Bitbucket")


def _repo(value: Any) -> str:
    text = str(value).strip().strip("/")
    if text.count("/") != 1:
        raise ConnectorError("request", "Name the repository as workspace/repository.")
    return "/".join(quote(p, safe="") for p in text.split("/"))


async def _bitbucket_prs(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"repositories/{_repo(a['repo'])}/pullrequests",
                         params={"state": (a.get("state") or "OPEN").upper(), "pagelen": 30})
    return dumps([{"id": p.get("id"), "title": p.get("title"), "state": p.get("state"),
                   "author": (p.get("author") or {}).get("display_name"),
                   "updated_on": p.get("updated_on"),
                   "url": ((p.get("links") or {}).get("html") or {}).get("href")}
                  for p in (data or {}).get("values") or []])


async def _bitbucket_comment(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post(f"repositories/{_repo(a['repo'])}/pullrequests/{int(a['pr'])}/comments",
                          json_body={"content": {"raw": a["body"]}})
    return f"Commented on {a['repo']} pull request #{a['pr']} (comment {made.get('id', '')})."


BITBUCKET = ConnectorSpec(
    id="bitbucket", name="Bitbucket", category="Engineering",
    description="Reads a repository's pull requests; comments on a pull request.",
    fields=(_token("API token", "Bitbucket → Personal settings → Atlassian account settings → "
                   "Security → API tokens (scopes read:pullrequest and write:pullrequest); or a "
                   "workspace or repository access token."),
            Field("username", "Atlassian e-mail", "For an API token: the e-mail you sign in "
                  "with. Leave empty for an access token.", secret=False, required=False)),
    client=_bitbucket, validate=_bitbucket_validate, api_url="https://api.bitbucket.org/2.0",
    tools=(
        ToolDef("bitbucket_pull_requests", "List a repository's pull requests.",
                obj({"repo": s("workspace/repository"),
                     "state": s("OPEN (default), MERGED, DECLINED")}, ("repo",)),
                _bitbucket_prs),
        ToolDef("bitbucket_comment", "Comment on a pull request.",
                obj({"repo": s("workspace/repository"), "pr": n("pull request number"),
                     "body": s("the comment (Markdown)")}, ("repo", "pr", "body")),
                _bitbucket_comment, action=True, target_arg="repo"),
    ),
)

# ------------------------------------------------------------------------- Vercel


class _VercelApi(HttpApi):
    team: str = ""

    def scoped(self, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**(params or {}), **({"teamId": self.team} if self.team else {})}


def _vercel(values: Credentials, policy: RetryPolicy) -> _VercelApi:
    api = _VercelApi("Vercel", values.get("api_url") or "https://api.vercel.com", policy=policy,
                     headers={"Authorization": f"Bearer {values.get('token', '')}"})
    api.team = values.get("team", "")
    return api


async def _vercel_validate(api: _VercelApi) -> Identity:
    me = (await api.get("v2/user")).get("user") or {}
    return Identity(f"@{me.get('username')}", api.team or "Vercel")


async def _vercel_deployments(api: _VercelApi, a: dict[str, Any]) -> str:
    params: dict[str, Any] = {"limit": 20}
    if a.get("project"):
        params["app"] = a["project"]
    if a.get("state"):
        params["state"] = str(a["state"]).upper()
    data = await api.get("v6/deployments", params=api.scoped(params))
    return dumps(pick((data or {}).get("deployments"), "uid", "name", "url", "state",
                       "target", "created", "creator"))


async def _vercel_redeploy(api: _VercelApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"name": a["project"], "deploymentId": a["deployment"]}
    if a.get("production"):
        body["target"] = "production"
    made = await api.post("v13/deployments", params=api.scoped(), json_body=body)
    return f"Redeploying {a['project']}: https://{made.get('url', '')} ({made.get('readyState', '')})."


VERCEL = ConnectorSpec(
    id="vercel", name="Vercel", category="Engineering",
    description="Reads your recent deployments and their state; redeploys a project.",
    fields=(_token("Access token", "Vercel → Account Settings → Tokens."),
            Field("team", "Team ID", "Only for a team's projects: Team Settings → General → "
                  "Team ID.", secret=False, required=False)),
    client=_vercel, validate=_vercel_validate, api_url="https://api.vercel.com",
    tools=(
        ToolDef("vercel_deployments", "List recent deployments (all projects, or one).",
                obj({"project": s("project name"),
                     "state": s("READY, ERROR, BUILDING, QUEUED, CANCELED")}),
                _vercel_deployments),
        ToolDef("vercel_redeploy", "Build and deploy an existing deployment of a project again.",
                obj({"project": s("project name"), "deployment": s("deployment id to rebuild"),
                     "production": {"type": "boolean", "description": "deploy to production"}},
                    ("project", "deployment")), _vercel_redeploy,
                action=True, target_arg="project"),
    ),
)

# ------------------------------------------------------------------------ PostHog


def _posthog(values: Credentials, policy: RetryPolicy) -> _OrgApi:
    api = _OrgApi("PostHog", values.get("api_url") or "https://us.posthog.com", policy=policy,
                  headers={"Authorization": f"Bearer {values.get('token', '')}"})
    api.scope = quote(values.get("project", ""), safe="")
    return api


async def _posthog_validate(api: _OrgApi) -> Identity:
    me = await api.get("api/users/@me/")
    return Identity(str(me.get("email") or me.get("first_name")),
                    str((me.get("organization") or {}).get("name", "")))


async def _posthog_query(api: _OrgApi, a: dict[str, Any]) -> str:
    data = await api.request("POST", f"api/projects/{api.scope}/query/", idempotent=True,
                             json_body={"query": {"kind": "HogQLQuery", "query": a["query"]}})
    columns = (data or {}).get("columns") or []
    rows = ((data or {}).get("results") or [])[:200]
    return dumps([dict(zip(columns, row, strict=False)) if isinstance(row, list) else row
                  for row in rows])


async def _posthog_flags(api: _OrgApi, a: dict[str, Any]) -> str:
    params = {"search": a["search"]} if a.get("search") else None
    data = await api.get(f"api/projects/{api.scope}/feature_flags/", params=params)
    return dumps(pick((data or {}).get("results"), "id", "key", "name", "active",
                       "rollout_percentage"))


async def _posthog_set_flag(api: _OrgApi, a: dict[str, Any]) -> str:
    active = bool(a.get("active"))
    await api.request("PATCH", f"api/projects/{api.scope}/feature_flags/{int(a['flag'])}/",
                      json_body={"active": active})
    return f"Feature flag {a['flag']} turned {'on' if active else 'off'}."


POSTHOG = ConnectorSpec(
    id="posthog", name="PostHog", category="Analytics",
    description="Answers questions about your product's events with HogQL (SQL) queries and "
                "lists feature flags; turns a feature flag on or off.",
    fields=(_token("Personal API key", "PostHog → Settings → Personal API keys (scopes "
                   "query:read, feature_flag:read, and feature_flag:write to switch flags)."),
            Field("project", "Project ID", "The number in your PostHog address: "
                  "/project/<id>/.", secret=False, placeholder="12345"),
            _address("Only for the EU cloud (https://eu.posthog.com) or a self-hosted PostHog.",
                     placeholder="https://us.posthog.com")),
    client=_posthog, validate=_posthog_validate, api_url="https://us.posthog.com",
    tools=(
        ToolDef("posthog_query", "Run a HogQL (SQL) query over the project's events, persons "
                "and sessions, e.g. select event, count() from events where timestamp > "
                "now() - interval 7 day group by event.",
                obj({"query": s("the HogQL SELECT")}, ("query",)), _posthog_query),
        ToolDef("posthog_feature_flags", "List the project's feature flags.",
                obj({"search": s("words in the flag's key or name")}), _posthog_flags),
        ToolDef("posthog_set_feature_flag", "Turn a feature flag on or off for everyone it "
                "targets.", obj({"flag": n("feature flag id"),
                                 "active": {"type": "boolean", "description": "on (true) or "
                                            "off (false)"}}, ("flag", "active")),
                _posthog_set_flag, action=True, target_arg="flag"),
    ),
)

# ----------------------------------------------------------------------- Mixpanel


def _mixpanel(values: Credentials, policy: RetryPolicy) -> _OrgApi:
    import httpx2

    api = _OrgApi("Mixpanel", values.get("api_url") or "https://mixpanel.com/api", policy=policy,
                  auth=httpx2.BasicAuth(values.get("username", ""), values.get("token", "")))
    api.scope = values.get("project", "")
    return api


async def _mixpanel_validate(api: _OrgApi) -> Identity:
    me = (await api.get("app/me")).get("results") or {}
    return Identity(str(me.get("user_email") or me.get("user_name")),
                    f"Mixpanel project {api.scope}")


async def _mixpanel_counts(api: _OrgApi, a: dict[str, Any]) -> str:
    project = str(a.get("project") or api.scope)
    params = {"project_id": project, "event": a["event"], "unit": a.get("unit") or "day",
              "from_date": a.get("from_date") or _days_ago(7).isoformat(),
              "to_date": a.get("to_date") or _days_ago(0).isoformat()}
    if a.get("by"):
        params["on"] = f'properties["{a["by"]}"]'
    data = await api.get("query/segmentation", params=params)
    return dumps({"project": project, "event": a["event"],
                  "counts": ((data or {}).get("data") or {}).get("values")})


async def _mixpanel_annotate(api: _OrgApi, a: dict[str, Any]) -> str:
    when = str(a.get("date") or dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S"))
    await api.post(f"app/projects/{quote(str(a['project']))}/annotations",
                   json_body={"date": when, "description": a["description"]})
    return f"Annotation added to project {a['project']} at {when}."


MIXPANEL = ConnectorSpec(
    id="mixpanel", name="Mixpanel", category="Analytics",
    description="Reads how often an event happened, by day or broken down by a property; "
                "adds annotations (release notes) to your charts.",
    fields=(Field("username", "Service account username", "Organization Settings → Service "
                  "Accounts → Add (role Analyst, or Admin to annotate).", secret=False),
            _token("Service account secret", "Shown once, when the service account is made."),
            Field("project", "Project ID", "Project Settings → Overview → Project ID.",
                  secret=False),
            _address("Only for EU or India data residency: https://eu.mixpanel.com/api or "
                     "https://in.mixpanel.com/api.")),
    client=_mixpanel, validate=_mixpanel_validate, api_url="https://mixpanel.com/api",
    tools=(
        ToolDef("mixpanel_event_counts", "How many times an event happened per day (or hour, "
                "week, month), optionally broken down by a property.",
                obj({"event": s("event name"), "from_date": s("YYYY-MM-DD (default: 7 days "
                                                               "ago)"),
                     "to_date": s("YYYY-MM-DD (default: today)"),
                     "unit": s("minute, hour, day, week or month"),
                     "by": s("property to break down by"),
                     "project": s("project id (default: the one in Settings)")}, ("event",)),
                _mixpanel_counts),
        ToolDef("mixpanel_annotate", "Add an annotation to a project's charts (e.g. a release).",
                obj({"project": s("project id"), "description": s("what happened"),
                     "date": s("YYYY-MM-DD HH:MM:SS (default: now)")},
                    ("project", "description")), _mixpanel_annotate,
                action=True, target_arg="project"),
    ),
)

# ---------------------------------------------------------------------- Amplitude


class _AmplitudeApi(HttpApi):
    key: str = ""


def _amplitude(values: Credentials, policy: RetryPolicy) -> _AmplitudeApi:
    import httpx2

    api = _AmplitudeApi("Amplitude", values.get("api_url") or "https://amplitude.com/api",
                        policy=policy, auth=httpx2.BasicAuth(values.get("api_key", ""),
                                                             values.get("token", "")))
    api.key = values.get("api_key", "")
    return api


async def _amplitude_validate(api: _AmplitudeApi) -> Identity:
    data = await api.get("2/events/list")
    if not isinstance(data, dict) or "data" not in data:
        raise _refused("Amplitude")
    return Identity(f"the project with key …{api.key[-4:]}", "Amplitude")


def _ymd(value: Any, default: dt.date) -> str:
    return str(value).replace("-", "") if value else default.strftime("%Y%m%d")


async def _amplitude_counts(api: _AmplitudeApi, a: dict[str, Any]) -> str:
    data = await api.get("2/events/segmentation", params={
        "e": json.dumps({"event_type": a["event"]}), "m": a.get("metric") or "totals",
        "start": _ymd(a.get("start"), _days_ago(7)), "end": _ymd(a.get("end"), _days_ago(0))})
    found = (data or {}).get("data") or {}
    return dumps({"event": a["event"], "days": found.get("xValues"),
                  "series": found.get("series"), "labels": found.get("seriesLabels")})


async def _amplitude_annotate(api: _AmplitudeApi, a: dict[str, Any]) -> str:
    params = {"app_id": a["project"], "date": a.get("date") or _days_ago(0).isoformat(),
              "label": a["label"]}
    if a.get("details"):
        params["details"] = a["details"]
    await api.request("POST", "2/annotations", params=params)
    return f"Annotation “{a['label']}” added to project {a['project']}."


AMPLITUDE = ConnectorSpec(
    id="amplitude", name="Amplitude", category="Analytics",
    description="Reads how often an event happened (totals or unique users, per day); adds "
                "annotations (releases, campaigns) to your charts.",
    fields=(Field("api_key", "API key", "Amplitude → Settings → Projects → your project → "
                  "General.", secret=False),
            _token("Secret key", "On the same page, below the API key."),
            _address("Only for EU data residency: https://analytics.eu.amplitude.com/api.")),
    client=_amplitude, validate=_amplitude_validate, api_url="https://amplitude.com/api",
    tools=(
        ToolDef("amplitude_event_counts", "How many times an event happened (or how many users "
                "did it) per day.",
                obj({"event": s("event type"), "metric": s("totals (default) or uniques"),
                     "start": s("YYYY-MM-DD (default: 7 days ago)"),
                     "end": s("YYYY-MM-DD (default: today)")}, ("event",)), _amplitude_counts),
        ToolDef("amplitude_annotate", "Add an annotation to a project's charts.",
                obj({"project": s("project (app) id"), "label": s("short title"),
                     "details": s("more words"), "date": s("YYYY-MM-DD (default: today)")},
                    ("project", "label")), _amplitude_annotate,
                action=True, target_arg="project"),
    ),
)

# ------------------------------------------------------------------------- Stripe


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
    api.allow_changes = _on(values.get("allow_changes"))
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
    return not tool.action or _on(settings.get("allow_changes"))


STRIPE = ConnectorSpec(
    id="stripe", name="Stripe", category="Finance",
    description="Reads payments, customers and your balance. Read-only unless you allow "
                "changes: then it can also refund a payment (each refund asks you first).",
    fields=(_token("Secret or restricted key", "Stripe → Developers → API keys. A restricted "
                   "key with read access is enough while changes are off."),
            Field("allow_changes", "Allow changes", "Type yes to let the agent refund "
                  "payments (each one still asks you). Leave empty to keep Stripe read-only.",
                  secret=False, required=False, placeholder="no")),
    client=_stripe, validate=_stripe_validate, api_url="https://api.stripe.com",
    tools=STRIPE_READS + STRIPE_ACTIONS, extra={"offered": offered},
)

SPECS = [SENTRY, BITBUCKET, VERCEL, POSTHOG, MIXPANEL, AMPLITUDE, STRIPE]
