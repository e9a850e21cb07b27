"""Model string → provider client.

``provider:model`` picks the provider by its prefix, a bare name goes to
OpenAI, and a version tag (``qwen2.5-coder:32b``, ``llama3.2:3b``) is not
mistaken for a prefix because only registered provider names (and their
aliases: ``glm``, ``moonshot``, ``grok`` …) count as one.

Clients are built lazily by a factory per provider and cached. Building one
reads its key (a keyring read) and importing its adapter and SDK takes up to
seconds, so the loop thread should not do it:

* :meth:`ProviderRouter.prepare` (blocking, for a worker thread) resolves a
  model, re-reads the provider's key and rebuilds the client when the key
  changed (set in Settings, with ``openworker-qt keys set`` from another
  process, or in the environment), and builds the SDK client; a failure is
  remembered so the loop's next :meth:`~ProviderRouter.resolve` reports it
  without retrying the keyring;
* :meth:`ProviderRouter.resolve_async` runs ``prepare`` in a worker; the session
  manager awaits it before every turn, so the engine's :meth:`resolve` on the
  loop finds the client ready;
* :meth:`ProviderRouter.resolve` (quick once prepared) returns the cached client,
  building it on the spot only when nothing prepared it.

:meth:`ProviderRouter.invalidate` drops a cached client so the next call
rebuilds it; :meth:`ProviderRouter.configure` re-registers every provider from
a changed config. Sessions resolve their model on every call, so both take
effect on the next request.

``scripted:<path>`` replays a script file (see ``scripted.py``).
:func:`build_router` is the one builder of the app's router (see ``factories.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from openworker_qt.core.provider_api import ModelProvider, ProviderError
from openworker_qt.providers.scripted import ScriptedProvider

log = logging.getLogger(__name__)

ProviderFactory = Callable[[], ModelProvider]


@runtime_checkable
class KeyedFactory(Protocol):
    """A factory whose key the router can re-read (``factories.ClientFactory``)."""

    def __call__(self) -> ModelProvider: ...

    def credential(self) -> str | None: ...

    def build(self, key: str | None) -> ModelProvider: ...


def _stamp(key: str | None) -> str:
    return hashlib.sha256(key.encode()).hexdigest() if key else ""

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
    """Resolves model strings to cached provider clients (see module docstring)."""

    def __init__(self) -> None:
        self._factories: dict[str, ProviderFactory] = {}
        self._clients: dict[str, ModelProvider] = {}
        self._stamps: dict[str, str] = {}
        self._failed: dict[str, ProviderError] = {}
        self._scripted: dict[str, ScriptedProvider] = {}
        self._aliases: dict[str, str] = {}
        self._retired: list[ModelProvider] = []  # replaced clients, closed by aclose()
        self._lock = threading.Lock()  # one build at a time (workers)

    def register(self, name: str, factory: ProviderFactory) -> None:
        """Register (or replace) the factory for ``name`` and drop its cached client."""
        self._factories[name.lower()] = factory
        self._forget(name.lower())

    def alias(self, alias: str, name: str) -> None:
        """Let ``alias:`` prefixes mean provider ``name`` (same cached client)."""
        self._aliases[alias.lower()] = name.lower()

    def configure(
        self, config: Any, get_secret: Callable[[str], str | None], **options: Any
    ) -> None:
        """Register every provider of ``config`` afresh (see :func:`build_router`);
        providers no longer configured are dropped, cached clients rebuilt on next use."""
        from openworker_qt.providers.factories import register_all

        fresh = ProviderRouter()
        register_all(fresh, config, get_secret, **options)
        # Swapped whole: a worker preparing a model meanwhile sees the old or the new table.
        self._factories, self._aliases = fresh._factories, fresh._aliases
        self.invalidate()
        # A server's context window is asked again (it may have changed). Nothing was
        # asked before the module's first use (it brings urllib.request: not at start).
        local = sys.modules.get("openworker_qt.providers.local_servers")
        if local is not None:
            local.forget_contexts()

    def canonical(self, name: str) -> str:
        return self._aliases.get(name.lower(), name.lower())

    @property
    def providers(self) -> frozenset[str]:
        return frozenset(self._factories) | {"scripted"}

    def split(self, model: str) -> tuple[str, str]:
        """(canonical provider name, model id) for ``model``."""
        known = self.providers | {a for a, n in self._aliases.items() if n in self._factories}
        provider, model_id = split_model(model, known)
        return self.canonical(provider), model_id

    def resolve(self, model: str) -> tuple[ModelProvider, str]:
        """The client for ``model`` and the model id; quick once :meth:`prepare` ran."""
        provider, model_id = self.split(model)
        if provider == "scripted":
            return self._resolve_scripted(model_id), model_id
        client = self._clients.get(provider)
        if client is not None:
            return client, model_id
        failed = self._failed.get(provider)
        if failed is not None:  # prepare() just tried: report it, do not retry here
            raise ProviderError(failed.kind, failed.message, provider=failed.provider or provider,
                                model=failed.model or model_id, status=failed.status)
        return self._build(provider, model_id), model_id

    def prepare(self, model: str) -> tuple[ModelProvider, str]:
        """Resolve ``model`` for the next call, off the loop thread (blocking).

        Re-reads the provider's key and rebuilds the client when it changed, then
        builds the SDK client (its import). Raises :class:`ProviderError`, which
        :meth:`resolve` repeats until the next ``prepare`` or :meth:`invalidate`.
        """
        provider, model_id = self.split(model)
        if provider == "scripted":
            return self._resolve_scripted(model_id), model_id
        with self._lock:
            client = self._clients.get(provider)
            factory = self._factories.get(provider)
            if client is not None and isinstance(factory, KeyedFactory):
                if _stamp(factory.credential()) != self._stamps.get(provider, ""):
                    log.info("the %s key changed: rebuilding its client", provider)
                    self._forget(provider)
                    client = None
            if client is None:
                self._failed.pop(provider, None)
                try:
                    client = self._build(provider, model_id)
                except ProviderError as exc:
                    self._failed[provider] = exc
                    raise
        try:
            warm = getattr(client, "warm", None)  # the SDK import, the client and its parts
            if callable(warm):
                warm()
            else:
                _ = getattr(client, "client", None)
            learn = getattr(client, "learn_context", None)  # a local server's context window
            if callable(learn):
                learn(model_id)
        except Exception:  # reported by the first call, where it is retried
            log.debug("preparing the %s client failed", provider, exc_info=True)
        return client, model_id

    async def resolve_async(self, model: str) -> tuple[ModelProvider, str]:
        """:meth:`prepare` in a worker thread (the loop stays free)."""
        return await asyncio.to_thread(self.prepare, model)

    def invalidate(self, provider: str | None = None) -> None:
        """Forget cached clients (all, or one provider's) so they are rebuilt on next use."""
        if provider is None:
            self._retired.extend(self._clients.values())
            self._clients.clear()
            self._stamps.clear()
            self._failed.clear()
            self._scripted.clear()
        else:
            self._forget(self.canonical(provider))

    async def aclose(self) -> None:
        """Close every client built so far (their connection pools); they are rebuilt
        if used again."""
        self.invalidate()
        clients, self._retired = self._retired, []
        for client in clients:
            closer = getattr(client, "aclose", None)
            if closer is None:
                continue
            try:
                await closer()
            except Exception:
                log.debug("closing a provider client failed", exc_info=True)

    # ------------------------------------------------------------------ internals

    def _forget(self, provider: str) -> None:
        client = self._clients.pop(provider, None)
        if client is not None:
            self._retired.append(client)
        self._stamps.pop(provider, None)
        self._failed.pop(provider, None)

    def _resolve_scripted(self, model_id: str) -> ScriptedProvider:
        key = str(Path(model_id).expanduser().resolve())
        if key not in self._scripted:
            self._scripted[key] = ScriptedProvider.from_file(key)
        return self._scripted[key]

    def _build(self, provider: str, model_id: str) -> ModelProvider:
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
            if isinstance(factory, KeyedFactory):
                key = factory.credential()
                client = factory.build(key)
                stamp = _stamp(key)
            else:
                client, stamp = factory(), ""
        except ProviderError as exc:
            exc.model = exc.model or model_id
            raise
        self._clients[provider] = client
        self._stamps[provider] = stamp
        self._failed.pop(provider, None)
        return client


def build_router(
    config: Any,
    get_secret: Callable[[str], str | None],
    **options: Any,
) -> ProviderRouter:
    """The app's router: every known provider registered (see ``factories.py``).

    Args:
        config: the app ``Config`` (its ``[providers]`` table is read; see
            ``factories.py``), or None for defaults.
        get_secret: key lookup by entry name (``OPENAI_API_KEY`` …); the runtime
            passes ``storage.secrets.get_key`` (keyring, then environment). It is
            called when a client is built and by :meth:`ProviderRouter.prepare`,
            so a changed key is used on the next call.
        options: ``retry``, ``timeouts``, ``sleep`` passed to every provider.
    """
    router = ProviderRouter()
    router.configure(config, get_secret, **options)
    return router
