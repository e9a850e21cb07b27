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
    bearer_headers,
    dumps,
    is_on,
    n,
    obj,
    owner_repo,
    refused,
    s,
)
from openworker_qt.connectors.base import bearer_api as _bearer
from openworker_qt.connectors.base import path_segment as _seg
from openworker_qt.connectors.base import token_field as _token
from openworker_qt.connectors.oauth import OAuth, access_token
from openworker_qt.connectors.services import MICROSOFT_OAUTH, oauth_fields, pick


def _address(help_text: str, *, required: bool = False, placeholder: str = "") -> Field:
    return Field("api_url", "API address", help_text, secret=False, required=required,
                 placeholder=placeholder)


def _text(html: Any) -> str:
    """Message bodies that come as HTML, as plain text."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", str(html or ""))).strip()


def _days_ago(days: int) -> dt.date:
    return dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days)


_on = is_on  # a yes/no field's value

# ------------------------------------------------------------------------- Sentry


class _OrgApi(HttpApi):
    """An API whose calls are scoped to one organisation or project of the settings."""

    scope: str = ""


def _sentry(values: Credentials, policy: RetryPolicy) -> _OrgApi:
    api = _OrgApi("Sentry", values.get("api_url") or "https://sentry.io/api/0", policy=policy,
                  headers=bearer_headers(values))
    api.scope = quote(values.get("org", ""), safe="")
    return api


async def _sentry_validate(api: _OrgApi) -> Identity:
    me = (await api.get("")) or {}
    user = me.get("user") if isinstance(me, dict) else None
    if not user:  # the root answers an unknown token as an anonymous visitor
        raise refused("Sentry")
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
    await api.request("PUT", f"organizations/{api.scope}/issues/{_seg(a['issue'])}/",
                      json_body={"status": status}, idempotent=False)
    return f"Issue {a['issue']} marked {status}."


SENTRY = ConnectorSpec(
    id="sentry", name="Sentry", category="Operations",
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
    try:
        me = await api.get("user")
    except ConnectorError as exc:
        # A token Bitbucket accepts but may not read its profile with (a repository or
        # workspace access token, or no read:user scope) is refused with 403, not 401.
        if exc.status == 403:
            return Identity("an access token", "Bitbucket")
        raise
    return Identity(str(me.get("display_name") or me.get("nickname")), "Bitbucket")


def _repo(value: Any) -> str:
    return owner_repo(value, "workspace/repository")


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
    id="bitbucket", name="Bitbucket", category="Code",
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
                     headers=bearer_headers(values))
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
    id="vercel", name="Vercel", category="Operations",
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
                  headers=bearer_headers(values))
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
    return Identity(str(me.get("user_email") or me.get("user_name") or "a service account"),
                    f"Mixpanel project {api.scope}")


async def _mixpanel_counts(api: _OrgApi, a: dict[str, Any]) -> str:
    project = str(a.get("project") or api.scope)
    params = {"project_id": project, "event": a["event"], "unit": a.get("unit") or "day",
              "from_date": a.get("from_date") or _days_ago(7).isoformat(),
              "to_date": a.get("to_date") or _days_ago(0).isoformat()}
    if a.get("by"):
        params["on"] = 'properties["{}"]'.format(str(a["by"]).replace('"', ""))
    data = await api.get("query/segmentation", params=params)
    return dumps({"project": project, "event": a["event"],
                  "counts": ((data or {}).get("data") or {}).get("values")})


async def _mixpanel_annotate(api: _OrgApi, a: dict[str, Any]) -> str:
    when = str(a.get("date") or dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S"))
    await api.post(f"app/projects/{_seg(a['project'])}/annotations",
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
        raise refused("Amplitude")
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
            Field("allow_changes", "Allow changes", "On: the agent may also refund payments "
                  "(each refund still asks you). Off: Stripe stays read-only.",
                  secret=False, required=False, kind="bool")),
    client=_stripe, validate=_stripe_validate, api_url="https://api.stripe.com",
    tools=STRIPE_READS + STRIPE_ACTIONS, extra={"offered": offered},
)


# --------------------------------------------------------------------- QuickBooks

QBO_MINOR = {"minorversion": "75"}


#: Intuit's sign-in: a confidential client (its secret as HTTP Basic credentials).
QUICKBOOKS_OAUTH = OAuth("Intuit", "https://appcenter.intuit.com/connect/oauth2",
                         "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer",
                         ("com.intuit.quickbooks.accounting",), client_auth="basic")


def _quickbooks(values: Credentials, policy: RetryPolicy) -> _OrgApi:
    base = (values.get("api_url") or "https://quickbooks.api.intuit.com").rstrip("/")
    realm = quote(values.get("company", ""), safe="")
    token = access_token(QUICKBOOKS_OAUTH, values)  # blocking: built in a worker
    api = _OrgApi("QuickBooks", f"{base}/v3/company/{realm}", policy=policy,
                  headers={"Authorization": f"Bearer {token}",
                           "Accept": "application/json"})
    api.scope = realm
    return api


async def _quickbooks_validate(api: _OrgApi) -> Identity:
    info = (await api.get(f"companyinfo/{api.scope}", params=QBO_MINOR)).get("CompanyInfo") or {}
    return Identity(str(info.get("CompanyName") or info.get("LegalName") or api.scope),
                    "QuickBooks")


async def _qbo_select(api: _OrgApi, query: str) -> dict[str, Any]:
    if not query.strip().lower().startswith("select"):
        raise ConnectorError("request", "QuickBooks queries read only: start with SELECT.")
    data = await api.get("query", params={"query": query, **QBO_MINOR})
    return dict((data or {}).get("QueryResponse") or {})


async def _quickbooks_invoices(api: _OrgApi, a: dict[str, Any]) -> str:
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


async def _quickbooks_query(api: _OrgApi, a: dict[str, Any]) -> str:
    return dumps(await _qbo_select(api, str(a["query"])))


async def _quickbooks_send(api: _OrgApi, a: dict[str, Any]) -> str:
    params = dict(QBO_MINOR)
    if a.get("to"):
        params["sendTo"] = a["to"]
    sent = await api.request("POST", f"invoice/{_seg(a['invoice'])}/send", params=params,
                             headers={"Content-Type": "application/octet-stream"})
    invoice = (sent or {}).get("Invoice") or {}
    to = (invoice.get("BillEmail") or {}).get("Address") or a.get("to") or "the customer"
    return f"Invoice {invoice.get('DocNumber') or a['invoice']} e-mailed to {to}."


QUICKBOOKS = ConnectorSpec(
    id="quickbooks", name="QuickBooks", category="Finance",
    description="Reads open invoices and anything else in your books (customers, bills, "
                "payments) through read-only queries; e-mails an invoice to its customer.",
    fields=(*oauth_fields("Intuit", "developer.intuit.com → your app → Keys and credentials "
                          "(add http://127.0.0.1 as a redirect URI)"),
            Field("company", "Company ID (realm)", "QuickBooks → the gear → Account and "
                  "settings → Billing & subscription → Company ID.", secret=False),
            _address("Only for a sandbox company: https://sandbox-quickbooks.api.intuit.com.")),
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

# ---------------------------------------------------------------- Microsoft Teams


#: Microsoft's sign-in (a public client with PKCE), with Teams' permissions.
TEAMS_OAUTH = OAuth(MICROSOFT_OAUTH.service, MICROSOFT_OAUTH.authorize_url,
                    MICROSOFT_OAUTH.token_url,
                    ("offline_access", "User.Read", "Team.ReadBasic.All",
                     "Channel.ReadBasic.All", "ChannelMessage.Read.All", "ChannelMessage.Send",
                     "Chat.ReadWrite"))


def _teams(values: Credentials, policy: RetryPolicy) -> HttpApi:
    token = access_token(TEAMS_OAUTH, values)  # blocking: built in a worker
    return _bearer("Microsoft Teams", {**values, "token": token},
                   "https://graph.microsoft.com/v1.0", policy)


async def _teams_validate(api: HttpApi) -> Identity:
    me = await api.get("me", params={"$select": "displayName,userPrincipalName"})
    return Identity(str(me.get("displayName") or me.get("userPrincipalName")), "Microsoft Teams")


async def _teams_list(api: HttpApi, a: dict[str, Any]) -> str:
    teams = (await api.get("me/joinedTeams")).get("value") or []
    out = []
    for team in teams[:20]:
        chans = (await api.get(f"teams/{_seg(team.get('id'))}/channels",
                               params={"$select": "id,displayName"})).get("value") or []
        out.append({"team": team.get("displayName"), "id": team.get("id"),
                    "channels": pick(chans, "id", "displayName")})
    return dumps(out)


def _where(a: dict[str, Any]) -> str:
    if a.get("chat"):
        return f"chats/{_seg(a['chat'])}/messages"
    if a.get("team") and a.get("channel"):
        return f"teams/{_seg(a['team'])}/channels/{_seg(a['channel'])}/messages"
    raise ConnectorError("request", "Name a chat, or a team and one of its channels.")


async def _teams_read(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(_where(a), params={"$top": int(a.get("limit") or 20)})
    return dumps([{"id": m.get("id"), "when": m.get("createdDateTime"),
                   "from": ((m.get("from") or {}).get("user") or {}).get("displayName"),
                   "text": _text((m.get("body") or {}).get("content"))}
                  for m in (data or {}).get("value") or [] if m.get("messageType") in
                  (None, "message")])


async def _teams_post(api: HttpApi, a: dict[str, Any]) -> str:
    made = await api.post(_where(a), json_body={"body": {"contentType": "text",
                                                         "content": a["text"]}})
    return f"Posted in {a.get('channel') or a.get('chat')}: {made.get('webUrl', '')}".strip()


TEAMS = ConnectorSpec(
    id="teams", name="Microsoft Teams", category="Chat",
    description="Reads your teams, their channels and chats; posts a message in a channel or "
                "chat.",
    fields=oauth_fields("Microsoft", "the Microsoft Entra admin center → App registrations "
                        "(a public client with the redirect http://localhost)"),
    extra={"oauth": TEAMS_OAUTH},
    client=_teams, validate=_teams_validate, api_url="https://graph.microsoft.com/v1.0",
    tools=(
        ToolDef("teams_list", "List the teams you are in and their channels.", obj({}),
                _teams_list),
        ToolDef("teams_read", "Read the recent messages of a channel (team and channel) or "
                "of a chat.", obj({"team": s("team id"), "channel": s("channel id"),
                                   "chat": s("chat id (instead of team and channel)"),
                                   "limit": n("how many (max 50)")}), _teams_read),
        ToolDef("teams_post", "Post a message in a channel (team and channel).",
                obj({"team": s("team id"), "channel": s("channel id"),
                     "text": s("the message")}, ("team", "channel", "text")),
                _teams_post, action=True, target_arg="channel"),
        ToolDef("teams_send_chat", "Send a message in a chat.",
                obj({"chat": s("chat id"), "text": s("the message")}, ("chat", "text")),
                _teams_post, action=True, target_arg="chat"),
    ),
)

# ------------------------------------------------------------- WhatsApp Business


class _MetaGraph(HttpApi):
    """Meta's Graph API: an expired token comes back as HTTP 400, error code 190."""

    async def request(self, method: str, path: str, **kw: Any) -> Any:
        try:
            return await super().request(method, path, **kw)
        except ConnectorError as exc:
            if exc.status == 400 and ('"code": 190' in exc.message
                                      or "OAuthException" in exc.message):
                raise refused(self.service) from exc
            raise


