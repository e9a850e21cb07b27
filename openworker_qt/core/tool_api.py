"""The tool protocol (the core's side of it: ``openworker_qt.tools`` implements tools).

A :class:`Tool` is an async handler plus what the engine needs to decide about a
call before running it: a JSON schema for the model, a declared risk class,
whether it needs approval, which argument names its *target* (the path, the
channel, the command) and whether it may run concurrently with other reads.
``interaction`` marks tools the engine answers by asking the user (a question,
a plan, a directory) instead of calling the handler directly.

Risk: every tool should declare its class (``risk=``). A tool that declares
nothing is EXTERNAL, and the built-in table by name can only raise a declared
class (see :mod:`openworker_qt.core.risk`); the user's global
``permissions.risk_overrides`` decide above both.

``always_ask``: every call asks the user, in every mode (a read-only mode refuses
it); nothing lets it run on its own — not auto mode, ``auto_allow``, a standing
rule or a risk override. For calls whose effect comes later, unattended (a
scheduled task). ``explain`` says in plain words what a call would do, for the
approval card of such a tool (e.g. the schedule and the next run).
``check`` refuses a call's arguments before anything is decided or asked (a
hostile package name): its message is the call's error, and the tool never runs.
``prepare`` looks up what the card of an ``always_ask`` call should say that takes
I/O to learn (a package's download size and licence, from its registry): awaited
before the call is decided, for at most :data:`PREPARE_TIMEOUT` seconds (a failure
or a timeout leaves the facts out); ``explain`` finds them in ``ctx.facts``.
``persists``: the call changes what later sessions see without touching a file
(a saved memory). The read-only modes (discuss, plan) refuse it; the other modes
decide it by its risk class.

Origin: ``origin`` says where the tool comes from and goes into the audit trail
with every call. Tools of this codebase are ``builtin`` (the default). Tools that
come from elsewhere are built with :meth:`Tool.from_mcp` or
:meth:`Tool.from_connector`, which set the origin and default the risk to EXTERNAL
unless the caller passes a class it can vouch for. A :class:`ToolRegistry` never
lets such a tool take the name of a built-in tool.

Handlers receive the parsed arguments and a :class:`ToolContext`; they return a
:class:`ToolResult` (or a plain string). Raising is allowed: the engine turns an
exception into an error result, so one bad tool never breaks a turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from openworker_qt.core.risk import (
    BUILTIN,
    RiskClass,
    check_origin,
    classify,
    connector_origin,
    mcp_origin,
)


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool returns. ``display`` is shown to the user, never to the model."""

    content: str
    is_error: bool = False
    display: Mapping[str, Any] | None = None
    #: Pictures the model sees with ``content`` (``image_url`` parts with data URLs).
    attachments: tuple[dict[str, Any], ...] = ()


@dataclass(slots=True)
class ToolContext:
    """Per-call context: which session, which workspace, shared per-session state."""

    session_id: str
    workspace: Path
    state: dict[str, Any] = field(default_factory=dict)
    #: Where :meth:`report` sends output produced while the call runs (set by the engine).
    progress: Callable[[str], None] | None = None
    #: The session's sensitive set (its permission engine's: the defaults plus the
    #: runtime's own secrets); None: the defaults. Tools that list or search files
    #: never return what lies in it.
    sensitive: tuple[str, ...] | None = None
    #: What the tool's ``prepare`` looked up for this call (given to ``explain``).
    facts: Mapping[str, Any] = field(default_factory=dict)

    def report(self, text: str) -> None:
        """Show ``text`` in the call's card while it runs (the model never sees it)."""
        if self.progress is not None and text:
            self.progress(text)


