"""web_fetch and web_search against local aiohttp servers (no network).

The SSRF guard refuses loopback, so the test server's ``127.0.0.1:port`` is
allowed through ``allow_private_hosts`` where a test needs to reach it; names are
resolved by an injected resolver (the guard's own lookup function), never DNS.
"""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from openworker_qt.core import events as ev
from openworker_qt.core.approvals import ApprovalOutcome
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.storage.config import load_config
from openworker_qt.tools.web import make_fetch_handler, web_tools
from openworker_qt.tools.web.fetch import fetch
from openworker_qt.tools.web.guard import WebError, WebSettings, refused_reason
from openworker_qt.tools.web.search import (
    Brave,
    DuckDuckGo,
    SearXNG,
    Tavily,
    make_search_handler,
    provider_for,
)
from tests.core.helpers import answering, call, collect, make_engine
from tests.tools.test_read_caps import tiny_pdf

ARTICLE = """<!doctype html><html><head><title>Renewal notes</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Renewal notes</h1>
<p>The <b>renewal</b> of the Acme contract is due in March. The customer asked for a
three-year term with a yearly price review, and the account team agreed to send a draft
before the end of the month.</p>
<h2>Open points</h2>
<ul><li>Price review clause</li><li>Support hours</li></ul>
<p>Everything else stays as in the current contract, which has served both sides well for
the last two years and needs no other change.</p>
</article><footer>Copyright footer</footer></body></html>"""

DDG_HTML = """<html><body><div class="results">
<div class="result results_links results_links_deep web-result">
 <h2 class="result__title"><a rel="nofollow" class="result__a"
  href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fone&amp;rut=abc">First <b>result</b></a></h2>
 <a class="result__snippet" href="//duckduckgo.com/l/?uddg=x">The first snippet.</a>
</div>
<div class="result results_links results_links_deep web-result">
 <h2 class="result__title"><a rel="nofollow" class="result__a"
  href="https://example.com/two">Second result</a></h2>
 <a class="result__snippet" href="https://example.com/two">Second snippet.</a>
</div>
</div></body></html>"""

BIG = 100 * 1024 * 1024


