"""The typed event contract between the turn engine and every surface.

One frozen dataclass per event kind, each with a ``type`` literal so surfaces can
dispatch on it, and the :data:`Event` union. Payloads are plain Python values
(str, int, dict of JSON-able values) so the Qt bridge, the CLI and the Slack
surface can all consume the same stream without knowing about each other.

Contract: the engine yields these in a documented order (see ``engine.py``) and
every message an event announces is already committed to the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from openworker_qt.domain import messages

TurnStatus = Literal["completed", "max_iterations", "interrupted", "error", "suspended"]
ToolStatus = Literal["ok", "error", "denied", "interrupted"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted:
    """A turn began (a user message, a retry or a resume)."""

    session_id: str
    model: str
    reason: Literal["message", "retry", "resume"] = "message"
    type: Literal["turn_start"] = "turn_start"


@dataclass(frozen=True, slots=True, kw_only=True)
class UserMessageAdded:
    """A user message was stored: the turn's own, or steering injected mid-turn.

    Surfaces render the user's row from this event, so a turn started elsewhere
    (tray, Slack, the scheduler, the CLI) shows up like one typed in the window.
    """

    session_id: str
    message: messages.UserMessage
    type: Literal["user_message"] = "user_message"


@dataclass(frozen=True, slots=True, kw_only=True)
class AssistantDelta:
    """A piece of streamed assistant text, in order."""

    session_id: str
    text: str
    type: Literal["assistant_delta"] = "assistant_delta"


@dataclass(frozen=True, slots=True, kw_only=True)
class ReasoningDelta:
    """A piece of streamed reasoning ("thinking"), shown to the user, never sent back."""

    session_id: str
    text: str
    type: Literal["reasoning_delta"] = "reasoning_delta"


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerOpened:
    """The provider opened its answer but has sent none of it yet: the turn waits
    for the model's first words (a reasoning model may think a while here).

    Transient (nothing is stored): surfaces say what is being waited for at once,
    instead of a bare "waiting" until the first word or the silence limit.
    """

    session_id: str
    provider: str
    type: Literal["answer_opened"] = "answer_opened"

    def text(self) -> str:
        return f"{self.provider} started its answer; waiting for the first words"


@dataclass(frozen=True, slots=True, kw_only=True)
class ProviderRetrying:
    """The model call failed before anything was shown and is tried again.

    Transient (nothing is stored): surfaces show :meth:`text` until the next
    event of the turn. ``provider`` is the label users know ("Anthropic"),
    ``attempt`` the try about to start (2 of ``max_attempts``), ``kind`` the
    provider error kind (``overloaded``, ``timeout`` …), ``reason`` a few words
    for people, ``delay`` the seconds waited before it starts.
    """

    session_id: str
    provider: str
    attempt: int
    max_attempts: int
    kind: str
    reason: str
    delay: float = 0.0
    type: Literal["provider_retrying"] = "provider_retrying"

    def text(self) -> str:
        """``Waiting for Anthropic · retrying 2/4 in 3 s (overloaded)``."""
        wait = f" in {self.delay:.0f} s" if self.delay >= 1 else ""
        return (
            f"Waiting for {self.provider} · retrying {self.attempt}/{self.max_attempts}"
            f"{wait} ({self.reason})"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class AssistantMessage:
    """The complete assistant message of one model call, already persisted."""

    session_id: str
    message: messages.AssistantMessage
    type: Literal["assistant_message"] = "assistant_message"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolProposed:
    """The model asked for a tool call."""

    session_id: str
    call_id: str
    name: str
    arguments: dict[str, Any]
    risk: str
    type: Literal["tool_proposed"] = "tool_proposed"


@dataclass(frozen=True, slots=True, kw_only=True)
class PermissionRequired:
    """A consequential call waits for the user's decision."""

    session_id: str
    call_id: str
    name: str
    arguments: dict[str, Any]
    risk: str
    reason: str
    target: str | None = None
    standing_target: str | None = None
    type: Literal["permission_required"] = "permission_required"


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestionRequested:
    """The agent asked the user a question (``ask_user``) and waits for the answer."""

    session_id: str
    call_id: str
    question: str
    options: tuple[str, ...] = ()
    type: Literal["question_requested"] = "question_requested"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanRequested:
    """The agent proposed a plan and waits for approval (plan mode)."""

    session_id: str
    call_id: str
    plan: str
    type: Literal["plan_requested"] = "plan_requested"


@dataclass(frozen=True, slots=True, kw_only=True)
class DirectoryRequested:
    """The agent asked for access to a folder."""

    session_id: str
    call_id: str
    path: str
    writable: bool
    reason: str
    type: Literal["directory_requested"] = "directory_requested"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolStarted:
    """A tool began executing."""

    session_id: str
    call_id: str
    name: str
    type: Literal["tool_started"] = "tool_started"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolProgress:
    """Output a running tool produced so far (``text`` is the new piece). Shown
    while the call runs, never stored: its result (:class:`ToolFinished`) replaces it."""

    session_id: str
    call_id: str
    name: str
    text: str
    type: Literal["tool_progress"] = "tool_progress"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolFinished:
    """A tool call has its result (already persisted as a ``role: tool`` message)."""

    session_id: str
    call_id: str
    name: str
    status: ToolStatus
    result: str
    display: dict[str, Any] | None = None
    rule: str | None = None
    duration: float | None = None  # seconds it ran, as stored (None: it did not run)
    type: Literal["tool_finished"] = "tool_finished"


@dataclass(frozen=True, slots=True, kw_only=True)
class IterationEnded:
    """One model call plus its tool calls is done."""

    session_id: str
    iteration: int
    type: Literal["iteration_end"] = "iteration_end"


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorOccurred:
    """The turn failed; the notice describing it is already stored."""

    session_id: str
    message: str
    kind: str = "unknown"
    retryable: bool = True
    type: Literal["error"] = "error"


@dataclass(frozen=True, slots=True, kw_only=True)
class Interrupted:
    """The user stopped the turn; every open tool call already has a result."""

    session_id: str
    type: Literal["interrupted"] = "interrupted"


@dataclass(frozen=True, slots=True, kw_only=True)
class NoticeAdded:
    """A display-only notice (model switch, steering injected, compaction, …)."""

    session_id: str
    kind: str
    text: str
    type: Literal["notice"] = "notice"


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEnded:
    """The turn is over. ``status`` says how."""

    session_id: str
    status: TurnStatus
    iterations: int
    detail: str = ""
    usage: dict[str, int] = field(default_factory=dict)
    type: Literal["turn_end"] = "turn_end"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunningChanged:
    """A session's turn began or is over, as its :class:`SessionManager` says (the one
    word on "a turn is running": from the moment it is asked for until the session
    is free again, whichever manager of the process drives it). Not an engine event."""

    session_id: str
    running: bool
    type: Literal["running_changed"] = "running_changed"


Event = (
    TurnStarted
    | UserMessageAdded
    | AssistantDelta
    | ReasoningDelta
    | ProviderRetrying
    | AnswerOpened
    | AssistantMessage
    | ToolProposed
    | PermissionRequired
    | QuestionRequested
    | PlanRequested
    | DirectoryRequested
    | ToolStarted
    | ToolProgress
    | ToolFinished
    | IterationEnded
    | ErrorOccurred
    | Interrupted
    | NoticeAdded
    | TurnEnded
    | RunningChanged
)
