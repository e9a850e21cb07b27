"""What the engine asks of the user, and the injected callables that answer.

The engine only decides; surfaces answer. An :data:`Approver` is an async
callable the engine awaits when a call needs the user (``None`` on surfaces that
cannot prompt: the call is then denied with a clear reason). A
:data:`Questioner` answers ``ask_user``-style questions the same way.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from openworker_qt.core.risk import RiskClass


class ApprovalOutcome(enum.StrEnum):
    ONCE = "once"
    ALWAYS = "always"  # this tool + this exact target (EXTERNAL only)
    ALWAYS_COMMAND = "always_command"  # this exact shell command, this session
    #: Commands starting with the offered prefix, this session; each one's arguments
    #: are still checked as an allowlisted command's are (``Decision.always_scope``).
    ALWAYS_PREFIX = "always_prefix"
    #: Writes inside the offered folder, this session (``Decision.always_scope``).
    ALWAYS_FOLDER = "always_folder"
    DENY = "deny"

    @property
    def allows(self) -> bool:
        return self is not ApprovalOutcome.DENY


@dataclass(frozen=True, slots=True)
class ToolCallInfo:
    """Everything a decider may look at about one call."""

    session_id: str
    call_id: str
    name: str
    arguments: Mapping[str, Any]
    risk: RiskClass
    target: str | None = None
    needs_approval: bool = False
    #: The tool asks on every call, in every mode (``Tool.always_ask``).
    always_ask: bool = False
    #: What the call would do, in plain words (``Tool.explain``; may be empty).
    explained: str = ""
    #: The call saves something later sessions see (``Tool.persists``: a memory).
    persists: bool = False
    #: For a tool whose calls name no target (an MCP server's tool): what names the
    #: tool itself (:func:`tool_key`). An EXTERNAL call's "always" answer binds to it:
    #: "always for this tool of this server".
    tool_key: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """The decider's verdict. ``rule`` names what allowed it, for the audit."""

    allowed: bool
    needs_user: bool = False
    reason: str = ""
    rule: str | None = None
    can_always: bool = False
    standing_target: str | None = None
    #: What a wider "always" answer would allow for the rest of the session, when
    #: the engine can bound it: a shell command's prefix (EXEC) or the folder a write
    #: is in (WRITE_LOCAL); None when it offers none. The engine works it out again
    #: when the answer comes, so what is stored with the ask never widens anything.
    always_scope: str | None = None


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    session_id: str
    call_id: str
    tool: str
    arguments: Mapping[str, Any]
    risk: RiskClass
    reason: str
    target: str | None = None
    can_always: bool = False
    standing_target: str | None = None
    #: Names this call instance, stable across a restart (see ``Inbox.add``);
    #: ``call_id`` is the vendor's id, which providers may reuse in every turn.
    call_key: str | None = None
    #: What the tool's own source (an MCP server) says it does, as the model read
    #: it; empty for the app's own tools. Shown so a poisoned description is seen.
    about: str = ""
    #: A scheduled task's shell command: "always" would let the task run this exact
    #: command from now on (answered ``always_command``); None otherwise.
    always_command: str | None = None
    #: See ``Decision.always_scope`` (answered ``always_prefix`` / ``always_folder``).
    always_scope: str | None = None


@dataclass(frozen=True, slots=True)
class QuestionRequest:
    session_id: str
    call_id: str
    kind: str  # "question", "plan" or "directory"
    prompt: str
    options: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    call_key: str | None = None  # as on ApprovalRequest


Approver = Callable[[ApprovalRequest], Awaitable[ApprovalOutcome]]
Questioner = Callable[[QuestionRequest], Awaitable[str]]


class OpenAsks(Protocol):
    """The asks (approvals, questions, re-run confirmations) still open on calls,
    by call instance key (``ApprovalRequest.call_key``).

    When the engine closes a call that will never run — the user sent a new message
    while it waited, or the turn failed — its ask must leave every surface that
    shows it, and a late answer must be refused rather than taken."""

    def waiting(self, session_id: str, keys: Collection[str]) -> set[str]:
        """Those of ``keys`` whose ask is still waiting for an answer."""
        ...

    def supersede(self, session_id: str, keys: Collection[str]) -> None:
        """Close the asks of ``keys`` still waiting: the conversation moved on."""
        ...


class Decider(Protocol):
    """Pure permission decisions plus memory of "always" answers."""

    def evaluate(self, call: ToolCallInfo) -> Decision: ...

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None: ...


class AskForConsequential:
    """The simplest safe decider: reads run, everything else asks the user."""

    def evaluate(self, call: ToolCallInfo) -> Decision:
        if call.risk is RiskClass.READ and not call.needs_approval and not call.always_ask:
            return Decision(allowed=True, reason="read-only tool", rule="risk:read")
        return Decision(
            allowed=False,
            needs_user=True,
            reason=f"{call.name} is {call.risk.value.replace('_', ' ')}",
        )

    def remember(self, call: ToolCallInfo, outcome: ApprovalOutcome) -> None:
        return None


#: How a :func:`tool_key` starts.
TOOL_KEY_PREFIX = "mcp-tool:"


def tool_key(server: str, tool: str) -> str:
    """What a standing rule binds to for "always for this tool of this server": the
    server's configured name and the server's own name for the tool (a server name
    has no ':', so the pair is read back without doubt)."""
    return f"{TOOL_KEY_PREFIX}{server}:{tool}"


def parse_tool_key(target: str | None) -> tuple[str, str] | None:
    """(server, tool) of a :func:`tool_key`; None for any other target."""
    if not target or not target.startswith(TOOL_KEY_PREFIX):
        return None
    server, sep, tool = target[len(TOOL_KEY_PREFIX):].partition(":")
    return (server, tool) if sep and server and tool else None