class Server:
    def __init__(self) -> None:
        self.hits: list[str] = []
        self.sent_big = 0
        self.seen: list[dict[str, Any]] = []
        self.port = 0
        self.runner: web.AppRunner | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()

        async def record(request: web.Request) -> None:
            self.hits.append(request.path)
            body = await request.text() if request.can_read_body else ""
            self.seen.append({"path": request.path, "headers": dict(request.headers),
                              "query": dict(request.query), "body": body})

        async def page(request: web.Request) -> web.Response:
            await record(request)
            return web.Response(text=ARTICLE, content_type="text/html")

        async def text(request: web.Request) -> web.Response:
            await record(request)
            return web.Response(text="plain words\nline two", content_type="text/plain")

        async def pdf(request: web.Request) -> web.Response:
            await record(request)
            return web.Response(body=tiny_pdf("Quarterly revenue grew"),
                                content_type="application/pdf")

        async def binary(request: web.Request) -> web.Response:
            await record(request)
            return web.Response(body=b"\x00\x01\x02", content_type="application/octet-stream")

        async def big(request: web.Request) -> web.StreamResponse:
            await record(request)
            resp = web.StreamResponse(headers={"Content-Type": "text/plain"})
            resp.content_length = BIG
            await resp.prepare(request)
            chunk = b"x" * 65536
            try:
                while self.sent_big < BIG:
                    await resp.write(chunk)
                    self.sent_big += len(chunk)
            except (ConnectionError, RuntimeError):
                pass
            return resp

        def redirect(to: str) -> Any:
            async def handler(request: web.Request) -> web.Response:
                await record(request)
                raise web.HTTPFound(to.replace("{base}", self.base))
            return handler

        async def ddg(request: web.Request) -> web.Response:
            await record(request)
            return web.Response(text=DDG_HTML, content_type="text/html")

        async def brave(request: web.Request) -> web.Response:
            await record(request)
            return web.json_response({"web": {"results": [
                {"title": "Brave one", "url": "https://example.org/b1", "description": "B1"},
                {"title": "Brave two", "url": "https://example.org/b2", "description": "B2"},
            ]}})

        async def tavily(request: web.Request) -> web.Response:
            await record(request)
            return web.json_response({"query": "q", "results": [
                {"title": "Tavily one", "url": "https://example.org/t1", "content": "T1",
                 "score": 0.9},
            ]})

        async def searx(request: web.Request) -> web.Response:
            await record(request)
            return web.json_response({"query": "q", "results": [
                {"title": "Searx one", "url": "https://example.org/s1", "content": "S1"},
            ]})

        async def slow(request: web.Request) -> web.Response:
            await record(request)
            await asyncio.sleep(60)
            return web.Response(text="late")

        app.router.add_get("/slow", slow)
        app.router.add_get("/page", page)
        app.router.add_get("/text", text)
        app.router.add_get("/doc.pdf", pdf)
        app.router.add_get("/bin", binary)
        app.router.add_get("/big", big)
        app.router.add_get("/loop1", redirect("/loop2"))
        app.router.add_get("/loop2", redirect("/loop1"))
        app.router.add_get("/to-page", redirect("{base}/page"))
        app.router.add_get("/to-metadata", redirect("http://169.254.169.254/latest/meta-data/"))
        app.router.add_get("/to-name", redirect("http://intranet.test/secret"))
        for i in range(10):
            app.router.add_get(f"/chain{i}", redirect(f"/chain{i + 1}"))
        app.router.add_post("/ddg", ddg)
        app.router.add_get("/brave", brave)
        app.router.add_post("/tavily", tavily)
        app.router.add_get("/searx/search", searx)
        self.runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = self.runner.addresses[0][1]

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


NAMES = {
    "loopback.test": ["127.0.0.1"],
    "metadata.test": ["169.254.169.254"],
    "intranet.test": ["10.0.0.1"],
    "v6local.test": ["::1"],
    "zero.test": ["0.0.0.0"],
    "mixed.test": ["93.184.215.14", "192.168.1.20"],
    "example.org": ["127.0.0.1"],
    "example.com": ["127.0.0.1"],
    "xn--bcher-kva.test": ["127.0.0.1"],
}


def resolver(host: str, port: int) -> Sequence[str]:
    try:
        return NAMES[host]
    except KeyError:
        raise WebError(f"the name {host} could not be resolved") from None


def allowing(server: Server, *more: str) -> WebSettings:
    return WebSettings(allow_private_hosts=(f"127.0.0.1:{server.port}", *more))


def ctx() -> ToolContext:
    return ToolContext(session_id="s1", workspace=Path("."))


# --- the guard --------------------------------------------------------------------------


@pytest.mark.parametrize(("address", "kind"), [
    ("127.0.0.1", "loopback"), ("169.254.169.254", "metadata"), ("10.0.0.1", "private"),
    ("::1", "loopback"), ("0.0.0.0", "unspecified"), ("100.64.1.1", "carrier-grade"),
    ("224.0.0.1", "multicast"), ("169.254.10.10", "link-local"), ("fd00:ec2::254", "metadata"),
    ("::ffff:127.0.0.1", "loopback"), ("192.168.0.1", "private"), ("fe80::1", "link-local"),
])
def test_refused_addresses(address: str, kind: str) -> None:
    why = refused_reason(address)
    assert why is not None and kind in why


