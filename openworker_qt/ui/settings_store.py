"""Writing settings so they take effect without a restart (no widgets here).

:func:`apply_global` merges an update into the global config file (lists are
replaced, not appended), reloads ``runtime.config`` (the permission engine
reads it through ``lambda: runtime.config`` on every check) and re-registers
the providers so a changed base URL or key name is used by the next call.
:func:`key_changed` drops the cached client of one provider after its key was
set, replaced or removed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from openworker_qt.storage.config import warm_up_writer

if TYPE_CHECKING:
    from openworker_qt.runtime import Runtime

# Loaded with the settings window and onboarding: the config writer is imported
# on a worker while the page builds, before the first change is saved.
warm_up_writer()


def reload_config(runtime: Runtime) -> None:
    """Re-read defaults ← global file (← the runtime's workspace file)."""
    runtime.reload_config()


def apply_global(runtime: Runtime, updates: Mapping[str, Any], *, providers_changed: bool = False) -> None:
    """Persist ``updates`` (see module docstring) and make them live."""
    from openworker_qt.storage.config import update_global

    update_global(updates)
    reload_config(runtime)
    if providers_changed or "providers" in updates:
        runtime.providers_changed()


def key_changed(runtime: Runtime, provider: str) -> None:
    runtime.key_changed(provider)
