"""A spawned task survives garbage collection while it waits, and is let go when done."""

from __future__ import annotations

import asyncio
import gc
import weakref

from openworker_qt.core.background import running, spawn


async def _wait_forever() -> None:
    # The future is held by this coroutine's frame only: nothing outside the task
    # refers to the task, exactly like a dropped ``ensure_future(...)``.
    await asyncio.get_running_loop().create_future()


async def test_a_dropped_task_can_be_collected_while_it_waits() -> None:
    """The hazard RUF006 is about: a bare ensure_future is gone after a collection."""
    ref = weakref.ref(asyncio.ensure_future(_wait_forever()))
    await asyncio.sleep(0)  # it starts and parks on its future
    loop = asyncio.get_running_loop()
    handler = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, _context: None)  # "destroyed but pending"
    try:
        gc.collect()
    finally:
        loop.set_exception_handler(handler)
    assert ref() is None


async def test_a_spawned_task_is_kept_until_it_is_done() -> None:
    before = running()
    ref = weakref.ref(spawn(_wait_forever()))
    await asyncio.sleep(0)
    gc.collect()
    task = ref()
    assert task is not None and not task.done()
    assert running() == before + 1
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()
    assert running() == before  # a finished task is not kept


async def test_spawn_returns_the_result() -> None:
    async def answer() -> int:
        return 42

    assert await spawn(answer()) == 42
