"""The browser connector drives a real headless Chromium (Debian's ``chromium``)
against a small site served on 127.0.0.1 by aiohttp: a login form, a two-step
form, a page whose content arrives late, a download; a new domain (``localhost``,
the same server under another name) is asked for before the browser goes there,
and a form is sent only through ``browser_submit``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from openworker_qt.connectors import browser, browser_host
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.runtime import Runtime
from tests.connectors.helpers import Sleeps, park_and_approve, runtime, script, wait_for


def chromium() -> str:
    found = browser_host.find_chromium()
    if found is None:
        pytest.fail("Chromium is not installed, and the browser tests drive a real one. "
                    "Install it with `sudo apt-get install chromium` (scripts/dev install "
                    "does it) and run the tests again.")
    return found


PAGE = "<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def html(title: str, body: str) -> web.Response:
    return web.Response(text=PAGE.format(title=title, body=body), content_type="text/html")


class Site:
    """The test site; ``seen`` lists every request as ``METHOD /path``."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.posted: list[dict[str, str]] = []
        self.port = 0

    @web.middleware
    async def record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.seen.append(f"{request.method} {request.path}")
        response: web.StreamResponse = await handler(request)
        return response

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.record])
        app.router.add_get("/login", self.login_page)
        app.router.add_post("/login", self.login)
        app.router.add_get("/account", self.account)
        app.router.add_get("/steps", self.step1)
        app.router.add_post("/steps/2", self.step2)
        app.router.add_post("/steps/done", self.done)
        app.router.add_get("/late", self.late)
        app.router.add_get("/files", self.files)
        app.router.add_get("/report.csv", self.report)
        app.router.add_get("/links", self.links)
        app.router.add_get("/other", self.other)
        app.router.add_get("/beacon", self.beacon_page)
        app.router.add_get("/away", self.away)
        app.router.add_post("/collect", self.collect)
        return app

    async def login_page(self, _r: web.Request) -> web.Response:
        return html("Sign in", """<h1>Sign in</h1><form method="post" action="/login">
            <label>User name <input name="user"></label>
            <label>Password <input name="password" type="password"></label>
            <button type="submit">Sign in</button></form>""")

    async def login(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.posted.append({k: str(v) for k, v in form.items()})
        if form.get("user") == "ana" and form.get("password") == "s3cret":
            response = web.HTTPFound("/account")
            response.set_cookie("who", "ana")
            raise response
        return html("Sign in", "<p>Wrong user name or password.</p>")

    async def account(self, request: web.Request) -> web.Response:
        who = request.cookies.get("who")
        return html("Account", f"<h1>Welcome back, {who}</h1>" if who else "<p>Not signed in</p>")

    async def step1(self, _r: web.Request) -> web.Response:
        return html("Order — step 1", """<form method="post" action="/steps/2">
            <label>Full name <input name="name"></label><button>Next</button></form>""")

    async def step2(self, request: web.Request) -> web.Response:
        name = str((await request.post()).get("name", ""))
        return html("Order — step 2", f"""<p>Hello {name}</p><form method="post"
            action="/steps/done"><input type="hidden" name="name" value="{name}">
            <label>E-mail <input name="email"></label><button>Place order</button></form>""")

    async def done(self, request: web.Request) -> web.Response:
        form = {k: str(v) for k, v in (await request.post()).items()}
        self.posted.append(form)
        return html("Order placed", f"<p>Order placed for {form['name']} ({form['email']})</p>")

    async def late(self, _r: web.Request) -> web.Response:
        return html("Results", """<p id="status">Loading…</p><script>
            setTimeout(() => { document.getElementById('status').textContent =
              'Results: 3 invoices due'; }, 1200);</script>""")

    async def files(self, _r: web.Request) -> web.Response:
        return html("Files", '<a href="/report.csv">Download the report</a>')

    async def report(self, _r: web.Request) -> web.Response:
        return web.Response(body=b"month,total\nnov,1200\n", content_type="text/csv",
                            headers={"Content-Disposition": 'attachment; filename="report.csv"'})

    async def links(self, _r: web.Request) -> web.Response:
        return html("Links", f'<a href="http://localhost:{self.port}/other">Partner site</a>')

    async def other(self, _r: web.Request) -> web.Response:
        return html("Partner", "<h1>Partner page</h1>")

    async def beacon_page(self, _r: web.Request) -> web.Response:
        return html("Beacon", """<button onclick="fetch('/collect', {method: 'POST',
            body: 'secret'})">Like</button>""")

    async def away(self, _r: web.Request) -> web.Response:
        raise web.HTTPFound(f"http://localhost:{self.port}/other")

    async def collect(self, _r: web.Request) -> web.Response:
        return web.Response(text="ok")


@pytest_asyncio.fixture
async def site() -> AsyncIterator[Site]:
    chromium()
    s = Site()
    runner = web.AppRunner(s.app())
    await runner.setup()
    tcp = web.TCPSite(runner, "127.0.0.1", 0)
    await tcp.start()
    s.port = tcp._server.sockets[0].getsockname()[1]
    try:
        yield s
    finally:
        await browser.close_all()
        await runner.cleanup()


@pytest_asyncio.fixture
async def rt() -> AsyncIterator[Runtime]:
    chromium()
    r = runtime(Sleeps())
    identity = await r.connectors.connect("browser", {})
    assert "Chromium" in identity.text()
    try:
        yield r
    finally:
        await browser.close_all()
        r.close()


class Tools:
    """The connector's tools as the registry gives them, called like the engine does."""

    def __init__(self, rt: Runtime, workspace: Path, session: str = "s1") -> None:
        self.by_name: dict[str, Tool] = {
            t.name: t for t in rt.connectors.tools_of(rt.connectors.spec("browser"))}
        self.ctx = ToolContext(session_id=session, workspace=workspace)

    async def __call__(self, name: str, **arguments: Any) -> ToolResult:
        out = await self.by_name[name].handler(arguments, self.ctx)
        return out if isinstance(out, ToolResult) else ToolResult(str(out))

    async def ok(self, name: str, **arguments: Any) -> str:
        result = await self(name, **arguments)
        assert not result.is_error, result.content
        return result.content


def processes_using(profile: Path) -> list[int]:
    """Processes whose command line names ``profile`` (Chromium and its helpers)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if str(profile).encode() in cmdline:
            found.append(int(proc.name))
    return found


def ref(snapshot: str, role: str, name: str) -> str:
    """The ref of ``role "name"`` in an accessibility snapshot."""
    for line in snapshot.splitlines():
        if f'{role} "{name}"' in line and "[ref=" in line:
            return line.split("[ref=", 1)[1].split("]", 1)[0]
    raise AssertionError(f'no {role} "{name}" in:\n{snapshot}')


async def test_the_tools_declare_what_asks(rt: Runtime) -> None:
    tools = {t.name: t for t in rt.connectors.tools_of(rt.connectors.spec("browser"))}
    asks = {name for name, t in tools.items() if t.needs_approval}
    assert asks == {"browser_navigate", "browser_submit"}
    assert tools["browser_navigate"].target({"url": "https://a.example/x",
                                             "domain": "a.example"}) == "a.example"
    assert tools["browser_navigate"].risk_class().value == "external"


async def test_login_form(rt: Runtime, site: Site, tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    base = f"http://127.0.0.1:{site.port}"
    opened = await call.ok("browser_navigate", url=f"{base}/login", domain="127.0.0.1")
    assert "Sign in" in opened
    snap = await call.ok("browser_snapshot")
    await call.ok("browser_type", ref=ref(snap, "textbox", "User name"), text="ana")
    await call.ok("browser_type", ref=ref(snap, "textbox", "Password"), text="s3cret")

    # A click on the submit button is not a way around the approval: nothing is sent.
    clicked = await call.ok("browser_click", ref=ref(snap, "button", "Sign in"))
    assert "submission to 127.0.0.1 was stopped" in clicked
    assert "POST /login" not in site.seen

    done = await call.ok("browser_submit", ref=ref(snap, "button", "Sign in"), domain="127.0.0.1")
    assert "Page: Account" in done
    assert site.posted == [{"user": "ana", "password": "s3cret"}]
    assert "Welcome back, ana" in await call.ok("browser_read")


async def test_submit_names_the_forms_own_domain(rt: Runtime, site: Site, tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/login", domain="127.0.0.1")
    snap = await call.ok("browser_snapshot")
    wrong = await call("browser_submit", ref=ref(snap, "button", "Sign in"), domain="example.com")
    assert wrong.is_error and "sends to 127.0.0.1" in wrong.content
    assert "POST /login" not in site.seen


async def test_multi_step_form(rt: Runtime, site: Site, tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/steps",
                  domain="127.0.0.1")
    snap = await call.ok("browser_snapshot")
    name = ref(snap, "textbox", "Full name")
    await call.ok("browser_type", ref=name, text="Ana Lima")
    step2 = await call.ok("browser_submit", ref=name, domain="127.0.0.1")  # Enter in the field
    assert "step 2" in step2
    snap = await call.ok("browser_snapshot")
    await call.ok("browser_type", ref=ref(snap, "textbox", "E-mail"), text="ana@acme.com")
    placed = await call.ok("browser_submit", ref=ref(snap, "button", "Place order"),
                           domain="127.0.0.1")
    assert "Order placed" in placed
    assert site.posted == [{"name": "Ana Lima", "email": "ana@acme.com"}]
    assert "Order placed for Ana Lima (ana@acme.com)" in await call.ok("browser_read")


async def test_content_that_loads_late(rt: Runtime, site: Site, tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/late", domain="127.0.0.1")
    assert "Loading" in await call.ok("browser_read")
    text = await call.ok("browser_read", wait_for="3 invoices due")
    assert "Results: 3 invoices due" in text
    assert "Loading" not in text


async def test_a_download_lands_in_the_output_folder(rt: Runtime, site: Site,
                                                     tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/files",
                  domain="127.0.0.1")
    snap = await call.ok("browser_snapshot")
    out = await call.ok("browser_click", ref=ref(snap, "link", "Download the report"))
    assert "Downloaded outputs/report.csv" in out
    assert (tmp_path / "outputs" / "report.csv").read_bytes() == b"month,total\nnov,1200\n"
    again = await call.ok("browser_click", ref=ref(snap, "link", "Download the report"))
    assert "Downloaded outputs/report (2).csv" in again  # never overwritten


async def test_a_page_cannot_send_data_on_a_click(rt: Runtime, site: Site, tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/beacon",
                  domain="127.0.0.1")
    snap = await call.ok("browser_snapshot")
    out = await call.ok("browser_click", ref=ref(snap, "button", "Like"))
    said, loop = out, asyncio.get_running_loop()
    end = loop.time() + 30
    while "send data to 127.0.0.1 (POST)" not in said:  # told once the page tried it
        assert loop.time() < end, f"the stopped request was never reported: {said!r}"
        said = out + await call.ok("browser_read")
    assert "POST /collect" not in site.seen  # stopped on its way out: it never arrives


async def test_screenshot_into_the_transcript(rt: Runtime, site: Site, tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/login",
                  domain="127.0.0.1")
    result = await call("browser_screenshot")
    assert not result.is_error, result.content
    saved = tmp_path / "outputs" / "screenshot-1.png"
    assert saved.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert result.display is not None and result.display["path"] == str(saved)
    attachments = getattr(result, "attachments", None)
    if "attachments" in getattr(ToolResult, "__dataclass_fields__", {}):
        # Where tool results carry pictures, the model sees this one.
        assert attachments and attachments[0]["image_url"]["url"].startswith(
            "data:image/png;base64,")
    else:
        assert "outputs/screenshot-1.png" in result.content


async def test_each_session_has_its_own_profile(rt: Runtime, site: Site, tmp_path: Path) -> None:
    one, two = Tools(rt, tmp_path, "s-one"), Tools(rt, tmp_path, "s-two")
    base = f"http://127.0.0.1:{site.port}"
    await one.ok("browser_navigate", url=f"{base}/login", domain="127.0.0.1")
    snap = await one.ok("browser_snapshot")
    await one.ok("browser_type", ref=ref(snap, "textbox", "User name"), text="ana")
    await one.ok("browser_type", ref=ref(snap, "textbox", "Password"), text="s3cret")
    await one.ok("browser_submit", ref=ref(snap, "button", "Sign in"), domain="127.0.0.1")
    await two.ok("browser_navigate", url=f"{base}/account", domain="127.0.0.1")
    assert "Not signed in" in await two.ok("browser_read")
    assert "Welcome back, ana" in await one.ok("browser_read")
    assert sorted(browser.HOST.sessions()) == ["s-one", "s-two"]
    assert browser_host.profile_dir("s-one").is_dir()

    await browser.forget_session("s-one")  # the session deleted: browser and profile go
    assert browser.HOST.sessions() == ["s-two"]
    assert not browser_host.profile_dir("s-one").exists()
    assert processes_using(browser_host.profile_dir("s-two"))
    await browser.close_all()
    assert not browser.HOST.running and browser.HOST.sessions() == []
    assert processes_using(browser_host.profile_dir("s-two")) == []  # nothing left running


async def test_navigation_to_a_new_domain_asks_first(rt: Runtime, site: Site,
                                                     tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{site.port}"
    item, _messages = await park_and_approve(
        rt, tmp_path, "browser_navigate", {"url": f"{base}/links", "domain": "127.0.0.1"})
    assert item.target == "127.0.0.1"
    assert "GET /links" in site.seen

    # A link to another domain is not followed without asking.
    call = Tools(rt, tmp_path, session=item.session_id)
    snap = await call.ok("browser_snapshot")
    out = await call.ok("browser_click", ref=ref(snap, "link", "Partner site"))
    assert "tried to go to localhost" in out
    assert "GET /other" not in site.seen

    # Asking for it parks the call; nothing reaches the site before the answer.
    second = tmp_path / "second"
    second.mkdir()
    model = script(second, [
        {"tool_calls": [{"name": "browser_navigate", "id": "c2", "arguments": {
            "url": f"http://localhost:{site.port}/other", "domain": "localhost"}}]},
        {"text": "done"},
    ])
    from openworker_qt.core.approvers import InboxApprover

    manager = rt.session_manager(
        approver_for=lambda _i: InboxApprover(rt.inbox, poll=0.02), default_model=model)
    info = manager.create_session(workspace=str(tmp_path), mode="interactive")
    task = manager.send(info.id, "go")
    assert task is not None
    asked = await wait_for(lambda: next(iter(rt.inbox.pending(info.id)), None))
    assert asked.target == "localhost"
    # (no wait: the call asks before it runs, and a navigation run first would have
    # loaded the page before the ask was made)
    assert "GET /other" not in site.seen
    assert rt.inbox.respond(asked.id, "approve", by="test")
    await asyncio.wait_for(task, 30)
    assert "GET /other" in site.seen
    results = [m for m in rt.conversations.load(info.id) if m.get("role") == "tool"]
    assert "Page: Partner" in json.dumps(results, default=str)


async def test_the_address_must_be_on_the_approved_domain(rt: Runtime, site: Site,
                                                          tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    out = await call("browser_navigate", url=f"http://localhost:{site.port}/other",
                     domain="127.0.0.1")
    assert out.is_error and "on localhost, not on '127.0.0.1'" in out.content
    local = await call("browser_navigate", url="file:///etc/passwd", domain="")
    assert local.is_error and "Only http and https" in local.content
    assert site.seen == []


async def test_a_redirect_to_a_domain_not_approved_is_left(rt: Runtime, site: Site,
                                                           tmp_path: Path) -> None:
    call = Tools(rt, tmp_path)
    out = await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/away",
                        domain="127.0.0.1")
    assert "sent the browser on to localhost" in out
    assert "Partner page" not in await call.ok("browser_read")


async def test_connecting_without_chromium_says_how_to_install(tmp_path: Path) -> None:
    r = runtime(Sleeps())
    try:
        from openworker_qt.connectors.base import ConnectorError

        with pytest.raises(ConnectorError) as raised:
            await r.connectors.connect("browser", {"executable": str(tmp_path / "chromium")})
        assert "apt-get install chromium" in raised.value.message
        assert r.connectors.state("browser").status == "not connected"
    finally:
        r.close()


async def test_nothing_is_written_where_a_link_named_outputs_leads(rt: Runtime, site: Site,
                                                                   tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "outputs").symlink_to(elsewhere)
    call = Tools(rt, workspace)
    await call.ok("browser_navigate", url=f"http://127.0.0.1:{site.port}/files",
                  domain="127.0.0.1")
    shot = await call("browser_screenshot")
    assert shot.is_error and "not a plain folder" in shot.content
    snap = await call.ok("browser_snapshot")
    out = await call.ok("browser_click", ref=ref(snap, "link", "Download the report"))
    assert "not a plain folder" in out
    assert list(elsewhere.iterdir()) == []
