"""The ``vertex`` provider: Gemini and Claude models bought through Google Vertex AI.

``vertex:gemini-…`` goes through google-genai with ``vertexai=True``
(``/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:streamGenerateContent``);
``vertex:claude-…`` through the ``anthropic`` SDK's ``AsyncAnthropicVertex``
(``…/publishers/anthropic/models/{m}:streamRawPredict``). The Gemini and Anthropic
adapters are reused with those clients.

Config (``[providers.vertex]``)::

    project = "my-project"              # required
    location = "global"                 # default shown; or a region (us-east5, …)
    credentials_file = "~/keys/sa.json" # optional: a service-account file (its PATH;
                                        # else Application Default Credentials)

Nothing secret is stored: credentials are read from the file or Google's default
chain (``gcloud auth application-default login``) when the first call is made.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.core.provider_api import ModelRequest, ProviderError, StreamChunk
from openworker_qt.providers.anthropic import AnthropicProvider
from openworker_qt.providers.capabilities import capabilities_for
from openworker_qt.providers.gemini import GeminiProvider
from openworker_qt.providers.retry import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryPolicy,
    StreamTimeouts,
)

LABEL = "Google Vertex AI"
DEFAULT_LOCATION = "global"
SCOPES = ("https://www.googleapis.com/auth/cloud-platform",)


def _bad(message: str) -> ProviderError:
    return ProviderError("bad_request", message, provider="vertex")


def check_settings(settings: Mapping[str, Any]) -> tuple[str, str, Path | None]:
    """(project, location, service-account file) from ``[providers.vertex]``.

    Raises:
        ProviderError: no project, or a credentials file that is missing or not a
            service-account JSON file (each names the setting).
    """
    project = str(settings.get("project") or "").strip()
    if not project:
        raise _bad("Google Vertex AI needs the setting providers.vertex.project (your Google "
                   "Cloud project ID): add it in Settings → Providers")
    location = str(settings.get("location") or DEFAULT_LOCATION).strip()
    raw = str(settings.get("credentials_file") or "").strip()
    if not raw:
        return project, location, None
    path = Path(raw).expanduser()
    if not path.is_file():
        raise _bad(f"the setting providers.vertex.credentials_file names {raw!r}, which does "
                   "not exist: choose the service-account key file (.json) again")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        raise _bad(f"the file {raw!r} (providers.vertex.credentials_file) is not a JSON "
                   "service-account key: download the key again from Google Cloud "
                   "(IAM → Service accounts → Keys)") from None
    if not isinstance(data, dict) or "type" not in data:
        raise _bad(f"the file {raw!r} (providers.vertex.credentials_file) is JSON but not a "
                   "Google credentials file (it has no \"type\")")
    return project, location, path


def load_credentials(path: Path | None) -> Any:
    """Credentials from a service-account file; None: Application Default Credentials
    (found by the SDKs themselves). Blocking (reads the file)."""
    if path is None:
        return None
    from google.oauth2 import service_account

    try:
        return service_account.Credentials.from_service_account_file(  # type: ignore[no-untyped-call]
            str(path), scopes=SCOPES)
    except (ValueError, KeyError) as exc:
        raise _bad(f"the file {str(path)!r} (providers.vertex.credentials_file) is not a "
                   f"usable service-account key: {exc}") from None


def _refine(error: ProviderError, model: str, project: str, location: str) -> ProviderError:
    """Vertex's own failures in words that say what to do (no API key is involved)."""
    where = f"project {project!r}, location {location!r}"
    hint = {
        "auth": "Google Cloud refused the credentials — sign in again with "
                "\"gcloud auth application-default login\" or check the service-account file. ",
        "permission": f"this Google account may not use {model} in {where} — enable the "
                      "Vertex AI API, enable the model in Model Garden, and ask for the "
                      "\"Vertex AI User\" role. ",
        "not_found": f"{model} is not available in {where} — check the model name and try "
                     "another location (many models are only in some regions or in global). ",
    }.get(error.kind, "")
    if error.kind == "rate_limit" and "exhausted" in error.message.lower():
        hint = f"the Vertex AI quota for {model} in {where} is used up for now. "
    if hint:
        error.message = hint + error.message
    return error


async def _refined(stream: AsyncIterator[StreamChunk | None], model: str, project: str,
                   location: str) -> AsyncIterator[StreamChunk | None]:
    from openworker_qt.providers.errors import classify

    try:
        async for chunk in stream:
            yield chunk
    except Exception as exc:
        error = classify(exc, provider="vertex", model=model)
        raise _refine(error, model, project, location) from exc


