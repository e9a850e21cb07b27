"""An async generator dropped mid-way is closed on the qasync loop, its clean-up awaited."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any


def test_a_dropped_async_generator_is_closed_on_the_loop(qloop: Any) -> None:
    closed: list[str] = []

    async def chunks() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            await asyncio.sleep(0)  # clean-up that needs the loop (a connection closing)
            closed.append("closed on the loop")

    async def read_first() -> None:
        stream = chunks()
        assert await anext(stream) == 1
        del stream  # dropped before its end, like a stream read until its first chunk
        gc.collect()
        for _ in range(10):
            if closed:
                break
            await asyncio.sleep(0)

    qloop.run_until_complete(read_first())
    assert closed == ["closed on the loop"]


def test_generators_still_open_at_the_end_are_closed_by_shutdown(qloop: Any) -> None:
    closed: list[str] = []

    async def ticks() -> AsyncIterator[int]:
        try:
            while True:
                yield 0
        finally:
            await asyncio.sleep(0)
            closed.append("closed")

    kept: list[AsyncIterator[int]] = []

    async def start() -> None:
        stream = ticks()
        kept.append(stream)
        await anext(stream)

    qloop.run_until_complete(start())
    qloop.run_until_complete(qloop.shutdown_asyncgens())
    assert closed == ["closed"]


def test_the_loop_starts_worker_threads_only_as_work_needs_them(qloop: Any) -> None:
    import threading

    from openworker_qt.qt.event_loop import WORKERS

    def workers() -> list[str]:
        return [t.name for t in threading.enumerate() if t.name.startswith("openworker-worker")]

    async def one_at_a_time() -> None:
        for _ in range(5):
            await asyncio.to_thread(lambda: None)

    qloop.run_until_complete(one_at_a_time())
    assert len(workers()) == 1  # (qasync's own executor started ten at the first call)
    gate = threading.Barrier(4)

    async def together() -> list[int]:
        return await asyncio.gather(*(asyncio.to_thread(lambda: gate.wait(10)) for _ in range(4)))

    assert sorted(qloop.run_until_complete(together())) == [0, 1, 2, 3]  # four ran at once
    assert 4 <= len(workers()) <= WORKERS
