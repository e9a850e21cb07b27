"""One turn's stop button (:class:`StopSignal`) and an await that races it
(:func:`until_stopped`): what the engine, the tool step and compaction check to stop
as soon as the user asks."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

__all__ = ["StopRequested", "StopSignal", "until_stopped"]

T = TypeVar("T")


class StopRequested(Exception):
    """Internal: the user pressed stop while we were waiting."""


class StopSignal:
    """One turn's stop button: a flag to check between steps, and a future that
    waits (an approval, a running tool) race against."""

    __slots__ = ("future", "requested")

    def __init__(self) -> None:
        self.requested = False
        self.future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def set(self) -> None:
        self.requested = True
        if not self.future.done():
            self.future.set_result(None)


async def until_stopped(signal: StopSignal, aw: Awaitable[T]) -> T:
    """Await ``aw`` unless the user stops first (then cancel it, raise StopRequested)."""
    task = asyncio.ensure_future(aw)
    stop = signal.future
    if stop.done() and not task.done():
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise StopRequested
    try:
        await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)  # type: ignore[type-var]
    except asyncio.CancelledError:
        task.cancel()  # our own task was cancelled (app quitting): take the ask down too
        raise
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    raise StopRequested
