"""Every HTTP connector against a local stub of its service (real HTTP on
127.0.0.1): validation shows the identity, a read tool reads, an action tool
parks, is approved and is sent exactly once, an expired token is reported and
marks the connector failed, a 429 is waited out per Retry-After, a 500 is
reported (and a write is never repeated)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.connectors.base import ConnectorError
from openworker_qt.connectors.registry import secret_name
from openworker_qt.runtime import Runtime
from openworker_qt.storage import secrets
from tests.connectors.helpers import Sleeps, json_reply, park_and_approve, run_tool
from tests.providers.stubs import Reply, StubServer

Route = tuple[str, str, Any]  # method, path, JSON body of the answer


@dataclass
class Case:
    id: str
    values: dict[str, str]  # "{url}" is replaced by the stub's address
    validate: Route
    identity: str
    read: tuple[str, dict[str, Any], list[Route], str]  # tool, arguments, routes, text expected
    action: tuple[str, dict[str, Any], Route, str]  # tool, arguments, route, target expected
    expired: Reply = field(default_factory=lambda: json_reply({"message": "Bad credentials"}, 401))
    token: str = "tok-abcdef-123456"


CASES = [
    Case("github", {"token": "{token}", "api_url": "{url}"},
         ("GET", "/user", {"login": "ana"}), "Connected as @ana in GitHub",
         ("github_list_issues", {"repo": "acme/web"},
          [("GET", "/repos/acme/web/issues", [{"number": 7, "title": "Login broken",
                                               "state": "open"}])], "Login broken"),
         ("github_comment", {"repo": "acme/web", "number": 7, "body": "On it"},
          ("POST", "/repos/acme/web/issues/7/comments", {"html_url": "https://x/7#c1"}),
          "acme/web")),
    Case("gitlab", {"token": "{token}", "api_url": "{url}/api/v4"},
         ("GET", "/api/v4/user", {"username": "ana"}), "Connected as @ana in GitLab",
         ("gitlab_list_issues", {"project": "acme/web"},
          [("GET", "/api/v4/projects/acme/web/issues", [{"iid": 3, "title": "Flaky CI"}])],
          "Flaky CI"),
         ("gitlab_comment", {"project": "acme/web", "iid": 3, "body": "Looking"},
          ("POST", "/api/v4/projects/acme/web/issues/3/notes", {"id": 1}), "acme/web")),
    Case("google_calendar", {"token": "{token}", "api_url": "{url}/calendar/v3"},
         ("GET", "/calendar/v3/users/me/calendarList/primary", {"id": "ana@acme.com"}),
         "Connected as ana@acme.com in Google Calendar",
         ("gcal_list_events", {"time_min": "2026-12-01T00:00:00Z"},
          [("GET", "/calendar/v3/calendars/primary/events",
            {"items": [{"summary": "Standup", "start": {"dateTime": "2026-12-01T09:00:00Z"}}]})],
          "Standup"),
         ("gcal_create_event", {"calendar": "primary", "summary": "Review",
                                "start": "2026-12-02T10:00:00Z", "end": "2026-12-02T11:00:00Z"},
          ("POST", "/calendar/v3/calendars/primary/events", {"id": "e1"}), "primary")),
    Case("gmail", {"token": "{token}", "api_url": "{url}/gmail/v1"},
         ("GET", "/gmail/v1/users/me/profile", {"emailAddress": "ana@acme.com"}),
         "Connected as ana@acme.com in Gmail",
         ("gmail_search", {"query": "is:unread"},
          [("GET", "/gmail/v1/users/me/messages", {"messages": [{"id": "m1"}]}),
           ("GET", "/gmail/v1/users/me/messages/m1",
            {"snippet": "Lunch?", "payload": {"headers": [{"name": "Subject", "value": "Hi"}]}})],
          "Lunch?"),
         ("gmail_send", {"to": "bo@acme.com", "subject": "Hi", "body": "Yes"},
          ("POST", "/gmail/v1/users/me/messages/send", {"id": "s1"}), "bo@acme.com")),
    Case("outlook", {"token": "{token}", "api_url": "{url}/v1.0"},
         ("GET", "/v1.0/me", {"userPrincipalName": "ana@acme.onmicrosoft.com"}),
         "Connected as ana@acme.onmicrosoft.com in Microsoft 365",
         ("outlook_list_events", {"start": "2026-12-01T00:00", "end": "2026-12-02T00:00"},
          [("GET", "/v1.0/me/calendarView", {"value": [{"subject": "1:1 with Bo"}]})],
          "1:1 with Bo"),
         ("outlook_send_mail", {"to": "bo@acme.com", "subject": "Hi", "body": "Yes"},
          ("POST", "/v1.0/me/sendMail", None), "bo@acme.com")),
    Case("jira", {"site": "{url}", "email": "ana@acme.com", "token": "{token}"},
         ("GET", "/rest/api/3/myself", {"displayName": "Ana Lima"}),
         "Connected as Ana Lima in 127.0.0.1",
         ("jira_search", {},
          [("GET", "/rest/api/3/search/jql",
            {"issues": [{"key": "OPS-12", "fields": {"summary": "Disk full"}}]})], "Disk full"),
         ("jira_comment", {"issue": "OPS-12", "body": "Cleaned up"},
          ("POST", "/rest/api/3/issue/OPS-12/comment", {"id": "c1"}), "OPS-12")),
    Case("confluence", {"site": "{url}", "email": "ana@acme.com", "token": "{token}"},
         ("GET", "/wiki/rest/api/user/current", {"displayName": "Ana Lima"}),
         "Connected as Ana Lima in 127.0.0.1",
         ("confluence_search", {"text": "runbook"},
          [("GET", "/wiki/rest/api/search", {"results": [{"title": "Disk runbook"}]})],
          "Disk runbook"),
         ("confluence_create_page", {"space": "OPS", "title": "Notes", "body": "<p>x</p>"},
          ("POST", "/wiki/rest/api/content", {"id": "p1"}), "OPS")),
    Case("linear", {"token": "{token}", "api_url": "{url}"},
         ("POST", "/graphql", {"data": {"viewer": {"name": "Ana"},
                                        "organization": {"name": "Acme"}}}),
         "Connected as Ana in Acme",
         ("linear_my_issues", {},
          [("POST", "/graphql", {"data": {"viewer": {"assignedIssues": {"nodes": [
              {"identifier": "ENG-42", "title": "Speed up search"}]}}}})], "Speed up search"),
         ("linear_comment", {"issue": "ENG-42", "body": "Done"},
          ("POST", "/graphql", {"data": {"commentCreate": {"success": True}}}), "ENG-42"),
         expired=json_reply({"errors": [{"message": "Authentication required, not authenticated",
                                         "extensions": {"code": "AUTHENTICATION_ERROR"}}]}, 400)),
    Case("notion", {"token": "{token}", "api_url": "{url}/v1"},
         ("GET", "/v1/users/me", {"name": "Brief bot", "bot": {"workspace_name": "Acme"}}),
         "Connected as Brief bot in Acme",
         ("notion_search", {"query": "Roadmap"},
          [("POST", "/v1/search", {"results": [{"id": "p1", "object": "page", "properties": {
              "Name": {"type": "title", "title": [{"plain_text": "Roadmap 2027"}]}}}]})],
          "Roadmap 2027"),
         ("notion_append", {"page_id": "p1", "text": "Shipped"},
          ("PATCH", "/v1/blocks/p1/children", {"results": []}), "p1")),
]

TG = "/bot{token}"
CASES += [
    Case("asana", {"token": "{token}", "api_url": "{url}/api/1.0"},
         ("GET", "/api/1.0/users/me", {"data": {"name": "Ana Lima", "workspaces": [
             {"gid": "1", "name": "Acme"}]}}), "Connected as Ana Lima in Acme",
         ("asana_my_tasks", {"workspace": "1"},
          [("GET", "/api/1.0/tasks", {"data": [{"gid": "9", "name": "Draft Q1 plan"}]})],
          "Draft Q1 plan"),
         ("asana_comment", {"task": "9", "text": "Done"},
          ("POST", "/api/1.0/tasks/9/stories", {"data": {"gid": "s1"}}), "9")),
    Case("monday", {"token": "{token}", "api_url": "{url}/v2"},
         ("POST", "/v2/", {"data": {"me": {"name": "Ana", "account": {"name": "Acme"}}}}),
         "Connected as Ana in Acme",
         ("monday_board_items", {"board": "42"},
          [("POST", "/v2/", {"data": {"boards": [{"name": "Launch", "items_page": {
              "items": [{"id": "7", "name": "Press kit"}]}}]}})], "Press kit"),
         ("monday_update", {"item": "7", "text": "Sent"},
          ("POST", "/v2/", {"data": {"create_update": {"id": "u1"}}}), "7")),
    Case("hubspot", {"token": "{token}", "api_url": "{url}"},
         ("GET", "/account-info/v3/details", {"portalId": 1234}),
         "Connected as account 1234 in HubSpot",
         ("hubspot_search_contacts", {"query": "bo"},
          [("POST", "/crm/v3/objects/contacts/search",
            {"results": [{"id": "51", "properties": {"email": "bo@acme.com"}}]})], "bo@acme.com"),
         ("hubspot_add_note", {"contact": "51", "text": "Called"},
          ("POST", "/crm/v3/objects/notes", {"id": "n1"}), "51")),
    Case("pagerduty", {"token": "{token}", "email": "ana@acme.com", "api_url": "{url}"},
         ("GET", "/users/me", {"user": {"name": "Ana Lima"}}), "Connected as Ana Lima in PagerDuty",
         ("pagerduty_incidents", {},
          [("GET", "/incidents", {"incidents": [{"id": "P1", "title": "API down"}]})], "API down"),
         ("pagerduty_acknowledge", {"incident": "P1"},
          ("PUT", "/incidents/P1", {"incident": {"id": "P1"}}), "P1")),
    Case("datadog", {"token": "{token}", "app_key": "app-key-123456", "api_url": "{url}"},
         ("GET", "/api/v2/current_user", {"data": {"attributes": {"name": "Ana Lima"}}}),
         "Connected as Ana Lima in Datadog",
         ("datadog_alerting_monitors", {},
          [("GET", "/api/v1/monitor", [{"id": 5, "name": "CPU high", "overall_state": "Alert"}])],
          "CPU high"),
         ("datadog_mute_monitor", {"monitor": 5},
          ("POST", "/api/v1/monitor/5/mute", {"id": 5}), "5")),
    Case("zendesk", {"site": "{url}", "email": "ana@acme.com", "token": "{token}"},
         ("GET", "/api/v2/users/me.json", {"user": {"id": 1, "name": "Ana Lima"}}),
         "Connected as Ana Lima in 127.0.0.1",
         ("zendesk_search", {},
          [("GET", "/api/v2/search.json", {"results": [{"id": 8, "subject": "Refund please"}]})],
          "Refund please"),
         ("zendesk_comment", {"ticket": 8, "body": "Refunded"},
          ("PUT", "/api/v2/tickets/8.json", {"ticket": {"id": 8}}), "8")),
    Case("discord", {"token": "{token}", "api_url": "{url}/api/v10"},
         ("GET", "/api/v10/users/@me", {"username": "briefbot"}),
         "Connected as @briefbot in Discord",
         ("discord_read_channel", {"channel": "99"},
          [("GET", "/api/v10/channels/99/messages",
            [{"id": "1", "content": "standup at 10", "author": {"username": "bo"}}])],
          "standup at 10"),
         ("discord_send", {"channel": "99", "content": "Notes posted"},
          ("POST", "/api/v10/channels/99/messages", {"id": "2"}), "99")),
    Case("telegram", {"token": "{token}", "api_url": "{url}"},
         ("POST", TG + "/getMe", {"ok": True, "result": {"username": "brief_bot"}}),
         "Connected as @brief_bot in Telegram",
         ("telegram_updates", {},
          [("POST", TG + "/getUpdates", {"ok": True, "result": [
              {"message": {"chat": {"id": 5}, "text": "hello bot"}}]})], "hello bot"),
         ("telegram_send", {"chat": "5", "text": "hi"},
          ("POST", TG + "/sendMessage", {"ok": True, "result": {"message_id": 3}}), "5"),
         expired=json_reply({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)),
]

IDS = [c.id for c in CASES]


def values(case: Case, stub: StubServer) -> dict[str, str]:
    return {k: v.replace("{url}", stub.url).replace("{token}", case.token)
            for k, v in case.values.items()}


def at(path: str, case: Case, token: str | None = None) -> str:
    """A route's path (Telegram puts the token in it)."""
    return path.replace("{token}", token or case.token)


