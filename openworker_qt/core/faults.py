"""Fault injection for crash tests: die hard at a named point.

``OPENWORKER_FAULT=<point>`` makes :func:`crash_point` kill the process with
SIGKILL when execution reaches that point (no cleanup, no flush — a real
crash). Unset in normal use, where a crash point costs one dict lookup.
"""

from __future__ import annotations

import os
import signal

ENV = "OPENWORKER_FAULT"


def crash_point(name: str) -> None:
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
