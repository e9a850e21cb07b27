"""What the desktop app's first paint does not need, imported on a worker after it.

Each of these used to be imported while the window was being built, and their
CPU time delayed its first paint (bench/startup.py). They are still needed soon
after: importing them on a worker right after the paint means the loop thread
finds them imported when it first uses them, instead of waiting on the import.

* the config writer (``tomlkit``, ~27 ms): the first setting saved from a
  settings surface (``storage.config``).

(Not the connector catalogue, ~8 ms: a session's first turn reads it to offer the
connected connectors' tools, and a turn resumed right after the paint would then
import it on the loop thread — tests/providers/test_first_turn_off_loop.py.)
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


def _writer() -> None:
    importlib.import_module("tomlkit")


STEPS: tuple[Callable[[], None], ...] = (_writer,)


def _run(steps: tuple[Callable[[], None], ...]) -> None:
    for step in steps:
        try:
            step()
        except Exception:  # the first real use reports the problem
            log.debug("deferred import %s failed", step.__name__, exc_info=True)


def import_in_background(steps: tuple[Callable[[], None], ...] = STEPS) -> threading.Thread:
    """Run ``steps`` (imports) in a daemon thread; returns it (started)."""
    thread = threading.Thread(target=_run, args=(steps,), name="deferred-imports", daemon=True)
    thread.start()
    return thread
