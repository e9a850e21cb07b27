"""Writing settings so they take effect without a restart (no widgets here).

:class:`SettingsStore` is what the settings pages, onboarding, the workspace
question, the tray and the main window read and write settings through. Its
:meth:`~SettingsStore.apply` merges an update into the global config file
(lists are replaced, not appended), reloads the owner's config (the permission
engine reads it through ``lambda: runtime.config`` on every check) and
re-registers the providers so a changed base URL or key name is used by the
next call; :meth:`~SettingsStore.key_changed` drops the cached client of one
provider after its key was set, replaced or removed.

The owner is anything shaped like :class:`ConfigOwner` (the app's
:class:`~openworker_qt.runtime.Runtime` is one). Read ``store.config`` each
time: a reload replaces the owner's config object.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from openworker_qt.storage.paths import AppPaths

# The config writer (tomlkit) is imported on a worker after the main window's first
# paint (openworker_qt/deferred.py): importing it here started that thread while the
# window was still being built, and its ~30 ms competed with the first paint.


class ConfigOwner(Protocol):
    """Who holds the live config and the providers built from it (the runtime)."""

    @property
    def config(self) -> Any: ...

    @property
    def paths(self) -> AppPaths: ...

    def reload_config(self) -> None: ...

    def providers_changed(self) -> None: ...

    def key_changed(self, provider: str) -> None: ...


class SettingsStore:
    """Read settings live; write them so they apply at once (see module docstring)."""

    def __init__(self, owner: ConfigOwner) -> None:
        self.owner = owner

    @property
    def config(self) -> Any:
        """The current config (a reload replaces it: read it each time)."""
        return self.owner.config

    @property
    def paths(self) -> AppPaths:
        return self.owner.paths

    @property
    def config_dir(self) -> Path:
        """Where the settings files (and the windows' saved geometry) live."""
        return self.owner.paths.config

    @property
    def data_dir(self) -> Path:
        return self.owner.paths.data

    def get(self, key: str, default: Any = None) -> Any:
        return self.owner.config.get(key, default)

    def apply(self, updates: Mapping[str, Any], *, providers_changed: bool = False) -> None:
        """Persist ``updates`` in the global config file and make them live."""
        from openworker_qt.storage.config import update_global

        update_global(updates)
        self.owner.reload_config()  # defaults ← global file (← the runtime's workspace file)
        if providers_changed or "providers" in updates:
            self.owner.providers_changed()

    def write(self, updates: Mapping[str, Any]) -> None:
        """Persist ``updates`` in the global config file, no reload: for a value the
        caller also sets in the live config itself (a toggle that must not wait)."""
        from openworker_qt.storage.config import update_global

        update_global(updates)

    def key_changed(self, provider: str) -> None:
        self.owner.key_changed(provider)
