"""The curated model list (verified for tool use) and what the user can pick.

:func:`list_models` answers ``openworker-qt models`` and the model picker:
the providers that have a key configured (Ollama and keyless custom endpoints
when configured), each with its curated models plus any the config adds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.providers import local_servers
from openworker_qt.providers.capabilities import capabilities_for, rule_context
from openworker_qt.providers.compat import VENDORS
from openworker_qt.providers.factories import (
    LABELS,
    NATIVE,
    all_provider_names,
    internal_config,
    key_name,
    key_required,
    serves_own_models,
    vendor_for,
)

#: Models verified to call tools reliably, per native provider (vendors: compat.py).
CURATED: dict[str, tuple[str, ...]] = {
    "openai": ("gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4o", "o4-mini"),
    "anthropic": ("claude-sonnet-4-6", "claude-opus-4-6", "claude-haiku-4-5"),
    "gemini": ("gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-pro-preview"),
    # cloud platforms: Vertex AI serves both families; Azure's are the user's deployments
    "vertex": ("gemini-2.5-pro", "gemini-2.5-flash", "claude-sonnet-4-5@20250929",
               "claude-haiku-4-5@20251001"),
    # AWS Bedrock (issue 30): cross-region inference profiles ("us.") where the model needs one
    "bedrock": ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "us.anthropic.claude-haiku-4-5-20251001-v1:0",
                "us.amazon.nova-pro-v1:0", "us.meta.llama4-maverick-17b-instruct-v1:0",
                "mistral.mistral-large-2407-v1:0"),
}


@dataclass(frozen=True, slots=True)
class ModelEntry:
    model: str  # full model string, ``provider:id`` (bare for OpenAI)
    capabilities: Capabilities
    #: Where the context window came from, for a server the user runs
    #: (``local_servers.FROM_SERVER`` …); "" for a hosted API's known figure.
    context_source: str = ""


@dataclass(frozen=True, slots=True)
class ProviderModels:
    provider: str
    label: str
    key_name: str | None
    models: tuple[ModelEntry, ...]


def curated_models(provider: str, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    config = config or {}
    base: tuple[str, ...] = CURATED.get(provider, ())
    if provider in VENDORS:
        base = VENDORS[provider].models
    custom = (config.get("custom") or {}).get(provider)
    if isinstance(custom, Mapping):
        base = tuple(str(m) for m in custom.get("models") or ())
    settings = (config.get("providers") or {}).get(provider) or {}
    if provider == "azure" and isinstance(settings.get("deployments"), Mapping):
        base = tuple(str(d) for d in settings["deployments"])
    extra = tuple(str(m) for m in settings.get("models", ()) if str(m) not in base)
    return base + extra


def is_configured(provider: str, config: Mapping[str, Any], get_secret: Callable[[str], str | None]) -> bool:
    """A provider with its key (keyring or environment), or one that needs none
    (Ollama, a custom endpoint, a known provider at another base URL) once set up."""
    entry = key_name(config, provider)
    if not key_required(config, provider):
        section = config.get("providers") or {}
        if provider in section or provider in (config.get("custom") or {}):
            return True
    return bool(entry and get_secret(entry))


def model_string(provider: str, model: str) -> str:
    return model if provider == "openai" else f"{provider}:{model}"


def _served(config: Mapping[str, Any], provider: str, model: str, entry: ModelEntry,
            ask: bool) -> ModelEntry:
    """``entry`` with the context window of a server the user runs (see local_servers).
    An OpenAI model through a proxy keeps OpenAI's figure (the proxy is not probed)."""
    if provider == "openai" and re.match(r"^(gpt-|chatgpt-|o[1-9])", model):
        return entry
    if provider == "openai":
        base_url = str(((config.get("providers") or {}).get("openai") or {}).get("base_url") or "")
    else:
        base_url = vendor_for(config, provider).base_url
    settings = (config.get("custom") or {}).get(provider) or (
        (config.get("providers") or {}).get(provider) or {})
    try:
        setting = local_servers.check_setting(provider, settings.get("context_window"))
    except ValueError:
        setting = None  # the provider's first call says what is wrong with it
    size, source = local_servers.resolve_context(
        provider, model, setting=setting, overrides=config.get("capabilities") or None,
        base_url=base_url, built_in=rule_context(provider, model), ask=ask,
        kind="ollama" if provider == "ollama" else None)
    return replace(entry, capabilities=replace(entry.capabilities, context_window=size),
                   context_source=source)


def _capabilities(config: Mapping[str, Any], provider: str, model: str,
                  overrides: Any) -> Capabilities:
    """A model's capabilities; a cloud platform's are those of the model it serves."""
    if provider == "vertex":
        family = "anthropic" if model.startswith("claude") else "gemini"
        return capabilities_for(family, model.split("@")[0], overrides)
    if provider == "azure":
        deployments = ((config.get("providers") or {}).get("azure") or {}).get("deployments")
        served = deployments.get(model, model) if isinstance(deployments, Mapping) else model
        return capabilities_for("openai", str(served), overrides)
    return capabilities_for(provider, model, overrides)


def list_models(config: Any, get_secret: Callable[[str], str | None], *,
                ask_servers: bool = False) -> list[ProviderModels]:
    """Providers with a configured key, each with its curated models.

    ``config``: the app ``Config``, its ``[providers]``-holding data, or the
    internal mapping (see ``factories.internal_config``). ``ask_servers``: ask a
    server the user runs for its models' context windows (blocking, short
    timeouts, once per process); else only figures already known are used.
    """
    config = internal_config(config)
    overrides = config.get("capabilities") or None
    out: list[ProviderModels] = []
    for provider in all_provider_names(config):
        if not is_configured(provider, config, get_secret):
            continue
        label = LABELS.get(provider) or (VENDORS[provider].label if provider in VENDORS else provider)
        served = serves_own_models(config, provider)
        entries = []
        for m in curated_models(provider, config):
            entry = ModelEntry(model_string(provider, m), _capabilities(config, provider, m, overrides))
            entries.append(_served(config, provider, m, entry, ask_servers) if served else entry)
        out.append(ProviderModels(provider, label, key_name(config, provider), tuple(entries)))
    return out


def format_models(listing: list[ProviderModels]) -> str:
    """Plain-text table for the CLI."""
    if not listing:
        return (
            "No provider is configured. Add a key (e.g. `openworker-qt keys set OPENAI_API_KEY`) "
            "or point the app at Ollama."
        )
    lines: list[str] = []
    for group in listing:
        lines.append(f"{group.label} ({group.provider})")
        for entry in group.models:
            c = entry.capabilities
            flags = [
                name
                for name, on in (
                    ("tools", c.tools),
                    ("vision", c.vision),
                    ("pdf", c.pdf),
                    ("parallel", c.parallel_tools),
                    ("reasoning", c.reasoning),
                )
                if on
            ]
            size = f"{c.context_window // 1000}k"
            if entry.context_source:
                size = f"{c.context_window:,} tokens ({entry.context_source})"
            lines.append(f"  {entry.model:<55} {size}  {', '.join(flags)}")
    return "\n".join(lines)


__all__ = ["CURATED", "NATIVE", "ModelEntry", "ProviderModels", "format_models", "list_models"]