def test_public_addresses_pass() -> None:
    assert refused_reason("93.184.215.14") is None
    assert refused_reason("2606:2800:21f:cb07:6820:80da:af6b:8b2c") is None


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:{port}/page", "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/", "http://[::1]:{port}/page", "http://0.0.0.0:{port}/page",
    "http://loopback.test:{port}/page", "http://metadata.test/", "http://intranet.test/",
    "http://v6local.test:{port}/page", "http://zero.test:{port}/page", "http://mixed.test/",
])
async def test_ssrf_targets_are_refused_before_connecting(server: Server, url: str) -> None:
    with pytest.raises(WebError, match="refused to fetch") as info:
        await fetch(url.format(port=server.port), WebSettings(), resolve=resolver)
    assert "allow_private_hosts" in str(info.value)
    assert server.hits == []


async def test_only_http_and_https(server: Server) -> None:
    for url in ("file:///etc/passwd", "ftp://example.org/x", "gopher://x/", "http:///nohost"):
        with pytest.raises(WebError):
            await fetch(url, allowing(server), resolve=resolver)


async def test_a_redirect_to_a_refused_address_is_refused_before_that_hop(server: Server) -> None:
    with pytest.raises(WebError, match="169.254.169.254 is a cloud metadata address"):
        await fetch(f"{server.base}/to-metadata", allowing(server), resolve=resolver)
    # a name on another host is not looked up nor followed: its own call is checked
    page = await fetch(f"{server.base}/to-name", allowing(server), resolve=resolver)
    assert page.elsewhere == "http://intranet.test/secret"
    with pytest.raises(WebError, match="intranet.test resolves to 10.0.0.1"):
        await fetch(page.elsewhere, allowing(server), resolve=resolver)
    assert server.hits == ["/to-metadata", "/to-name"]


async def test_the_connection_is_pinned_to_the_checked_address(server: Server) -> None:
    """The name is resolved once, by the guard; the client connects to that address (no
    second lookup), and the Host header keeps the name."""
    calls: list[str] = []

    def counting(host: str, port: int) -> Sequence[str]:
        calls.append(host)
        return resolver(host, port)

    conf = WebSettings(allow_private_hosts=("example.org",))
    page = await fetch(f"http://example.org:{server.port}/text", conf, resolve=counting)
    assert page.body == b"plain words\nline two"
    assert calls == ["example.org"]
    assert server.seen[0]["headers"]["Host"] == f"example.org:{server.port}"


async def test_an_international_name_is_checked_and_pinned_as_the_client_sends_it(
    server: Server,
) -> None:
    with pytest.raises(WebError, match="xn--bcher-kva.test resolves to 127.0.0.1"):
        await fetch(f"http://bücher.test:{server.port}/text", WebSettings(), resolve=resolver)
    conf = WebSettings(allow_private_hosts=("xn--bcher-kva.test",))
    page = await fetch(f"http://bücher.test:{server.port}/text", conf, resolve=resolver)
    assert page.body == b"plain words\nline two"


async def test_allow_list_is_per_host_and_port(server: Server) -> None:
    with pytest.raises(WebError, match="refused"):
        await fetch(f"{server.base}/page", WebSettings(("127.0.0.1:1",)), resolve=resolver)
    page = await fetch(f"{server.base}/page", WebSettings(("127.0.0.1",)), resolve=resolver)
    assert page.status == 200


async def test_redirect_loop_and_too_many_redirects(server: Server) -> None:
    with pytest.raises(WebError, match="redirect loop"):
        await fetch(f"{server.base}/loop1", allowing(server), resolve=resolver)
    with pytest.raises(WebError, match="too many redirects"):
        await fetch(f"{server.base}/chain0", allowing(server), resolve=resolver)
    page = await fetch(f"{server.base}/to-page", allowing(server), resolve=resolver)
    assert page.url == f"{server.base}/page" and page.redirects == [f"{server.base}/page"]