def _whatsapp(values: Credentials, policy: RetryPolicy) -> _MetaGraph:
    return _MetaGraph("WhatsApp", values.get("api_url") or "https://graph.facebook.com/v21.0",
                      policy=policy,
                      headers=bearer_headers(values))


class _WhatsApp:
    """The Graph client with the numbers of the settings."""

    def __init__(self, values: Credentials, policy: RetryPolicy) -> None:
        self.api = _whatsapp(values, policy)
        self.phone = quote(values.get("phone", ""), safe="")
        self.account = quote(values.get("account", ""), safe="")

    async def __aenter__(self) -> _WhatsApp:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.api.aclose()


async def _whatsapp_validate(wa: _WhatsApp) -> Identity:
    info = await wa.api.get(wa.phone, params={"fields": "display_phone_number,verified_name"})
    return Identity(str(info.get("verified_name") or info.get("display_phone_number")),
                    str(info.get("display_phone_number") or "WhatsApp"))


async def _whatsapp_templates(wa: _WhatsApp, a: dict[str, Any]) -> str:
    if not wa.account:
        raise ConnectorError("config", "Add the WhatsApp Business Account ID in Settings → "
                             "Connectors → WhatsApp to list templates.")
    data = await wa.api.get(f"{wa.account}/message_templates", params={
        "fields": "name,language,status,category,components", "limit": 50})
    return dumps([{"name": t.get("name"), "language": t.get("language"),
                   "status": t.get("status"), "category": t.get("category"),
                   "text": " / ".join(str(c.get("text")) for c in t.get("components") or []
                                      if c.get("text"))}
                  for t in (data or {}).get("data") or []])