Handler = Callable[[dict[str, Any], ToolContext], Awaitable["ToolResult | str"]]
#: What a call would do, in plain words (for the approval card).
Explainer = Callable[[Mapping[str, Any], ToolContext], str]
#: Why a call's arguments are refused before anyone is asked, or None.
Checker = Callable[[Mapping[str, Any]], "str | None"]
#: Facts for the approval card that take I/O to learn (see module docstring).
Preparer = Callable[[Mapping[str, Any]], Awaitable[Mapping[str, Any]]]
PREPARE_TIMEOUT = 8.0
Interaction = Literal["question", "plan", "directory"]


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    description: str
    parameters: Mapping[str, Any]
    handler: Handler
    risk: RiskClass | None = None
    needs_approval: bool = False
    target_arg: str | None = None
    concurrency_safe: bool = False
    interaction: Interaction | None = None
    origin: str = BUILTIN
    always_ask: bool = False
    explain: Explainer | None = None
    persists: bool = False
    #: A tool whose calls name no target: what an "always" answer binds to instead
    #: (``core.approvals.tool_key``: an MCP server's tool). EXTERNAL calls only.
    tool_key: str | None = None
    check: Checker | None = None
    prepare: Preparer | None = None

    def __post_init__(self) -> None:
        check_origin(self.origin)

    @classmethod
    def from_mcp(
        cls,
        server: str,
        *,
        name: str,
        description: str,
        parameters: Mapping[str, Any],
        handler: Handler,
        risk: RiskClass | None = None,
        target_arg: str | None = None,
        tool_key: str | None = None,
    ) -> Tool:
        """A tool offered by the MCP server configured as ``server``.

        ``risk`` stays undeclared (EXTERNAL) unless the caller has a reason to vouch
        for a lower class; the server's own hints are the server's word, not ours.
        Never concurrency-safe: another process runs it.
        """
        return cls(
            name=name, description=description, parameters=parameters, handler=handler,
            risk=risk, target_arg=target_arg, origin=mcp_origin(server), tool_key=tool_key,
        )

    @classmethod
    def from_connector(
        cls,
        connector: str,
        *,
        name: str,
        description: str,
        parameters: Mapping[str, Any],
        handler: Handler,
        risk: RiskClass = RiskClass.EXTERNAL,
        target_arg: str | None = None,
        needs_approval: bool = False,
    ) -> Tool:
        """A tool of the connector ``connector`` (mail, chat, calendar, …).

        Connectors reach services off this machine, so ``risk`` defaults to EXTERNAL;
        ``target_arg`` names the recipient/channel an "always" answer binds to.
        """
        return cls(
            name=name, description=description, parameters=parameters, handler=handler,
            risk=risk, target_arg=target_arg, needs_approval=needs_approval,
            origin=connector_origin(connector),
        )

    @property
    def builtin(self) -> bool:
        return self.origin == BUILTIN

    def risk_class(self, overrides: Mapping[str, RiskClass] | None = None) -> RiskClass:
        return classify(
            self.name,
            declared=self.risk,
            needs_approval=self.needs_approval,
            overrides=overrides,
        )

    def target(self, arguments: Mapping[str, Any]) -> str | None:
        if not self.target_arg:
            return None
        value = arguments.get(self.target_arg)
        return str(value) if value not in (None, "") else None

    def schema(self) -> dict[str, Any]:
        """The OpenAI-style function schema (providers convert it to their own)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": dict(self.parameters),
            },
        }


class ToolRegistry:
    """An ordered set of tools by name."""

    def __init__(self, tools: list[Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools or []:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        """Add ``tool``, replacing a tool of the same name — except that a tool from
        elsewhere (MCP, a connector) may never stand in for a built-in one."""
        current = self._tools.get(tool.name)
        if current is not None and current.builtin and not tool.builtin:
            raise ValueError(
                f"a tool from {tool.origin} cannot replace the built-in tool {tool.name!r}"
            )
        self._tools[tool.name] = tool

    def remove(self, name: str) -> None:
        self._tools.pop(name, None)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def schemas(self) -> list[dict[str, Any]]:
        return [t.schema() for t in self._tools.values()]

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools
