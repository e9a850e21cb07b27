"""The ``azure`` provider: OpenAI models deployed on Azure OpenAI / Azure AI Foundry.

Model names are deployment names (``azure:<deployment>``). The ``openai`` SDK's
``AsyncAzureOpenAI`` client sends Chat Completions to
``{endpoint}/openai/deployments/{deployment}/chat/completions?api-version=…`` and
Responses to ``{endpoint}/openai/responses?api-version=…`` (the deployment as
``model``); the Chat Completions and Responses adapters are reused with that client.

Config (``[providers.azure]``)::

    endpoint = "https://my-resource.openai.azure.com"   # required
    api_version = "2024-10-21"                           # default shown
    api = "chat"                                         # or "responses" (API
                                                         # version 2025-03-01-preview on)
    reasoning_effort = "medium"                          # Responses, reasoning models
    deployments = { my-gpt = "gpt-4o" }                  # deployment → OpenAI model
                                                         # (capabilities and price)
    token_command = "az account get-access-token --resource https://cognitiveservices.azure.com -o tsv --query accessToken"

Credentials: an API key (keyring entry ``AZURE_OPENAI_API_KEY``), else an Entra ID
token from ``AZURE_OPENAI_AD_TOKEN`` or from ``token_command`` (run in a worker,
kept until it expires; never written to config).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shlex
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import ModelRequest, ProviderError, StreamChunk
from openworker_qt.providers.capabilities import capabilities_for
from openworker_qt.providers.compat import Vendor
from openworker_qt.providers.errors import classify
from openworker_qt.providers.openai_chat import OpenAIChatProvider
from openworker_qt.providers.openai_responses import OpenAIResponsesProvider
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
)

KEY_NAME = "AZURE_OPENAI_API_KEY"
TOKEN_ENV = "AZURE_OPENAI_AD_TOKEN"
DEFAULT_API_VERSION = "2024-10-21"
LABEL = "Azure OpenAI"
#: A token without a readable expiry is asked for again after this many seconds.
TOKEN_FALLBACK_LIFETIME = 300.0


def check_settings(settings: Mapping[str, Any]) -> str:
    """The endpoint from ``[providers.azure]``; raises ProviderError naming a missing one."""
    endpoint = str(settings.get("endpoint") or settings.get("base_url") or "").strip()
    if not endpoint:
        raise ProviderError(
            "bad_request",
            "Azure OpenAI needs the setting providers.azure.endpoint (your resource's "
            "address, e.g. https://my-resource.openai.azure.com): add it in Settings → Providers",
            provider="azure")
    if not endpoint.startswith(("https://", "http://")):
        raise ProviderError(
            "bad_request",
            f"the setting providers.azure.endpoint must be a web address starting with "
            f"https:// (it is {endpoint!r})", provider="azure")
    return endpoint.rstrip("/")


def _jwt_expiry(token: str) -> float | None:
    try:
        payload = token.split(".")[1]
        data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return float(data["exp"])
    except (IndexError, ValueError, KeyError, TypeError):
        return None


class EntraToken:
    """An Entra ID bearer token from the environment or a command, kept until it expires."""

    def __init__(self, command: str = "", *, environ: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.command = command
        self._environ = environ
        self._clock = clock
        self._token = ""
        self._expires = 0.0
        self._lock = asyncio.Lock()

    def _fetch(self) -> str:
        env = os.environ if self._environ is None else self._environ
        if env.get(TOKEN_ENV, "").strip():
            return env[TOKEN_ENV].strip()
        if not self.command.strip():
            raise ProviderError(
                "auth", "no credentials for Azure OpenAI: add its API key in Settings → "
                f"Providers (stored in the keyring as {KEY_NAME}), set {TOKEN_ENV}, or set "
                "providers.azure.token_command (e.g. az account get-access-token …)",
                provider="azure")
        try:
            done = subprocess.run(shlex.split(self.command), capture_output=True, text=True,
                                  timeout=60, check=False)
        except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
            raise ProviderError("auth", f"the Azure token command could not run: {exc}",
                                provider="azure") from None
        token = done.stdout.strip().splitlines()[-1].strip() if done.stdout.strip() else ""
        if done.returncode != 0 or not token:
            said = (done.stderr or done.stdout).strip()[-400:] or f"exit status {done.returncode}"
            raise ProviderError("auth", f"the Azure token command gave no token: {said}",
                                provider="azure")
        return token

    async def __call__(self) -> str:
        async with self._lock:
            if self._token and self._clock() < self._expires - 60:
                return self._token
            token = await asyncio.to_thread(self._fetch)
            expiry = _jwt_expiry(token)
            self._token = token
            self._expires = expiry if expiry else self._clock() + TOKEN_FALLBACK_LIFETIME
            return token


def _refine(error: ProviderError, deployment: str) -> ProviderError:
    """Azure's own failures in words that say what to do."""
    text = error.message
    lowered = text.lower()
    message: str | None = None
    if "content_filter" in lowered or "content management policy" in lowered:
        error.kind = "bad_request"
        message = ("Azure's content filter blocked this request or its answer; rephrase it "
                   "or ask your Azure administrator about the deployment's content filter. ")
    elif error.kind == "not_found" and ("deploymentnotfound" in lowered or "deployment" in lowered):
        message = (f"no deployment named {deployment!r} on this Azure resource — check the "
                   "deployment name (Azure AI Foundry → Deployments) and the endpoint. ")
    elif error.kind == "auth":
        message = ("Azure refused the credentials — check the API key or the Entra ID token "
                   "(and that it is for https://cognitiveservices.azure.com). ")
    elif error.kind == "permission":
        message = ("these credentials may not use this Azure deployment — ask for the "
                   "\"Cognitive Services OpenAI User\" role on the resource. ")
    if message:
        error.message = message + text
    return error


