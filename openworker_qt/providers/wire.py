"""Wire-level activity for the stall watchdog (``retry.StallWatch``).

An SDK reports an event only once it is complete; bytes can arrive long before
that (a keep-alive comment such as OpenRouter's ``: OPENROUTER PROCESSING``, a
large first event arriving slowly, a gateway's JSON array growing element by
element). The response hook below wraps each response body so every chunk of
bytes touches the watchdog of the attempt that sent the request (found through
a context variable: concurrent sessions sharing one client never touch each
other's watch). Response headers alone do not count as an answer. The request
hook starts the first-event clock when the request actually goes out.

Imported only when an SDK client is built (it imports ``httpx2``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx2

from openworker_qt.providers.retry import StallWatch, StreamTimeouts, current_watch


class TouchingStream(httpx2.AsyncByteStream):
    """A response body that touches ``watch`` for every chunk of bytes."""

    def __init__(self, inner: Any, watch: StallWatch) -> None:
        self._inner = inner
        self._watch = watch

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            if chunk:
                self._watch.touch()
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def watch_response(response: httpx2.Response) -> None:
    """Route ``response``'s body bytes to the current attempt's watchdog."""
    watch = current_watch()
    if watch is not None and not isinstance(response.stream, TouchingStream):
        response.stream = TouchingStream(response.stream, watch)


def request_sent() -> None:
    """The current attempt's request goes out now (starts its first-event clock)."""
    watch = current_watch()
    if watch is not None:
        watch.sent()


async def _on_request(request: httpx2.Request) -> None:
    request_sent()


async def _on_response(response: httpx2.Response) -> None:
    await refuse_web_page(response)
    watch_response(response)


_PAGE_TYPES = ("text/html", "application/xhtml+xml")
_PAGE_LIMIT = 64 * 1024


async def refuse_web_page(response: httpx2.Response, request: httpx2.Request | None = None) -> None:
    """Raise :class:`~openworker_qt.providers.errors.NotTheApi` for a 200 that is a
    web page (a proxy's, a captive portal's, a site at a wrong base URL): the SDKs
    would read it as an empty stream, or hand back the page as a bare string."""
    if response.status_code != 200:
        return
    ctype = response.headers.get("content-type", "")
    if ctype.split(";", 1)[0].strip().lower() not in _PAGE_TYPES:
        return
    from openworker_qt.providers.errors import not_the_api

    head = b""
    async for piece in response.aiter_raw():
        head += piece
        if len(head) >= _PAGE_LIMIT:
            break
    await response.aclose()
    raise not_the_api(server_of((request or response.request).url), head, ctype)


def server_of(url: httpx2.URL) -> str:
    """``host:port`` of ``url`` (the name a user recognises in an error)."""
    return f"{url.host}:{url.port}" if url.port else str(url.host)


def timeout(timeouts: StreamTimeouts) -> httpx2.Timeout:
    """The transport timeouts: connect as configured, reads as a backstop only."""
    return httpx2.Timeout(timeouts.read, connect=timeouts.connect)


#: What the first connection of an httpx client imports on the event loop (anyio's
#: asyncio backend and its streams): imported ahead by :func:`warm_transport`.
TRANSPORT_MODULES = (
    "anyio._backends._asyncio",
    "anyio._core._sockets",
    "anyio._core._streams",
    "anyio.streams.memory",
    "anyio.streams.stapled",
    "anyio.streams.tls",
)


def warm_transport() -> None:
    """Import what an SDK's first request would import on the loop thread (blocking:
    call it from a worker). A module that is not there any more is skipped."""
    import importlib

    for name in TRANSPORT_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue


def client_options(timeouts: StreamTimeouts) -> dict[str, Any]:
    """Keyword arguments for an SDK's ``DefaultAsyncHttpxClient``."""
    hooks = {"request": [_on_request], "response": [_on_response]}
    return {"timeout": timeout(timeouts), "event_hooks": hooks}