async def connect(rt: Runtime, case: Case, stub: StubServer) -> None:
    stub.add(case.validate[0], at(case.validate[1], case), json_reply(case.validate[2]))
    identity = await rt.connectors.connect(case.id, values(case, stub))
    assert identity.text() == case.identity
    stub.routes.clear()
    stub.seen.clear()


@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_validation_shows_the_identity_and_keeps_the_token_in_the_keyring(
    rt: Runtime, stub: StubServer, case: Case
) -> None:
    await connect(rt, case, stub)
    state = rt.connectors.state(case.id)
    assert state.status == "connected"
    assert state.identity == case.identity
    assert secrets.get_secret(secret_name(case.id, "token")) == case.token
    dumped = [tuple(r) for r in rt.db.query("SELECT * FROM connectors")]
    assert case.token not in repr(dumped)
    # Only connected connectors bring their tools.
    names = {t.name for t in rt.connectors.tools()}
    assert case.read[0] in names
    assert all(t.origin == f"connector:{case.id}" for t in rt.connectors.tools())


@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_read_tool_reads(rt: Runtime, stub: StubServer, case: Case, tmp_path: Path) -> None:
    await connect(rt, case, stub)
    name, arguments, routes, expected = case.read
    for method, path, body in routes:
        stub.add(method, at(path, case), json_reply(body))
    result = await run_tool(rt, name, arguments, tmp_path)
    assert not result.is_error, result.content
    assert expected in result.content
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    assert tool.risk_class().value == "read"
    # The token went in the request, never in the tool's output.
    assert case.token not in result.content