async def _refined(stream: AsyncIterator[StreamChunk | None], model: str
                   ) -> AsyncIterator[StreamChunk | None]:
    try:
        async for chunk in stream:
            yield chunk
    except ProviderError as exc:
        raise _refine(exc, model) from exc
    except Exception as exc:  # the SDK's own errors
        error = classify(exc, provider="azure", model=model)
        raise _refine(error, model) from exc


class _AzureClient:
    """What both adapters share: the client, capabilities of the deployed model."""

    _azure: dict[str, Any]

    def _azure_client(self: Any) -> Any:
        import openai

        from openworker_qt.providers import wire

        options = wire.client_options(self._timeouts)
        azure = self._azure
        auth: dict[str, Any] = (
            {"api_key": azure["key"]} if azure["key"] else
            {"azure_ad_token_provider": azure["token"]})
        return openai.AsyncAzureOpenAI(
            azure_endpoint=azure["endpoint"], api_version=azure["api_version"],
            max_retries=0, timeout=options["timeout"],
            http_client=openai.DefaultAsyncHttpxClient(**options), **auth)

    def capabilities(self: Any, model: str) -> Capabilities:
        """The deployed OpenAI model's capabilities, then ``azure:`` overrides."""
        from openworker_qt.providers.capabilities import _apply, override_matches

        caps = capabilities_for("openai", self._azure["deployments"].get(model, model))
        for key, changes in (self._caps_overrides or {}).items():
            if override_matches(key, "azure", model):
                caps = _apply(caps, changes)
        return caps


AZURE = Vendor("azure", LABEL, "", KEY_NAME, recover_tool_calls=False)


class AzureChatProvider(_AzureClient, OpenAIChatProvider):
    def __init__(self, azure: dict[str, Any], **options: Any) -> None:
        self._azure = azure
        super().__init__(AZURE, base_url=azure["endpoint"], **options)

    def _make_client(self) -> Any:
        return self._azure_client()

    def build_params(self, request: ModelRequest) -> dict[str, Any]:
        params = super().build_params(request)
        if "max_tokens" in params:  # Azure's newer models take only this name
            params["max_completion_tokens"] = params.pop("max_tokens")
        return params

    def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        return _refined(super()._attempt(request), request.model)


class AzureResponsesProvider(_AzureClient, OpenAIResponsesProvider):
    name = "azure"
    label = LABEL

    def __init__(self, azure: dict[str, Any], **options: Any) -> None:
        self._azure = azure
        super().__init__(base_url=azure["endpoint"], **options)

    def _make_client(self) -> Any:
        return self._azure_client()

    def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        return _refined(super()._attempt(request), request.model)


class AzureProvider:
    """Chat Completions or Responses (``api``) against one Azure resource."""

    name = "azure"
    label = LABEL

    def __init__(
        self,
        *,
        endpoint: str,
        api_key: str | None = None,
        api_version: str = DEFAULT_API_VERSION,
        api: str = "chat",
        deployments: Mapping[str, str] | None = None,
        token_provider: Callable[[], Any] | None = None,
        reasoning_effort: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool = True,
    ) -> None:
        if api not in ("chat", "responses"):
            raise ProviderError("bad_request", "the setting providers.azure.api must be "
                                f"\"chat\" or \"responses\" (it is {api!r})", provider="azure")
        azure = {"endpoint": check_settings({"endpoint": endpoint}), "key": api_key,
                 "api_version": api_version or DEFAULT_API_VERSION,
                 "deployments": dict(deployments or {}), "token": token_provider or EntraToken()}
        common = {"caps_overrides": caps_overrides, "retry": retry, "timeouts": timeouts,
                  "sleep": sleep}
        self._api = api
        self.chat = AzureChatProvider(azure, stream=stream, **common)
        self.responses = AzureResponsesProvider(azure, reasoning_effort=reasoning_effort, **common)

    @property
    def client(self) -> Any:
        return self.chat.client

    def warm(self) -> None:
        self.chat.warm()

    def capabilities(self, model: str) -> Capabilities:
        return self.chat.capabilities(model)

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        if self._api == "responses":
            if self.responses._client is None:
                self.responses._client = self.chat.client  # one connection pool
            return self.responses.stream(request)
        return self.chat.stream(request)

    async def aclose(self) -> None:
        await self.chat.aclose()


def build(settings: Mapping[str, Any], key: str | None, options: Mapping[str, Any],
          overrides: Any) -> AzureProvider:
    """The provider for ``[providers.azure]`` (see the module docstring)."""
    endpoint = check_settings(settings)
    deployments = settings.get("deployments") or {}
    if not isinstance(deployments, Mapping):
        raise ProviderError("bad_request", "the setting providers.azure.deployments must be a "
                            "table of deployment = \"OpenAI model\"", provider="azure")
    return AzureProvider(
        endpoint=endpoint, api_key=key, api_version=str(settings.get("api_version") or ""),
        api=str(settings.get("api") or "chat"),
        deployments={str(k): str(v) for k, v in deployments.items()},
        token_provider=EntraToken(str(settings.get("token_command") or "")),
        reasoning_effort=settings.get("reasoning_effort"),
        caps_overrides=overrides, stream=bool(settings.get("stream", True)), **options)
