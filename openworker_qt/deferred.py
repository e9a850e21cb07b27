"""What the desktop app's first paint does not need, imported on a worker after it.

Each of these used to be imported while the window was being built, and their
CPU time delayed its first paint (bench/startup.py). They are still needed soon
after: importing them on a worker right after the paint means the loop thread
finds them imported when it first uses them, instead of waiting on the import.

* the config writer (``tomlkit``, ~27 ms): the first setting saved from a
  settings surface (``storage.config``);
* the connector catalogue (mail with ``imaplib``/``smtplib``, the service
  catalogues, ~8 ms): the registry builds its list on first use
  (``connectors.registry``).
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


def _writer() -> None:
    importlib.import_module("tomlkit")


def _connector_catalogue() -> None:
    from openworker_qt.connectors.registry import catalogue

    catalogue()


STEPS: tuple[Callable[[], None], ...] = (_writer, _connector_catalogue)


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
