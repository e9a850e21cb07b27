"""web_fetch and redirects: a rule or an approval covers the approved host only.

A real aiohttp server on 127.0.0.1 redirects (301/302/303/307/308, chains, loops,
userinfo); the names ``localhost`` and ``other.test`` resolve to it too (the test
resolver), so the only thing between a redirect and the other name is the
permission decision — which is what these tests prove.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome, ApprovalRequest
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.web import REDIRECTS_STATE, make_fetch_handler, web_tools
from openworker_qt.tools.web.fetch import fetch
from openworker_qt.tools.web.guard import WebError, WebSettings, url_host
from tests.core.helpers import call, collect, make_engine

STATUSES = (301, 302, 303, 307, 308)


class Server:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []  # (Host header, path)
        self.port = 0
        self.runner: web.AppRunner | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()

        async def page(request: web.Request) -> web.Response:
            self.seen.append((request.host, request.path))
            return web.Response(text=f"page {request.path} on {request.host}",
                                content_type="text/plain")

        async def redirect(request: web.Request) -> web.Response:
            self.seen.append((request.host, request.path))
            status = int(request.query.get("status", "302"))
            to = request.query["to"].replace("{port}", str(self.port))
            return web.Response(status=status, headers={"Location": to})

        async def loop(request: web.Request) -> web.Response:
            self.seen.append((request.host, request.path))
            other = "/loop-b" if request.path == "/loop-a" else "/loop-a"
            return web.Response(status=307, headers={"Location": other})

        app.router.add_get("/redir", redirect)
        app.router.add_get("/loop-a", loop)
        app.router.add_get("/loop-b", loop)
        app.router.add_get("/{name}", page)
        self.runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = self.runner.addresses[0][1]

    def redir(self, to: str, status: int = 302, host: str = "127.0.0.1") -> str:
        from urllib.parse import quote

        return f"http://{host}:{self.port}/redir?status={status}&to={quote(to, safe='')}"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    s = Server()
    await s.start()
    try:
        yield s
    finally:
        await s.stop()


def resolver(host: str, port: int) -> Sequence[str]:
    names = {"localhost": ["127.0.0.1"], "other.test": ["127.0.0.1"]}
    if host in names:
        return names[host]
    raise WebError(f"the name {host} could not be resolved")


#: The SSRF guard lets every local spelling through: what stops a hop is the decision.
OPEN = WebSettings(allow_private_hosts=("127.0.0.1", "localhost", "other.test", "::1"))


def ctx() -> ToolContext:
    return ToolContext(session_id="s1", workspace=Path("."))


# --- fetch: which hops it follows ---------------------------------------------------------


@pytest.mark.parametrize("status", STATUSES)
async def test_a_redirect_on_the_same_host_is_followed(server: Server, status: int) -> None:
    page = await fetch(server.redir("/done", status), OPEN, resolve=resolver)
    assert page.elsewhere is None and page.body == b"page /done on " + (
        f"127.0.0.1:{server.port}".encode())
    # another port of the same host is the same host (a rule is per host)
    page = await fetch(server.redir(f"http://127.0.0.1:{server.port}/p2", status), OPEN,
                       resolve=resolver)
    assert page.url.endswith("/p2") and page.elsewhere is None


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize(("to", "host"), [
    ("http://localhost:{port}/secret", "localhost"),
    ("http://other.test:{port}/secret", "other.test"),
    ("http://[::1]:{port}/secret", "::1"),
    ("HTTP://LOCALHOST.:{port}/secret", "localhost"),
    # the user name is "127.0.0.1:port": the host is localhost
    ("http://127.0.0.1:{port}@localhost:{port}/secret", None),
])
async def test_a_redirect_to_another_host_is_not_followed(
    server: Server, status: int, to: str, host: str | None,
) -> None:
    url = server.redir(to, status)
    if host is None:
        with pytest.raises(WebError, match="user name or password"):
            await fetch(url, OPEN, resolve=resolver)
    else:
        page = await fetch(url, OPEN, resolve=resolver)
        assert page.elsewhere is not None
        assert page.elsewhere.lower() == to.replace("{port}", str(server.port)).lower()
        assert url_host({"url": page.elsewhere}) == host
        assert page.status == status and page.body == b""
    # only the redirect itself was fetched, never the other name
    assert server.seen == [(f"127.0.0.1:{server.port}", "/redir")]


async def test_a_redirect_to_the_metadata_address_is_refused_outright(server: Server) -> None:
    with pytest.raises(WebError, match="169.254.169.254 is a cloud metadata address"):
        await fetch(server.redir("http://169.254.169.254/latest/meta-data/"), OPEN,
                    resolve=resolver)
    assert [p for _h, p in server.seen] == ["/redir"]


async def test_a_chain_stays_on_its_host_and_loops_are_errors(server: Server) -> None:
    # 127.0.0.1 -> 127.0.0.1 -> localhost: the second hop is followed, the third is not
    two = server.redir(f"http://localhost:{server.port}/end", 308)
    page = await fetch(server.redir(two, 301), OPEN, resolve=resolver)
    assert page.elsewhere == f"http://localhost:{server.port}/end"
    assert [h for h, _p in server.seen] == [f"127.0.0.1:{server.port}"] * 2
    with pytest.raises(WebError, match="redirect loop"):
        await fetch(f"{server.base}/loop-a", OPEN, resolve=resolver)
    # a chain that leaves and comes back: stops where it leaves
    back = server.redir(f"http://127.0.0.1:{server.port}/home", host="localhost")
    page = await fetch(server.redir(back), OPEN, resolve=resolver)
    assert page.elsewhere == back


async def test_redirect_with_credentials_for_the_same_host_is_not_followed(server: Server) -> None:
    with pytest.raises(WebError, match="user name or password"):
        await fetch(server.redir(f"http://me:pw@127.0.0.1:{server.port}/x"), OPEN,
                    resolve=resolver)


# --- the handler: what the model is told, and what it may claim ----------------------------


async def test_the_model_is_told_where_it_leads_and_a_false_claim_is_refused(
    server: Server,
) -> None:
    handler = make_fetch_handler(lambda: OPEN, resolver)
    c = ctx()
    target = f"http://localhost:{server.port}/secret"
    res = await handler({"url": server.redir(target)}, c)
    assert not res.is_error
    assert target in res.content and "localhost" in res.content and "not opened" in res.content
    assert c.state[REDIRECTS_STATE] == {target: server.redir(target)}
    # claiming a redirect that did not happen is refused, before anything is fetched
    before = len(server.seen)
    bad = await handler({"url": f"http://other.test:{server.port}/x",
                         "redirected_from": server.redir(target)}, c)
    assert bad.is_error and "did not redirect" in bad.content
    assert len(server.seen) == before
    good = await handler({"url": target, "redirected_from": server.redir(target)}, c)
    assert not good.is_error and "page /secret on localhost" in good.content


# --- the decision: a rule for 127.0.0.1 does not cover localhost --------------------------


def _engine(server: Server, tmp_path: Path, approver: Any, mode: str = "interactive") -> Any:
    decider = PermissionEngine(workspace=tmp_path, mode=mode, rules=StandingRuleStore.in_memory())
    decider.rules.add("web_fetch", "127.0.0.1", scope="session", scope_id="s1")
    first = server.redir(f"http://localhost:{server.port}/secret")
    turns = [
        {"tool_calls": [call("web_fetch", {"url": first}, "c1")]},
        {"tool_calls": [call("web_fetch", {"url": f"http://localhost:{server.port}/secret",
                                           "redirected_from": first}, "c2")]},
        {"text": "done"},
    ]
    engine, _ = make_engine(turns, tmp_path, tools=web_tools(lambda: OPEN, resolver),
                            decider=decider, approver=approver)
    return engine


async def test_always_allow_127_does_not_cover_a_redirect_to_localhost(
    server: Server, tmp_path: Path,
) -> None:
    asked: list[ApprovalRequest] = []

    async def deny(request: ApprovalRequest) -> ApprovalOutcome:
        asked.append(request)
        return ApprovalOutcome.DENY

    events = await collect(_engine(server, tmp_path, deny).run("read it"))
    done = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
    assert done["c1"].rule == "web_fetch → 127.0.0.1" and done["c1"].status == "ok"
    assert [r.call_id for r in asked] == ["c2"]
    assert asked[0].target == "localhost"
    assert asked[0].arguments["redirected_from"].startswith(f"http://127.0.0.1:{server.port}/")
    assert done["c2"].status == "denied"
    assert all(h.startswith("127.0.0.1") for h, _p in server.seen), server.seen


async def test_unattended_the_other_host_is_refused(server: Server, tmp_path: Path) -> None:
    events = await collect(_engine(server, tmp_path, None).run("read it"))
    done = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
    assert done["c1"].status == "ok" and done["c2"].status == "denied"
    assert "nobody can be asked" in done["c2"].result
    assert all(h.startswith("127.0.0.1") for h, _p in server.seen), server.seen


async def test_a_one_time_approval_covers_its_host_only(server: Server, tmp_path: Path) -> None:
    asked: list[ApprovalRequest] = []

    async def once(request: ApprovalRequest) -> ApprovalOutcome:
        asked.append(request)
        return ApprovalOutcome.ONCE

    decider = PermissionEngine(workspace=tmp_path, mode="interactive",
                               rules=StandingRuleStore.in_memory())
    first = server.redir(f"http://other.test:{server.port}/secret", 307)
    engine, _ = make_engine(
        [{"tool_calls": [call("web_fetch", {"url": first}, "c1")]},
         {"tool_calls": [call("web_fetch", {"url": f"http://other.test:{server.port}/secret",
                                            "redirected_from": first}, "c2")]},
         {"text": "done"}],
        tmp_path, tools=web_tools(lambda: OPEN, resolver), decider=decider, approver=once)
    events = await collect(engine.run("read it"))
    assert [(r.call_id, r.target) for r in asked] == [("c1", "127.0.0.1"), ("c2", "other.test")]
    done = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
    assert "page /secret on other.test" in done["c2"].result


def test_the_card_says_where_the_redirect_goes() -> None:
    from openworker_qt.qt.wording import approval_question

    q = approval_question("web_fetch", {"url": "http://localhost:8/secret",
                                        "redirected_from": "http://127.0.0.1:8/redir"})
    assert "http://127.0.0.1:8/redir" in q and "http://localhost:8/secret" in q
    assert "redirect" in q.lower()
