"""The qasync event loop, with what qasync leaves out: async generators are finalized.

``asyncio``'s own loops register ``sys.set_asyncgen_hooks`` while they run, so an async
generator dropped before its end (a stream read until its first chunk, then left) is
closed on the loop, where its ``finally`` blocks can await. qasync's loop never does:
such a generator is closed by the garbage collector outside any loop, its clean-up
fails ("unknown async library, or not in async context", a connection's byte stream
left open) and the failure is only printed. :func:`new_event_loop` registers the
loop's hooks once, so dropped generators are closed as a task on the loop and the
loop's ``shutdown_asyncgens()`` closes the ones still open at exit.

The loop's default executor (``asyncio.to_thread``, ``run_in_executor(None, …)``) is
a standard thread pool of up to :data:`WORKERS` threads, each started when work
finds no idle one: qasync's own starts all ten at the first call, and they stayed,
idle, for the life of the app (issue 26: threads at idle).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import qasync

WORKERS = 10  # as many as qasync's default executor had


def new_event_loop(app: Any) -> qasync.QEventLoop:
    """A qasync loop on ``app`` (a QApplication) whose async generators are finalized."""
    loop = qasync.QEventLoop(app)
    loop.set_default_executor(ThreadPoolExecutor(WORKERS, thread_name_prefix="openworker-worker"))

    def finalize(agen: Any) -> None:
        if not loop.is_closed():  # after the loop: nothing left to close it on
            loop._asyncgen_finalizer_hook(agen)

    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook, finalizer=finalize)
    return loop
