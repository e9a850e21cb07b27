"""ModelCatalog: the models the configured providers offer, for the pickers.

Listing reads keys (the keyring) and may ask a server, so it runs in a worker;
the list is kept for the windows built later and announced when it changes.

Signals:
    changed(list): the model strings, after each successful listing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)


class ModelCatalog(QObject):
    """See module docstring. ``lister``: blocking, returns the providers' model
    listings (each with ``models``, each with ``model``), e.g. ``runtime.list_models``."""

    changed = Signal(list)

    def __init__(self, lister: Callable[[], Iterable[Any]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lister = lister
        self._models: list[str] = []

    def known_models(self) -> list[str]:
        return list(self._models)

    async def load_models(self) -> None:
        """List the models again (a worker); failures are logged, the list kept."""
        try:
            listing = await asyncio.to_thread(self._lister)
        except Exception:
            log.exception("listing models failed")
            return
        self._models = [m.model for pm in listing for m in getattr(pm, "models", ())]
        self.changed.emit(list(self._models))
