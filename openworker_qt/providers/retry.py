"""Bounded retries and stall timeouts around one provider call.

:func:`guarded_stream` wraps a provider's single-attempt stream:

* a transient error (rate limit, overloaded, server, network, timeout) raised
  *before anything reached the caller* is retried with exponential backoff and
  jitter, a bounded number of times. Before each retry a :class:`RetryChunk`
  is yielded (it is not content: surfaces show "waiting for Anthropic ·
  retrying 2/4"). A server's ``retry-after`` is honoured up to
  ``max_retry_after``; a longer one fails at once, saying when to try again;
* once a chunk was yielded the error surfaces: replaying would duplicate text
  the user already saw (the engine keeps the partial text; its ``retry()``
  re-runs the turn). A connection that breaks after the answer began is worded
  as such ("the connection to Anthropic dropped mid-answer");
* silence is bounded by a watchdog, not by the SDK: ``first_event`` seconds
  from sending the request to the first sign of an answer, then ``stall`` seconds
  between two signs. A sign is any event the adapter reports (providers yield
  ``None`` for pings and argument fragments) *or any body byte on the wire*
  (``wire.py`` reports bytes through :func:`current_watch`), so a keep-alive
  comment or a large first event arriving slowly is not a stall. Until the
  answer's *content* started (a chunk, not a role-only event or a
  ``message_start``), each silence is still bounded by ``first_event``: a server
  that opens the stream with an empty event and goes quiet is retried as soon as
  one that sent nothing at all.

Delays and the sleep function are injectable so tests run in milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import NoReturn

from openworker_qt.core.provider_api import OpenedChunk, ProviderError, RetryChunk, StreamChunk
from openworker_qt.providers.errors import IncompleteAnswer, classify


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = 4  # total attempts, first included
    base_delay: float = 1.0
    max_delay: float = 30.0
    max_retry_after: float = 60.0  # a server asking for longer fails the call at once

    def delay(self, retry_number: int, error: ProviderError, rand: Callable[[], float]) -> float:
        """Seconds to wait before retry ``retry_number`` (1-based)."""
        if error.retry_after is not None:
            return float(error.retry_after)
        cap = min(self.max_delay, self.base_delay * 2.0 ** (retry_number - 1))
        return float(cap / 2 + rand() * cap / 2)  # "equal jitter": never zero, never above cap


@dataclass(frozen=True, slots=True)
class StreamTimeouts:
    """Seconds of silence tolerated on one attempt.

    ``first_event``: from sending the request to the first byte of the answer's
    body (or first event); ``stall``: between two pieces of the answer once it
    started (idle); ``connect``: opening the connection.
    """

    first_event: float = 30.0
    stall: float = 60.0
    connect: float = 10.0

    @property
    def read(self) -> float:
        """The transport's own read timeout: a backstop behind the watchdog."""
        return max(self.first_event, self.stall) + 5.0


NO_RETRY = RetryPolicy(attempts=1)
DEFAULT_RETRY = RetryPolicy()
DEFAULT_TIMEOUTS = StreamTimeouts()

AttemptFactory = Callable[[], AsyncIterator[StreamChunk | None]]


class StallWatch:
    """The silence watchdog of one attempt (see the module docstring).

    :meth:`touch` is cheap (it stores a time); the timer re-arms itself lazily
    when it fires and finds that something arrived in the meantime. Only the
    first touch re-arms at once, when it shortens the limit (``first_event`` →
    ``stall``).
    """

    __slots__ = (
        "_loop", "_started", "_task", "_handle", "_armed", "_fired",
        "last", "content", "timeouts",
    )

    def __init__(self, timeouts: StreamTimeouts) -> None:
        self._loop = asyncio.get_running_loop()
        self._started = self._loop.time()
        self._task: asyncio.Task[object] | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._armed = 0.0
        self._fired = False
        self.timeouts = timeouts
        self.last: float | None = None
        self.content = False  # a chunk of the answer itself arrived

    @property
    def answered(self) -> bool:
        """Something of the answer arrived (a body byte or an event)."""
        return self.last is not None

    @property
    def limit(self) -> float:
        """The silence allowed now: ``stall`` once content arrived, else ``first_event``."""
        return self.timeouts.stall if self.content else self.timeouts.first_event

    def sent(self) -> None:
        """The request is going out now: the ``first_event`` clock starts here, so
        the client's own preparation (an SDK's lazy imports) is not counted."""
        if self.last is None:
            self._started = self._loop.time()  # later only: the armed timer re-arms lazily

    def touch(self) -> None:
        """Something of the answer arrived (a body byte or an event)."""
        first = self.last is None
        self.last = self._loop.time()
        if first and self._handle is not None and self._deadline() < self._armed:
            self._handle.cancel()
            self._arm()

    def _deadline(self) -> float:
        if self.last is None:
            return self._started + self.timeouts.first_event
        return self.last + self.limit

    def _arm(self) -> None:
        self._armed = self._deadline()
        self._handle = self._loop.call_at(self._armed, self._check)

    def _check(self) -> None:
        if self._loop.time() >= self._deadline() - 0.001:
            self._handle = None
            self._fired = True
            if self._task is not None:
                self._task.cancel()
        else:
            self._arm()

    async def next(self, stream: AsyncIterator[StreamChunk | None]) -> StreamChunk | None:
        """``anext(stream)``, or :class:`TimeoutError` after too long a silence."""
        task = asyncio.current_task()
        assert task is not None
        self._task = task
        self._fired = False
        self._arm()
        token = _WATCH.set(self)
        try:
            item = await anext(stream)
        except asyncio.CancelledError:
            if self._fired and task.uncancel() == 0:
                raise TimeoutError from None
            raise
        finally:
            _WATCH.reset(token)
            if self._handle is not None:
                self._handle.cancel()
                self._handle = None
            self._task = None
        if item is not None:
            self.content = True
        self.touch()
        return item