async def _whatsapp_send(wa: _WhatsApp, a: dict[str, Any]) -> str:
    if not re.fullmatch(r"\+?[\d\s().-]{6,24}", str(a["to"]).strip()):
        raise ConnectorError("request", "Give the phone number with its country code, "
                             "e.g. +4915112345678.")
    to = re.sub(r"\D", "", str(a["to"]))
    body: dict[str, Any] = {"messaging_product": "whatsapp", "recipient_type": "individual",
                            "to": to}
    if a.get("template"):
        template: dict[str, Any] = {"name": a["template"],
                                    "language": {"code": a.get("language") or "en_US"}}
        if a.get("parameters"):
            template["components"] = [{"type": "body", "parameters": [
                {"type": "text", "text": str(p)} for p in a["parameters"]]}]
        body.update(type="template", template=template)
    elif a.get("text"):
        body.update(type="text", text={"body": a["text"]})
    else:
        raise ConnectorError("request", "Give the text of the message, or a template.")
    sent = await wa.api.post(f"{wa.phone}/messages", json_body=body)
    ids = [m.get("id") for m in (sent or {}).get("messages") or []]
    return f"Sent to +{to} (message {', '.join(map(str, ids))})."


WHATSAPP = ConnectorSpec(
    id="whatsapp", name="WhatsApp Business", category="Chat",
    description="Reads your approved message templates; sends a WhatsApp message from your "
                "business number (free text within 24 hours of the customer's last message, "
                "else a template).",
    fields=(_token("Access token", "Meta Business Suite → Business settings → System users → "
                   "Generate token (whatsapp_business_messaging, "
                   "whatsapp_business_management)."),
            Field("phone", "Phone number ID", "WhatsApp Manager → Phone numbers, or the "
                  "app's WhatsApp → API Setup page.", secret=False),
            Field("account", "WhatsApp Business Account ID", "On the same API Setup page; "
                  "needed to list templates.", secret=False, required=False)),
    client=_WhatsApp, validate=_whatsapp_validate, api_url="https://graph.facebook.com/v21.0",
    tools=(
        ToolDef("whatsapp_templates", "List the message templates of the business account.",
                obj({}), _whatsapp_templates),
        ToolDef("whatsapp_send", "Send a WhatsApp message: text, or a template with its "
                "values.", obj({"to": s("phone number with country code, e.g. +4915112345678"),
                               "text": s("the message (only within 24 h of theirs)"),
                               "template": s("template name"),
                               "language": s("template language, e.g. en_US"),
                               "parameters": {"type": "array", "items": {"type": "string"},
                                              "description": "the template's values, in order"}},
                              ("to",)), _whatsapp_send, action=True, target_arg="to"),
    ),
)

