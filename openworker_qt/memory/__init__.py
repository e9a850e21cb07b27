"""Explicit SQLite memory facts and their tools. No Qt here.

* :mod:`.store` — the facts (global and per-folder scopes, source session, date);
* :mod:`.render` — the bounded block for the system prompt, the guidance on what is
  worth remembering, the notice while saving is off;
* :mod:`.tools` — ``remember``, ``memory_update``, ``memory_forget``, ``memory_read``.
"""

from openworker_qt.memory.render import (
    GUIDANCE,
    SAVING_OFF_NOTICE,
    MemoryPrompt,
    memory_prompt,
    render,
)
from openworker_qt.memory.store import Fact, MemoryError, MemoryStore
from openworker_qt.memory.tools import memory_tools

__all__ = [
    "GUIDANCE",
    "SAVING_OFF_NOTICE",
    "Fact",
    "MemoryError",
    "MemoryPrompt",
    "MemoryStore",
    "memory_prompt",
    "memory_tools",
    "render",
]
