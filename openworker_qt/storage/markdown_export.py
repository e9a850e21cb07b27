"""A session's transcript as a Markdown document (the sidebar's "Export as Markdown").

Streamed: messages are read a page at a time and written as they come, so a
100,000-message session exports in constant memory. Display-only noise (tool
arguments, raw results) is kept short; what the user and the assistant wrote is
kept whole. Call it from a worker (it reads and writes the disk).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from openworker_qt.storage.conversations import ConversationStore

#: Characters of a tool's result kept in the export.
RESULT_CHARS = 400


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out = []
        for part in content:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "text":
                out.append(str(part.get("text") or ""))
            elif part.get("path") or part.get("name"):
                out.append(f"*(attached: {part.get('name') or Path(str(part['path'])).name})*")
        return "\n\n".join(out)
    return ""


def _fence(text: str) -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}\n{text}\n{ticks}"


def message_markdown(msg: Mapping[str, Any]) -> str:
    """One stored message as a block of Markdown ("" for nothing to show)."""
    role = msg.get("role")
    if role == "user":
        return f"## You\n\n{_text(msg.get('content'))}"
    if role == "assistant":
        parts = []
        text = _text(msg.get("content"))
        if text:
            parts.append(f"## Assistant\n\n{text}")
        for call in msg.get("tool_calls") or []:
            fn = call.get("function", {}) if isinstance(call, dict) else {}
            args = fn.get("arguments", "")
            if not isinstance(args, str):
                args = json.dumps(args, ensure_ascii=False)
            parts.append(f"**Tool:** `{fn.get('name', '?')}`\n\n{_fence(args[:RESULT_CHARS])}")
        return "\n\n".join(parts)
    if role == "tool":
        result = str(msg.get("content", ""))
        cut = result[:RESULT_CHARS] + ("\n…" if len(result) > RESULT_CHARS else "")
        return f"**Result of `{msg.get('name', '?')}`:**\n\n{_fence(cut)}"
    if role == "notice":
        return f"> {msg.get('text', '')}"
    return ""


def export_markdown(store: ConversationStore, session_id: str, path: Path) -> int:
    """Write the session to ``path`` (replaced atomically); returns the messages written.

    Raises ``KeyError`` for an unknown session and ``OSError`` if the file cannot
    be written (nothing is left half-written at ``path``)."""
    info = store.get_session(session_id)
    if info is None:
        raise KeyError(f"no session {session_id!r}")
    path = Path(path)
    partial = path.with_name(path.name + ".part")
    count = 0
    with partial.open("w", encoding="utf-8") as out:
        out.write(f"# {info.title or 'Session'}\n\n")
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.updated_at))
        out.write(f"*{info.model or 'default model'} · {when}*\n")
        for msg in store.iter_messages(session_id):
            block = message_markdown(msg)
            if block:
                out.write("\n" + block + "\n")
            count += 1
    partial.replace(path)
    return count
