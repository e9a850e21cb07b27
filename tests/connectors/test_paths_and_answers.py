"""Generated over every HTTP connector (the cases of test_every_connector.py), against
the local stub of its service (real HTTP on 127.0.0.1):

* every string argument of every tool, given traversal payloads (``..``, ``%2e%2e``,
  ``#``, ``?``, backslashes, a full address): each request the stub receives has the
  shape the same tool's request has with a plain value — the argument stays inside
  its own segment(s) and no part of the path is ``.`` or ``..`` — or nothing is sent
  (``repo="acme/app/../../../user#"`` once made GitHub call ``GET /user``);
* an HTML page and broken JSON with status 200 are a connector error of their own
  kind (``answer``) with a plain message — not an empty success, not an
  ``AttributeError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
import pytest_asyncio

from openworker_qt.connectors.base import ConnectorError, check_path, owner_repo, path_segment
from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.runtime import Runtime
from tests.connectors import test_catalog_a, test_catalog_b, test_services
from tests.connectors.helpers import Case, at, connect, json_reply, reset, values
from tests.providers.stubs import Reply, StubServer

CASES: list[Case] = [*test_services.CASES, *test_catalog_a.CASES, *test_catalog_b.CASES]
MARK = "zz"
#: Plain values an argument may need to reach a request (an owner/name pair).
PLAIN = (f"{MARK}plain", f"{MARK}o/{MARK}r")
#: How many string arguments of a connector's tools go into a request path (measured):
#: the others go into a query or a body.
REACHED = {"github": 2, "gitlab": 2, "google_calendar": 2, "jira": 1, "notion": 1, "asana": 1,
           "pagerduty": 1, "discord": 2, "clickup": 3, "trello": 2, "airtable": 4, "todoist": 1,
           "google_drive": 2, "onedrive": 4, "salesforce": 2, "intercom": 1, "attio": 1,
           "sentry": 1, "bitbucket": 2, "mixpanel": 1, "quickbooks": 1, "teams": 4, "figma": 3}


def payloads(plain: str) -> list[str]:
    return [
        f"{plain}/../../../user#", f"../../{plain}", f"{plain}%2F..%2F..%2Fuser",
        f"{plain}\\..\\..\\user", f"{plain}?admin=1", f"https://evil.test/{plain}",
        "..", "%2e%2e", "%252E%252e",
    ]


def _decoded(text: str) -> str:
    for _ in range(4):
        text = unquote(text)
    return text


def shape(raw_path: str) -> tuple[str, ...]:
    """A path's segments, each one holding the argument as ``*``."""
    return tuple("*" if MARK in _decoded(seg) else seg for seg in raw_path.split("/"))


def walks(raw_path: str) -> bool:
    """Some part of the path is (or decodes to) ``.`` or ``..``."""
    return any(part.strip() in (".", "..")
               for seg in raw_path.split("/") for part in _decoded(seg).replace("\\", "/")
               .split("/"))