# --------------------------------------------------------------------------- Zoom


# Zoom's access tokens (an hour long), kept in memory per app while they last, so a
# tool call does not sign in again each time. Keyed by a digest of the credentials.
_ZOOM_TOKENS: dict[str, tuple[str, float]] = {}


class _ZoomApi(HttpApi):
    """Zoom's REST API with a Server-to-Server OAuth app: an access token is asked
    for with the app's credentials before the first call (and again, once, when Zoom
    refuses a kept one)."""

    oauth_url = "https://zoom.us/oauth/token"
    account = ""
    credentials: tuple[str, str] = ("", "")

    def _key(self) -> str:
        import hashlib

        raw = "\n".join((self.oauth_url, self.account, *self.credentials))
        return hashlib.sha256(raw.encode()).hexdigest()

    async def request(self, method: str, path: str, **kw: Any) -> Any:
        import time

        kept = _ZOOM_TOKENS.get(self._key())
        fresh = not kept or kept[1] <= time.monotonic()
        access = await self._authorize() if fresh or not kept else kept[0]
        headers = dict(kw.pop("headers", None) or {})
        try:
            return await super().request(
                method, path, headers={**headers, "Authorization": f"Bearer {access}"}, **kw)
        except ConnectorError as exc:
            if exc.kind != "auth" or fresh:
                raise
        _ZOOM_TOKENS.pop(self._key(), None)  # revoked or expired early: sign in once more
        access = await self._authorize()
        return await super().request(
            method, path, headers={**headers, "Authorization": f"Bearer {access}"}, **kw)

    async def _authorize(self) -> str:
        import base64
        import time

        basic = base64.b64encode(":".join(self.credentials).encode()).decode()
        try:
            got = await super().request(
                "POST", self.oauth_url, idempotent=True, absolute=True,
                params={"grant_type": "account_credentials", "account_id": self.account},
                headers={"Authorization": f"Basic {basic}"})
        except ConnectorError as exc:
            if exc.status in (400, 401):  # invalid_client: wrong or revoked credentials
                raise refused("Zoom") from exc
            raise
        access = str((got or {}).get("access_token") or "")
        if not access:
            raise refused("Zoom")
        lasts = float((got or {}).get("expires_in") or 3600)
        _ZOOM_TOKENS[self._key()] = (access, time.monotonic() + max(0.0, lasts - 120))
        return access


