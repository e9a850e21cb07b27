"""ClickUp, Trello, Airtable, Todoist, Google Drive, Dropbox, Box, OneDrive and
SharePoint, Salesforce, Intercom, Attio and Close, each against a local stub of
its service (real HTTP on 127.0.0.1). Each connector is one :class:`Case`: a
small table of the routes its tools use, put through the six checks of
test_every_connector.py (validation, a read, an action parked → approved → sent
once, an expired token, 429 with Retry-After, 500); below, their other tools and
particular rules."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.connectors.registry import catalogue
from openworker_qt.connectors.services import (
    airtable,
    attio,
    box,
    clickup,
    close,
    dropbox,
    google_drive,
    intercom,
    onedrive,
    salesforce,
    todoist,
    trello,
)
from openworker_qt.runtime import Runtime
from tests.connectors import helpers
from tests.connectors.helpers import (
    connect,
    json_reply,
    park_and_approve,
    reply,
    run_tool,
)
from tests.providers.stubs import Reply, StubServer

Case = partial(helpers.Case, expired=json_reply({"message": "expired"}, 401))

CASES = [
    Case("clickup", {"token": "{token}", "api_url": "{url}/api/v2"},
         [("GET", "/api/v2/user", {"user": {"username": "ana", "email": "ana@acme.com"}})],
         "Connected as ana in ClickUp",
         ("clickup_list_tasks", {"list": "901"},
          [("GET", "/api/v2/list/901/task", {"tasks": [
              {"id": "t1", "name": "Ship the beta", "status": {"status": "open"}}]})],
          "Ship the beta"),
         ("clickup_comment", {"task": "t1", "text": "Shipped"},
          [("POST", "/api/v2/task/t1/comment", {"id": 5})], "t1",
          {"comment_text": "Shipped", "notify_all": False}),
         expired=json_reply({"err": "Token invalid", "ECODE": "OAUTH_025"}, 401)),
    Case("trello", {"key": "key-123456", "token": "{token}", "api_url": "{url}/1"},
         [("GET", "/1/members/me", {"username": "ana", "fullName": "Ana Lima"})],
         "Connected as @ana in Trello",
         ("trello_board_cards", {"board": "b1"},
          [("GET", "/1/boards/b1/cards", [{"id": "c1", "name": "Fix the footer"}])],
          "Fix the footer"),
         ("trello_comment", {"card": "c1", "text": "Done"},
          [("POST", "/1/cards/c1/actions/comments", {"id": "a1"})], "c1", None),
         expired=Reply(status=401, body="invalid token", content_type="text/plain")),
    Case("airtable", {"token": "{token}", "api_url": "{url}/v0"},
         [("GET", "/v0/meta/whoami", {"id": "usr1", "email": "ana@acme.com"})],
         "Connected as ana@acme.com in Airtable",
         ("airtable_list_records", {"base": "appX", "table": "Leads"},
          [("GET", "/v0/appX/Leads", {"records": [{"id": "rec1", "fields": {"Name": "Bo"}}]})],
          '"Bo"'),
         ("airtable_create_record", {"base": "appX", "table": "Leads",
                                     "fields": {"Name": "Cy"}},
          [("POST", "/v0/appX/Leads", {"id": "rec2"})], "appX",
          {"fields": {"Name": "Cy"}, "typecast": True}),
         expired=json_reply({"error": {"type": "AUTHENTICATION_REQUIRED"}}, 401)),
    Case("todoist", {"token": "{token}", "api_url": "{url}/api/v1"},
         [("GET", "/api/v1/user", {"full_name": "Ana Lima", "email": "ana@acme.com"})],
         "Connected as Ana Lima in Todoist",
         ("todoist_tasks", {},
          [("GET", "/api/v1/tasks/filter", {"results": [
              {"id": "6", "content": "Pay the invoice", "due": {"string": "today"}}]})],
          "Pay the invoice"),
         ("todoist_add_task", {"project": "inbox", "content": "Call Bo", "due": "tomorrow"},
          [("POST", "/api/v1/tasks", {"id": "7"})], "inbox",
          {"content": "Call Bo", "due_string": "tomorrow"})),
    Case("google_drive", {"token": "{token}", "api_url": "{url}/drive/v3"},
         [("GET", "/drive/v3/about", {"user": {"emailAddress": "ana@acme.com"}})],
         "Connected as ana@acme.com in Google Drive",
         ("drive_read_file", {"file": "d1"},
          [("GET", "/drive/v3/files/d1", {"name": "Plan", "mimeType":
                                          "application/vnd.google-apps.document"}),
           ("GET", "/drive/v3/files/d1/export", "Q1 goals: ship it")],
          "Q1 goals: ship it"),
         ("drive_share", {"file": "d1", "email": "bo@acme.com", "role": "commenter"},
          [("POST", "/drive/v3/files/d1/permissions", {"id": "p1"})], "d1",
          {"type": "user", "role": "commenter", "emailAddress": "bo@acme.com"}),
         expired=json_reply({"error": {"code": 401, "message": "Invalid Credentials"}}, 401)),
    Case("dropbox", {"token": "{token}", "api_url": "{url}/2"},
         [("POST", "/2/users/get_current_account",
          {"email": "ana@acme.com", "name": {"display_name": "Ana Lima"}})],
         "Connected as ana@acme.com in Dropbox",
         ("dropbox_list_folder", {"path": "Reports"},
          [("POST", "/2/files/list_folder", {"entries": [
              {".tag": "file", "name": "q3.pdf", "path_display": "/Reports/q3.pdf"}]})],
          "/Reports/q3.pdf"),
         ("dropbox_share_link", {"path": "/Reports/q3.pdf"},
          [("POST", "/2/sharing/create_shared_link_with_settings",
            {"url": "https://www.dropbox.com/s/x/q3.pdf"})], "/Reports/q3.pdf",
          {"path": "/Reports/q3.pdf"}),
         expired=json_reply({"error_summary": "expired_access_token/",
                             "error": {".tag": "expired_access_token"}}, 401)),
    Case("box", {"token": "{token}", "api_url": "{url}/2.0"},
         [("GET", "/2.0/users/me", {"name": "Ana Lima", "login": "ana@acme.com"})],
         "Connected as ana@acme.com in Box",
         ("box_search", {"query": "contract"},
          [("GET", "/2.0/search", {"entries": [{"id": "f1", "type": "file",
                                                "name": "Contract 2027.pdf"}]})],
          "Contract 2027.pdf"),
         ("box_comment", {"file": "f1", "message": "Signed"},
          [("POST", "/2.0/comments", {"id": "m1"})], "f1",
          {"item": {"type": "file", "id": "f1"}, "message": "Signed"})),
    Case("onedrive", {"token": "{token}", "api_url": "{url}/v1.0"},
         [("GET", "/v1.0/me", {"userPrincipalName": "ana@acme.onmicrosoft.com"})],
         "Connected as ana@acme.onmicrosoft.com in Microsoft 365",
         ("onedrive_search", {"query": "budget"},
          [("GET", "/v1.0/me/drive/root/search(q='budget')",
            {"value": [{"id": "i1", "name": "Budget 2027.xlsx"}]})], "Budget 2027.xlsx"),
         ("onedrive_share_link", {"item": "i1", "drive": "drv9"},
          [("POST", "/v1.0/drives/drv9/items/i1/createLink",
            {"link": {"webUrl": "https://acme.sharepoint.com/x"}})], "i1",
          {"type": "view", "scope": "organization"}),
         expired=json_reply({"error": {"code": "InvalidAuthenticationToken"}}, 401)),
    Case("salesforce", {"site": "{url}", "token": "{token}"},
         [("GET", "/services/oauth2/userinfo",
          {"name": "Ana Lima", "preferred_username": "ana@acme.com"})],
         "Connected as ana@acme.com in 127.0.0.1",
         ("salesforce_query", {"soql": "SELECT Id, Name FROM Opportunity"},
          [("GET", "/services/data/v61.0/query", {"totalSize": 1, "records": [
              {"attributes": {"type": "Opportunity"}, "Id": "006A", "Name": "Acme renewal"}]})],
          "Acme renewal"),
         ("salesforce_update_record", {"object": "Opportunity", "record": "006A",
                                       "fields": {"StageName": "Closed Won"}},
          [("PATCH", "/services/data/v61.0/sobjects/Opportunity/006A", None)], "006A",
          {"StageName": "Closed Won"}),
         expired=json_reply([{"message": "Session expired or invalid",
                              "errorCode": "INVALID_SESSION_ID"}], 401)),
    Case("intercom", {"token": "{token}", "api_url": "{url}"},
         [("GET", "/me", {"id": "77", "email": "ana@acme.com", "app": {"name": "Acme"}})],
         "Connected as ana@acme.com in Acme",
         ("intercom_conversations", {},
          [("GET", "/conversations", {"conversations": [
              {"id": "c9", "state": "open", "source": {"subject": "Refund for order 12"}}]})],
          "Refund for order 12"),
         ("intercom_reply", {"conversation": "c9", "body": "Refunded", "note": True},
          [("GET", "/me", {"id": "77"}), ("POST", "/conversations/c9/reply", {"id": "c9"})],
          "c9", {"message_type": "note", "type": "admin", "admin_id": "77",
                 "body": "Refunded"})),
    Case("attio", {"token": "{token}", "api_url": "{url}/v2"},
         [("GET", "/v2/self", {"active": True, "workspace_name": "Acme"})],
         "Connected as the Acme workspace in Attio",
         ("attio_list_records", {"object": "companies"},
          [("POST", "/v2/objects/companies/records/query", {"data": [
              {"id": {"record_id": "r1"}, "values": {"name": [{"value": "Globex"}],
                                                      "domains": [{"domain": "globex.com"}]}}]})],
          "globex.com"),
         ("attio_add_note", {"object": "companies", "record": "r1", "text": "Met at expo"},
          [("POST", "/v2/notes", {"data": {"id": {"note_id": "n1"}}})], "r1",
          {"data": {"parent_object": "companies", "parent_record_id": "r1", "title": "Note",
                    "format": "plaintext", "content": "Met at expo"}})),
    Case("close", {"token": "{token}", "api_url": "{url}/api/v1"},
         [("GET", "/api/v1/me/", {"email": "ana@acme.com", "organizations": [{"name": "Acme"}]})],
         "Connected as ana@acme.com in Acme",
         ("close_search_leads", {"query": "globex"},
          [("GET", "/api/v1/lead/", {"data": [{"id": "lead_1", "display_name": "Globex"}]})],
          "Globex"),
         ("close_add_note", {"lead": "lead_1", "text": "Sent the quote"},
          [("POST", "/api/v1/activity/note/", {"id": "acti_1"})], "lead_1",
          {"lead_id": "lead_1", "note": "Sent the quote"})),
]

IDS = [c.id for c in CASES]


SPECS = [m.SPEC for m in (clickup, trello, airtable, todoist, google_drive, dropbox, box, onedrive,
                          salesforce, intercom, attio, close)]


def test_every_connector_of_the_set_has_a_case_and_is_in_the_catalogue() -> None:
    assert sorted(IDS) == sorted(spec.id for spec in SPECS)
    ids = [spec.id for spec in catalogue()]
    assert set(IDS) <= set(ids)
    assert len(ids) == len(set(ids))  # no id taken twice
    for spec in SPECS:
        assert spec.description and spec.tools
        assert any(t.action for t in spec.tools) and any(not t.action for t in spec.tools)


CASE = {c.id: c for c in CASES}

# The other read tools: connector, tool, arguments, routes, text expected.
MORE_READS = [
    ("trello", "trello_boards", {},
     [("GET", "/1/members/me/boards", [{"id": "b1", "name": "Launch plan"}])], "Launch plan"),
    ("airtable", "airtable_bases", {},
     [("GET", "/v0/meta/bases", {"bases": [{"id": "appX", "name": "Hiring"}]})], "Hiring"),
    ("google_drive", "drive_search", {"query": "roadmap"},
     [("GET", "/drive/v3/files", {"files": [{"id": "d1", "name": "Roadmap 2027"}]})],
     "Roadmap 2027"),
    ("google_drive", "drive_read_file", {"file": "d2"},
     [("GET", "/drive/v3/files/d2", {"name": "notes.txt", "mimeType": "text/plain"}),
      ("GET", "/drive/v3/files/d2", "remember the milk")], "remember the milk"),
    ("google_drive", "drive_read_file", {"file": "d3"},
     [("GET", "/drive/v3/files/d3", {"name": "dump.csv", "mimeType": "text/csv",
                                     "size": "80000000"})], "too large to read here"),
    ("onedrive", "sharepoint_sites", {"query": "finance"},
     [("GET", "/v1.0/sites", {"value": [{"id": "s1", "displayName": "Finance team"}]})],
     "Finance team"),
    ("onedrive", "onedrive_search", {"query": "o'brien", "drive": "drv9"},
     [("GET", "/v1.0/drives/drv9/root/search(q='o''brien')",
       {"value": [{"id": "i2", "name": "O'Brien contract.docx"}]})], "O'Brien contract"),
]


@pytest.mark.parametrize("row", MORE_READS, ids=[r[1] + ":" + r[0] for r in MORE_READS])
async def test_the_other_read_tools_read(
    rt: Runtime, stub: StubServer, row: tuple[Any, ...], tmp_path: Path
) -> None:
    connector, name, arguments, routes, expected = row
    await connect(rt, CASE[connector], stub)
    for method, path, body in routes:
        stub.add(method, path, reply(body))
    result = await run_tool(rt, name, arguments, tmp_path)
    assert not result.is_error, result.content
    assert expected in result.content
    assert len(stub.seen) == len(routes)
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    assert tool.risk_class().value == "read"


async def test_drive_search_sends_the_words_quoted(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    await connect(rt, CASE["google_drive"], stub)
    stub.add("GET", "/drive/v3/files", json_reply({"files": []}))
    await run_tool(rt, "drive_search", {"query": "Bo's plan"}, tmp_path)
    assert stub.seen[0].query["q"] == "fullText contains 'Bo\\'s plan' and trashed = false"


async def test_dropbox_gives_the_existing_link_when_there_is_one(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    await connect(rt, CASE["dropbox"], stub)
    stub.add("POST", "/2/sharing/create_shared_link_with_settings", json_reply({
        "error_summary": "shared_link_already_exists/..",
        "error": {".tag": "shared_link_already_exists"}}, 409))
    stub.add("POST", "/2/sharing/list_shared_links",
             json_reply({"links": [{"url": "https://www.dropbox.com/s/old/q3.pdf"}]}))
    result = await run_tool(rt, "dropbox_share_link", {"path": "Reports/q3.pdf"}, tmp_path)
    assert not result.is_error, result.content
    assert "https://www.dropbox.com/s/old/q3.pdf" in result.content
    assert [s.body for s in stub.seen] == [{"path": "/Reports/q3.pdf"},
                                           {"path": "/Reports/q3.pdf", "direct_only": True}]


# The other action tools: connector, tool, arguments, route of the write, target, what it sent.
MORE_ACTIONS = [
    ("clickup", "clickup_create_task", {"list": "901", "name": "Write notes"},
     ("POST", "/api/v2/list/901/task", {"id": "t2"}), "901", {"name": "Write notes"}),
    ("trello", "trello_add_card", {"list": "l1", "name": "Book venue"},
     ("POST", "/1/cards", {"id": "c2"}), "l1", None),
    ("todoist", "todoist_complete_task", {"task": "6"},
     ("POST", "/api/v1/tasks/6/close", None), "6", None),
]


@pytest.mark.parametrize("row", MORE_ACTIONS, ids=[r[1] for r in MORE_ACTIONS])
async def test_the_other_action_tools_park_and_are_sent_once(
    rt: Runtime, stub: StubServer, row: tuple[Any, ...], tmp_path: Path
) -> None:
    connector, name, arguments, (method, path, body), target, sent_body = row
    await connect(rt, CASE[connector], stub)
    stub.add(method, path, reply(body))
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    assert tool.risk_class().value == "external"
    item, messages = await park_and_approve(rt, tmp_path, name, arguments)
    assert item.target == target
    sent = [s for s in stub.seen if s.method == method and s.path == path]
    assert len(sent) == 1
    if sent_body is not None:
        assert sent[0].body == sent_body
    if connector == "trello":  # Trello takes the card in the query
        assert sent[0].query == {"idList": "l1", "name": "Book venue", "desc": ""}
    results = [m for m in messages if m.get("role") == "tool"]
    assert "problem" not in str(results[-1].get("content"))


# Bad input: a clear error, and nothing reaches the service.
BAD_INPUT = [
    ("salesforce", "salesforce_query", {"soql": "DELETE FROM Account"}, "Only SELECT"),
    ("salesforce", "salesforce_update_record",
     {"object": "Opportunity", "record": "006A", "fields": "StageName=Won"}, "as an object"),
    ("airtable", "airtable_create_record", {"base": "appX", "table": "Leads", "fields": {}},
     "as an object"),
    ("google_drive", "drive_share", {"file": "d1", "email": "bo@acme.com", "role": "owner"},
     "reader, commenter or writer"),
    ("onedrive", "onedrive_share_link", {"item": "i1", "scope": "users"},
     "organization or anonymous"),
]


@pytest.mark.parametrize("row", BAD_INPUT, ids=[r[1] for r in BAD_INPUT])
async def test_bad_input_is_refused_before_anything_is_sent(
    rt: Runtime, stub: StubServer, row: tuple[Any, ...], tmp_path: Path
) -> None:
    connector, name, arguments, message = row
    await connect(rt, CASE[connector], stub)
    result = await run_tool(rt, name, arguments, tmp_path)
    assert result.is_error and message in result.content
    assert stub.seen == []
    assert rt.connectors.state(connector).status == "connected"


async def test_an_id_cannot_reach_another_endpoint(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    await connect(rt, CASE["clickup"], stub)
    result = await run_tool(rt, "clickup_comment", {"task": "../../user", "text": "x"}, tmp_path)
    # A ".." part is refused before anything is sent (never /api/user/comment).
    assert result.is_error and "not a valid id" in result.content
    assert stub.seen == []


async def test_salesforce_says_what_is_wrong_with_a_query(
    rt: Runtime, stub: StubServer, tmp_path: Path
) -> None:
    await connect(rt, CASE["salesforce"], stub)
    stub.add("GET", "/services/data/v61.0/query", json_reply([{
        "message": "No such column 'Nmae' on entity 'Account'.",
        "errorCode": "INVALID_FIELD"}], 400))
    result = await run_tool(rt, "salesforce_query", {"soql": "SELECT Nmae FROM Account"},
                            tmp_path)
    assert result.is_error
    assert "No such column 'Nmae'" in result.content  # the model can correct its query
