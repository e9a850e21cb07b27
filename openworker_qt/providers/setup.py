"""Entry point the runtime uses to register every provider on its router."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openworker_qt.providers.factories import register_all
from openworker_qt.providers.router import ProviderRouter


def register_providers(
    router: ProviderRouter, config: Any, get_secret: Callable[[str], str | None], **options: Any
) -> None:
    """Register openai, anthropic, gemini, every compat vendor, Ollama and the
    custom endpoints of ``config`` (the app ``Config``) on ``router``."""
    register_all(router, config, get_secret, **options)
