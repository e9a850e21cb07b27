"""What the desktop app's first paint does not need, imported on a worker after it.

Each of these used to be imported while the window was being built, and their
CPU time delayed its first paint (bench/startup.py). They are still needed soon
after: importing them on a worker right after the paint means the loop thread
finds them imported when it first uses them, instead of waiting on the import.

* the config writer (``tomlkit``, ~27 ms): the first setting saved from a
  settings surface (``storage.config``);
* the search index's patterns (``storage.search_text``, ~9 ms to compile): the
  first message stored is indexed with them;
* the price list (``providers.pricing`` and its ``prices.toml``, ~5 ms): the usage
  label prices a turn when it ends, on the loop thread;
* the turn engine (``core.engine``, ~17 ms: the session manager builds one at a
  session's first turn) and the permission engine (``core.permissions`` with the
  shell checker, ~10 ms: the runtime builds one per session at its first turn);
* a session's tools (:data:`TOOL_MODULES`): the runtime imports them when a
  session's first turn builds its tools, on the loop thread, between Enter and
  the first delta (issue 26: that delta within 300 ms of Enter).

One module per step, each a few milliseconds: an import in a worker holds the
GIL while it runs, and the loop gets it back between two modules.

(Not the connector catalogue, ~8 ms: a session's first turn reads it to offer the
connected connectors' tools, and a turn resumed right after the paint would then
import it on the loop thread — tests/providers/test_first_turn_off_loop.py.)
"""

from __future__ import annotations

import importlib
import linecache
import logging
import threading
import time
from collections.abc import Callable

from openworker_qt.runtime_tools import TOOL_MODULES

log = logging.getLogger(__name__)


def _writer() -> None:
    importlib.import_module("tomlkit")


def _search_patterns() -> None:
    # the search index's CJK patterns (~9 ms to compile): every message stored uses them
    from openworker_qt.storage import search_text

    search_text.has_cjk("")


def _prices() -> None:
    # the usage label prices the first turn when it ends, on the loop thread
    from openworker_qt.providers import pricing

    pricing.default_prices()


def _forget_sources() -> None:
    # Source lines read at start-up (PySide's per-import check before ours is installed,
    # a traceback logged): ~1.5 MiB kept for nothing; a later traceback reads its files again.
    linecache.clearcache()


def _importer(name: str) -> Callable[[], None]:
    def step() -> None:
        importlib.import_module(name)

    step.__name__ = name
    return step


STEPS: tuple[Callable[[], None], ...] = (
    _search_patterns, _importer("openworker_qt.core.engine"),
    _importer("openworker_qt.core.permissions"),
    *(_importer(name) for name in TOOL_MODULES), _writer, _prices, _forget_sources)


def _run(steps: tuple[Callable[[], None], ...]) -> None:
    for step in steps:
        time.sleep(0)  # (the loop thread may take the GIL back between two imports)
        try:
            step()
        except Exception:  # the first real use reports the problem
            log.debug("deferred import %s failed", step.__name__, exc_info=True)


def import_in_background(steps: tuple[Callable[[], None], ...] = STEPS) -> threading.Thread:
    """Run ``steps`` (imports) in a daemon thread; returns it (started)."""
    thread = threading.Thread(target=_run, args=(steps,), name="deferred-imports", daemon=True)
    thread.start()
    return thread