def _zoom(values: Credentials, policy: RetryPolicy) -> _ZoomApi:
    api = _ZoomApi("Zoom", values.get("api_url") or "https://api.zoom.us/v2", policy=policy)
    api.oauth_url = values.get("oauth_url") or _ZoomApi.oauth_url
    api.account = values.get("account_id", "")
    api.credentials = (values.get("client_id", ""), values.get("token", ""))
    return api


async def _zoom_validate(api: _ZoomApi) -> Identity:
    me = await api.get("users/me")
    name = " ".join(p for p in (me.get("first_name"), me.get("last_name")) if p)
    return Identity(str(me.get("email") or name), "Zoom")


async def _zoom_meetings(api: _ZoomApi, a: dict[str, Any]) -> str:
    data = await api.get("users/me/meetings", params={"type": a.get("kind") or "upcoming",
                                                      "page_size": 50})
    return dumps(pick((data or {}).get("meetings"), "id", "topic", "start_time", "duration",
                       "timezone", "join_url"))


async def _zoom_create(api: _ZoomApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"topic": a["topic"], "type": 2, "start_time": a["start"],
                            "duration": int(a.get("duration") or 30)}
    if a.get("timezone"):
        body["timezone"] = a["timezone"]
    if a.get("agenda"):
        body["agenda"] = a["agenda"]
    made = await api.post("users/me/meetings", json_body=body)
    return f"Meeting “{a['topic']}” scheduled: {made.get('join_url', made.get('id', ''))}"