_WATCH: contextvars.ContextVar[StallWatch | None] = contextvars.ContextVar(
    "openworker_stall_watch", default=None
)


def current_watch() -> StallWatch | None:
    """The watchdog of the attempt running in this task, if any (for transports)."""
    return _WATCH.get()


def _timeout_error(watch: StallWatch, label: str, provider: str, model: str) -> ProviderError:
    limit = watch.limit
    if watch.content:
        text = f"{label} stopped sending mid-answer: nothing arrived for {limit:g} s"
    elif watch.answered:
        text = (f"{label} opened the answer but sent nothing of it within {limit:g} s "
                "(waiting for the model's first words)")
    else:
        text = f"{label} did not start answering within {limit:g} s"
    return ProviderError("timeout", text, provider=provider, model=model)


def _dropped(error: ProviderError, label: str, *, shown: bool) -> ProviderError:
    """A network error after the answer began: say that, not "could not reach"."""
    _, _, detail = error.message.partition(". ")
    text = f"the connection to {label} dropped mid-answer"
    if shown:
        text += " (the part already shown is kept)"
    if detail and detail.strip(". ").lower() != "connection error":  # the SDKs' generic words
        text += f". {detail}"
    return ProviderError(
        "network", text, provider=error.provider, model=error.model, status=error.status
    )


def _too_long(error: ProviderError, label: str, wait: float) -> ProviderError:
    minutes, seconds = divmod(round(wait), 60)
    span = f"{minutes} min {seconds} s" if minutes else f"{seconds} s"
    at = time.strftime("%H:%M", time.localtime(time.time() + wait))
    text = f"{label} asked to wait {span} before trying again; try again after {at}. {error.message}"
    return ProviderError(
        error.kind, text, provider=error.provider, model=error.model,
        status=error.status, retry_after=error.retry_after,
    )


def _tried(error: ProviderError, tries: int) -> ProviderError:
    if tries < 2:
        return error
    return type(error)(
        error.kind, f"{error.message} (tried {tries} times)", provider=error.provider,
        model=error.model, status=error.status, retry_after=error.retry_after,
    )


_REASONS: dict[str, str] = {
    "timeout": "no answer",
    "overloaded": "overloaded",
    "rate_limit": "rate limited",
    "server": "server error",
    "network": "connection problem",
}


def retry_reason(error: ProviderError) -> str:
    """A few words for the waiting line ("overloaded", "no answer for 30 s")."""
    return _REASONS.get(error.kind, error.kind.replace("_", " "))


async def guarded_stream(
    attempt: AttemptFactory,
    *,
    provider: str,
    model: str,
    label: str = "",
    policy: RetryPolicy = DEFAULT_RETRY,
    timeouts: StreamTimeouts = DEFAULT_TIMEOUTS,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    rand: Callable[[], float] = random.random,
    on_retry: Callable[[ProviderError, float], None] | None = None,
    prepare: Callable[[], object] | None = None,
) -> AsyncIterator[StreamChunk]:
    """Run ``attempt()`` with retries and stall detection; yields real chunks and,
    before each retry, a :class:`RetryChunk`. ``prepare`` runs once before the
    first attempt, outside the stall clock (building an SDK client imports it)."""
    label = label or provider or "the provider"
    if prepare is not None:
        try:
            prepare()
        except Exception as exc:
            _raise(classify(exc, provider=provider, model=model), exc)
    tries = 0
    while True:
        tries += 1
        yielded = False
        opened = False
        watch = StallWatch(timeouts)
        stream = attempt()
        error: ProviderError
        try:
            while True:
                try:
                    item = await watch.next(stream)
                except StopAsyncIteration:
                    return
                except TimeoutError as exc:
                    raise _timeout_error(watch, label, provider, model) from exc
                if item is None:
                    if watch.answered and not watch.content and not opened:
                        opened = True  # say at once what is being waited for
                        yield OpenedChunk(label)
                    continue
                yielded = True
                yield item
        except Exception as exc:
            error = classify(exc, provider=provider, model=model)
            if isinstance(error, IncompleteAnswer):
                if yielded:
                    error = IncompleteAnswer(
                        error.kind, f"{error.message} (the part already shown is kept)",
                        provider=error.provider, model=error.model)
            elif error.kind == "network" and watch.answered:
                error = _dropped(error, label, shown=yielded)
            if yielded or not error.transient:
                _raise(error, exc)
            wait = policy.delay(tries, error, rand)
            if error.retry_after is not None and error.retry_after > policy.max_retry_after:
                _raise(_too_long(error, label, error.retry_after), exc)
            if tries >= policy.attempts:
                _raise(_tried(error, tries), exc)
        finally:
            with contextlib.suppress(Exception):
                await stream.aclose()  # type: ignore[attr-defined]
        if on_retry is not None:
            on_retry(error, wait)
        reason = retry_reason(error)
        if isinstance(error, IncompleteAnswer):
            reason = "the answer came back empty"  # (retried only when nothing was shown)
        if error.kind == "timeout":
            if watch.content:
                reason = f"silent for {watch.limit:g} s"
            elif watch.answered:  # the stream opened, then nothing of the answer came
                reason = f"answer opened, no words for {watch.limit:g} s"
            else:
                reason = f"no answer for {watch.limit:g} s"
        yield RetryChunk(
            provider=label, attempt=tries + 1, max_attempts=policy.attempts,
            kind=error.kind, reason=reason, delay=wait,
        )
        await sleep(wait)


def _raise(error: ProviderError, exc: BaseException) -> NoReturn:
    if error is exc:
        raise error
    raise error from exc
