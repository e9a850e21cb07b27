"""What a running MCP server offers a message besides its tools: resources to attach and
prompts to insert (the composer's menus list them without importing the MCP client)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ResourceInfo:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str


@dataclass(frozen=True, slots=True)
class PromptInfo:
    name: str
    title: str
    description: str
    arguments: tuple[tuple[str, bool], ...]  # (name, required)
