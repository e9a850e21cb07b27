"""The streaming interface every model provider implements (the core's side of it).

The engine speaks to models only through this protocol; ``openworker_qt.providers``
implements it (so the dependency runs from the providers to the core, never back).

A provider turns one :class:`ModelRequest` (canonical, already adapted history
plus tool schemas) into an async stream of :data:`StreamChunk` values:

* :class:`TextChunk` / :class:`ReasoningChunk`: deltas in the order received;
* :class:`ToolCallChunk`: one *complete* tool call (arguments assembled from
  however many wire fragments, still as the raw JSON string the model wrote);
* :class:`FinishChunk`: exactly once, last: finish reason, usage, and
  ``provider_state`` to store on the assistant message (thinking signatures and
  the like, which the same provider needs back on the next call);
* :class:`RetryChunk`: not content — the attempt failed before anything was
  shown and another one follows after ``delay`` seconds (surfaces show
  "waiting for <provider> · retrying 2/4"; the engine turns it into an event).

Failures are raised as :class:`ProviderError` with a kind from one taxonomy.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from openworker_qt.core.messages import Capabilities
from openworker_qt.domain.messages import Message

ErrorKind = Literal[
    "auth",
    "permission",
    "rate_limit",
    "context_length",
    "bad_request",
    "not_found",
    "server",
    "overloaded",
    "network",
    "timeout",
    "malformed",
    "unknown",
]

TRANSIENT_KINDS: frozenset[str] = frozenset(
    {"rate_limit", "server", "overloaded", "network", "timeout"}
)


@dataclass(frozen=True, slots=True)
class TextChunk:
    text: str


@dataclass(frozen=True, slots=True)
class ReasoningChunk:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCallChunk:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class FinishChunk:
    reason: str = "stop"
    usage: dict[str, int] = field(default_factory=dict)
    provider_state: dict[str, Any] = field(default_factory=dict)
    replace_text: str | None = None


@dataclass(frozen=True, slots=True)
class RetryChunk:
    """The last attempt failed before any output; attempt ``attempt`` of
    ``max_attempts`` starts after ``delay`` seconds. ``provider`` is the label
    users know (``Anthropic``), ``reason`` a few words on why (user-facing)."""

    provider: str
    attempt: int
    max_attempts: int
    kind: ErrorKind
    reason: str
    delay: float


@dataclass(frozen=True, slots=True)
class OpenedChunk:
    """The server opened its answer (a role-only chunk, ``message_start``) but sent
    nothing of it yet: the turn now waits for the model's first words. Sent once per
    attempt, before any content; consumers that only want the answer ignore it."""

    provider: str


StreamChunk = TextChunk | ReasoningChunk | ToolCallChunk | FinishChunk | RetryChunk | OpenedChunk


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """One call: the model id (without provider prefix), outbound history, tools.

    Providers must treat ``messages`` as read-only: the engine reuses the
    converted messages across calls.
    """

    model: str
    messages: list[Message]
    tools: list[dict[str, Any]] = field(default_factory=list)
    system: str = ""
    max_tokens: int | None = None
    temperature: float | None = None


class ProviderError(Exception):
    """A classified provider failure with a message fit for the user."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        provider: str = "",
        model: str = "",
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.message = message
        self.provider = provider
        self.model = model
        self.status = status
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        return self.kind in TRANSIENT_KINDS

    def __str__(self) -> str:
        where = f"{self.provider}:{self.model}" if self.provider else self.model
        prefix = f"[{where}] " if where else ""
        return f"{prefix}{self.kind}: {self.message}"


@runtime_checkable
class ModelProvider(Protocol):
    """What the engine needs from a model backend."""

    name: str

    def capabilities(self, model: str) -> Capabilities: ...

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamChunk]: ...


@runtime_checkable
class ProviderResolver(Protocol):
    """Maps a full model string (``anthropic:claude-…``) to a provider and model id."""

    def resolve(self, model: str) -> tuple[ModelProvider, str]: ...
