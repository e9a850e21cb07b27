"""Web tools: ``web_fetch`` (a page as readable Markdown) and ``web_search``.

Both are EXTERNAL (the URL or the query leaves the machine). ``web_fetch``'s
target is the URL's host, so an "always" answer becomes a standing rule on that
domain: the next fetch from the same host runs, another host still asks.

``web_fetch``:

- http and https only; at most :data:`MAX_REDIRECTS` redirects, followed one hop
  at a time (a loop is a clear error), and only while they stay on the host the
  call was approved for: a redirect to another host is not followed. The tool
  answers where it leads, and the model fetches that address in a call of its
  own (``redirected_from`` names the page that sent it there), which is decided
  again — asked, or refused where nobody can be asked — and whose card says
  where the redirect goes. A standing rule or a one-time approval therefore
  never covers a host it was not given for. A redirect whose address carries a
  user name or password is not followed;
- the SSRF guard, on EVERY hop: the host is resolved (``getaddrinfo`` in a
  worker, or the resolver given) and refused if any address is loopback,
  link-local, private, shared (CGNAT), multicast, unspecified, reserved or a
  cloud metadata address — unless the user allowed that ``host`` or
  ``host:port`` in the global ``[web] allow_private_hosts`` (a workspace file
  cannot set it). The connection is then pinned to the checked addresses: the
  HTTP client's resolver answers only with them, so a DNS answer that changes
  between the check and the connect is never used. Proxies from the environment
  are not used (a proxy would resolve the name again);
- at most :data:`MAX_BYTES` are read, counted as they stream in: a bigger page
  is cut off, never loaded whole; a connect and a total time limit;
- HTML becomes Markdown with trafilatura (imported lazily, in a worker), a PDF
  becomes text with pypdf, plain text stays as it is.

``web_search`` asks a :class:`SearchProvider`: DuckDuckGo's HTML page (no key,
the default) or, when configured in ``[web] search_provider``, Brave, Tavily
(keys ``BRAVE_API_KEY`` / ``TAVILY_API_KEY`` from the keyring or the
environment) or a SearXNG instance (``[web] searxng_url``). The endpoints are the
user's settings, never the model's words, so the SSRF guard does not apply to them.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult

if TYPE_CHECKING:
    import aiohttp

MAX_BYTES = 5 * 1024 * 1024
MAX_REDIRECTS = 5
CONNECT_TIMEOUT = 10.0
TOTAL_TIMEOUT = 30.0
MAX_CHARS = 60_000
CHUNK = 64 * 1024
USER_AGENT = "Mozilla/5.0 (compatible; OpenWorker; +https://github.com/openworker)"
REDIRECTS = frozenset({301, 302, 303, 307, 308})
DEFAULT_RESULTS = 8
MAX_RESULTS = 20

#: Cloud metadata services (also inside the refused ranges; named for the message).
METADATA = frozenset({
    ipaddress.ip_address("169.254.169.254"),
    ipaddress.ip_address("fd00:ec2::254"),
})
_SHARED = ipaddress.ip_network("100.64.0.0/10")

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
#: Blocking name lookup: host, port -> the addresses (strings). Run in a worker.
Resolve = Callable[[str, int], Sequence[str]]


class WebError(Exception):
    """A fetch or a search that failed; the message is for the model and the user."""


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (blocking: ``getaddrinfo``)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise WebError(f"the name {host} could not be resolved ({exc.strerror or exc})") from exc
    out: list[str] = []
    for info in infos:
        addr = str(info[4][0])
        if addr not in out:
            out.append(addr)
    return out


def refused_reason(address: str) -> str | None:
    """Why a connection to ``address`` is refused (``None``: a public address)."""
    try:
        ip: IP = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return f"{address} is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip in METADATA:
        kind = "a cloud metadata address"
    elif ip.is_unspecified:
        kind = "an unspecified address"
    elif ip.is_loopback:
        kind = "a loopback address (this computer)"
    elif ip.is_link_local:
        kind = "a link-local address"
    elif ip.is_multicast:
        kind = "a multicast address"
    elif isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED:
        kind = "a shared (carrier-grade NAT) address"
    elif ip.is_private:
        kind = "a private network address"
    elif not ip.is_global or ip.is_reserved:
        kind = "a reserved address"
    else:
        return None
    return f"{ip} is {kind}"


def _port(parts: Any) -> int:
    try:
        port = parts.port
    except ValueError as exc:
        raise WebError(f"the URL has an invalid port ({exc})") from exc
    return int(port) if port else (443 if parts.scheme == "https" else 80)


def split_url(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of an http(s) URL, or a :class:`WebError` saying why not."""
    if not isinstance(url, str) or not url.strip():
        raise WebError("no URL given")
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise WebError(f"only http and https URLs can be fetched, not {scheme or 'this'!r}")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise WebError(f"the URL {url!r} has no host")
    if not host.isascii():  # the name the client connects to (and asks the resolver for)
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise WebError(f"the URL {url!r} has an invalid host name") from exc
    return scheme, host, _port(parts)


