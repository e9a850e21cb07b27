"""Factories that build each provider's client from config and the keyring.

Config: the app's ``[providers]`` table (all optional)::

    [providers.<name>]             # a known provider (openai, anthropic, gemini, a vendor)
    base_url = "…"                 # Ollama's is normalised to /v1
    key_name = "…"                 # keyring entry, default from KEY_NAMES / the vendor table
    stream = false                 # non-streaming calls replayed as chunks
    models = ["…"]                 # added to the curated list
    context_window = 8192          # Ollama, a custom endpoint, openai at another
                                   # base_url: the model's context window in tokens
                                   # (else asked from the server; 8192 if it does
                                   # not say — see local_servers.py)
    api = "auto"                   # openai only: "auto" | "chat" | "responses"
    reasoning_effort = "medium"    # openai only
    thinking_budget = 4096         # anthropic and bedrock (Claude); 0 disables extended thinking
    region = "us-east-1"           # bedrock only (else the AWS profile's region)
    profile = "work"               # bedrock only: a profile of ~/.aws/config (SSO too)
    include_thoughts = true        # gemini only

    [providers.azure]              # Azure OpenAI: endpoint, api_version, api,
                                   # deployments, token_command (see azure.py)
    [providers.vertex]             # Vertex AI: project, location, credentials_file
                                   # (see vertex.py)

    [providers.<other name>]       # any other name with a base_url: a custom
    base_url = "https://…/v1"      # OpenAI-compatible endpoint (key_name, models,
                                   # vendor quirks from compat.Vendor)

    [providers.capabilities]       # Capabilities overrides by "provider:glob"
    "ollama:llava*" = { vision = true }

    [providers.timeouts]           # every provider; seconds (defaults shown)
    connect = 10                   # opening the connection
    first_event = 30               # request sent → first byte of the answer
                                   # (120 for Ollama and servers on this machine,
                                   # which may be loading the model)
    idle = 60                      # silence between two pieces of an answer
    attempts = 4                   # tries before a failure is reported (1: no retry)
    max_retry_after = 60           # a server asking to wait longer fails at once

    [providers.<name>.timeouts]    # the same keys, for one provider
    first_event = 90               # e.g. a reasoning model that thinks before answering

A stall, an overloaded or rate-limited provider, or a dropped connection is
retried only while nothing of the answer has been shown; the user sees
"Waiting for <provider> · retrying 2/4" meanwhile.

:func:`internal_config` turns that table (or the whole app ``Config``) into the
``{"providers", "custom", "capabilities", "timeouts"}`` mapping the factories read.

Keys: each provider's key lives under a keyring entry named like the
environment variable its SDK reads (``OPENAI_API_KEY``, a vendor's
``DEEPSEEK_API_KEY``, ``<NAME>_API_KEY`` for a custom endpoint, or the table's
``key_name``). The lookup the runtime passes (``storage.secrets.get_key``)
reads the keyring first, then the environment. A key is *required* only for a
provider's own hosted API; a custom endpoint, a known provider pointed at
another ``base_url`` (LM Studio, vLLM, llama.cpp, a proxy) and Ollama work
without one (a server that wants a key answers 401, reported as such).

A :class:`ClientFactory` reads the key (:meth:`~ClientFactory.credential`,
blocking) and builds the client with it (:meth:`~ClientFactory.build`), so the
router can notice a changed key and rebuild (see ``router.py``). Keys are never
stored in config.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from openworker_qt.core.provider_api import ModelProvider, ProviderError
from openworker_qt.providers.compat import (
    ALIASES,
    VENDORS,
    Vendor,
    custom_vendor,
    normalize_ollama_url,
)

KEY_NAMES: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
}
LABELS: dict[str, str] = {"openai": "OpenAI", "anthropic": "Anthropic", "gemini": "Google Gemini"}
NATIVE = tuple(KEY_NAMES)

# --- cloud platforms: Azure OpenAI, Vertex AI (azure.py, vertex.py) ----------
#: Keyring entries of the cloud platforms (None: credentials from the platform's
#: own chain, never a key in the keyring). A key is never required up front.
CLOUD_KEY_NAMES: dict[str, str | None] = {"azure": "AZURE_OPENAI_API_KEY", "vertex": None}
LABELS.update({"azure": "Azure OpenAI", "vertex": "Google Vertex AI"})
CLOUD = tuple(CLOUD_KEY_NAMES)
# --- end cloud platforms -----------------------------------------------------
# --- AWS Bedrock (issue 30): credentials from the AWS chain; the optional key is a
# Bedrock API key (bearer token), under the name botocore itself reads.
BEDROCK = "bedrock"
BEDROCK_KEY = "AWS_BEARER_TOKEN_BEDROCK"
LABELS[BEDROCK] = "AWS Bedrock"
# --- end AWS Bedrock


def internal_config(config: Any) -> dict[str, Any]:
    """App config (a ``Config`` with ``.data``, its data, or an internal mapping) →
    ``{"providers": {...}, "custom": {...}, "capabilities": {...}}``."""
    if config is None:
        return {"providers": {}, "custom": {}, "capabilities": {}, "timeouts": {}}
    data = getattr(config, "data", config)
    if not isinstance(data, Mapping):
        return {"providers": {}, "custom": {}, "capabilities": {}, "timeouts": {}}
    if "custom" in data or "capabilities" in data:  # already internal
        return {
            "providers": dict(data.get("providers") or {}),
            "custom": dict(data.get("custom") or {}),
            "capabilities": dict(data.get("capabilities") or {}),
            "timeouts": data.get("timeouts") or {},
        }
    table = data.get("providers") or {}
    known = {*NATIVE, *VENDORS, *CLOUD, BEDROCK}
    providers: dict[str, Any] = {}
    custom: dict[str, Any] = {}
    capabilities: dict[str, Any] = {}
    timeouts: Any = {}
    for name, value in table.items() if isinstance(table, Mapping) else ():
        if name == "capabilities" and isinstance(value, Mapping):
            capabilities = dict(value)
        elif name == "timeouts":  # anything but a table is refused by network_options
            timeouts = dict(value) if isinstance(value, Mapping) else value
        elif not isinstance(value, Mapping):
            continue
        elif name.lower() in known or name.lower() in ALIASES:
            providers[ALIASES.get(name.lower(), name.lower())] = dict(value)
        elif value.get("base_url"):
            custom[name.lower()] = dict(value)
    return {"providers": providers, "custom": custom, "capabilities": capabilities, "timeouts": timeouts}


def _settings(config: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    section = config.get("providers") or {}
    value = section.get(name) if isinstance(section, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def env_key_name(name: str) -> str:
    """``<NAME>_API_KEY`` for a custom endpoint called ``name`` (``my-lab`` → ``MY_LAB_API_KEY``)."""
    return re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_") + "_API_KEY"


def _custom(config: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    custom = (config.get("custom") or {}).get(name)
    return custom if isinstance(custom, Mapping) else None


def key_name(config: Mapping[str, Any], name: str) -> str | None:
    """The keyring entry (and environment variable) holding ``name``'s key;
    None: the provider takes no key (Ollama)."""
    explicit = _settings(config, name).get("key_name")
    if explicit:
        return str(explicit)
    if name in KEY_NAMES:
        return KEY_NAMES[name]
    if name in CLOUD_KEY_NAMES:
        return CLOUD_KEY_NAMES[name]
    if name == BEDROCK:
        return BEDROCK_KEY
    if name in VENDORS:
        return VENDORS[name].key_name
    custom = _custom(config, name)
    if custom is not None:
        return str(custom["key_name"]) if custom.get("key_name") else env_key_name(name)
    return None


def key_required(config: Mapping[str, Any], name: str) -> bool:
    """Whether calls fail early without a key: only for a provider's own hosted API
    (not a custom endpoint, not a known provider given another ``base_url``)."""
    if name == BEDROCK:  # the AWS credential chain answers without a key
        return False
    if key_name(config, name) is None or _custom(config, name) is not None or name in CLOUD:
        return False
    return not _settings(config, name).get("base_url")


class ClientFactory:
    """Builds provider ``name``'s client from config and its key (imports stay lazy).

    Calling the factory reads the key and builds; the router uses
    :meth:`credential` and :meth:`build` separately to rebuild on a key change.
    """

    def __init__(
        self,
        name: str,
        config: Mapping[str, Any],
        get_secret: Callable[[str], str | None],
        options: Mapping[str, Any],
    ) -> None:
        self.name = name
        self.config = config
        self.get_secret = get_secret
        self.options = dict(options)
        self.entry = key_name(config, name)

    def credential(self) -> str | None:
        """The key to use now (blocking: a keyring read), or None."""
        if self.entry is None:
            return None
        return self.get_secret(self.entry) or None

    def build(self, key: str | None) -> ModelProvider:
        if not key and key_required(self.config, self.name):
            label = LABELS.get(self.name) or (
                VENDORS[self.name].label if self.name in VENDORS else self.name)
            raise ProviderError(
                "auth",
                f"no API key for {label}: add it in Settings → Providers "
                f"(stored in the keyring as {self.entry}) or set {self.entry} "
                "in the environment",
                provider=self.name,
            )
        return _build(self.name, self.config, key or None, self.options)

    def __call__(self) -> ModelProvider:
        return self.build(self.credential())


def vendor_for(config: Mapping[str, Any], name: str) -> Vendor:
    """The vendor row for a compat provider, with config applied."""
    settings = _settings(config, name)
    if name in VENDORS:
        vendor = VENDORS[name]
        if settings.get("base_url"):
            url = str(settings["base_url"])
            vendor = replace(vendor, base_url=normalize_ollama_url(url) if name == "ollama" else url.rstrip("/"))
        if "stream" in settings:
            vendor = replace(vendor, stream=bool(settings["stream"]))
        return vendor
    custom = (config.get("custom") or {}).get(name)
    if not isinstance(custom, Mapping):
        raise KeyError(name)
    return custom_vendor(name, custom)


#: Seconds before the first byte for servers that may be loading a model first.
LOCAL_FIRST_EVENT = 120.0
_TIMEOUT_FIELDS = {"connect": "connect", "first_event": "first_event", "idle": "stall"}


def _is_local(config: Mapping[str, Any], name: str) -> bool:
    if name == "ollama":
        return True
    custom = (config.get("custom") or {}).get(name)
    if not isinstance(custom, Mapping):
        return False
    from urllib.parse import urlsplit

    host = (urlsplit(str(custom.get("base_url") or "")).hostname or "").lower()
    return host in ("localhost", "127.0.0.1", "::1", "0.0.0.0") or host.endswith(".local")


def _number(where: str, key: str, value: Any, *, whole: bool = False) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and value > 0
    if ok and whole and (not float(value).is_integer() or value > 20):
        ok = False
    if not ok:
        what = "a whole number of tries from 1 to 20" if whole else "a number of seconds above 0"
        raise ProviderError(
            "bad_request",
            f"the setting {where}.{key} in config.toml must be {what} (it is {value!r})",
        )
    return float(value)


def network_options(config: Mapping[str, Any], name: str) -> dict[str, Any]:
    """``timeouts`` and ``retry`` for provider ``name`` from ``[providers.timeouts]``
    and ``[providers.<name>.timeouts]`` (see the module docstring).

    Raises:
        ProviderError: a value is not a positive number (names the setting).
    """
    from openworker_qt.providers.retry import DEFAULT_RETRY, DEFAULT_TIMEOUTS

    layers = [("providers.timeouts", config.get("timeouts")),
              (f"providers.{name}.timeouts", _settings(config, name).get("timeouts"))]
    timeouts = DEFAULT_TIMEOUTS
    if _is_local(config, name):
        timeouts = replace(timeouts, first_event=LOCAL_FIRST_EVENT)
    retry = DEFAULT_RETRY
    for where, table in layers:
        if table is None:
            continue
        if not isinstance(table, Mapping):
            raise ProviderError(
                "bad_request",
                f"the setting {where} in config.toml must be a table of timeouts, "
                f"e.g. [{where}] with idle = 60 (it is {table!r})",
            )
        for key, value in table.items():
            if key in _TIMEOUT_FIELDS:
                timeouts = replace(timeouts, **{_TIMEOUT_FIELDS[key]: _number(where, key, value)})
            elif key == "attempts":
                retry = replace(retry, attempts=int(_number(where, key, value, whole=True)))
            elif key == "max_retry_after":
                retry = replace(retry, max_retry_after=_number(where, key, value))
            else:
                raise ProviderError(
                    "bad_request",
                    f"unknown setting {where}.{key} in config.toml (known: connect, "
                    "first_event, idle, attempts, max_retry_after)",
                )
    return {"timeouts": timeouts, "retry": retry}


def serves_own_models(config: Mapping[str, Any], name: str) -> bool:
    """A server the user runs or chose (Ollama, a custom endpoint, OpenAI's adapter
    pointed at LM Studio, vLLM or llama.cpp): its models' context windows are the
    server's to say (see ``local_servers.py``)."""
    if name == "ollama" or _custom(config, name) is not None:
        return True
    url = str(_settings(config, name).get("base_url") or "")
    return name == "openai" and bool(url) and "api.openai.com" not in url


