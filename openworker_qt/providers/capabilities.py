"""What each model accepts: tools, vision, native PDF, parallel tool calls,
reasoning, context window.

Resolution order (later wins): the provider's defaults, then the first matching
built-in model rule (glob on the model id), then user overrides from config
(keys ``"provider:glob"`` or ``"glob"``, values any :class:`Capabilities` field).
Unknown models get the provider's conservative defaults.

Reference behaviour kept: Ollama has neither parallel tool calls nor vision by
default; Anthropic and Gemini have everything; native PDF is on for the three
native providers and off for zai, kimi, together and ollama.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any

from openworker_qt.core.messages import Capabilities

_CONSERVATIVE = Capabilities(
    tools=True, vision=False, pdf=False, parallel_tools=False, reasoning=False, context_window=32_000
)

PROVIDER_DEFAULTS: dict[str, Capabilities] = {
    "openai": Capabilities(True, True, True, True, False, 128_000),
    "anthropic": Capabilities(True, True, True, True, True, 200_000),
    "gemini": Capabilities(True, True, True, True, True, 1_000_000),
    "deepseek": Capabilities(True, False, False, True, False, 128_000),
    "zai": Capabilities(True, False, False, True, True, 128_000),
    "kimi": Capabilities(True, False, False, True, False, 256_000),
    "qwen": Capabilities(True, False, False, True, False, 128_000),
    "minimax": Capabilities(True, False, False, True, True, 200_000),
    "mistral": Capabilities(True, False, False, True, False, 128_000),
    "xai": Capabilities(True, True, False, True, True, 256_000),
    "together": Capabilities(True, False, False, True, False, 128_000),
    "fireworks": Capabilities(True, False, False, True, False, 128_000),
    "inkling": Capabilities(True, False, False, True, True, 128_000),
    "openrouter": Capabilities(True, False, False, True, False, 128_000),
    "ollama": Capabilities(True, False, False, False, False, 32_000),
    "bedrock": Capabilities(True, False, False, False, False, 32_000),  # AWS Bedrock: per family below
}

# (provider, model glob, field overrides). First match per provider wins.
MODEL_RULES: tuple[tuple[str, str, Mapping[str, Any]], ...] = (
    ("openai", "gpt-5*", {"reasoning": True, "context_window": 400_000}),
    ("openai", "o[134]*", {"reasoning": True, "context_window": 200_000}),
    ("openai", "gpt-4.1*", {"context_window": 1_000_000}),
    ("openai", "gpt-3.5*", {"vision": False, "pdf": False, "context_window": 16_000}),
    ("anthropic", "claude-3-haiku*", {"reasoning": False}),
    ("anthropic", "claude-3-opus*", {"reasoning": False}),
    ("anthropic", "claude-3-5-*", {"reasoning": False}),
    ("gemini", "gemini-2.0-*", {"reasoning": False}),
    ("gemini", "gemini-1.5-*", {"reasoning": False, "context_window": 1_000_000}),
    ("deepseek", "deepseek-reasoner*", {"reasoning": True}),
    ("kimi", "*thinking*", {"reasoning": True}),
    ("qwen", "qwen3-max*", {"context_window": 256_000}),
    ("qwen", "qwen-vl*", {"vision": True}),
    ("mistral", "mistral-medium*", {"vision": True}),
    ("mistral", "mistral-large*", {"vision": True}),
    ("mistral", "pixtral*", {"vision": True}),
    ("mistral", "magistral*", {"reasoning": True}),
    ("openrouter", "anthropic/*", {"vision": True, "pdf": True, "reasoning": True}),
    ("openrouter", "openai/*", {"vision": True, "pdf": True}),
    ("openrouter", "google/*", {"vision": True, "pdf": True, "reasoning": True}),
    ("ollama", "qwen3*", {"reasoning": True}),
    ("ollama", "deepseek-r1*", {"reasoning": True}),
    ("ollama", "gpt-oss*", {"reasoning": True, "context_window": 128_000}),
    # AWS Bedrock (issue 30): ids may carry a region prefix (us., eu., apac., global.)
    ("bedrock", "*anthropic.claude-3-7*", {"vision": True, "pdf": True, "parallel_tools": True,
                                           "reasoning": True, "context_window": 200_000}),
    ("bedrock", "*anthropic.claude-3*", {"vision": True, "pdf": True, "parallel_tools": True,
                                         "context_window": 200_000}),
    ("bedrock", "*anthropic.claude*", {"vision": True, "pdf": True, "parallel_tools": True,
                                       "reasoning": True, "context_window": 200_000}),
    ("bedrock", "*amazon.nova-micro*", {"pdf": True, "context_window": 128_000}),
    ("bedrock", "*amazon.nova-*", {"vision": True, "pdf": True, "parallel_tools": True,
                                   "context_window": 300_000}),
    ("bedrock", "*meta.llama4*", {"vision": True, "context_window": 1_000_000}),
    ("bedrock", "*meta.llama3-2-*90b*", {"vision": True, "context_window": 128_000}),
    ("bedrock", "*meta.llama3-2-*11b*", {"vision": True, "context_window": 128_000}),
    ("bedrock", "*meta.llama3*", {"context_window": 128_000}),
    ("bedrock", "*mistral.pixtral*", {"vision": True, "pdf": True, "context_window": 128_000}),
    ("bedrock", "*mistral.mistral-large*", {"pdf": True, "context_window": 128_000}),
    ("bedrock", "*deepseek.r1*", {"reasoning": True, "context_window": 128_000}),
)

_FIELDS = frozenset(f.name for f in dataclasses.fields(Capabilities))


def _apply(caps: Capabilities, changes: Mapping[str, Any]) -> Capabilities:
    clean = {k: v for k, v in changes.items() if k in _FIELDS}
    return dataclasses.replace(caps, **clean) if clean else caps


def capabilities_for(
    provider: str,
    model: str,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
) -> Capabilities:
    """The capabilities of ``model`` served by ``provider``."""
    provider = provider.lower()
    caps = PROVIDER_DEFAULTS.get(provider, _CONSERVATIVE)
    for rule_provider, pattern, changes in MODEL_RULES:
        if rule_provider == provider and fnmatchcase(model.lower(), pattern.lower()):
            caps = _apply(caps, changes)
            break
    for key, changes in (overrides or {}).items():
        if override_matches(key, provider, model):
            caps = _apply(caps, changes)
    return caps


def override_matches(key: str, provider: str, model: str) -> bool:
    """Whether a ``[providers.capabilities]`` key (``provider:pattern``, a bare model
    pattern, or a pattern of ``provider:model``) names ``model`` of ``provider``."""
    head, sep, pattern = key.partition(":")
    if sep and head.lower() == provider:
        return fnmatchcase(model, pattern)
    return fnmatchcase(model, key) or fnmatchcase(f"{provider}:{model}", key)


def rule_context(provider: str, model: str) -> int | None:
    """The context window a built-in model rule gives ``model`` (None: no rule says)."""
    provider = provider.lower()
    for rule_provider, pattern, changes in MODEL_RULES:
        if rule_provider == provider and fnmatchcase(model.lower(), pattern.lower()):
            value = changes.get("context_window")
            return int(value) if value else None
    return None
