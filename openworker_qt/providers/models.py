"""The curated model list (verified for tool use) and what the user can pick.

:func:`list_models` answers ``openworker-qt models`` and the model picker:
the providers that have a key configured (Ollama and keyless custom endpoints
when configured), each with its curated models plus any the config adds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from openworker_qt.core.messages import Capabilities
from openworker_qt.providers.capabilities import capabilities_for
from openworker_qt.providers.compat import VENDORS
from openworker_qt.providers.factories import (
    LABELS,
    NATIVE,
    all_provider_names,
    internal_config,
    key_name,
    key_required,
)

#: Models verified to call tools reliably, per native provider (vendors: compat.py).
CURATED: dict[str, tuple[str, ...]] = {
    "openai": ("gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4o", "o4-mini"),
    "anthropic": ("claude-sonnet-4-6", "claude-opus-4-6", "claude-haiku-4-5"),
    "gemini": ("gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-pro-preview"),
}


@dataclass(frozen=True, slots=True)
class ModelEntry:
    model: str  # full model string, ``provider:id`` (bare for OpenAI)
    capabilities: Capabilities


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


def list_models(config: Any, get_secret: Callable[[str], str | None]) -> list[ProviderModels]:
    """Providers with a configured key, each with its curated models.

    ``config``: the app ``Config``, its ``[providers]``-holding data, or the
    internal mapping (see ``factories.internal_config``).
    """
    config = internal_config(config)
    overrides = config.get("capabilities") or None
    out: list[ProviderModels] = []
    for provider in all_provider_names(config):
        if not is_configured(provider, config, get_secret):
            continue
        label = LABELS.get(provider) or (VENDORS[provider].label if provider in VENDORS else provider)
        entries = tuple(
            ModelEntry(model_string(provider, m), capabilities_for(provider, m, overrides))
            for m in curated_models(provider, config)
        )
        out.append(ProviderModels(provider, label, key_name(config, provider), entries))
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
            lines.append(f"  {entry.model:<55} {c.context_window // 1000}k  {', '.join(flags)}")
    return "\n".join(lines)


__all__ = ["CURATED", "NATIVE", "ModelEntry", "ProviderModels", "format_models", "list_models"]