def filler(schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if kind == "integer":
        return 7
    if kind == "number":
        return 7
    if kind == "boolean":
        return False
    if kind == "array":
        return ["x@example.com"]
    if kind == "object":
        return {"Name": "x"}
    return "x1"


def filled(parameters: dict[str, Any], arg: str, value: str) -> dict[str, Any]:
    props = parameters.get("properties", {})
    args = {k: filler(props[k]) for k in parameters.get("required", []) if k in props}
    args[arg] = value
    return args


async def call(rt: Runtime, tool: Any, args: dict[str, Any], tmp_path: Path) -> ToolResult | None:
    try:
        out = await tool.handler(args, ToolContext(session_id="s", workspace=tmp_path))
    except Exception:
        return None
    return out if isinstance(out, ToolResult) else ToolResult(str(out))


@pytest_asyncio.fixture(params=CASES, ids=[c.id for c in CASES])
async def case(request: pytest.FixtureRequest, rt: Runtime, stub: StubServer) -> Case:
    case: Case = request.param
    await connect(rt, case, stub)
    return case


def sent(stub: StubServer, case: Case) -> list[str]:
    always = {at(p, case) for _m, p, _b in case.always}
    return [s.raw_path for s in stub.seen if s.path not in always]


async def test_no_argument_leaves_its_segment(
    rt: Runtime, stub: StubServer, case: Case, tmp_path: Path,
) -> None:
    spec = rt.connectors.spec(case.id)
    reset(stub, case)
    stub.fallback = json_reply({})
    reached = 0
    for d in spec.tools:
        tool = rt.connectors._tool(spec, d)  # every tool, also the ones held back by settings
        props = d.parameters.get("properties", {})
        for arg in [k for k, v in props.items() if v.get("type") == "string"]:
            shapes: set[tuple[str, ...]] = set()
            plain_used = None
            for plain in PLAIN:
                stub.seen.clear()
                await call(rt, tool, filled(dict(d.parameters), arg, plain), tmp_path)
                paths = sent(stub, case)
                if any(MARK in _decoded(p) for p in paths):
                    shapes |= {shape(p) for p in paths}
                    plain_used = plain
                    break
                shapes |= {shape(p) for p in paths}
            if plain_used is not None:
                reached += 1
            # (An argument no plain value put in a path: the payloads of the issue only.)
            bads = payloads(plain_used) if plain_used else payloads(PLAIN[0])[:1] + [".."]
            for bad in bads:
                stub.seen.clear()
                await call(rt, tool, filled(dict(d.parameters), arg, bad), tmp_path)
                for path in sent(stub, case):
                    where = f"{d.name}({arg}={bad!r}) sent {path}"
                    assert not walks(path), where
                    if MARK in bad:
                        assert shape(path) in shapes, f"{where}; expected one of {shapes}"
                    else:  # where the value went cannot be marked: as many segments
                        assert len(shape(path)) in {len(s) for s in shapes}, where
                for s in stub.seen:
                    assert "admin" not in s.query, f"{d.name}({arg}={bad!r}): {s.query}"
    # Not vacuous: the arguments that name things in a path were reached by a plain value.
    assert reached >= REACHED.get(case.id, 0), (case.id, reached)


async def test_the_arguments_of_the_issue_reach_their_own_path_or_nothing(
    rt: Runtime, stub: StubServer, tmp_path: Path,
) -> None:
    case = next(c for c in CASES if c.id == "github")
    await connect(rt, case, stub)
    stub.fallback = json_reply([])
    tool = next(t for t in rt.connectors.tools() if t.name == "github_list_issues")
    out = await call(rt, tool, {"repo": "acme/app/../../../user#"}, tmp_path)
    assert out is not None and out.is_error and "owner/repository" in out.content
    assert stub.seen == []
    out = await call(rt, tool, {"repo": "acme/app"}, tmp_path)
    assert out is not None and not out.is_error
    assert [s.raw_path for s in stub.seen] == ["/repos/acme/app/issues"]


# --- what a plain value may not hold (the helpers themselves) ------------------------------


@pytest.mark.parametrize("value", ["..", ".", "%2e%2e", "%252E%252E", "a/../b", "a\\..\\b",
                                   "", "  ", "x\ny", "a/%2e%2e/b"])
def test_a_segment_refuses_what_walks(value: str) -> None:
    with pytest.raises(ConnectorError, match="not a valid id"):
        path_segment(value)


def test_a_segment_encodes_the_rest() -> None:
    assert path_segment("a/b#c?d e") == "a%2Fb%23c%3Fd%20e"
    assert path_segment("ana@acme.com") == "ana%40acme.com"


@pytest.mark.parametrize("value", ["acme/app/../../../user#", "acme", "acme/app/x", "../app",
                                   "acme/..", "acme/app#x", "acme/app?x", "acme/%2e%2e",
                                   "ac me/app", "acme/ap\u00e9"])
def test_owner_repo_checks_its_shape(value: str) -> None:
    with pytest.raises(ConnectorError, match="owner/repository"):
        owner_repo(value)


def test_owner_repo_keeps_a_plain_pair() -> None:
    assert owner_repo(" acme/web.site_1-x/ ") == "acme/web.site_1-x"


@pytest.mark.parametrize("path", ["repos/../user", "a/%2e%2e/b", "a/b#c", "a/b?c=1",
                                  "https://evil.test/x", "a//b", "a\\b", "a/%252e%252e"])
def test_the_http_layer_refuses_a_path_that_walks(path: str) -> None:
    with pytest.raises(ConnectorError, match="was not called"):
        check_path("GitHub", path)


def test_the_http_layer_lets_encoded_names_through() -> None:
    check_path("X", "projects/acme%2Fweb/issues")
    check_path("X", "calendars/en.usa%23holiday%40group.v.calendar.google.com/events")
    check_path("X", "organizations/acme/issues/")


# --- answers that are not data ---------------------------------------------------------------

HTML = Reply(body="<!DOCTYPE html><html><body>Sign in to continue</body></html>",
             content_type="text/html")
HTML_AS_JSON = Reply(body="<html><body>Proxy error</body></html>", content_type="application/json")
BROKEN = Reply(body='{"items": [{"id": 1,', content_type="application/json")


@pytest.mark.parametrize(("answer", "said"), [
    (HTML, "web page instead of data"), (HTML_AS_JSON, "web page instead of data"),
    (BROKEN, "not readable data"),
], ids=["html", "html-as-json", "broken-json"])
async def test_a_page_or_broken_json_is_an_answer_error(
    rt: Runtime, stub: StubServer, case: Case, tmp_path: Path, answer: Reply, said: str,
) -> None:
    name, arguments, routes, _expected = case.read
    reset(stub, case)
    stub.add(routes[0][0], at(routes[0][1], case), answer)
    tool = next(t for t in rt.connectors.tools() if t.name == name)
    out = await tool.handler(dict(arguments), ToolContext(session_id="s", workspace=tmp_path))
    assert isinstance(out, ToolResult) and out.is_error, out
    assert said in out.content and "answered with" in out.content, out.content
    assert "AttributeError" not in out.content
    assert rt.connectors.state(case.id).status == "connected"  # not the token's fault
    # Connecting through such an answer is refused with the same words.
    method, path, _ = case.validate[0]
    reset(stub, case)
    stub.add(method, at(path, case), answer)
    with pytest.raises(ConnectorError) as raised:
        await rt.connectors.connect(case.id, values(case, stub))
    assert raised.value.kind == "answer" and said in raised.value.message


@pytest.mark.parametrize(("body", "ctype", "said"), [
    ("<!doctype html><html><body>Sign in</body></html>", "text/html", "web page instead of data"),
    ('{"ok": true, "user":', "application/json", "not readable data"),
], ids=["html", "broken-json"])
async def test_slack_through_its_sdk_says_the_same(body: str, ctype: str, said: str) -> None:
    """Slack is read through slack-sdk, not the HTTP layer: the same error, not a
    "refused the request: 200" nor an AttributeError."""
    from aiohttp import web

    from openworker_qt.connectors.base import RetryPolicy
    from openworker_qt.connectors.slack import SlackApi

    async def answer(request: web.Request) -> web.Response:
        return web.Response(text=body, content_type=ctype)

    app = web.Application()
    app.router.add_post("/api/{method}", answer)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        api = SlackApi({"bot_token": "xoxb-1", "api_url": f"http://127.0.0.1:{port}/api/"},
                       RetryPolicy())
        with pytest.raises(ConnectorError) as raised:
            await api.call("auth.test")
        assert raised.value.kind == "answer" and said in raised.value.message
        assert raised.value.message.startswith("Slack answered with")
    finally:
        await runner.cleanup()
