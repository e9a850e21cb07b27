"""The shapes of a session's history: messages and tool calls.

History is stored in the OpenAI chat shape (``role`` + ``content`` + optional
``tool_calls`` / ``tool_call_id``) plus keys only the user sees (marked "display
only" below) and whole ``role: notice`` messages; :mod:`openworker_qt.core.messages`
builds them and makes the copy a provider may see. Storage keeps each one as a
JSON row and reads back what was appended; ``tests/core/test_message_shapes.py``
checks that every message the engine stores has exactly the keys declared here.
Optional keys are read with ``.get``.
"""

# No ``from __future__ import annotations`` here: TypedDict reads ``Required[…]``
# at class creation, and a postponed annotation hides it (every key would count
# as optional at run time).
from typing import Any, Literal, Required, TypedDict, TypeVar

ContentPart = dict[str, Any]
"""One part of a user message's content: ``text``, ``image_url`` or ``file`` (OpenAI
shape), possibly with display-only keys such as an attachment's name."""


class ToolCallFunction(TypedDict):
    name: str
    arguments: str  # the JSON the model wrote, unparsed (it may be malformed)


class ToolCall(TypedDict):
    """One tool call of an assistant message (the OpenAI shape every provider maps to)."""

    id: str  # the vendor's id; vendors reuse ids across turns (see ``step_id``)
    type: Literal["function"]
    function: ToolCallFunction


class SystemMessage(TypedDict, total=False):
    role: Required[Literal["system"]]
    content: Required[str]
    ts: float  # display only


class UserMessage(TypedDict, total=False):
    role: Required[Literal["user"]]
    content: Required[str | list[ContentPart]]
    name: str
    # display only
    ts: float
    source: str  # "user", "steering", or the surface that sent it


class AssistantMessage(TypedDict, total=False):
    role: Required[Literal["assistant"]]
    content: Required[str | None]
    tool_calls: list[ToolCall]
    provider_state: dict[str, Any]  # sent back to the provider that wrote it
    # display only
    ts: float
    reasoning: str
    model: str
    step_id: str  # names this step's calls (with a call's id: its instance key)
    partial: Literal["interrupted", "error"]  # a reply cut off; "error" is never sent
    usage: dict[str, int]  # display only: the tokens of the call (domain.usage keys)


class ToolMessage(TypedDict, total=False):
    role: Required[Literal["tool"]]
    tool_call_id: Required[str]
    content: Required[str]
    name: str
    # Pictures the model sees with the result (``image_url`` parts, OpenAI shape, data
    # URLs): e.g. an image ``read_file`` opened. A model without vision gets a note.
    attachments: list[ContentPart]
    # display only
    ts: float
    status: str  # "ok", "error", "denied", "interrupted", …
    _display: dict[str, Any]  # what the tool shows the user (a diff, a file list)
    rule: str  # the standing rule that allowed the call
    duration: float  # seconds the call ran (absent: not run, or stored before it was kept)
    usage: dict[str, int]  # a sub-agent's result (explore): the tokens it used (domain.usage)
    model: str  # … and the model it used


class NoticeExtras(TypedDict, total=False):
    error_kind: str  # kind "error": the provider error's kind, "internal", "restart"
    model: str  # kind "model_switch": the new model, the previous one, its label
    previous: str
    label: str
    summary: str  # kind "compacted": the model's note on history[:covers], sent in its place
    covers: int
    usage: dict[str, int]  # kind "compacted": the tokens the summary cost (domain.usage)


class NoticeMessage(NoticeExtras, total=False):
    """Display only: providers never see a notice."""

    role: Required[Literal["notice"]]
    kind: Required[str]
    text: Required[str]
    ts: float


Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage | NoticeMessage
"""A message of a session's canonical history (see the module docstring)."""

MessageT = TypeVar("MessageT", bound=Message)
"""One kind of message, kept through a call (``append(notice(…))`` gives a notice back)."""