ZOOM = ConnectorSpec(
    id="zoom", name="Zoom", category="Meetings",
    description="Reads your upcoming meetings and their links; schedules a meeting.",
    fields=(Field("account_id", "Account ID", "Zoom App Marketplace → Develop → Build app → "
                  "Server-to-Server OAuth (scopes meeting:read, meeting:write, user:read); "
                  "its App credentials page shows these three values.", secret=False),
            Field("client_id", "Client ID", "On the same page.", secret=False),
            _token("Client secret", "On the same page."),
            _address("Only for Zoom for Government: https://api.zoomgov.com/v2."),
            Field("oauth_url", "Sign-in address", "Only for Zoom for Government: "
                  "https://zoomgov.com/oauth/token.", secret=False, required=False)),
    client=_zoom, validate=_zoom_validate, api_url="https://api.zoom.us/v2",
    tools=(
        ToolDef("zoom_meetings", "List your meetings (upcoming by default).",
                obj({"kind": s("upcoming, scheduled, live or previous_meetings")}),
                _zoom_meetings),
        ToolDef("zoom_schedule_meeting", "Schedule a meeting and get its join link.",
                obj({"topic": s("the meeting's title"),
                     "start": s("start time, e.g. 2026-12-02T10:00:00Z"),
                     "duration": n("minutes (default 30)"), "timezone": s("e.g. Europe/Berlin"),
                     "agenda": s("description")}, ("topic", "start")), _zoom_create,
                action=True, target_arg="topic"),
    ),
)

# ----------------------------------------------------------------------- DocuSign


#: DocuSign's sign-in (production accounts; a developer account signs in at
#: account-d.docusign.com: its token address goes in as ``token_url``).
DOCUSIGN_OAUTH = OAuth("DocuSign", "https://account.docusign.com/oauth/auth",
                       "https://account.docusign.com/oauth/token", ("signature", "extended"),
                       client_auth="basic")


def _docusign(values: Credentials, policy: RetryPolicy) -> _OrgApi:
    base = (values.get("api_url") or "").rstrip("/")
    if not base.startswith(("https://", "http://")):
        raise ConnectorError("config", "The {service} address must start with https://.",
                             service="DocuSign")
    if not base.endswith("/restapi"):
        base += "/restapi"
    token = access_token(DOCUSIGN_OAUTH, values)  # blocking: built in a worker
    api = _OrgApi("DocuSign", f"{base}/v2.1", policy=policy,
                  headers={"Authorization": f"Bearer {token}"})
    api.scope = "accounts/" + quote(values.get("account", ""), safe="")
    return api


async def _docusign_validate(api: _OrgApi) -> Identity:
    info = await api.get(api.scope)
    return Identity(str(info.get("accountName") or info.get("accountIdGuid")), "DocuSign")


async def _docusign_envelopes(api: _OrgApi, a: dict[str, Any]) -> str:
    params = {"from_date": (a.get("since") or _days_ago(30).isoformat()), "count": 50,
              "order_by": "last_modified", "order": "desc"}
    if a.get("status"):
        params["status"] = a["status"]
    data = await api.get(f"{api.scope}/envelopes", params=params)
    return dumps(pick((data or {}).get("envelopes"), "envelopeId", "emailSubject", "status",
                       "sentDateTime", "completedDateTime", "lastModifiedDateTime"))


async def _docusign_templates(api: _OrgApi, a: dict[str, Any]) -> str:
    data = await api.get(f"{api.scope}/templates", params={"count": 100})
    return dumps([{"templateId": t.get("templateId"), "name": t.get("name"),
                   "description": t.get("description"),
                   "roles": [r.get("roleName") for r in
                             ((t.get("recipients") or {}).get("signers") or [])]}
                  for t in (data or {}).get("envelopeTemplates") or []])


async def _docusign_send(api: _OrgApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"templateId": a["template"], "status": "sent", "templateRoles": [
        {"email": a["email"], "name": a["name"], "roleName": a.get("role") or "Signer"}]}
    if a.get("subject"):
        body["emailSubject"] = a["subject"]
    made = await api.post(f"{api.scope}/envelopes", json_body=body)
    return f"Sent for signature to {a['email']} (envelope {made.get('envelopeId', '')})."