def url_host(arguments: Mapping[str, Any]) -> str | None:
    """The approval target of a ``web_fetch`` call: the URL's host (lower-case)."""
    try:
        return split_url(str(arguments.get("url") or ""))[1]
    except WebError:
        return None


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def host_allowed(host: str, port: int, allowed: Sequence[str]) -> bool:
    """``host`` (any port) or ``host:port`` is in the user's ``allow_private_hosts``."""
    names = {str(a).strip().lower().rstrip("/") for a in allowed}
    bare = f"[{host}]" if ":" in host else host
    return host in names or bare in names or _host_port(host, port) in names


@dataclass(frozen=True, slots=True)
class WebSettings:
    """The ``[web]`` table of the *global* config (a workspace file cannot set it)."""

    allow_private_hosts: tuple[str, ...] = ()
    search_provider: str = "duckduckgo"
    searxng_url: str = ""


def global_settings() -> WebSettings:
    """Read ``[web]`` from the global config file (blocking: run it in a worker)."""
    from openworker_qt.storage.config import load_config

    cfg = load_config()  # no workspace: a workspace file never applies here
    hosts = cfg.get("web.allow_private_hosts", []) or []
    return WebSettings(
        allow_private_hosts=tuple(str(h) for h in hosts if isinstance(h, str)),
        search_provider=str(cfg.get("web.search_provider", "duckduckgo") or "duckduckgo"),
        searxng_url=str(cfg.get("web.searxng_url", "") or ""),
    )


def _aiohttp() -> Any:
    """aiohttp, imported on first use (blocking: call it from a worker)."""
    import aiohttp

    return aiohttp


class Pins:
    """The addresses the guard checked, per host: all the HTTP client may connect to."""

    def __init__(self) -> None:
        self.pins: dict[str, list[str]] = {}

    def resolver(self) -> Any:
        """An aiohttp resolver answering only with the pinned addresses."""
        from aiohttp.abc import AbstractResolver, ResolveResult

        pins = self.pins

        class PinnedResolver(AbstractResolver):
            async def resolve(
                self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
            ) -> list[ResolveResult]:
                addrs = pins.get(host.rstrip(".").lower().strip("[]"))
                if not addrs:
                    raise OSError(f"{host} was not checked before connecting")
                return [
                    ResolveResult(
                        hostname=host, host=addr, port=port,
                        family=socket.AF_INET6 if ":" in addr else socket.AF_INET,
                        proto=0, flags=socket.AI_NUMERICHOST,
                    )
                    for addr in addrs
                ]

            async def close(self) -> None:
                return None

        return PinnedResolver()