async def test_a_100_mb_page_is_cut_at_the_cap_with_flat_memory(server: Server) -> None:
    tracemalloc.start()
    try:
        page = await fetch(f"{server.base}/big", allowing(server), resolve=resolver,
                           max_bytes=2 * 1024 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert page.truncated and len(page.body) == 2 * 1024 * 1024
    assert peak < 16 * 1024 * 1024  # never the whole 100 MB
    assert server.sent_big < BIG // 2


async def test_the_tool_says_the_page_was_cut(server: Server) -> None:
    handler = make_fetch_handler(lambda: allowing(server), resolver, max_bytes=1024 * 1024)
    result = await handler({"url": f"{server.base}/big"}, ctx())
    assert not result.is_error
    assert "only its start was read" in result.content


async def test_a_server_that_never_answers_hits_the_time_limit(server: Server) -> None:
    with pytest.raises(WebError, match="did not answer within"):
        await fetch(f"{server.base}/slow", allowing(server), resolve=resolver,
                    total_timeout=0.3)


# --- conversion --------------------------------------------------------------------------


async def test_html_becomes_markdown(server: Server) -> None:
    handler = make_fetch_handler(lambda: allowing(server), resolver)
    result = await handler({"url": f"{server.base}/page"}, ctx())
    assert not result.is_error, result.content
    text = result.content
    assert text.startswith(f"URL: {server.base}/page")
    assert "# Renewal notes" in text and "The **renewal** of the Acme contract" in text
    assert "## Open points" in text
    assert "- Price review clause" in text
    assert "<p>" not in text and "Copyright footer" not in text


async def test_pdf_becomes_text_and_plain_text_stays(server: Server) -> None:
    handler = make_fetch_handler(lambda: allowing(server), resolver)
    result = await handler({"url": f"{server.base}/doc.pdf"}, ctx())
    assert not result.is_error and "Quarterly revenue grew" in result.content
    result = await handler({"url": f"{server.base}/text"}, ctx())
    assert result.content.endswith("plain words\nline two")


async def test_binary_and_errors_are_clear(server: Server) -> None:
    handler = make_fetch_handler(lambda: allowing(server), resolver)
    result = await handler({"url": f"{server.base}/bin"}, ctx())
    assert result.is_error and "not a web page, a PDF or text" in result.content
    result = await handler({"url": f"{server.base}/missing"}, ctx())
    assert result.is_error and "HTTP 404" in result.content
    result = await handler({"url": "http://nowhere.test/"}, ctx())
    assert result.is_error and "could not be resolved" in result.content


# --- search --------------------------------------------------------------------------------


async def test_duckduckgo_results_are_parsed(server: Server) -> None:
    handler = make_search_handler(
        lambda: WebSettings(), provider=lambda _c: DuckDuckGo(base_url=f"{server.base}/ddg"))
    result = await handler({"query": "acme renewal"}, ctx())
    assert not result.is_error, result.content
    assert "1. First result\n   https://example.org/one\n   The first snippet." in result.content
    assert "2. Second result\n   https://example.com/two" in result.content
    assert server.seen[0]["body"] == "q=acme+renewal"


async def test_brave_tavily_and_searxng(server: Server) -> None:
    providers = {
        "brave": Brave("bk", base_url=f"{server.base}/brave"),
        "tavily": Tavily("tk", base_url=f"{server.base}/tavily"),
        "searx": SearXNG(f"{server.base}/searx"),
    }
    out = {}
    for name, prov in providers.items():
        handler = make_search_handler(lambda: WebSettings(), provider=lambda _c, p=prov: p)
        out[name] = await handler({"query": "q", "count": 3}, ctx())
    assert "https://example.org/b1\n   B1" in out["brave"].content
    assert "https://example.org/t1\n   T1" in out["tavily"].content
    assert "https://example.org/s1\n   S1" in out["searx"].content
    by_path = {s["path"]: s for s in server.seen}
    assert by_path["/brave"]["headers"]["X-Subscription-Token"] == "bk"
    assert by_path["/brave"]["query"] == {"q": "q", "count": "3"}
    assert by_path["/tavily"]["headers"]["Authorization"] == "Bearer tk"
    assert json.loads(by_path["/tavily"]["body"]) == {"query": "q", "max_results": 3}
    assert by_path["/searx/search"]["query"] == {"q": "q", "format": "json"}


def test_provider_choice_and_missing_keys() -> None:
    keys = {"BRAVE_API_KEY": "b"}
    assert isinstance(provider_for(WebSettings(), keys.get), DuckDuckGo)
    brave = provider_for(WebSettings(search_provider="brave"), keys.get)
    assert isinstance(brave, Brave) and brave.key == "b"
    with pytest.raises(WebError, match="TAVILY_API_KEY"):
        provider_for(WebSettings(search_provider="tavily"), keys.get)
    with pytest.raises(WebError, match="searxng_url"):
        provider_for(WebSettings(search_provider="searxng"), keys.get)
    with pytest.raises(WebError, match="unknown search provider"):
        provider_for(WebSettings(search_provider="bing"), keys.get)


async def test_search_error_is_clear(server: Server) -> None:
    handler = make_search_handler(
        lambda: WebSettings(), provider=lambda _c: Brave("k", base_url=f"{server.base}/nope"))
    result = await handler({"query": "x"}, ctx())
    assert result.is_error and "HTTP 404" in result.content
    result = await handler({"query": "  "}, ctx())
    assert result.is_error and "no search query" in result.content


# --- approval per domain -------------------------------------------------------------------


async def test_always_for_a_domain_is_a_standing_rule_on_that_domain(
    server: Server, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    conf = WebSettings(allow_private_hosts=("example.org", "example.com"))
    approver = answering(ApprovalOutcome.ALWAYS)
    decider = PermissionEngine(workspace=ws, mode="interactive",
                               rules=StandingRuleStore.in_memory())
    org, com = f"http://example.org:{server.port}", f"http://example.com:{server.port}"
    engine, _ = make_engine(
        [{"tool_calls": [call("web_fetch", {"url": f"{org}/page"}, "c1")]},
         {"tool_calls": [call("web_fetch", {"url": f"{org}/text"}, "c2"),
                         call("web_fetch", {"url": f"{com}/text"}, "c3")]},
         {"text": "done"}],
        ws, tools=web_tools(lambda: conf, resolver), decider=decider, approver=approver,
    )
    events = await collect(engine.run("read these"))
    assert [e.call_id for e in events if isinstance(e, ev.PermissionRequired)] == ["c1", "c3"]
    rules = [(r.tool, r.target) for r in decider.rules.list_rules()]
    assert rules == [("web_fetch", "example.org"), ("web_fetch", "example.com")]
    done = {e.call_id: e for e in events if isinstance(e, ev.ToolFinished)}
    assert done["c2"].rule == "web_fetch → example.org"
    assert all(d.status == "ok" for d in done.values()), [d.result for d in done.values()]
    assert "plain words" in done["c2"].result


def test_fetch_target_is_the_host() -> None:
    fetch_tool = web_tools()[0]
    assert fetch_tool.target({"url": "https://Docs.Example.org:8443/a?b=c"}) == "docs.example.org"
    assert fetch_tool.target({"url": "file:///etc/passwd"}) is None


# --- settings --------------------------------------------------------------------------------


def test_a_workspace_file_cannot_allow_private_hosts(tmp_path: Path) -> None:
    gfile = tmp_path / "config.toml"
    gfile.write_text('[web]\nallow_private_hosts = ["localhost:8080"]\n')
    ws = tmp_path / "ws"
    (ws / ".openworker").mkdir(parents=True)
    (ws / ".openworker/config.toml").write_text(
        '[web]\nallow_private_hosts = ["localhost:8080", "169.254.169.254"]\n'
        'search_provider = "searxng"\nsearxng_url = "http://evil.example"\n'
    )
    cfg = load_config(ws, global_file=gfile)
    assert cfg.get("web.allow_private_hosts") == ["localhost:8080"]
    assert cfg.get("web.search_provider") == "duckduckgo"
    assert cfg.get("web.searxng_url") == ""
    assert any("web.allow_private_hosts" in w for w in cfg.warnings)