class VertexGeminiProvider(GeminiProvider):
    name = "vertex"
    label = LABEL

    def __init__(self, *, project: str, location: str, credentials: Any = None,
                 **options: Any) -> None:
        super().__init__(**options)
        self._project, self._location, self._credentials = project, location, credentials

    def capabilities(self, model: str) -> Capabilities:
        caps = capabilities_for("gemini", model)
        return _overridden(caps, self._caps_overrides, model)

    def _make_client(self) -> Any:
        import httpx2
        from google import genai
        from google.genai import types

        from openworker_qt.providers.gemini_transport import GeminiStreamTransport

        self._http = httpx2.AsyncClient(transport=GeminiStreamTransport(timeouts=self._timeouts))
        options = types.HttpOptions(
            base_url=self._base_url, api_version="v1", httpx_async_client=self._http,
            retry_options=types.HttpRetryOptions(attempts=1))
        return genai.Client(vertexai=True, project=self._project, location=self._location,
                            credentials=self._credentials, http_options=options)

    def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        return _refined(super()._attempt(request), request.model, self._project,
                        self._location)


class VertexAnthropicProvider(AnthropicProvider):
    name = "vertex"
    label = LABEL

    def __init__(self, *, project: str, location: str, credentials: Any = None,
                 access_token: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._project, self._location = project, location
        self._credentials, self._access_token = credentials, access_token

    def capabilities(self, model: str) -> Capabilities:
        caps = capabilities_for("anthropic", model.split("@")[0])
        return _overridden(caps, self._caps_overrides, model)

    def _make_client(self) -> Any:
        import anthropic

        from openworker_qt.providers import wire

        options = wire.client_options(self._timeouts)
        return anthropic.AsyncAnthropicVertex(
            region=self._location, project_id=self._project, access_token=self._access_token,
            credentials=self._credentials, max_retries=0,
            # a host given for both families (a private endpoint, a test's stub): the
            # Anthropic client's base URL includes the API version
            base_url=f"{self._base_url.rstrip('/')}/v1" if self._base_url else None,
            timeout=options["timeout"], http_client=anthropic.DefaultAsyncHttpxClient(**options))

    def _attempt(self, request: ModelRequest) -> AsyncIterator[StreamChunk | None]:
        return _refined(super()._attempt(request), request.model, self._project,
                        self._location)


def _overridden(caps: Capabilities, overrides: Any, model: str) -> Capabilities:
    from openworker_qt.providers.capabilities import _apply, override_matches

    for key, changes in (overrides or {}).items():
        if override_matches(key, "vertex", model):
            caps = _apply(caps, changes)
    return caps


def is_claude(model: str) -> bool:
    return model.lower().startswith("claude")


class VertexProvider:
    """Routes ``vertex:<model>`` by model family: Claude to Anthropic's Vertex client,
    everything else to Gemini's."""

    name = "vertex"
    label = LABEL

    def __init__(
        self,
        *,
        project: str,
        location: str = DEFAULT_LOCATION,
        credentials: Any = None,
        access_token: str | None = None,
        base_url: str | None = None,
        caps_overrides: Mapping[str, Mapping[str, Any]] | None = None,
        thinking_budget: int | None = 4096,
        include_thoughts: bool = True,
        retry: RetryPolicy = DEFAULT_RETRY,
        timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
        sleep: Any = None,
        stream: bool = True,
    ) -> None:
        project, location, _ = check_settings({"project": project, "location": location})
        common: dict[str, Any] = {
            "project": project, "location": location, "credentials": credentials,
            "base_url": base_url, "caps_overrides": caps_overrides, "retry": retry,
            "timeouts": timeouts, "sleep": sleep, "stream": stream}
        self.gemini = VertexGeminiProvider(include_thoughts=include_thoughts, **common)
        self.claude = VertexAnthropicProvider(access_token=access_token,
                                              thinking_budget=thinking_budget, **common)

    def _for(self, model: str) -> Any:
        return self.claude if is_claude(model) else self.gemini

    @property
    def client(self) -> Any:
        return self.gemini.client

    def warm(self) -> None:
        self.gemini.warm()

    def capabilities(self, model: str) -> Capabilities:
        result: Capabilities = self._for(model).capabilities(model)
        return result

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]:
        result: AsyncIterator[StreamChunk] = self._for(request.model).stream(request)
        return result

    async def aclose(self) -> None:
        await self.gemini.aclose()
        await self.claude.aclose()


def build(settings: Mapping[str, Any], options: Mapping[str, Any], overrides: Any
          ) -> VertexProvider:
    """The provider for ``[providers.vertex]`` (see the module docstring)."""
    project, location, path = check_settings(settings)
    budget = settings.get("thinking_budget", 4096)
    return VertexProvider(
        project=project, location=location, credentials=load_credentials(path),
        base_url=str(settings["base_url"]) if settings.get("base_url") else None,
        caps_overrides=overrides, thinking_budget=int(budget) if budget else None,
        include_thoughts=bool(settings.get("include_thoughts", True)),
        stream=bool(settings.get("stream", True)), **options)
