"""Fetching a page through the guard, one hop at a time: redirects followed only
on the host the call was approved for, the body capped as it streams in, a
connect and a total time limit (aiohttp, imported on first use)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from openworker_qt.tools.web.guard import (
    Pins,
    Resolve,
    WebError,
    WebSettings,
    check_hop,
    refused_literal,
    split_url,
    system_resolve,
)

MAX_BYTES = 5 * 1024 * 1024
MAX_REDIRECTS = 5
CONNECT_TIMEOUT = 10.0
TOTAL_TIMEOUT = 30.0
CHUNK = 64 * 1024
USER_AGENT = "Mozilla/5.0 (compatible; OpenWorker; +https://github.com/openworker)"
REDIRECTS = frozenset({301, 302, 303, 307, 308})


def load_aiohttp() -> Any:
    """aiohttp, imported on first use (blocking: call it from a worker)."""
    import aiohttp

    return aiohttp


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
    aiohttp = await asyncio.to_thread(load_aiohttp)
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
                            refused_literal(nxt, other, split_url(nxt)[2], settings)
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
