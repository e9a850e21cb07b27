"""Plumbing shared by the SDK-backed providers.

:class:`GuardedProvider` keeps the settings every adapter has (key, base URL,
capability overrides, retry policy, stall timeouts, streaming on/off), answers
:meth:`capabilities`, and wraps the adapter's own ``_attempt()`` in the retry +
stall guard (``retry.guarded_stream``). An adapter implements ``_attempt`` (one
try: yield chunks, ``None`` for wire activity without a chunk) and its lazy
``client``, built through :meth:`_make_client`; SDK clients get
``wire.client_options`` so body bytes feed the stall watchdog and the connect
timeout is the configured one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import ModelRequest, StreamChunk
from openworker_qt.providers.capabilities import capabilities_for
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
    guarded_stream,
)


class GuardedProvider:
    name = ""
    #: The name users know, in messages ("waiting for Anthropic · retrying 2/4").
    label = ""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool = True,
    ) -> None:
        self._api_key = api_key
        self._base_url = base_url
        self._caps_overrides = caps_overrides
        self._retry = retry
        self._timeouts = timeouts
        self._sleep = sleep
        self._stream = stream
        self._client: Any = None

    @property
    def client(self) -> Any:
        """The SDK client, built on first use (importing an SDK costs start-up time)."""
        if self._client is None:
            self._client = self._make_client()
        return self._client

    def _make_client(self) -> Any:
        raise NotImplementedError

    def warm(self) -> None:
        """Build now, off the loop thread, what the first call would build on it: the
        client (the SDK's import) and the parts of it the adapter calls, which SDKs
        import on first attribute access (with their pydantic models), and the
        transport's first connection (anyio's asyncio backend)."""
        from openworker_qt.providers import wire

        self._warm_client(self.client)
        wire.warm_transport()

    def _warm_client(self, client: Any) -> None:
        """Touch ``client``'s lazily loaded parts this adapter uses (see :meth:`warm`)."""

    def _openai_client(self, api_key: str | None, headers: Mapping[str, str] | None = None) -> Any:
        """An ``AsyncOpenAI`` with our retry guard in charge (SDK retries off)."""
        import openai

        from openworker_qt.providers import wire

        options = wire.client_options(self._timeouts)
        return openai.AsyncOpenAI(
            api_key=api_key,
            base_url=self._base_url,
            max_retries=0,
            timeout=options["timeout"],
            default_headers=dict(headers or {}) or None,
            http_client=openai.DefaultAsyncHttpxClient(**options),
        )

    def capabilities(self, model: str) -> Capabilities:
        return capabilities_for(self.name, model, self._caps_overrides)

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        return guarded_stream(
            lambda: self._attempt(request),
            provider=self.name,
            model=request.model,
            label=self.label or self.name,
            policy=self._retry,
            timeouts=self._timeouts,
            prepare=lambda: self.client,
            **({"sleep": self._sleep} if self._sleep else {}),
        )

    def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        raise NotImplementedError

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