@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_action_tool_parks_is_approved_and_is_sent_once(
    rt: Runtime, stub: StubServer, case: Case, tmp_path: Path
) -> None:
    await connect(rt, case, stub)
    name, arguments, (method, path, body), target = case.action
    path = at(path, case)
    stub.add(method, path, json_reply(body) if body is not None else Reply(status=202))
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    assert tool.risk_class().value == "external"
    assert tool.target_arg and tool.target(arguments) == target
    item, messages = await park_and_approve(rt, tmp_path, name, arguments)
    assert item.tool == name
    assert item.target == target
    sent = [s for s in stub.seen if s.method == method and s.path == path]
    assert len(sent) == 1
    results = [m for m in messages if m.get("role") == "tool"]
    assert results and "refused" not in str(results[-1].get("content"))


@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_an_expired_token_is_reported_and_keeps_what_worked(
    rt: Runtime, stub: StubServer, case: Case, tmp_path: Path
) -> None:
    await connect(rt, case, stub)
    # Connecting again with a token the service refuses changes nothing stored.
    stub.add(case.validate[0], at(case.validate[1], case, "tok-expired-999999"), case.expired)
    fresh = {**values(case, stub), "token": "tok-expired-999999"}
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect(case.id, fresh)
    assert raised.value.kind == "auth"
    assert "Reconnect" in raised.value.message
    assert secrets.get_secret(secret_name(case.id, "token")) == case.token
    assert rt.connectors.state(case.id).status == "connected"
    # A tool call refused the same way says so and marks the connector failed.
    name, arguments, routes, _ = case.read
    stub.routes.clear()
    for method, path, _body in routes[:1]:
        stub.add(method, at(path, case), case.expired)
    result = await run_tool(rt, name, arguments, tmp_path)
    assert result.is_error and "Reconnect" in result.content
    state = rt.connectors.state(case.id)
    assert state.status == "failed" and "Reconnect" in state.error
    assert name not in {t.name for t in rt.connectors.tools()}


