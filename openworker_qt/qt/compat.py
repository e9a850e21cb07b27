"""Work-arounds for defects of the installed Qt bindings, applied once at import.

PySide6 6.12.0 on CPython 3.11: ``SignalInstance.emit()`` and ``disconnect()``
return ``True`` without taking a reference, so every call made from Python
drops one reference to the ``True`` singleton (measured: -100 after 100
``emit()`` calls). qasync emits a signal for every ``call_soon_threadsafe``,
so a busy app reaches zero within minutes and CPython aborts with
"bool_dealloc: deallocating True or False". CPython 3.12+ made the bool
singletons immortal, which hides the bug there; on older interpreters we give
them the same immortality by raising their reference count far out of reach.
``None`` gets the same treatment: a "deallocating None" abort was also seen at
the exit of the UI-stall benchmark on this binding.
(The proper fix is a PySide6 without the bug; see the issue notes.)
"""

from __future__ import annotations

import ctypes
import sys

_IMMORTAL_BUMP = 1 << 40


def _emit_drops_references() -> bool:
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        ping = Signal()

    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(20):
        probe.ping.emit()
    return sys.getrefcount(True) < before - 10


def make_singletons_immortal() -> bool:
    """Apply the work-around if this interpreter and binding need it; True if applied."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    if not _emit_drops_references():
        return False
    for singleton in (True, False, None):
        ctypes.c_ssize_t.from_address(id(singleton)).value += _IMMORTAL_BUMP
    return True


APPLIED = make_singletons_immortal()
