"""The ``openai`` provider: Chat Completions for most models, the Responses API
for reasoning models (o-series, gpt-5*), behind one :class:`ModelProvider`.

``api`` selects: ``"auto"`` (Responses when the model's capabilities say
reasoning), ``"chat"`` or ``"responses"``. Both paths share one SDK client.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import ModelRequest, StreamChunk
from openworker_qt.providers.capabilities import capabilities_for
from openworker_qt.providers.openai_chat import OPENAI, OpenAIChatProvider
from openworker_qt.providers.openai_responses import OpenAIResponsesProvider
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
)


class OpenAIProvider:
    name = "openai"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        api: str = "auto",
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        reasoning_effort: str | None = None,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool = True,
        ask_server: bool = False,
        context_window: int | None = None,
    ) -> None:
        self._api = api
        self._caps_overrides = caps_overrides
        self.chat = OpenAIChatProvider(
            OPENAI,
            api_key=api_key,
            base_url=base_url,
            caps_overrides=caps_overrides,
            retry=retry,
            timeouts=timeouts,
            sleep=sleep,
            stream=stream,
            ask_server=ask_server,
            context_window=context_window,
        )
        self.responses = OpenAIResponsesProvider(
            api_key=api_key,
            base_url=base_url,
            caps_overrides=caps_overrides,
            reasoning_effort=reasoning_effort,
            retry=retry,
            timeouts=timeouts,
            sleep=sleep,
        )

    @property
    def client(self) -> Any:
        """The SDK client both APIs share (built on first use)."""
        return self.chat.client

    def warm(self) -> None:
        """Both APIs' lazily built parts (see ``GuardedProvider.warm``)."""
        from openworker_qt.providers import wire

        client = self.chat.client
        self.chat._warm_client(client)
        self.responses._warm_client(client)
        wire.warm_transport()

    def capabilities(self, model: str) -> Capabilities:
        if self.chat.ask_server:  # pointed at another server (LM Studio, vLLM, …)
            return self.chat.capabilities(model)
        return capabilities_for(self.name, model, self._caps_overrides)

    def context_window(self, model: str, *, ask: bool = False) -> tuple[int, str]:
        return self.chat.context_window(model, ask=ask)

    def learn_context(self, model: str) -> None:
        self.chat.learn_context(model)

    def uses_responses(self, model: str) -> bool:
        if self._api == "responses":
            return True
        return self._api == "auto" and self.capabilities(model).reasoning

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        if self.uses_responses(request.model):
            if self.responses._client is None:
                self.responses._client = self.chat.client  # one connection pool
            return self.responses.stream(request)
        return self.chat.stream(request)

    async def aclose(self) -> None:
        await self.chat.aclose()