DOCUSIGN = ConnectorSpec(
    id="docusign", name="DocuSign", category="Signing",
    description="Reads your envelopes and whether they are signed, and your templates; sends "
                "a template to someone to sign.",
    fields=(*oauth_fields("DocuSign", "DocuSign → Settings → Apps and Keys (its integration "
                          "key; add http://127.0.0.1 as a redirect URI)"),
            Field("account", "API account ID", "DocuSign → Settings → Apps and Keys → API "
                  "Account ID.", secret=False),
            _address("Your account's base URI, on the same page (e.g. https://na3.docusign.net;"
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

# -------------------------------------------------------------------------- Figma


async def _figma_refusal(response: Any) -> None:
    """Figma answers a bad or expired token with 403 "Invalid token": read it as the
    401 it means (a 403 for a file you may not open stays a 403)."""
    if response.status_code == 403:
        await response.aread()
        if "invalid token" in response.text.lower():
            response.status_code = 401


def _figma(values: Credentials, policy: RetryPolicy) -> HttpApi:
    api = HttpApi("Figma", values.get("api_url") or "https://api.figma.com", policy=policy,
                  headers={"X-Figma-Token": values.get("token", "")})
    api._http.event_hooks["response"].append(_figma_refusal)
    return api


async def _figma_validate(api: HttpApi) -> Identity:
    me = await api.get("v1/me")
    return Identity(str(me.get("handle") or me.get("email")), "Figma")


def _file_key(value: Any) -> str:
    """A file's key, also from its address (figma.com/design/<key>/…)."""
    text = str(value).strip()
    found = re.search(r"figma\.com/(?:file|design|board|proto)/([A-Za-z0-9]+)", text)
    key = found.group(1) if found else text
    if not re.fullmatch(r"[A-Za-z0-9]+", key):
        raise ConnectorError("request", "Give a Figma file's key or its address.")
    return key


async def _figma_file(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"v1/files/{_file_key(a['file'])}", params={"depth": 2})
    pages = ((data or {}).get("document") or {}).get("children") or []
    return dumps({"name": data.get("name"), "last_modified": data.get("lastModified"),
                  "pages": [{"page": p.get("name"), "frames": [
                      f.get("name") for f in p.get("children") or []][:100]} for p in pages]})


async def _figma_comments(api: HttpApi, a: dict[str, Any]) -> str:
    data = await api.get(f"v1/files/{_file_key(a['file'])}/comments")
    return dumps([{"id": c.get("id"), "by": (c.get("user") or {}).get("handle"),
                   "message": c.get("message"), "at": c.get("created_at"),
                   "resolved": bool(c.get("resolved_at")), "reply_to": c.get("parent_id")
                   or None} for c in (data or {}).get("comments") or []])


async def _figma_comment(api: HttpApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"message": a["message"]}
    if a.get("reply_to"):
        body["comment_id"] = str(a["reply_to"])
    made = await api.post(f"v1/files/{_file_key(a['file'])}/comments", json_body=body)
    return f"Commented on file {a['file']} (comment {made.get('id', '')})."


FIGMA = ConnectorSpec(
    id="figma", name="Figma", category="Design",
    description="Reads a design file's pages and frames and its comments; comments on a "
                "file or replies to a comment.",
    fields=(_token("Personal access token", "Figma → Settings → Security → Personal access "
                   "tokens (scopes file_content:read, file_comments:read and :write)."),),
    client=_figma, validate=_figma_validate, api_url="https://api.figma.com",
    tools=(
        ToolDef("figma_file", "Outline a design file: its pages and their frames.",
                obj({"file": s("file key or figma.com address")}, ("file",)), _figma_file),
        ToolDef("figma_comments", "Read a file's comments.",
                obj({"file": s("file key or figma.com address")}, ("file",)), _figma_comments),
        ToolDef("figma_comment", "Comment on a file, or reply to a comment.",
                obj({"file": s("file key or figma.com address"), "message": s("the comment"),
                     "reply_to": s("comment id to reply to")}, ("file", "message")),
                _figma_comment, action=True, target_arg="file"),
    ),
)

SPECS = [SENTRY, BITBUCKET, VERCEL, POSTHOG, MIXPANEL, AMPLITUDE, STRIPE, QUICKBOOKS, TEAMS,
         WHATSAPP, ZOOM, DOCUSIGN, FIGMA]
