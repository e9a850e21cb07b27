"""Model string → provider client.

``provider:model`` picks the provider by its prefix, a bare name goes to
OpenAI, and a version tag (``qwen2.5-coder:32b``, ``llama3.2:3b``) is not
mistaken for a prefix because only registered provider names (and their
aliases: ``glm``, ``moonshot``, ``grok`` …) count as one.
Clients are built lazily by a factory per provider and cached;
:meth:`ProviderRouter.invalidate` drops a cached client so the next call
rebuilds it (after a key or base-URL change) without touching sessions, which
resolve their model on every call.

``scripted:<path>`` replays a script file (see ``scripted.py``).
:func:`build_router` registers every provider this app knows (see ``factories.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from openworker_qt.core.provider_api import ModelProvider, ProviderError
from openworker_qt.providers.scripted import ScriptedProvider

ProviderFactory = Callable[[], ModelProvider]

DEFAULT_PROVIDER = "openai"


def split_model(model: str, known: frozenset[str] | set[str]) -> tuple[str, str]:
    """Split ``model`` into (provider, model id).

    >>> split_model("anthropic:claude-sonnet-4-5", {"anthropic"})
    ('anthropic', 'claude-sonnet-4-5')
    >>> split_model("qwen2.5-coder:32b", {"anthropic"})
    ('openai', 'qwen2.5-coder:32b')
    """
    head, sep, tail = model.partition(":")
    if sep and head.lower() in known and tail:
        return head.lower(), tail
    return DEFAULT_PROVIDER, model


class ProviderRouter:
    """Resolves model strings to cached provider clients."""

    def __init__(self) -> None:
        self._factories: dict[str, ProviderFactory] = {}
        self._clients: dict[str, ModelProvider] = {}
        self._scripted: dict[str, ScriptedProvider] = {}
        self._aliases: dict[str, str] = {}

    def register(self, name: str, factory: ProviderFactory) -> None:
        """Register (or replace) the factory for ``name`` and drop its cached client."""
        self._factories[name.lower()] = factory
        self._clients.pop(name.lower(), None)

    def alias(self, alias: str, name: str) -> None:
        """Let ``alias:`` prefixes mean provider ``name`` (same cached client)."""
        self._aliases[alias.lower()] = name.lower()

    def canonical(self, name: str) -> str:
        return self._aliases.get(name.lower(), name.lower())

    @property
    def providers(self) -> frozenset[str]:
        return frozenset(self._factories) | {"scripted"}

    def resolve(self, model: str) -> tuple[ModelProvider, str]:
        known = self.providers | {a for a, n in self._aliases.items() if n in self._factories}
        provider, model_id = split_model(model, known)
        provider = self.canonical(provider)
        if provider == "scripted":
            key = str(Path(model_id).expanduser().resolve())
            if key not in self._scripted:
                self._scripted[key] = ScriptedProvider.from_file(key)
            return self._scripted[key], model_id
        client = self._clients.get(provider)
        if client is None:
            factory = self._factories.get(provider)
            if factory is None:
                raise ProviderError(
                    "auth",
                    f"provider '{provider}' is not configured (add its key in Settings "
                    "or with `openworker-qt keys set`)",
                    provider=provider,
                    model=model_id,
                )
            try:
                client = factory()
            except ProviderError as exc:
                exc.model = exc.model or model_id
                raise
            self._clients[provider] = client
        return client, model_id

    def invalidate(self, provider: str | None = None) -> None:
        """Forget cached clients (all, or one provider's) so they are rebuilt on next use."""
        if provider is None:
            self._clients.clear()
            self._scripted.clear()
        else:
            self._clients.pop(self.canonical(provider), None)


def build_router(
    config: Any,
    get_secret: Callable[[str], str | None],
    **options: Any,
) -> ProviderRouter:
    """A router with every known provider registered (see :func:`factories.register_all`).

    Args:
        config: the app ``Config`` (its ``[providers]`` table is read; see
            ``factories.py``), or None for defaults.
        get_secret: keyring lookup by entry name (``OPENAI_API_KEY`` …), called
            when a client is built, so a key change plus :meth:`invalidate`
            takes effect on the next call.
        options: ``retry``, ``timeouts``, ``sleep`` passed to every provider.
    """
    from openworker_qt.providers.factories import register_all

    router = ProviderRouter()
    register_all(router, config, get_secret, **options)
    return router
