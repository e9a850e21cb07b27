"""Bounded retries and stall timeouts around one provider call.

:func:`guarded_stream` wraps a provider's single-attempt stream:

* a transient error (rate limit, server, network, timeout) raised *before the
  first chunk reaches the caller* is retried with exponential backoff and full
  jitter, a bounded number of times; a server's ``retry-after`` is honoured,
  unless it asks for longer than ``max_retry_after`` (then the error surfaces);
* once a chunk was yielded the error surfaces: replaying would duplicate text
  the user already saw (the engine's ``retry()`` re-runs the turn instead);
* a stream with no wire activity for ``stall`` seconds (``first_event`` before
  the first event, which covers slow prompt processing) is abandoned with a
  ``timeout`` error. Providers yield ``None`` for wire events that produce no
  chunk (pings, argument fragments) so a long tool-argument stream is not a stall.

Delays and the sleep function are injectable so tests run in milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from openworker_qt.providers.base import ProviderError, StreamChunk
from openworker_qt.providers.errors import classify


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = 4  # total attempts, first included
    base_delay: float = 1.0
    max_delay: float = 30.0
    max_retry_after: float = 90.0

    def delay(self, retry_number: int, error: ProviderError, rand: Callable[[], float]) -> float:
        """Seconds to wait before retry ``retry_number`` (1-based)."""
        if error.retry_after is not None:
            return float(error.retry_after)
        cap = min(self.max_delay, self.base_delay * 2.0 ** (retry_number - 1))
        return float(cap / 2 + rand() * cap / 2)  # "equal jitter": never zero, never above cap


@dataclass(frozen=True, slots=True)
class StreamTimeouts:
    first_event: float = 180.0
    stall: float = 90.0


NO_RETRY = RetryPolicy(attempts=1)
DEFAULT_RETRY = RetryPolicy()
DEFAULT_TIMEOUTS = StreamTimeouts()

AttemptFactory = Callable[[], AsyncIterator[StreamChunk | None]]


async def guarded_stream(
    attempt: AttemptFactory,
    *,
    provider: str,
    model: str,
    policy: RetryPolicy = RetryPolicy(),
    timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    rand: Callable[[], float] = random.random,
    on_retry: Callable[[ProviderError, float], None] | None = None,
) -> AsyncIterator[StreamChunk]:
    """Run ``attempt()`` with retries and stall detection; yields only real chunks."""
    tries = 0
    while True:
        tries += 1
        yielded = False
        stream = attempt()
        try:
            first = True
            while True:
                limit = timeouts.first_event if first else timeouts.stall
                try:
                    async with asyncio.timeout(limit):
                        item = await anext(stream)
                except StopAsyncIteration:
                    return
                except TimeoutError as exc:
                    what = "before its first event" if first else "mid-stream"
                    raise ProviderError(
                        "timeout",
                        f"the stream stalled {what}: nothing received for {limit:g} s, abandoned",
                        provider=provider,
                        model=model,
                    ) from exc
                first = False
                if item is None:
                    continue
                yielded = True
                yield item
        except Exception as exc:
            error = classify(exc, provider=provider, model=model)
            if yielded or not error.transient or tries >= policy.attempts:
                if error is exc:
                    raise
                raise error from exc
            wait = policy.delay(tries, error, rand)
            if wait > policy.max_retry_after:
                raise error from exc
            if on_retry is not None:
                on_retry(error, wait)
            await sleep(wait)
        finally:
            with contextlib.suppress(Exception):
                await stream.aclose()  # type: ignore[attr-defined]
