"""Fire-and-forget tasks that cannot be collected mid-run.

The event loop keeps only a weak reference to a task: one that nobody else holds (a
bare ``asyncio.ensure_future(...)`` whose result is dropped) may be garbage-collected
while it waits, and then simply never finishes ("Task was destroyed but it is
pending!"). :func:`spawn` keeps each task in a set until it is done, the recipe of the
:mod:`asyncio` documentation. Ruff's RUF006 flags a dropped task; an owner that can
cancel its tasks (a task group, a set of its own) is better still where it has one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

T = TypeVar("T")

_running: set[asyncio.Future[Any]] = set()


def spawn(awaitable: Awaitable[T]) -> asyncio.Future[T]:
    """Schedule ``awaitable`` on the running loop and keep it alive until it is done."""
    task = asyncio.ensure_future(awaitable)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


def running() -> int:
    """How many spawned tasks have not finished yet."""
    return len(_running)
