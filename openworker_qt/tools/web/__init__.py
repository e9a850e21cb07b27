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
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.tools.web.fetch import MAX_BYTES, Fetched, fetch
from openworker_qt.tools.web.guard import (
    Resolve,
    SettingsSource,
    WebError,
    global_settings,
    read_settings,
    system_resolve,
    url_host,
)
from openworker_qt.tools.web.readable import MAX_CHARS, to_readable
from openworker_qt.tools.web.search import default_get_key, make_search_handler

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
            conf = await read_settings(settings)
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


def web_tools(
    settings: SettingsSource = global_settings,
    resolve: Resolve = system_resolve,
    get_key: Callable[[str], str | None] = default_get_key,
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
