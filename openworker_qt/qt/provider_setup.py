"""Provider set-up shared by onboarding and Settings (no widgets here).

What the user can pick (:func:`provider_choices`), how a key is checked before
it is stored (:func:`validate_key`: one real, tiny API call through the
provider layer, no retries, short timeouts) and how an Ollama or custom
OpenAI-compatible endpoint is checked (:func:`list_endpoint_models`: ``GET
/models``). Both raise :class:`ProviderError` whose ``message`` is fit for the
user. Storing is :func:`store_key` (keyring only, via ``storage.secrets``) and
:func:`provider_settings` (the ``[providers.<name>]`` table for the global
config). Everything network-bound is async; keyring calls are quick and run in
a worker by the callers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openworker_qt.core.provider_api import ModelRequest, ProviderError
from openworker_qt.providers import local_servers as local_servers  # (for the widgets)
from openworker_qt.providers.compat import OLLAMA_DEFAULT_URL, VENDORS
from openworker_qt.providers.compat import normalize_ollama_url as normalize_ollama_url
from openworker_qt.providers.factories import BEDROCK as BEDROCK
from openworker_qt.providers.factories import BEDROCK_KEY as BEDROCK_KEY
from openworker_qt.providers.factories import (
    KEY_NAMES,
    internal_config,
    key_name,
)
from openworker_qt.providers.local_servers import PRESETS, Preset
from openworker_qt.providers.models import curated_models, model_string
from openworker_qt.qt.wording import provider_title
from openworker_qt.storage.secrets import SecretsUnavailable as SecretsUnavailable

CUSTOM = "custom"
CUSTOM_KEY_NAME = "CUSTOM_API_KEY"
VALIDATION_TIMEOUT = 30.0

#: A cheap model per provider for the one-token key check (vendors: their first model).
PROBE_MODELS: dict[str, str] = {
    "openai": "gpt-4.1",
    "anthropic": "claude-haiku-4-5",
    "gemini": "gemini-2.5-flash",
}


@dataclass(frozen=True, slots=True)
class ProviderChoice:
    """One entry of the provider picker.

    ``kind``: ``"key"`` (an API key, optional base URL), ``"ollama"`` (a URL, no
    key), ``"custom"`` (a base URL, optional key, a model typed by the user) or
    ``"cloud"`` (a cloud platform's own settings, see ``cloud_setup``).
    """

    name: str
    label: str
    kind: str
    key_name: str | None
    default_url: str = ""


def provider_choices() -> list[ProviderChoice]:
    out = [ProviderChoice(n, provider_title(n), "key", KEY_NAMES[n]) for n in KEY_NAMES]
    out += [
        ProviderChoice(v.name, provider_title(v.name), "key", v.key_name, v.base_url)
        for v in VENDORS.values()
        if v.name != "ollama"
    ]
    out.append(ProviderChoice(BEDROCK, provider_title(BEDROCK), "bedrock", BEDROCK_KEY))  # AWS Bedrock (issue 30)
    out.append(ProviderChoice("ollama", provider_title("ollama"), "ollama", None, OLLAMA_DEFAULT_URL))
    out += cloud_choices()
    out.append(ProviderChoice(CUSTOM, "Custom (OpenAI-compatible)", "custom", CUSTOM_KEY_NAME))
    return out


def cloud_choices() -> list[ProviderChoice]:
    """Azure OpenAI and Vertex AI (kind ``"cloud"``: their settings are
    ``cloud_setup.CLOUD_FIELDS``; Azure's key is optional, Vertex takes none)."""
    from openworker_qt.providers.factories import CLOUD_KEY_NAMES

    return [ProviderChoice(n, provider_title(n), "cloud", CLOUD_KEY_NAMES[n]) for n in CLOUD_KEY_NAMES]


#: The local servers' presets (``local_servers.PRESETS``) offered as providers of
#: their own: a custom OpenAI-compatible endpoint at the server's standard address
#: (Ollama is the ``ollama`` provider).
LOCAL_PRESETS = {p.kind: p for p in PRESETS if p.kind != "ollama"}


def local_server_choices() -> list[ProviderChoice]:
    """LM Studio, llama.cpp and vLLM, each at its standard address (no key)."""
    return [ProviderChoice(p.kind, provider_title(p.kind), "custom", None, p.base_url) for p in LOCAL_PRESETS.values()]


def preset_choice(preset: Preset) -> ProviderChoice:
    """The provider a detected server is set up as."""
    return choice("ollama" if preset.kind == "ollama" else preset.kind)


def choice(name: str) -> ProviderChoice:
    for c in (*provider_choices(), *local_server_choices()):
        if c.name == name:
            return c
    raise KeyError(name)


def entry_for(config: Any, provider: str) -> str | None:
    """The keyring entry for ``provider`` under the current config."""
    if provider == CUSTOM:
        return key_name(internal_config(config), provider) or CUSTOM_KEY_NAME
    return key_name(internal_config(config), provider)


def models_for(provider: str, config: Any = None) -> list[str]:
    """Curated model strings (``provider:model``; bare for OpenAI) for the picker."""
    return [model_string(provider, m) for m in curated_models(provider, internal_config(config))]


def provider_settings(provider: str, *, base_url: str = "", models: list[str] | None = None,
                      key_name: str | None = None) -> dict[str, Any]:
    """The ``[providers.<name>]`` table to merge into the global config.

    ``key_name``: for a custom server, the keyring entry of its key. A server
    that needs no key (LM Studio, vLLM, llama.cpp) gets none, so no request asks
    the keyring for one; ``""`` clears an entry an earlier set-up wrote.
    """
    table: dict[str, Any] = {}
    if provider == "ollama":
        table["base_url"] = normalize_ollama_url(base_url or None)
    elif base_url.strip():
        table["base_url"] = base_url.strip().rstrip("/")
    if provider == CUSTOM or provider in LOCAL_PRESETS:
        if key_name is not None:
            table["key_name"] = key_name
        table["models"] = list(models or [])
    return table


#: Where :func:`probe_ollama` looks by default (Ollama's standard address).
OLLAMA_PROBE_URL = OLLAMA_DEFAULT_URL
OLLAMA_PROBE_TIMEOUT = 0.5


def probe_ollama(url: str = "", timeout: float = OLLAMA_PROBE_TIMEOUT) -> list[str] | None:
    """Is Ollama answering at ``url`` (default: this computer)? Its model names, or None.

    Blocking, with a short timeout: call it from a worker thread (never the loop).
    ``GET /api/tags`` is Ollama's own endpoint, so another server on the port is
    not mistaken for it.
    """
    import json
    import urllib.request

    root = normalize_ollama_url(url or OLLAMA_PROBE_URL).removesuffix("/v1")
    try:
        with urllib.request.urlopen(f"{root}/api/tags", timeout=timeout) as response:
            data = json.loads(response.read(1_000_000).decode("utf-8"))
    except (OSError, ValueError):
        return None
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, list):
        return None
    return sorted(str(m.get("name") or m.get("model") or "") for m in models
                  if isinstance(m, dict) and (m.get("name") or m.get("model")))


async def validate_key(provider: str, key: str, *, base_url: str = "") -> None:
    """One real request with ``key`` (a one-token completion); raises ProviderError.

    No retries and short timeouts: a wrong key or an unreachable host answers
    within seconds, and a 401 is reported as ``kind == "auth"``.
    """
    from openworker_qt.providers.retry import NO_RETRY, StreamTimeouts
    from openworker_qt.providers.router import build_router

    if not key.strip():
        raise ProviderError("auth", "Enter an API key first.", provider=provider)
    settings: dict[str, Any] = {"api": "chat", "thinking_budget": 0, "include_thoughts": False}
    if base_url.strip():
        settings["base_url"] = base_url.strip().rstrip("/")
    config = {"providers": {provider: settings}, "custom": {}, "capabilities": {}}
    entry = key_name(config, provider)
    router = build_router(
        config,
        lambda name: key.strip() if name == entry else None,
        retry=NO_RETRY,
        timeouts=StreamTimeouts(first_event=VALIDATION_TIMEOUT, stall=VALIDATION_TIMEOUT),
    )
    probe = PROBE_MODELS.get(provider) or (VENDORS[provider].models[0] if provider in VENDORS else "")
    client, model_id = router.resolve(model_string(provider, probe))
    request = ModelRequest(model_id, [{"role": "user", "content": "Say OK."}], max_tokens=1)
    stream = client.stream(request)
    try:
        async with asyncio.timeout(VALIDATION_TIMEOUT):
            async for _chunk in stream:
                break  # any answer at all means the key works
    except TimeoutError as exc:
        raise ProviderError("timeout", "The provider did not answer in time.", provider=provider) from exc
    finally:
        closer = getattr(stream, "aclose", None)
        if closer is not None:
            await closer()
        close_client = getattr(client, "aclose", None)
        if close_client is not None:
            await close_client()


# --- AWS Bedrock (issue 30) --------------------------------------------------------

#: The model the Bedrock "Test" asks for one token (cheap, in most accounts' regions).
BEDROCK_PROBE = "us.anthropic.claude-haiku-4-5-20251001-v1:0"
_AWS_REGION_RE = r"^[a-z]{2}(-[a-z]+)+-\d$"


def checked_region(text: str) -> str:
    """``text`` as an AWS region (``us-east-1``); "" keeps the profile's own region.
    A :class:`ValueError` fit for the user otherwise."""
    import re

    text = text.strip().lower()
    if text and not re.match(_AWS_REGION_RE, text):
        raise ValueError(f"“{text}” is not an AWS region: type one like us-east-1 or eu-central-1")
    return text


def bedrock_settings(*, region: str = "", profile: str = "") -> dict[str, Any]:
    """The ``[providers.bedrock]`` table: region and profile name only (credentials
    stay in the AWS files, SSO cache or keyring, never in config)."""
    table: dict[str, Any] = {}
    if region.strip():
        table["region"] = checked_region(region)
    if profile.strip():
        table["profile"] = profile.strip()
    return table


def bedrock_region(config: Any) -> str:
    """The region set for Bedrock in ``config`` ("" for the profile's own)."""
    table = (internal_config(config).get("providers") or {}).get(BEDROCK)
    return str(table.get("region") or "") if isinstance(table, Mapping) else ""


async def check_bedrock(*, region: str = "", profile: str = "", key: str = "", base_url: str = "",
                       model: str = BEDROCK_PROBE) -> tuple[str, str]:
    """The smallest real call: a one-token Converse with these credentials (the
    Bedrock API key if given, else the AWS chain: environment, profile, SSO).

    Returns what to tell the user (signed in, and whether ``model`` answered: an
    account may not have enabled it, which still proves the credentials) and the
    region used (the profile's own when ``region`` is empty), to store.
    Raises ProviderError (bad credentials, no region, unreachable …).
    """
    from openworker_qt.providers.bedrock import BedrockProvider
    from openworker_qt.providers.retry import NO_RETRY, StreamTimeouts

    client = BedrockProvider(
        api_key=key.strip() or None, base_url=base_url.strip() or None,
        region=checked_region(region) or None, profile=profile.strip() or None,
        thinking_budget=None, retry=NO_RETRY,
        timeouts=StreamTimeouts(first_event=VALIDATION_TIMEOUT, stall=VALIDATION_TIMEOUT))
    request = ModelRequest(model, [{"role": "user", "content": "Say OK."}], max_tokens=1)
    stream = client.stream(request)
    try:
        async with asyncio.timeout(VALIDATION_TIMEOUT):
            async for _chunk in stream:
                break
    except TimeoutError as exc:
        raise ProviderError("timeout", "AWS Bedrock did not answer in time.", provider=BEDROCK) from exc
    except ProviderError as exc:
        if exc.kind not in ("permission", "not_found") or exc.status is None:
            raise
        return (f"Signed in to AWS Bedrock in {client.region}, but the test model "
                f"{model} is not available to this account: {exc.message}", client.region)
    finally:
        await stream.aclose()  # type: ignore[attr-defined]
        region_used = client.region
        await client.aclose()
    return f"AWS Bedrock answered in {region_used}.", region_used


# --- end AWS Bedrock


async def check_stored(provider: str, config: Any, *, credentials: Any = None,
                       access_token: str | None = None) -> str:
    """Settings' "Test" of a cloud platform as it is set up: the guided set-up's own
    one-call check (:func:`check_bedrock`, ``settings_cloud.validate_cloud``) with
    the stored settings and key. What to tell the user (Bedrock's own notice, else
    ""); raises ProviderError, or ValueError for a stored setting that is wrong.
    ``credentials``/``access_token``: fixed Google credentials (a test's stub)."""
    from openworker_qt.qt import cloud_setup as sc
    from openworker_qt.storage.secrets import get_secret

    table = (internal_config(config).get("providers") or {}).get(provider)
    table = dict(table) if isinstance(table, Mapping) else {}
    entry = entry_for(config, provider) or choice(provider).key_name
    stored: str | None = await asyncio.to_thread(get_secret, entry) if entry else None
    key = stored or ""
    base_url = str(table.get("base_url") or "")
    if provider == BEDROCK:
        notice, _ = await check_bedrock(region=str(table.get("region") or ""),
                                        profile=str(table.get("profile") or ""), key=key,
                                        base_url=base_url)
        return notice
    await sc.validate_cloud(provider, sc.stored_values(provider, table), key,
                            base_url=base_url if provider == "vertex" else "",
                            credentials=credentials, access_token=access_token)
    return ""


async def list_endpoint_models(base_url: str, key: str = "") -> list[str]:
    """``GET <base_url>/models`` on an OpenAI-compatible server (Ollama, custom).

    Returns the model ids; raises ProviderError (unreachable, 401, not found …).
    """
    import openai

    from openworker_qt.providers.errors import classify

    client = openai.AsyncOpenAI(base_url=base_url.rstrip("/"), api_key=key.strip() or "none",
                                max_retries=0, timeout=VALIDATION_TIMEOUT)
    try:
        page = await client.models.list()
        return sorted(str(m.id) for m in page.data)
    except Exception as exc:
        raise classify(exc, provider="endpoint") from exc
    finally:
        await client.close()


def store_key(entry: str, value: str) -> None:
    """Keyring only (blocking: call from a worker). Raises SecretsUnavailable."""
    from openworker_qt.storage import secrets

    secrets.set_secret(entry, value)


def delete_key(entry: str) -> bool:
    """Remove a stored key (blocking: call from a worker); whether there was one.
    Raises SecretsUnavailable."""
    from openworker_qt.storage import secrets

    return secrets.delete_secret(entry)


def keyring_available() -> bool:
    """Whether keys can be stored on this computer (blocking, quick)."""
    from openworker_qt.storage import secrets

    return secrets.available()


@dataclass(frozen=True, slots=True)
class KeySource:
    """Where a provider's key comes from: ``"keyring"`` (stored by the app),
    ``"environment"`` (read only) or ``"config"`` (an endpoint that needs none),
    and the keyring entry, variable or provider ``name``."""

    where: str
    name: str


def key_sources(config: Any) -> dict[str, KeySource]:
    """Provider name → where its key is found, as the providers look it up (the
    keyring first, then the environment: ``storage.secrets.get_key``); a provider
    without a key is absent. An endpoint set up without a key (Ollama, a custom
    server) is ``KeySource("config", name)``. Blocking (keyring): call it from a worker. Values are never returned.
    """
    import os

    from openworker_qt.storage.secrets import env_names, get_secret

    internal = internal_config(config)
    out: dict[str, KeySource] = {}
    for c in provider_choices():
        if c.kind == "cloud" and c.key_name and get_secret(c.key_name):  # else as configured
            out[c.name] = KeySource("keyring", c.key_name)
        elif c.kind in ("key", "bedrock") or c.name == CUSTOM and (internal.get("custom") or {}).get(CUSTOM, {}).get("key_name"):
            entry = key_name(internal, c.name) or c.key_name
            if not entry:
                continue
            if get_secret(entry):
                out[c.name] = KeySource("keyring", entry)
                continue
            variable = next((v for v in env_names(entry) if os.environ.get(v, "").strip()), None)
            if variable is not None:
                out[c.name] = KeySource("environment", variable)
        else:
            section: Mapping[str, Any] = internal.get("providers") or {}
            if c.name in section or c.name in (internal.get("custom") or {}):
                out[c.name] = KeySource("config", c.name)
    return out


def configured_names(config: Any) -> dict[str, bool]:
    """Provider name → whether a key (or endpoint) is set up. Blocking (keyring)."""
    from openworker_qt.storage.secrets import get_secret

    internal = internal_config(config)
    out: dict[str, bool] = {}
    for c in provider_choices():
        if c.kind == "key" or c.name == CUSTOM and (internal.get("custom") or {}).get(CUSTOM, {}).get("key_name"):
            entry = key_name(internal, c.name) or c.key_name
            out[c.name] = bool(entry and get_secret(entry))
        elif c.kind == "bedrock":  # the AWS sign-in, or a Bedrock API key
            entry = key_name(internal, c.name) or c.key_name
            out[c.name] = BEDROCK in (internal.get("providers") or {}) or bool(entry and get_secret(entry))
        else:
            section: Mapping[str, Any] = internal.get("providers") or {}
            out[c.name] = c.name in section or c.name in (internal.get("custom") or {})
    return out


def configured_local_servers(config: Any) -> list[ProviderChoice]:
    """The local servers (LM Studio, llama.cpp, vLLM) set up in ``config``."""
    internal = internal_config(config)
    return [c for c in local_server_choices()
            if c.name in (internal.get("custom") or {}) or c.name in (internal.get("providers") or {})]


def has_address(c: ProviderChoice) -> bool:
    """Whether the user sets this provider's server address (Ollama, custom and local servers)."""
    return c.kind in ("ollama", "custom")


def address_of(config: Any, provider: str) -> str:
    """The server address ``provider`` is reached at ("" for a vendor at its own address)."""
    internal = internal_config(config)
    for section in ("providers", "custom"):
        table = (internal.get(section) or {}).get(provider)
        if isinstance(table, Mapping) and str(table.get("base_url") or "").strip():
            return str(table["base_url"]).strip()
    return normalize_ollama_url(None) if provider == "ollama" else ""


def checked_address(provider: str, text: str) -> str:
    """``text`` as the address to store for ``provider``; a :class:`ValueError`
    whose message is fit for the user when it is not an http(s) address."""
    from urllib.parse import urlsplit

    text = text.strip()
    if provider == "ollama":
        return normalize_ollama_url(text or None)
    if "://" not in text and text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in text):
        raise ValueError(f"“{text}” is not a server address: type one like "
                         "http://localhost:1234/v1")
    return text.rstrip("/")

