"""A session as the store keeps it and every surface lists it (the windows get it
from the runtime's services without importing the store)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class SessionInfo:
    id: str
    title: str
    model: str
    persona: str
    mode: str
    workspace: str
    unattended: bool
    status: str
    created_at: float
    updated_at: float
    message_count: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    pinned: bool = False
