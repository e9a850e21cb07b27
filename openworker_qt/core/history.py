"""A session's history as turns write it: the store it lives in, and each message
redacted before it is stored or sent (:func:`scrub`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from openworker_qt.domain.arguments import map_json
from openworker_qt.domain.messages import Message, MessageT

__all__ = ["HistoryStore", "MemoryHistory", "SessionHistory", "scrub"]


class HistoryStore(Protocol):
    """Where a session's canonical history lives. ``append`` commits durably;
    inside ``batch()`` the appends commit together when the block ends."""

    def load(self, session_id: str) -> list[Message]: ...

    def append(self, session_id: str, message: Message) -> None: ...

    def batch(self) -> contextlib.AbstractContextManager[None]: ...


class MemoryHistory:
    """A history store in memory (sub-agents, tests, benchmarks)."""

    def __init__(self) -> None:
        self.sessions: dict[str, list[Message]] = {}

    def load(self, session_id: str) -> list[Message]:
        return list(self.sessions.get(session_id, []))

    def append(self, session_id: str, message: Message) -> None:
        self.sessions.setdefault(session_id, []).append(message)

    def batch(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


def scrub(value: Any, redact: Callable[[str], str]) -> Any:
    """``value`` with every string in it redacted. Containers are copied only where a
    string changed (a message rarely holds a secret): otherwise ``value`` itself.
    A structure nested too deep to walk recursively is copied iteratively."""
    try:
        return _scrub_shared(value, redact)
    except RecursionError:
        return map_json(value, lambda v: redact(v) if isinstance(v, str) else v)


def _image_data(value: Any) -> bool:
    """An image attachment's ``data:image/…;base64,`` URL (a user's or a tool's)."""
    return isinstance(value, str) and value.startswith("data:image/") and (
        ";base64," in value[:80])


def _scrub_shared(value: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        out: dict[Any, Any] | None = None
        for key, item in value.items():
            if key == "url" and _image_data(item):
                continue  # an image's bytes, base64: no text to redact, megabytes to scan
            new = _scrub_shared(item, redact)
            if new is not item:
                if out is None:
                    out = dict(value)
                out[key] = new
        return value if out is None else out
    if isinstance(value, list):
        items: list[Any] | None = None
        for i, item in enumerate(value):
            new = _scrub_shared(item, redact)
            if new is not item:
                if items is None:
                    items = list(value)
                items[i] = new
        return value if items is None else items
    return value


class SessionHistory:
    """One session's history as turns write it: each message is redacted, committed
    to the store, then kept in :attr:`messages` (the engine's ``history``)."""

    def __init__(
        self, store: HistoryStore, session_id: str, redact: Callable[[str], str] | None,
        loaded: list[Message] | None = None,
    ) -> None:
        self.store = store
        self.session_id = session_id
        self.redact = redact
        #: ``loaded``: the stored history, already read (in a worker: a long session's
        #: history must not be read on the event loop's thread).
        self.messages: list[Message] = loaded if loaded is not None else store.load(session_id)

    def append(self, message: MessageT) -> MessageT:
        if self.redact is not None:
            # Before storing *and* before it can reach a provider: a tool output or a
            # provider error that echoes a key must not spread it further.
            message = scrub(message, self.redact)
        self.store.append(self.session_id, message)
        self.messages.append(message)
        return message

    def batch(self) -> contextlib.AbstractContextManager[None]:
        return self.store.batch()

    def writing(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A block of synchronous writes, as one transaction whose write lock is
        awaited without blocking the loop (the store's ``writing()``, when it has
        one: another process holding the database must not freeze the window)."""
        writing = getattr(self.store, "writing", None)
        return writing() if callable(writing) else _no_wait()


@contextlib.asynccontextmanager
async def _no_wait() -> AsyncIterator[None]:
    yield
