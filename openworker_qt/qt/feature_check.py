"""A cheaper answer to the question PySide6 asks of every module imported after it.

PySide6's ``__feature__`` support (``shibokensupport.feature``) hooks every import
and decides whether the new module "uses PySide" by searching its source for the
word ``PySide6``. It reads that source with :func:`inspect.getsource`, which goes
through :mod:`linecache`: the file is decoded, split into lines and kept in memory
for the rest of the process. The app imports about 270 modules after Qt on its way
to the first paint, and that reading cost ~23 ms of CPU time (bench/startup.py).

:func:`install` keeps the question and its answer — the same word searched in
the same file — but reads the file's bytes once and keeps nothing. Whatever it
cannot answer that way (no ``.py`` file, an unreadable one) goes to PySide's own
check. Nothing changes when the binding has no such hook.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

_MARK = "_openworker_bytes_check"


def uses_pyside(module: ModuleType, fallback: Callable[[ModuleType], bool]) -> bool:
    """Whether ``module``'s source file mentions ``PySide6`` (PySide's criterion)."""
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return fallback(module)
    try:
        with open(path, "rb") as source:
            return b"PySide6" in source.read()
    except OSError:
        return fallback(module)


def install() -> bool:
    """Answer PySide's per-import question by reading bytes (True if installed)."""
    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original):
        return False
    if getattr(original, _MARK, False):
        return True

    def check(module: ModuleType) -> bool:
        return uses_pyside(module, original)

    setattr(check, _MARK, True)
    check.original = original  # type: ignore[attr-defined]  # (PySide's own, for tests)
    feature._mod_uses_pyside = check  # type: ignore[attr-defined]
    return True
