"""The morning-brief and everyday connectors (GitHub, GitLab, Google Calendar,
Gmail, Outlook, Jira, Confluence, Linear, Notion, Asana, monday.com, HubSpot,
PagerDuty, Datadog, Zendesk, Discord, Telegram), each a :class:`Case`: a table of
the routes its tools use, put through the six checks every HTTP connector gets in
test_every_connector.py (validation, a read, an action parked → approved → sent
once, an expired token, 429 with Retry-After, 500) against a local stub of its
service (real HTTP on 127.0.0.1); and what sessions get of them."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from openworker_qt.runtime import Runtime
from tests.connectors import helpers
from tests.connectors.helpers import (
    connect,
    json_reply,
)
from tests.providers.stubs import Reply, StubServer

#: The morning-brief and everyday connectors (their six checks: test_every_connector.py).
Case = partial(helpers.Case, expired=json_reply({"message": "Bad credentials"}, 401))

CASES = [
    Case("github", {"token": "{token}", "api_url": "{url}"},
         [("GET", "/user", {"login": "ana"})], "Connected as @ana in GitHub",
         ("github_list_issues", {"repo": "acme/web"},
          [("GET", "/repos/acme/web/issues", [{"number": 7, "title": "Login broken",
                                               "state": "open"}])], "Login broken"),
         ("github_comment", {"repo": "acme/web", "number": 7, "body": "On it"},
          [("POST", "/repos/acme/web/issues/7/comments", {"html_url": "https://x/7#c1"})],
          "acme/web", None)),
    Case("gitlab", {"token": "{token}", "api_url": "{url}/api/v4"},
         [("GET", "/api/v4/user", {"username": "ana"})], "Connected as @ana in GitLab",
         ("gitlab_list_issues", {"project": "acme/web"},
          [("GET", "/api/v4/projects/acme/web/issues", [{"iid": 3, "title": "Flaky CI"}])],
          "Flaky CI"),
         ("gitlab_comment", {"project": "acme/web", "iid": 3, "body": "Looking"},
          [("POST", "/api/v4/projects/acme/web/issues/3/notes", {"id": 1})], "acme/web", None)),
    Case("google_calendar", {"token": "{token}", "api_url": "{url}/calendar/v3"},
         [("GET", "/calendar/v3/users/me/calendarList/primary", {"id": "ana@acme.com"})],
         "Connected as ana@acme.com in Google Calendar",
         ("gcal_list_events", {"time_min": "2026-12-01T00:00:00Z"},
          [("GET", "/calendar/v3/calendars/primary/events",
            {"items": [{"summary": "Standup", "start": {"dateTime": "2026-12-01T09:00:00Z"}}]})],
          "Standup"),
         ("gcal_create_event", {"calendar": "primary", "summary": "Review",
                                "start": "2026-12-02T10:00:00Z", "end": "2026-12-02T11:00:00Z"},
          [("POST", "/calendar/v3/calendars/primary/events", {"id": "e1"})], "primary", None)),
    Case("gmail", {"token": "{token}", "api_url": "{url}/gmail/v1"},
         [("GET", "/gmail/v1/users/me/profile", {"emailAddress": "ana@acme.com"})],
         "Connected as ana@acme.com in Gmail",
         ("gmail_search", {"query": "is:unread"},
          [("GET", "/gmail/v1/users/me/messages", {"messages": [{"id": "m1"}]}),
           ("GET", "/gmail/v1/users/me/messages/m1",
            {"snippet": "Lunch?", "payload": {"headers": [{"name": "Subject", "value": "Hi"}]}})],
          "Lunch?"),
         ("gmail_send", {"to": "bo@acme.com", "subject": "Hi", "body": "Yes"},
          [("POST", "/gmail/v1/users/me/messages/send", {"id": "s1"})], "bo@acme.com", None)),
    Case("outlook", {"token": "{token}", "api_url": "{url}/v1.0"},
         [("GET", "/v1.0/me", {"userPrincipalName": "ana@acme.onmicrosoft.com"})],
         "Connected as ana@acme.onmicrosoft.com in Microsoft 365",
         ("outlook_list_events", {"start": "2026-12-01T00:00", "end": "2026-12-02T00:00"},
          [("GET", "/v1.0/me/calendarView", {"value": [{"subject": "1:1 with Bo"}]})],
          "1:1 with Bo"),
         ("outlook_send_mail", {"to": "bo@acme.com", "subject": "Hi", "body": "Yes"},
          [("POST", "/v1.0/me/sendMail", Reply(status=202))], "bo@acme.com", None)),
    Case("jira", {"site": "{url}", "email": "ana@acme.com", "token": "{token}"},
         [("GET", "/rest/api/3/myself", {"displayName": "Ana Lima"})],
         "Connected as Ana Lima in 127.0.0.1",
         ("jira_search", {},
          [("GET", "/rest/api/3/search/jql",
            {"issues": [{"key": "OPS-12", "fields": {"summary": "Disk full"}}]})], "Disk full"),
         ("jira_comment", {"issue": "OPS-12", "body": "Cleaned up"},
          [("POST", "/rest/api/3/issue/OPS-12/comment", {"id": "c1"})], "OPS-12", None)),
    Case("confluence", {"site": "{url}", "email": "ana@acme.com", "token": "{token}"},
         [("GET", "/wiki/rest/api/user/current", {"displayName": "Ana Lima"})],
         "Connected as Ana Lima in 127.0.0.1",
         ("confluence_search", {"text": "runbook"},
          [("GET", "/wiki/rest/api/search", {"results": [{"title": "Disk runbook"}]})],
          "Disk runbook"),
         ("confluence_create_page", {"space": "OPS", "title": "Notes", "body": "<p>x</p>"},
          [("POST", "/wiki/rest/api/content", {"id": "p1"})], "OPS", None)),
    Case("linear", {"token": "{token}", "api_url": "{url}"},
         [("POST", "/graphql", {"data": {"viewer": {"name": "Ana"},
                                        "organization": {"name": "Acme"}}})],
         "Connected as Ana in Acme",
         ("linear_my_issues", {},
          [("POST", "/graphql", {"data": {"viewer": {"assignedIssues": {"nodes": [
              {"identifier": "ENG-42", "title": "Speed up search"}]}}}})], "Speed up search"),
         ("linear_comment", {"issue": "ENG-42", "body": "Done"},
          [("POST", "/graphql", {"data": {"commentCreate": {"success": True}}})], "ENG-42", None),
         expired=json_reply({"errors": [{"message": "Authentication required, not authenticated",
                                         "extensions": {"code": "AUTHENTICATION_ERROR"}}]}, 400)),
    Case("notion", {"token": "{token}", "api_url": "{url}/v1"},
         [("GET", "/v1/users/me", {"name": "Brief bot", "bot": {"workspace_name": "Acme"}})],
         "Connected as Brief bot in Acme",
         ("notion_search", {"query": "Roadmap"},
          [("POST", "/v1/search", {"results": [{"id": "p1", "object": "page", "properties": {
              "Name": {"type": "title", "title": [{"plain_text": "Roadmap 2027"}]}}}]})],
          "Roadmap 2027"),
         ("notion_append", {"page_id": "p1", "text": "Shipped"},
          [("PATCH", "/v1/blocks/p1/children", {"results": []})], "p1", None)),
]

TG = "/bot{token}"
CASES += [
    Case("asana", {"token": "{token}", "api_url": "{url}/api/1.0"},
         [("GET", "/api/1.0/users/me", {"data": {"name": "Ana Lima", "workspaces": [
             {"gid": "1", "name": "Acme"}]}})], "Connected as Ana Lima in Acme",
         ("asana_my_tasks", {"workspace": "1"},
          [("GET", "/api/1.0/tasks", {"data": [{"gid": "9", "name": "Draft Q1 plan"}]})],
          "Draft Q1 plan"),
         ("asana_comment", {"task": "9", "text": "Done"},
          [("POST", "/api/1.0/tasks/9/stories", {"data": {"gid": "s1"}})], "9", None)),
    Case("monday", {"token": "{token}", "api_url": "{url}/v2"},
         [("POST", "/v2/", {"data": {"me": {"name": "Ana", "account": {"name": "Acme"}}}})],
         "Connected as Ana in Acme",
         ("monday_board_items", {"board": "42"},
          [("POST", "/v2/", {"data": {"boards": [{"name": "Launch", "items_page": {
              "items": [{"id": "7", "name": "Press kit"}]}}]}})], "Press kit"),
         ("monday_update", {"item": "7", "text": "Sent"},
          [("POST", "/v2/", {"data": {"create_update": {"id": "u1"}}})], "7", None)),
    Case("hubspot", {"token": "{token}", "api_url": "{url}"},
         [("GET", "/account-info/v3/details", {"portalId": 1234})],
         "Connected as account 1234 in HubSpot",
         ("hubspot_search_contacts", {"query": "bo"},
          [("POST", "/crm/v3/objects/contacts/search",
            {"results": [{"id": "51", "properties": {"email": "bo@acme.com"}}]})], "bo@acme.com"),
         ("hubspot_add_note", {"contact": "51", "text": "Called"},
          [("POST", "/crm/v3/objects/notes", {"id": "n1"})], "51", None)),
    Case("pagerduty", {"token": "{token}", "email": "ana@acme.com", "api_url": "{url}"},
         [("GET", "/users/me", {"user": {"name": "Ana Lima"}})], "Connected as Ana Lima in PagerDuty",
         ("pagerduty_incidents", {},
          [("GET", "/incidents", {"incidents": [{"id": "P1", "title": "API down"}]})], "API down"),
         ("pagerduty_acknowledge", {"incident": "P1"},
          [("PUT", "/incidents/P1", {"incident": {"id": "P1"}})], "P1", None)),
    Case("datadog", {"token": "{token}", "app_key": "app-key-123456", "api_url": "{url}"},
         [("GET", "/api/v2/current_user", {"data": {"attributes": {"name": "Ana Lima"}}})],
         "Connected as Ana Lima in Datadog",
         ("datadog_alerting_monitors", {},
          [("GET", "/api/v1/monitor", [{"id": 5, "name": "CPU high", "overall_state": "Alert"}])],
          "CPU high"),
         ("datadog_mute_monitor", {"monitor": 5},
          [("POST", "/api/v1/monitor/5/mute", {"id": 5})], "5", None)),
    Case("zendesk", {"site": "{url}", "email": "ana@acme.com", "token": "{token}"},
         [("GET", "/api/v2/users/me.json", {"user": {"id": 1, "name": "Ana Lima"}})],
         "Connected as Ana Lima in 127.0.0.1",
         ("zendesk_search", {},
          [("GET", "/api/v2/search.json", {"results": [{"id": 8, "subject": "Refund please"}]})],
          "Refund please"),
         ("zendesk_comment", {"ticket": 8, "body": "Refunded"},
          [("PUT", "/api/v2/tickets/8.json", {"ticket": {"id": 8}})], "8", None)),
    Case("discord", {"token": "{token}", "api_url": "{url}/api/v10"},
         [("GET", "/api/v10/users/@me", {"username": "briefbot"})],
         "Connected as @briefbot in Discord",
         ("discord_read_channel", {"channel": "99"},
          [("GET", "/api/v10/channels/99/messages",
            [{"id": "1", "content": "standup at 10", "author": {"username": "bo"}}])],
          "standup at 10"),
         ("discord_send", {"channel": "99", "content": "Notes posted"},
          [("POST", "/api/v10/channels/99/messages", {"id": "2"})], "99", None)),
    Case("telegram", {"token": "{token}", "api_url": "{url}"},
         [("POST", TG + "/getMe", {"ok": True, "result": {"username": "brief_bot"}})],
         "Connected as @brief_bot in Telegram",
         ("telegram_updates", {},
          [("POST", TG + "/getUpdates", {"ok": True, "result": [
              {"message": {"chat": {"id": 5}, "text": "hello bot"}}]})], "hello bot"),
         ("telegram_send", {"chat": "5", "text": "hi"},
          [("POST", TG + "/sendMessage", {"ok": True, "result": {"message_id": 3}})], "5", None),
         expired=json_reply({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)),
]

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