async def check_hop(url: str, settings: WebSettings, resolve: Resolve) -> tuple[str, list[str]]:
    """(host, checked addresses) for ``url``, or a :class:`WebError` if refused."""
    _scheme, host, port = split_url(url)
    literal = host.strip("[]")
    try:
        ipaddress.ip_address(literal)
        addrs = [literal]
    except ValueError:
        addrs = list(await asyncio.to_thread(resolve, host, port))
    if not addrs:
        raise WebError(f"the name {host} did not resolve to any address")
    if host_allowed(literal, port, settings.allow_private_hosts):
        return literal, addrs
    for addr in addrs:
        why = refused_reason(addr)
        if why is not None:
            if addr != literal:
                why = f"{host} resolves to {why}"
            raise WebError(
                f"refused to fetch {url}: {why}. To allow it, add "
                f"\"{_host_port(literal, port)}\" to [web] allow_private_hosts in your settings"
            )
    return literal, addrs


@dataclass(slots=True)
class Fetched:
    url: str
    status: int
    content_type: str
    charset: str | None
    body: bytes
    truncated: bool = False
    redirects: list[str] = field(default_factory=list)
    #: A redirect to another host, not followed: where it leads (``status`` is the
    #: redirect's, ``body`` is empty).
    elsewhere: str | None = None


def _other_host(nxt: str, host: str) -> str | None:
    """``nxt``'s host if it is not ``host`` (a :class:`WebError` if it cannot be fetched)."""
    parts = urlsplit(nxt)
    if parts.username is not None or parts.password is not None:
        raise WebError(f"not following a redirect to an address with a user name or password "
                       f"in it ({parts.hostname or nxt})")
    other = split_url(nxt)[1]
    return None if other == host else other


def _refused_literal(url: str, host: str, port: int, settings: WebSettings) -> None:
    """Refuse ``url`` now if its host is an IP address the guard refuses (a name is
    not looked up: that is for the call that fetches it)."""
    literal = host.strip("[]")
    try:
        ipaddress.ip_address(literal)
    except ValueError:
        return
    if host_allowed(literal, port, settings.allow_private_hosts):
        return
    why = refused_reason(literal)
    if why is not None:
        raise WebError(f"refused to follow the redirect to {url}: {why}")


async def fetch(
    url: str,
    settings: WebSettings,
    *,
    resolve: Resolve = system_resolve,
    max_bytes: int = MAX_BYTES,
    max_redirects: int = MAX_REDIRECTS,
    connect_timeout: float = CONNECT_TIMEOUT,
    total_timeout: float = TOTAL_TIMEOUT,
) -> Fetched:
    """GET ``url`` through the guard, hop by hop; the body is capped at ``max_bytes``."""
    aiohttp = await asyncio.to_thread(_aiohttp)
    pins = Pins()
    connector = aiohttp.TCPConnector(resolver=pins.resolver(), use_dns_cache=False,
                                     force_close=True)
    timeout = aiohttp.ClientTimeout(total=None, connect=connect_timeout,
                                    sock_connect=connect_timeout, sock_read=connect_timeout)
    seen = [url]
    approved = split_url(url)[1]
    try:
        async with asyncio.timeout(total_timeout), aiohttp.ClientSession(
            connector=connector, timeout=timeout, trust_env=False,
            headers={"User-Agent": USER_AGENT,
                     "Accept": "text/html,application/xhtml+xml,application/pdf,text/*;q=0.9,"
                               "*/*;q=0.5"},
        ) as session:
            current = url
            for _hop in range(max_redirects + 1):
                host, addrs = await check_hop(current, settings, resolve)
                pins.pins[host] = addrs
                async with session.get(current, allow_redirects=False) as resp:
                    if resp.status in REDIRECTS and resp.headers.get("Location"):
                        nxt = urljoin(current, resp.headers["Location"])
                        other = _other_host(nxt, approved)
                        if other is not None:
                            _refused_literal(nxt, other, split_url(nxt)[2], settings)
                            return Fetched(
                                url=current, status=resp.status,
                                content_type=resp.content_type or "", charset=resp.charset,
                                body=b"", redirects=seen[1:], elsewhere=nxt,
                            )
                        if nxt in seen:
                            raise WebError(f"redirect loop: {current} leads back to {nxt}")
                        seen.append(nxt)
                        current = nxt
                        continue
                    body = bytearray()
                    truncated = False
                    async for chunk in resp.content.iter_chunked(CHUNK):
                        room = max_bytes - len(body)
                        if len(chunk) >= room:
                            body += chunk[:room]
                            truncated = len(chunk) > room or not resp.content.at_eof()
                            break
                        body += chunk
                    return Fetched(
                        url=current, status=resp.status,
                        content_type=resp.content_type or "", charset=resp.charset,
                        body=bytes(body), truncated=truncated, redirects=seen[1:],
                    )
            raise WebError(f"too many redirects (more than {max_redirects}) from {url}")
    except TimeoutError as exc:
        raise WebError(f"{url} did not answer within {total_timeout:g} seconds") from exc
    except aiohttp.ClientError as exc:
        raise WebError(f"{url} could not be fetched: {exc}") from exc
    except OSError as exc:
        raise WebError(f"{url} could not be fetched: {exc}") from exc


