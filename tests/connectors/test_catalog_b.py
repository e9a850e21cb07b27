"""Sentry, Bitbucket, Vercel, PostHog, Mixpanel, Amplitude, Stripe, QuickBooks,
Teams, WhatsApp, Zoom, DocuSign and Figma, each against a local stub of its
service (real HTTP on 127.0.0.1). Each connector is a :class:`Case`, a row of
routes below, put through the six checks of test_every_connector.py (validation,
a read, an action parked → approved → sent once, an expired token, 429 with
Retry-After, 500); after them, the particular rules of the set."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from openworker_qt.connectors.base import ConnectorError
from openworker_qt.connectors.registry import catalogue
from openworker_qt.runtime import Runtime
from tests.connectors.helpers import (
    Case,
    connect,
    json_reply,
    park_and_approve,
    run_tool,
    values,
)
from tests.providers.stubs import StubServer

CASES = [
    Case("sentry", {"token": "{token}", "org": "acme", "api_url": "{url}/api/0"},
         [("GET", "/api/0/", {"user": {"name": "Ana Lima"}}),
          ("GET", "/api/0/organizations/acme/", {"slug": "acme", "name": "Acme"})],
         "Connected as Ana Lima in Acme",
         ("sentry_issues", {},
          [("GET", "/api/0/organizations/acme/issues/",
            [{"id": "42", "shortId": "WEB-1A", "title": "TypeError: x is undefined",
              "count": "120", "project": {"slug": "web"}}])], "TypeError: x is undefined"),
         ("sentry_set_issue_status", {"issue": "42"},
          [("PUT", "/api/0/organizations/acme/issues/42/", {"id": "42", "status": "resolved"})],
          "42", None)),
    Case("bitbucket", {"token": "{token}", "username": "ana@acme.com", "api_url": "{url}/2.0"},
         [("GET", "/2.0/user", {"display_name": "Ana Lima"})], "Connected as Ana Lima in Bitbucket",
         ("bitbucket_pull_requests", {"repo": "acme/web"},
          [("GET", "/2.0/repositories/acme/web/pullrequests",
            {"values": [{"id": 3, "title": "Faster search", "state": "OPEN",
                         "author": {"display_name": "Bo"}}]})], "Faster search"),
         ("bitbucket_comment", {"repo": "acme/web", "pr": 3, "body": "Looks good"},
          [("POST", "/2.0/repositories/acme/web/pullrequests/3/comments", {"id": 9})],
          "acme/web", None)),
    Case("vercel", {"token": "{token}", "api_url": "{url}"},
         [("GET", "/v2/user", {"user": {"username": "ana"}})], "Connected as @ana in Vercel",
         ("vercel_deployments", {"project": "web"},
          [("GET", "/v6/deployments", {"deployments": [
              {"uid": "dpl_1", "name": "web", "url": "web-abc.vercel.app", "state": "ERROR"}]})],
          "web-abc.vercel.app"),
         ("vercel_redeploy", {"project": "web", "deployment": "dpl_1"},
          [("POST", "/v13/deployments", {"id": "dpl_2", "url": "web-def.vercel.app",
                                        "readyState": "QUEUED"})], "web", None)),
    Case("posthog", {"token": "{token}", "project": "7", "api_url": "{url}"},
         [("GET", "/api/users/@me/", {"email": "ana@acme.com",
                                      "organization": {"name": "Acme"}})],
         "Connected as ana@acme.com in Acme",
         ("posthog_query", {"query": "select event, count() from events group by event"},
          [("POST", "/api/projects/7/query/", {"columns": ["event", "count()"],
                                               "results": [["signed_up", 31]]})], "signed_up"),
         ("posthog_set_feature_flag", {"flag": 12, "active": False},
          [("PATCH", "/api/projects/7/feature_flags/12/", {"id": 12, "active": False})], "12", None)),
    Case("mixpanel", {"username": "brief.sa", "token": "{token}", "project": "301",
                      "api_url": "{url}/api"},
         [("GET", "/api/app/me", {"results": {"user_email": "brief.sa@acme.com"}})],
         "Connected as brief.sa@acme.com in Mixpanel project 301",
         ("mixpanel_event_counts", {"event": "Signed up"},
          [("GET", "/api/query/segmentation", {"data": {"series": ["2026-11-30"], "values": {
              "Signed up": {"2026-11-30": 48}}}})], "48"),
         ("mixpanel_annotate", {"project": "301", "description": "Release 2.4"},
          [("POST", "/api/app/projects/301/annotations", {"status": "ok"})], "301", None)),
    Case("amplitude", {"api_key": "amp-key-9f3c", "token": "{token}", "api_url": "{url}/api"},
         [("GET", "/api/2/events/list", {"data": [{"name": "Signed up"}]})],
         "Connected as the project with key …9f3c in Amplitude",
         ("amplitude_event_counts", {"event": "Signed up"},
          [("GET", "/api/2/events/segmentation", {"data": {
              "series": [[17, 23]], "xValues": ["2026-11-29", "2026-11-30"]}})], "2026-11-30"),
         ("amplitude_annotate", {"project": "187520", "label": "Release 2.4"},
          [("POST", "/api/2/annotations", {"success": True})], "187520", None)),
    Case("stripe", {"token": "{token}", "allow_changes": "yes", "api_url": "{url}"},
         [("GET", "/v1/account", {"id": "acct_1", "settings": {"dashboard": {
             "display_name": "Acme Store"}}})], "Connected as Acme Store in Stripe (test mode)",
         ("stripe_payments", {},
          [("GET", "/v1/payment_intents", {"data": [
              {"id": "pi_1", "amount": 1999, "currency": "eur", "status": "succeeded"}]})],
          "19.99 EUR"),
         ("stripe_refund", {"payment": "pi_1"},
          [("POST", "/v1/refunds", {"id": "re_1", "amount": 1999, "currency": "eur",
                                   "status": "succeeded"})], "pi_1", None),
         expired=json_reply({"error": {"message": "Expired API Key provided",
                                       "type": "invalid_request_error"}}, 401),
         token="sk_test_abcdef123456"),
]

QBO = "/v3/company/9130"
GRAPH_EXPIRED = json_reply({"error": {"message": "Error validating access token: Session has "
                                      "expired", "type": "OAuthException", "code": 190}}, 400)
CASES += [
    Case("quickbooks", {"token": "{token}", "company": "9130", "api_url": "{url}"},
         [("GET", QBO + "/companyinfo/9130", {"CompanyInfo": {"CompanyName": "Acme Books"}})],
         "Connected as Acme Books in QuickBooks",
         ("quickbooks_open_invoices", {},
          [("GET", QBO + "/query", {"QueryResponse": {"Invoice": [
              {"Id": "130", "DocNumber": "1037", "CustomerRef": {"name": "Bo's Bikes"},
               "Balance": 362.07}]}})], "Bo's Bikes"),
         ("quickbooks_send_invoice", {"invoice": "130"},
          [("POST", QBO + "/invoice/130/send", {"Invoice": {
              "DocNumber": "1037", "BillEmail": {"Address": "bo@bikes.example"}}})], "130", None),
         expired=json_reply({"fault": {"error": [{"message": "message=AuthenticationFailed"}],
                                       "type": "AUTHENTICATION"}}, 401)),
    Case("teams", {"token": "{token}", "api_url": "{url}/v1.0"},
         [("GET", "/v1.0/me", {"displayName": "Ana Lima"})],
         "Connected as Ana Lima in Microsoft Teams",
         ("teams_read", {"team": "t1", "channel": "c1"},
          [("GET", "/v1.0/teams/t1/channels/c1/messages", {"value": [
              {"id": "1", "messageType": "message", "from": {"user": {"displayName": "Bo"}},
               "body": {"contentType": "html", "content": "<p>Release at <b>5pm</b></p>"}}]})],
          "Release at 5pm"),
         ("teams_post", {"team": "t1", "channel": "c1", "text": "Notes are up"},
          [("POST", "/v1.0/teams/t1/channels/c1/messages", {"id": "2", "webUrl": "https://x"})],
          "c1", None),
         expired=json_reply({"error": {"code": "InvalidAuthenticationToken",
                                       "message": "Lifetime validation failed"}}, 401)),
    Case("whatsapp", {"token": "{token}", "phone": "1065", "account": "2044",
                      "api_url": "{url}/v21.0"},
         [("GET", "/v21.0/1065", {"verified_name": "Acme Store",
                                  "display_phone_number": "+1 555 0100"})],
         "Connected as Acme Store in +1 555 0100",
         ("whatsapp_templates", {},
          [("GET", "/v21.0/2044/message_templates", {"data": [
              {"name": "order_ready", "language": "en_US", "status": "APPROVED",
               "components": [{"type": "BODY", "text": "Your order {{1}} is ready"}]}]})],
          "order_ready"),
         ("whatsapp_send", {"to": "+49 151 1234567", "text": "Your order is ready"},
          [("POST", "/v21.0/1065/messages", {"messages": [{"id": "wamid.1"}]})],
          "+49 151 1234567", None),
         expired=GRAPH_EXPIRED),
    Case("zoom", {"account_id": "acc1", "client_id": "cid1", "token": "{token}",
                  "api_url": "{url}/v2", "oauth_url": "{url}/oauth/token"},
         [("GET", "/v2/users/me", {"email": "ana@acme.com"})], "Connected as ana@acme.com in Zoom",
         ("zoom_meetings", {},
          [("GET", "/v2/users/me/meetings", {"meetings": [
              {"id": 81, "topic": "Design review", "join_url": "https://zoom.us/j/81"}]})],
          "Design review"),
         ("zoom_schedule_meeting", {"topic": "Weekly sync", "start": "2026-12-02T10:00:00Z"},
          [("POST", "/v2/users/me/meetings", {"id": 82, "join_url": "https://zoom.us/j/82"})],
          "Weekly sync", None),
         always=[("POST", "/oauth/token", {"access_token": "zoom-access-1",
                                           "expires_in": 3599})]),
    Case("docusign", {"token": "{token}", "account": "a1b2", "api_url": "{url}"},
         [("GET", "/restapi/v2.1/accounts/a1b2", {"accountName": "Acme Inc"})],
         "Connected as Acme Inc in DocuSign",
         ("docusign_envelopes", {},
          [("GET", "/restapi/v2.1/accounts/a1b2/envelopes", {"envelopes": [
              {"envelopeId": "e1", "emailSubject": "NDA for Bo", "status": "delivered"}]})],
          "NDA for Bo"),
         ("docusign_send_template", {"template": "tpl1", "email": "bo@bikes.example",
                                     "name": "Bo Berg"},
          [("POST", "/restapi/v2.1/accounts/a1b2/envelopes", {"envelopeId": "e2",
                                                              "status": "sent"})],
          "bo@bikes.example", None),
         expired=json_reply({"errorCode": "AUTHORIZATION_INVALID_TOKEN",
                             "message": "The access token provided is expired"}, 401)),
    Case("figma", {"token": "{token}", "api_url": "{url}"},
         [("GET", "/v1/me", {"handle": "ana", "email": "ana@acme.com"})],
         "Connected as ana in Figma",
         ("figma_comments", {"file": "https://www.figma.com/design/AbC123/Checkout?node-id=1"},
          [("GET", "/v1/files/AbC123/comments", {"comments": [
              {"id": "c1", "message": "Button too small", "user": {"handle": "bo"}}]})],
          "Button too small"),
         ("figma_comment", {"file": "AbC123", "message": "Fixed in v2", "reply_to": "c1"},
          [("POST", "/v1/files/AbC123/comments", {"id": "c2"})], "AbC123", None),
         expired=json_reply({"status": 403, "err": "Invalid token"}, 403)),
]

IDS = [c.id for c in CASES]


def test_every_connector_of_the_set_is_in_the_catalogue_with_plain_words() -> None:
    specs = {spec.id: spec for spec in catalogue()}
    for case in CASES:
        spec = specs[case.id]
        assert spec.description and all(f.help for f in spec.fields)
        assert any(t.action for t in spec.tools) and any(not t.action for t in spec.tools)
        assert all(t.target_arg for t in spec.tools if t.action)


# ------------------------------------------------------------- particular rules


async def test_stripe_is_read_only_until_changes_are_allowed(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.id == "stripe")
    stub.add("GET", "/v1/account", json_reply({"id": "acct_1", "email": "ana@acme.com"}))
    plain = {k: v for k, v in values(case, stub).items() if k != "allow_changes"}
    await rt.connectors.connect("stripe", plain)
    names = {t.name for t in rt.connectors.tools() if t.origin == "connector:stripe"}
    assert {"stripe_payments", "stripe_search_customers", "stripe_balance"} <= names
    assert "stripe_refund" not in names
    # Even called directly, the client refuses to change anything.
    spec = rt.connectors.spec("stripe")
    refund = next(t for t in spec.tools if t.name == "stripe_refund")
    async with spec.client(plain, rt.connectors.policy) as api:
        with pytest.raises(ConnectorError) as raised:
            await refund.run(api, {"payment": "pi_1"})
    assert "Allow changes" in raised.value.message
    assert not [s for s in stub.seen if s.path == "/v1/refunds"]
    # Turned on, the refund is offered (and asks, as the action test shows).
    await rt.connectors.connect("stripe", {**plain, "allow_changes": "yes"})
    assert "stripe_refund" in {t.name for t in rt.connectors.tools()}


async def test_stripe_refund_is_form_encoded_with_an_idempotency_key(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.id == "stripe")
    await connect(rt, case, stub)
    stub.add("POST", "/v1/refunds", json_reply({"id": "re_1", "amount": 500,
                                                "currency": "usd", "status": "pending"}))
    out = await run_tool(rt, "stripe_refund", {"payment": "ch_9", "amount": 500}, tmp_path)
    assert "5.00 USD" in out.content
    sent = stub.seen[-1]
    assert sent.headers["content-type"].startswith("application/x-www-form-urlencoded")
    assert sent.body == b"charge=ch_9&amount=500"
    assert sent.headers["idempotency-key"]


async def test_sentry_validation_checks_the_organisation(rt: Runtime, stub: StubServer) -> None:
    case = next(c for c in CASES if c.id == "sentry")
    stub.add("GET", "/api/0/", json_reply({"user": {"name": "Ana"}}))
    stub.add("GET", "/api/0/organizations/acme/", json_reply({"detail": "Not found"}, 404))
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect("sentry", values(case, stub))
    assert raised.value.kind == "request" and "404" in raised.value.message
    assert rt.connectors.state("sentry").status == "not connected"
    # An unknown token is answered as an anonymous visitor: that is a refusal too.
    stub.routes.clear()
    stub.add("GET", "/api/0/", json_reply({"version": "0", "user": None}))
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect("sentry", values(case, stub))
    assert raised.value.kind == "auth"


async def test_zoom_signs_in_with_the_app_credentials_and_a_refusal_is_reported(
    rt: Runtime, stub: StubServer
) -> None:
    case = next(c for c in CASES if c.id == "zoom")
    stub.add("POST", "/oauth/token", json_reply(
        {"reason": "Invalid client_id or client_secret", "error": "invalid_client"}, 400))
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect("zoom", values(case, stub))
    assert raised.value.kind == "auth" and "Reconnect Zoom" in raised.value.message
    assert rt.connectors.state("zoom").status == "not connected"
    asked = stub.seen[-1]
    assert asked.query == {"grant_type": "account_credentials", "account_id": "acc1"}
    assert asked.headers["authorization"] == "Basic " + base64.b64encode(
        f"cid1:{case.token}".encode()).decode()
    assert not [s for s in stub.seen if s.path.startswith("/v2/")]  # nothing asked without it


async def test_figma_tells_a_refused_token_from_a_file_you_may_not_open(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.id == "figma")
    await connect(rt, case, stub)
    stub.add("GET", "/v1/files/Zz9/comments", json_reply({"status": 403, "err": "Forbidden"}, 403))
    result = await run_tool(rt, "figma_comments", {"file": "Zz9"}, tmp_path)
    assert result.is_error and "HTTP 403" in result.content
    assert rt.connectors.state("figma").status == "connected"
    result = await run_tool(rt, "figma_comments", {"file": "../me"}, tmp_path)
    assert result.is_error and "file's key" in result.content


async def test_quickbooks_queries_only_read(rt: Runtime, stub: StubServer, tmp_path: Path) -> None:
    case = next(c for c in CASES if c.id == "quickbooks")
    await connect(rt, case, stub)
    result = await run_tool(rt, "quickbooks_query", {"query": "delete from Invoice"}, tmp_path)
    assert result.is_error and "SELECT" in result.content
    assert not stub.seen
    stub.add("GET", QBO + "/query", json_reply({"QueryResponse": {"Customer": [
        {"DisplayName": "Acme Retail"}]}}))
    result = await run_tool(rt, "quickbooks_query",
                            {"query": "select * from Customer"}, tmp_path)
    assert "Acme Retail" in result.content
    assert stub.seen[-1].query["query"] == "select * from Customer"


async def test_teams_sends_in_a_chat_with_the_chat_as_target(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.id == "teams")
    await connect(rt, case, stub)
    stub.add("POST", "/v1.0/chats/19:abc/messages", json_reply({"id": "m1"}))
    tool = next(t for t in rt.connectors.tools() if t.name == "teams_send_chat")
    assert tool.risk_class().value == "external" and tool.target({"chat": "19:abc"}) == "19:abc"
    item, _ = await park_and_approve(rt, tmp_path, "teams_send_chat",
                                     {"chat": "19:abc", "text": "On my way"})
    assert item.target == "19:abc"
    sent = [s for s in stub.seen if s.path == "/v1.0/chats/19:abc/messages"]
    assert len(sent) == 1 and sent[0].body["body"]["content"] == "On my way"


async def test_an_id_from_the_model_names_one_thing_and_never_another_address(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.id == "teams")
    await connect(rt, case, stub)
    stub.add("GET", "/v1.0/teams/t1/channels/c1/me/messages", json_reply({"value": []}))
    stub.add("GET", "/v1.0/teams/t1/channels/c 1#x?y/messages", json_reply({"value": []}))
    result = await run_tool(rt, "teams_read", {"team": "t1", "channel": "c 1#x?y"}, tmp_path)
    assert not result.is_error, result.content
    # Sent as one encoded segment of the channel's address.
    assert [s.path for s in stub.seen] == ["/v1.0/teams/t1/channels/c 1#x?y/messages"]
    for walk in ("c1/../../../../me", "..", "%2e%2e", "c1/%2E%2E/me"):
        result = await run_tool(rt, "teams_read", {"team": "t1", "channel": walk}, tmp_path)
        assert result.is_error and "not a valid id" in result.content
    assert len(stub.seen) == 1


async def test_whatsapp_sends_only_to_a_phone_number(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.id == "whatsapp")
    await connect(rt, case, stub)
    result = await run_tool(rt, "whatsapp_send", {"to": "+49 151 1234567 or 1", "text": "x"},
                            tmp_path)
    assert result.is_error and "country code" in result.content
    stub.add("POST", "/v21.0/1065/messages", json_reply({"messages": [{"id": "wamid.2"}]}))
    result = await run_tool(rt, "whatsapp_send", {"to": "+49 (151) 123-4567",
                                                  "template": "order_ready",
                                                  "parameters": ["A-17"]}, tmp_path)
    assert not result.is_error, result.content
    body = stub.seen[-1].body
    assert body["to"] == "491511234567" and body["type"] == "template"
    assert body["template"]["components"][0]["parameters"] == [{"type": "text", "text": "A-17"}]


async def test_zoom_keeps_its_access_token_and_signs_in_again_once_when_it_is_refused(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.id == "zoom")
    await connect(rt, case, stub)  # signed in once, to validate
    stub.routes.clear()
    stub.add("POST", "/oauth/token", json_reply({"access_token": "zoom-access-2",
                                                 "expires_in": 3599}))
    stub.add("GET", "/v2/users/me/meetings", json_reply({"meetings": [{"topic": "Sync"}]}))
    for _ in range(2):
        assert "Sync" in (await run_tool(rt, "zoom_meetings", {}, tmp_path)).content
    assert not [s for s in stub.seen if s.path == "/oauth/token"]  # the kept token served
    assert {s.headers["authorization"] for s in stub.seen} == {"Bearer zoom-access-1"}
    # Zoom refuses the kept token (revoked early): one more sign-in, then the call again.
    stub.seen.clear()
    stub.routes[("GET", "/v2/users/me/meetings")] = [
        json_reply({"code": 124, "message": "Invalid access token."}, 401),
        json_reply({"meetings": [{"topic": "Sync"}]})]
    assert "Sync" in (await run_tool(rt, "zoom_meetings", {}, tmp_path)).content
    assert [(s.path, s.headers["authorization"].split()[0]) for s in stub.seen] == [
        ("/v2/users/me/meetings", "Bearer"), ("/oauth/token", "Basic"),
        ("/v2/users/me/meetings", "Bearer")]
    assert stub.seen[-1].headers["authorization"] == "Bearer zoom-access-2"
    assert rt.connectors.state("zoom").status == "connected"


async def test_bitbucket_takes_an_access_token_that_may_not_read_a_profile(
    rt: Runtime, stub: StubServer
) -> None:
    stub.add("GET", "/2.0/user", json_reply({"type": "error", "error": {
        "message": "Your credentials lack one or more required privilege scopes."}}, 403))
    identity = await rt.connectors.connect(
        "bitbucket", {"token": "ATCTT-access-123456", "api_url": f"{stub.url}/2.0"})
    assert identity.text() == "Connected as an access token in Bitbucket"
    assert stub.seen[-1].headers["authorization"] == "Bearer ATCTT-access-123456"
    # A refused token stays refused.
    stub.routes.clear()
    stub.add("GET", "/2.0/user", json_reply({"type": "error"}, 401))
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect("bitbucket", {"token": "ATCTT-bad-1234567",
                                                  "api_url": f"{stub.url}/2.0"})
    assert raised.value.kind == "auth"
