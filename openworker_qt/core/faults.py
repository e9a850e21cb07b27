"""Fault injection for crash tests: die hard at a named point.

With ``OPENWORKER_FAULT=<point>`` *and* the test-only opt-in
``OPENWORKER_FAULT_INJECTION=tests`` in the environment, :func:`crash_point`
kills the process with SIGKILL when execution reaches that point (no cleanup,
no flush — a real crash). Without the opt-in the variable does nothing, and a
frozen build (the packaged app, ``sys.frozen``) ignores both: no environment
can make a shipped app kill itself. Unset in normal use, where a crash point
costs one dict lookup.
"""

from __future__ import annotations

import os
import signal
import sys

ENV = "OPENWORKER_FAULT"
OPT_IN = "OPENWORKER_FAULT_INJECTION"
OPT_IN_VALUE = "tests"


def enabled() -> bool:
    """True only in a source (not frozen) run whose environment opted in."""
    return not getattr(sys, "frozen", False) and os.environ.get(OPT_IN) == OPT_IN_VALUE


def crash_point(name: str) -> None:
    if os.environ.get(ENV) == name and enabled():
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