def _decode(body: bytes, charset: str | None) -> str:
    try:
        return body.decode(charset or "utf-8", errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def html_to_markdown(html: str, url: str | None = None) -> str:
    """Readable Markdown of an HTML page (blocking; imports trafilatura on first use)."""
    import trafilatura

    text = trafilatura.extract(
        html, url=url, output_format="markdown", include_links=True, include_tables=True,
        include_comments=False, favor_recall=True, with_metadata=False,
    )
    if not text:
        return ""
    meta = trafilatura.extract_metadata(html)
    title = getattr(meta, "title", None) if meta is not None else None
    return f"# {title}\n\n{text}" if title and title not in text[:200] else str(text)


def pdf_to_text(data: bytes) -> str:
    """The text of a PDF (blocking)."""
    from openworker_qt.core.pdf import NotAPdf, extract_text

    try:
        return extract_text(data, max_chars=MAX_CHARS * 2)
    except NotAPdf as exc:
        raise WebError(f"the PDF could not be read ({exc})") from exc


_TEXT_TYPES = ("application/json", "application/xml", "application/javascript",
               "application/x-yaml", "application/yaml")


def to_readable(page: Fetched) -> str:
    """The page as text for the model (blocking: HTML and PDF conversion)."""
    ctype = page.content_type.lower()
    if ctype == "application/pdf" or page.body[:5] == b"%PDF-":
        if page.truncated:
            raise WebError(f"the PDF at {page.url} is larger than {MAX_BYTES // (1024 * 1024)} MB")
        return pdf_to_text(page.body)
    if ctype in ("text/html", "application/xhtml+xml") or (
        not ctype and page.body.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html"))
    ):
        html = _decode(page.body, page.charset)
        md = html_to_markdown(html, page.url)
        return md or "(the page has no readable text)"
    if ctype.startswith("text/") or ctype in _TEXT_TYPES or ctype.endswith(("+json", "+xml")):
        return _decode(page.body, page.charset)
    raise WebError(
        f"{page.url} is not a web page, a PDF or text (its type is {ctype or 'unknown'})"
    )


SettingsSource = Callable[[], WebSettings]


async def _settings(source: SettingsSource) -> WebSettings:
    return await asyncio.to_thread(source)


#: ``ToolContext.state`` key: the redirects to other hosts web_fetch reported in this
#: session (where it leads -> the page that redirected).
REDIRECTS_STATE = "web_redirects"


def elsewhere_text(page: Fetched) -> str:
    """What the model reads when a page redirects to another host."""
    assert page.elsewhere is not None
    host = url_host({"url": page.elsewhere}) or page.elsewhere
    return (
        f"{page.url} redirects (HTTP {page.status}) to {page.elsewhere}, on another site "
        f"({host}). It was not opened: that site was not approved with this call. To read "
        f"it, call web_fetch again with url {json.dumps(page.elsewhere)} and redirected_from "
        f"{json.dumps(page.url)}; that call is decided on its own."
    )


def make_fetch_handler(
    settings: SettingsSource = global_settings, resolve: Resolve = system_resolve,
    *, max_bytes: int = MAX_BYTES,
) -> Callable[[dict[str, Any], ToolContext], Awaitable[ToolResult]]:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        url = str(args.get("url") or "").strip()
        source = str(args.get("redirected_from") or "").strip()
        seen: dict[str, str] = ctx.state.setdefault(REDIRECTS_STATE, {})
        if source and seen.get(url) != source:
            return ToolResult(
                f"Not fetched: {source} did not redirect to {url} in this conversation. "
                "Give redirected_from only for an address web_fetch reported as a redirect.",
                is_error=True,
            )
        try:
            conf = await _settings(settings)
            page = await fetch(url, conf, resolve=resolve, max_bytes=max_bytes)
            if page.elsewhere is not None:
                seen[page.elsewhere] = page.url
                return ToolResult(elsewhere_text(page))
            text = await asyncio.to_thread(to_readable, page)
        except WebError as exc:
            return ToolResult(str(exc), is_error=True)
        notes: list[str] = []
        if page.status >= 400:
            notes.append(f"the server answered HTTP {page.status}")
        if page.truncated:
            notes.append(f"the page is larger than {max_bytes // 1024} KB; only its start was read")
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS]
            notes.append(f"the text is cut at {MAX_CHARS} characters")
        head = f"URL: {page.url}\n"
        if page.redirects:
            head += f"(redirected from {url})\n"
        if notes:
            head += "Note: " + "; ".join(notes) + "\n"
        return ToolResult(head + "\n" + text, is_error=page.status >= 400)

    return handler


class _HostTargetTool(Tool):
    """A tool whose approval target is the host of its ``url`` argument."""

    __slots__ = ()

    def target(self, arguments: Mapping[str, Any]) -> str | None:
        return url_host(arguments)


class _FixedTargetTool(Tool):
    """A tool whose approval target is its name ("always" covers every call)."""

    __slots__ = ()

    def target(self, arguments: Mapping[str, Any]) -> str | None:
        return "web search"


# --- search -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchResult:
    title: str
    url: str
    snippet: str = ""


class SearchProvider(Protocol):
    name: str

    async def search(
        self, session: aiohttp.ClientSession, query: str, count: int
    ) -> list[SearchResult]: ...


async def _json(resp: aiohttp.ClientResponse, who: str) -> Any:
    if resp.status != 200:
        raise WebError(f"{who} answered HTTP {resp.status}")
    raw = await resp.content.read(MAX_BYTES)
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise WebError(f"{who} sent an answer that is not JSON") from exc


def _clean(text: Any) -> str:
    return " ".join(str(text or "").split())


@dataclass(slots=True)
class DuckDuckGo:
    """DuckDuckGo's HTML results page (no key)."""

    base_url: str = "https://html.duckduckgo.com/html/"
    name: str = "DuckDuckGo"

    async def search(
        self, session: aiohttp.ClientSession, query: str, count: int
    ) -> list[SearchResult]:
        async with session.post(self.base_url, data={"q": query}) as resp:
            if resp.status not in (200, 202):
                raise WebError(f"{self.name} answered HTTP {resp.status}")
            html = (await resp.content.read(MAX_BYTES)).decode("utf-8", errors="replace")
        return (await asyncio.to_thread(parse_duckduckgo, html))[:count]


def _ddg_target(href: str) -> str:
    if href.startswith("//"):
        href = "https:" + href
    parts = urlsplit(href)
    if parts.path.startswith("/l/"):
        target = parse_qs(parts.query).get("uddg")
        if target:
            return target[0]
    return href


def parse_duckduckgo(html: str) -> list[SearchResult]:
    """The results of DuckDuckGo's HTML page (``a.result__a`` and ``.result__snippet``)."""
    import lxml.html

    if not html.strip():
        return []
    doc = lxml.html.fromstring(html)
    out: list[SearchResult] = []
    for block in doc.xpath('//*[contains(concat(" ", normalize-space(@class), " "), " result ")]'):
        links = block.xpath('.//a[contains(@class, "result__a")]')
        if not links:
            continue
        link = links[0]
        href = _ddg_target(str(link.get("href") or ""))
        if not href.startswith(("http://", "https://")) or "duckduckgo.com/y.js" in href:
            continue  # an ad
        snip = block.xpath('.//*[contains(@class, "result__snippet")]')
        out.append(SearchResult(
            title=_clean(link.text_content()), url=href,
            snippet=_clean(snip[0].text_content()) if snip else "",
        ))
    return out


@dataclass(slots=True)
class Brave:
    key: str
    base_url: str = "https://api.search.brave.com/res/v1/web/search"
    name: str = "Brave Search"

    async def search(
        self, session: aiohttp.ClientSession, query: str, count: int
    ) -> list[SearchResult]:
        headers = {"X-Subscription-Token": self.key, "Accept": "application/json"}
        async with session.get(self.base_url, params={"q": query, "count": str(count)},
                               headers=headers) as resp:
            data = await _json(resp, self.name)
        items = (data.get("web") or {}).get("results") or [] if isinstance(data, dict) else []
        return [SearchResult(_clean(i.get("title")), str(i.get("url") or ""),
                             _clean(i.get("description")))
                for i in items if isinstance(i, dict) and i.get("url")][:count]


@dataclass(slots=True)
class Tavily:
    key: str
    base_url: str = "https://api.tavily.com/search"
    name: str = "Tavily"

    async def search(
        self, session: aiohttp.ClientSession, query: str, count: int
    ) -> list[SearchResult]:
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        body = {"query": query, "max_results": count}
        async with session.post(self.base_url, json=body, headers=headers) as resp:
            data = await _json(resp, self.name)
        items = data.get("results") or [] if isinstance(data, dict) else []
        return [SearchResult(_clean(i.get("title")), str(i.get("url") or ""),
                             _clean(i.get("content")))
                for i in items if isinstance(i, dict) and i.get("url")][:count]


@dataclass(slots=True)
class SearXNG:
    base_url: str
    name: str = "SearXNG"

    async def search(
        self, session: aiohttp.ClientSession, query: str, count: int
    ) -> list[SearchResult]:
        url = self.base_url.rstrip("/") + "/search?" + urlencode({"q": query, "format": "json"})
        async with session.get(url) as resp:
            data = await _json(resp, self.name)
        items = data.get("results") or [] if isinstance(data, dict) else []
        return [SearchResult(_clean(i.get("title")), str(i.get("url") or ""),
                             _clean(i.get("content")))
                for i in items if isinstance(i, dict) and i.get("url")][:count]


KEY_NAMES = {"brave": "BRAVE_API_KEY", "tavily": "TAVILY_API_KEY"}


def provider_for(settings: WebSettings, get_key: Callable[[str], str | None]) -> SearchProvider:
    """The configured provider (blocking: the key is read from the keyring)."""
    name = settings.search_provider.strip().lower() or "duckduckgo"
    if name == "duckduckgo":
        return DuckDuckGo()
    if name == "searxng":
        if not settings.searxng_url:
            raise WebError("the SearXNG search needs [web] searxng_url in your settings")
        return SearXNG(settings.searxng_url)
    if name in KEY_NAMES:
        key = get_key(KEY_NAMES[name])
        if not key:
            raise WebError(
                f"the {name.title()} search needs a key: store {KEY_NAMES[name]} in the keyring "
                "or the environment"
            )
        return Brave(key) if name == "brave" else Tavily(key)
    raise WebError(
        f"unknown search provider {name!r} in [web] search_provider "
        "(expected duckduckgo, brave, tavily or searxng)"
    )


