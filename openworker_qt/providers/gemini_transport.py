"""An httpx2 transport for google-genai that turns a JSON-array stream into SSE.

``streamGenerateContent`` answers with SSE only when the request carries
``alt=sse``. Without it (some proxies and gateways drop query parameters) the API
sends one pretty-printed JSON array, element by element. google-genai's stream
reader only understands SSE (it would try to parse ``[{`` … ``}`` as one JSON
value and fail). This transport detects the JSON-array answer and re-frames each
top-level element as ``data: <element>\\r\\n\\r\\n`` as it arrives, so the SDK
parses it incrementally like any SSE stream. Everything else passes through.

It also does for Gemini what ``wire.client_options`` does for the other SDKs:
google-genai sends every request with ``timeout=None`` (no connect or read
timeout at all), so the configured ones are put back here, and the raw body
bytes, before any re-framing, touch the attempt's stall watchdog.
"""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterator
from typing import Any

import httpx2

from openworker_qt.providers.retry import DEFAULT_TIMEOUTS, StreamTimeouts
from openworker_qt.providers.wire import refuse_web_page, request_sent, timeout, watch_response


class JsonArraySplitter:
    """Incrementally yields the top-level elements of a streamed JSON array."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._depth = 0
        self._in_string = False
        self._escaped = False
        self._current: list[str] = []

    def feed(self, data: bytes) -> list[str]:
        text = self._decoder.decode(data)
        out: list[str] = []
        start = 0 if self._depth >= 2 else None
        for i, ch in enumerate(text):
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                elif ch == "\\":
                    self._escaped = True
                elif ch == '"':
                    self._in_string = False
                continue
            if ch == '"':
                self._in_string = True
            elif ch in "{[":
                self._depth += 1
                if self._depth == 2:
                    start = i
            elif ch in "}]":
                self._depth -= 1
                if self._depth == 1 and start is not None:
                    self._current.append(text[start : i + 1])
                    out.append("".join(self._current))
                    self._current = []
                    start = None
        if start is not None:
            self._current.append(text[start:])
        return out


class _SseFromJsonArray(httpx2.AsyncByteStream):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        splitter = JsonArraySplitter()
        async for chunk in self._inner:
            for element in splitter.feed(chunk):
                yield b"data: " + element.replace("\n", "").encode("utf-8") + b"\r\n\r\n"

    async def aclose(self) -> None:
        await self._inner.aclose()


class GeminiStreamTransport(httpx2.AsyncBaseTransport):
    """Wraps a transport; normalises JSON-array ``streamGenerateContent`` bodies."""

    def __init__(
        self,
        inner: httpx2.AsyncBaseTransport | None = None,
        *,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
    ) -> None:
        self._inner = inner or httpx2.AsyncHTTPTransport()
        self._timeout = timeout(timeouts).as_dict()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        wanted = request.extensions.get("timeout") or {}
        if all(value is None for value in wanted.values()):
            request.extensions["timeout"] = dict(self._timeout)
        request_sent()
        response = await self._inner.handle_async_request(request)
        await refuse_web_page(response, request)
        watch_response(response)
        ctype = response.headers.get("content-type", "")
        if (
            ":streamGenerateContent" in request.url.path
            and response.status_code == 200
            and ctype.startswith("application/json")
        ):
            headers = [
                (k, v)
                for k, v in response.headers.multi_items()
                if k.lower() not in ("content-type", "content-length", "transfer-encoding")
            ]
            headers.append(("content-type", "text/event-stream"))
            return httpx2.Response(
                status_code=response.status_code,
                headers=headers,
                stream=_SseFromJsonArray(response.stream),
                request=request,
                extensions=response.extensions,
            )
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()