def context_options(config: Mapping[str, Any], name: str) -> dict[str, Any]:
    """``ask_server`` and ``context_window`` (``[providers.<name>] context_window``)
    for provider ``name``; empty for a hosted API.

    Raises:
        ProviderError: the setting is not a whole number above 0 (names it).
    """
    from openworker_qt.providers.local_servers import check_setting

    if not serves_own_models(config, name):
        return {}
    value = (_custom(config, name) or _settings(config, name)).get("context_window")
    try:
        size = check_setting(f"providers.{name}", value)
    except ValueError as exc:
        raise ProviderError("bad_request", str(exc), provider=name) from None
    return {"ask_server": True, "context_window": size}


def make_factory(
    name: str,
    config: Mapping[str, Any],
    get_secret: Callable[[str], str | None],
    **options: Any,
) -> ClientFactory:
    """A factory building provider ``name`` (see :class:`ClientFactory`)."""
    return ClientFactory(name, config, get_secret, options)


def _build(
    name: str, config: Mapping[str, Any], key: str | None, options: Mapping[str, Any]
) -> ModelProvider:
    settings = _settings(config, name)
    overrides = config.get("capabilities") or None
    base_url = str(settings["base_url"]) if settings.get("base_url") else None
    stream = bool(settings.get("stream", True))
    # The configured timeouts and retry policy; explicit ``options`` win (tests).
    options = {**network_options(config, name), **options}
    options = {**context_options(config, name), **options}
    if name == "openai":
        from openworker_qt.providers.openai_native import OpenAIProvider

        return OpenAIProvider(
            api_key=key,
            base_url=base_url,
            api=str(settings.get("api", "auto")),
            reasoning_effort=settings.get("reasoning_effort"),
            caps_overrides=overrides,
            stream=stream,
            **options,
        )
    if name == "anthropic":
        from openworker_qt.providers.anthropic import AnthropicProvider

        budget = settings.get("thinking_budget", 4096)
        return AnthropicProvider(
            api_key=key,
            base_url=base_url,
            thinking_budget=int(budget) if budget else None,
            caps_overrides=overrides,
            stream=stream,
            **options,
        )
    if name == "gemini":
        from openworker_qt.providers.gemini import GeminiProvider

        return GeminiProvider(
            api_key=key,
            base_url=base_url,
            include_thoughts=bool(settings.get("include_thoughts", True)),
            caps_overrides=overrides,
            stream=stream,
            **options,
        )
    if name == "azure":
        from openworker_qt.providers import azure

        return azure.build(settings, key, options, overrides)
    if name == "vertex":
        from openworker_qt.providers import vertex

        return vertex.build(settings, options, overrides)
    if name == BEDROCK:
        from openworker_qt.providers.bedrock import BedrockProvider

        budget = settings.get("thinking_budget", 4096)
        return BedrockProvider(
            api_key=key,
            base_url=base_url,
            region=str(settings["region"]) if settings.get("region") else None,
            profile=str(settings["profile"]) if settings.get("profile") else None,
            thinking_budget=int(budget) if budget else None,
            caps_overrides=overrides,
            **options,
        )
    from openworker_qt.providers.openai_chat import OpenAIChatProvider

    return OpenAIChatProvider(
        vendor_for(config, name), api_key=key, caps_overrides=overrides, **options
    )


def all_provider_names(config: Mapping[str, Any]) -> list[str]:
    custom = config.get("custom") or {}
    return [*NATIVE, BEDROCK, *VENDORS, *CLOUD, *(str(n) for n in custom if isinstance(custom, Mapping))]


class ProviderTable(Protocol):
    """Where :func:`register_all` puts the factories (the router; a test's table)."""

    def register(self, name: str, factory: Callable[[], ModelProvider]) -> None: ...

    def alias(self, alias: str, name: str) -> None: ...


def register_all(
    router: ProviderTable,
    config: Any,
    get_secret: Callable[[str], str | None],
    **options: Any,
) -> None:
    """Register a factory for every native provider, vendor and custom endpoint."""
    config = internal_config(config)
    for name in all_provider_names(config):
        router.register(name, make_factory(name, config, get_secret, **options))
    for alias, target in ALIASES.items():
        router.alias(alias, target)
