"""What an MCP server reports: its state and status line, the tools, resources and
prompts it offers, and :class:`McpFailure`, the failure a user reads."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from openworker_qt.domain.mcp_offers import PromptInfo as PromptInfo  # (their home: domain)
from openworker_qt.domain.mcp_offers import ResourceInfo as ResourceInfo

__all__ = ["McpFailure", "PromptInfo", "ResourceInfo", "State", "Status", "ToolInfo"]


class State(enum.StrEnum):
    STOPPED = "stopped"
    DISABLED = "disabled"
    STARTING = "starting"
    READY = "ready"
    FAILED = "failed"


class McpFailure(Exception):
    """A server could not do what was asked; ``str()`` is for the user."""


@dataclass(frozen=True, slots=True)
class ToolInfo:
    name: str  # the server's name for it
    title: str
    description: str
    schema: dict[str, Any]
    read_only_hint: bool | None
    destructive_hint: bool | None


@dataclass(frozen=True, slots=True)
class Status:
    state: State
    message: str = ""
    tools: int = 0
    stderr: str = ""

    def describe(self) -> str:
        text = {State.STOPPED: "not started", State.DISABLED: "turned off",
                State.STARTING: "starting", State.READY: f"ready, {self.tools} tools",
                State.FAILED: "not working"}[self.state]
        return f"{text}: {self.message}" if self.message else text
