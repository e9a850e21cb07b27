"""``web_search``'s providers and handler: DuckDuckGo's HTML page (no key, the
default), Brave, Tavily or a SearXNG instance, as the user's ``[web]`` settings
say; the endpoints are the user's, never the model's, so no guard applies."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs, urlencode, urlsplit

from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.tools.web.fetch import (
    CONNECT_TIMEOUT,
    MAX_BYTES,
    TOTAL_TIMEOUT,
    USER_AGENT,
    load_aiohttp,
)
from openworker_qt.tools.web.guard import (
    SettingsSource,
    WebError,
    WebSettings,
    global_settings,
    read_settings,
)

if TYPE_CHECKING:
    import aiohttp

DEFAULT_RESULTS = 8
MAX_RESULTS = 20


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


def default_get_key(name: str) -> str | None:
    """A search key from the keyring (or the environment; blocking)."""
    from openworker_qt.storage.secrets import get_key

    return get_key(name)


def make_search_handler(
    settings: SettingsSource = global_settings,
    get_key: Callable[[str], str | None] = default_get_key,
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
        aiohttp = await asyncio.to_thread(load_aiohttp)
        try:
            conf = await read_settings(settings)
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