@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_a_429_is_waited_out_as_retry_after_says(
    rt: Runtime, stub: StubServer, sleeps: Sleeps, case: Case, tmp_path: Path
) -> None:
    await connect(rt, case, stub)
    name, arguments, routes, expected = case.read
    (method, path, body), *rest = routes
    path = at(path, case)
    stub.add(method, path, json_reply({"message": "slow down"}, 429, **{"Retry-After": "7"}),
             json_reply(body))
    for m, p, b in rest:
        stub.add(m, at(p, case), json_reply(b))
    result = await run_tool(rt, name, arguments, tmp_path)
    assert not result.is_error, result.content
    assert expected in result.content
    assert sleeps.asked == [7.0]
    # A wait longer than the policy allows is reported rather than waited for.
    stub.routes.clear()
    stub.add(method, path, json_reply({}, 429, **{"Retry-After": "3600"}))
    result = await run_tool(rt, name, arguments, tmp_path)
    assert result.is_error and "3600 s" in result.content
    assert sleeps.asked == [7.0]


@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_a_500_is_retried_for_reads_then_reported_and_never_repeats_a_write(
    rt: Runtime, stub: StubServer, sleeps: Sleeps, case: Case, tmp_path: Path
) -> None:
    await connect(rt, case, stub)
    name, arguments, routes, _ = case.read
    method, path, _body = routes[0]
    path = at(path, case)
    stub.add(method, path, Reply(status=500, body="oops", content_type="text/plain"))
    result = await run_tool(rt, name, arguments, tmp_path)
    assert result.is_error and "HTTP 500" in result.content
    assert len([s for s in stub.seen if s.path == path]) == 3  # three tries in all
    assert sleeps.asked == [1.0, 2.0]  # backing off between them
    assert rt.connectors.state(case.id).status == "connected"  # not the token's fault
    stub.routes.clear()
    stub.seen.clear()
    act, act_args, (a_method, a_path, _), _ = case.action
    stub.add(a_method, at(a_path, case), Reply(status=500, body="oops", content_type="text/plain"))
    result = await run_tool(rt, act, act_args, tmp_path)
    assert result.is_error and "HTTP 500" in result.content
    assert len(stub.seen) == 1  # the server may have acted: never sent twice


async def test_sessions_get_the_tools_of_connected_connectors_only(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    manager = rt.session_manager(default_model="scripted:none")
    before = manager.engine(manager.create_session(workspace=str(tmp_path)).id).tools
    assert not [n for n in before.names() if n.startswith("github_")]
    await connect(rt, CASES[0], stub)
    after = manager.engine(manager.create_session(workspace=str(tmp_path)).id).tools
    assert {"github_list_issues", "github_comment"} <= set(after.names())
    assert "read_file" in after.names()  # beside the built-in tools