def format_results(query: str, results: Sequence[SearchResult], provider: str) -> str:
    if not results:
        return f"No results for {query!r} ({provider})."
    lines = [f"Results for {query!r} ({provider}):"]
    for n, r in enumerate(results, 1):
        lines.append(f"{n}. {r.title or r.url}\n   {r.url}")
        if r.snippet:
            lines.append(f"   {r.snippet[:300]}")
    return "\n".join(lines)


def _default_get_key(name: str) -> str | None:
    from openworker_qt.storage.secrets import get_key

    return get_key(name)


def make_search_handler(
    settings: SettingsSource = global_settings,
    get_key: Callable[[str], str | None] = _default_get_key,
    provider: Callable[[WebSettings], SearchProvider] | None = None,
) -> Callable[[dict[str, Any], ToolContext], Awaitable[ToolResult]]:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        query = _clean(args.get("query"))
        if not query:
            return ToolResult("no search query given", is_error=True)
        try:
            count = max(1, min(int(args.get("count") or DEFAULT_RESULTS), MAX_RESULTS))
        except (TypeError, ValueError):
            return ToolResult("count must be a number", is_error=True)
        aiohttp = await asyncio.to_thread(_aiohttp)
        try:
            conf = await _settings(settings)
            chosen = (provider(conf) if provider is not None
                      else await asyncio.to_thread(provider_for, conf, get_key))
            timeout = aiohttp.ClientTimeout(total=TOTAL_TIMEOUT, connect=CONNECT_TIMEOUT)
            async with aiohttp.ClientSession(
                timeout=timeout, trust_env=False, headers={"User-Agent": USER_AGENT}
            ) as session:
                results = await chosen.search(session, query, count)
        except WebError as exc:
            return ToolResult(str(exc), is_error=True)
        except TimeoutError:
            return ToolResult(f"the search did not answer within {TOTAL_TIMEOUT:g} seconds",
                              is_error=True)
        except aiohttp.ClientError as exc:
            return ToolResult(f"the search failed: {exc}", is_error=True)
        return ToolResult(format_results(query, results, chosen.name))

    return handler


def web_tools(
    settings: SettingsSource = global_settings,
    resolve: Resolve = system_resolve,
    get_key: Callable[[str], str | None] = _default_get_key,
) -> list[Tool]:
    return [
        _HostTargetTool(
            name="web_fetch",
            description=(
                "Fetch a web page (http or https) and return it as readable Markdown; PDFs "
                "become text. Pages larger than 5 MB are cut off. Private and local network "
                "addresses are refused unless the user allowed them. A redirect to another "
                "site is not followed: the answer says where it leads, to fetch in a new call."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "url": {"type": "string", "description": "The http(s) URL."},
                    "redirected_from": {
                        "type": "string",
                        "description": (
                            "Only when following a redirect web_fetch reported: the page "
                            "that redirected to url."
                        ),
                    },
                },
                "required": ["url"],
            },
            handler=make_fetch_handler(settings, resolve),
            risk=RiskClass.EXTERNAL,
            target_arg="url",
        ),
        _FixedTargetTool(
            name="web_search",
            description=(
                "Search the web; returns a short list of results (title, URL, snippet). "
                "Use web_fetch to read a result."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to search for."},
                    "count": {"type": "integer", "description": "How many results (1-20)."},
                },
                "required": ["query"],
            },
            handler=make_search_handler(settings, get_key),
            risk=RiskClass.EXTERNAL,
            target_arg="query",
        ),
    ]
