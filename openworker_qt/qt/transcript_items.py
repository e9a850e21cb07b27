"""Display rows of a transcript, built from stored history or live events.

No Qt here on purpose: :func:`items_from_history` runs in a worker thread when a
session opens (a 10,000-message session must not block the loop), and the
result is handed to :class:`~openworker_qt.qt.transcript_model.TranscriptModel`
on the loop thread.

A row is one of:

``user``       a user message (``source`` tells steering from a normal message)
``assistant``  assistant text and/or reasoning (``streaming`` while deltas arrive)
``tool``       one tool call and, once it has one, its result; ``status`` moves
               ``proposed → awaiting/asking → running → ok/error/denied/interrupted``
``notice``     model switch, interrupted, error (with Retry), iteration limit, …
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

RowKind = Literal["user", "assistant", "tool", "notice"]

_ids = itertools.count(1)


@dataclass(slots=True)
class TranscriptItem:
    """One display row. ``rev`` changes whenever the row's rendering changes."""

    kind: RowKind
    text: str = ""
    reasoning: str = ""
    source: str = "user"
    attachments: tuple[str, ...] = ()
    # tool rows
    call_id: str = ""
    name: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    risk: str = ""
    status: str = ""
    result: str = ""
    rule: str = ""
    reason: str = ""
    target: str = ""
    display: dict[str, Any] = field(default_factory=dict)
    expanded: bool = False
    # notice rows
    notice_kind: str = ""
    # assistant rows
    streaming: bool = False
    partial: str = ""
    ts: float = 0.0
    uid: int = field(default_factory=lambda: next(_ids))
    rev: int = 0

    def touch(self) -> None:
        self.rev += 1

    @property
    def cache_key(self) -> tuple[int, int]:
        return (self.uid, self.rev)


def _content_text(content: Any) -> tuple[str, tuple[str, ...]]:
    if isinstance(content, str):
        return content, ()
    if not isinstance(content, list):
        return "", ()
    texts: list[str] = []
    names: list[str] = []
    for part in content:
        if not isinstance(part, Mapping):
            continue
        kind = part.get("type")
        if kind == "text" and part.get("name"):
            names.append(str(part["name"]))  # an attached text file, not typed text
        elif kind == "text":
            texts.append(str(part.get("text", "")))
        elif kind == "image_url":
            names.append(str(part.get("name") or "image"))
        elif kind == "file":
            info = part.get("file") or {}
            names.append(str(info.get("filename") or "file"))
    return "\n".join(texts), tuple(names)


def parse_arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError:
        return {"(raw)": raw}
    return value if isinstance(value, dict) else {"(value)": value}


def items_from_history(history: Sequence[Mapping[str, Any]]) -> list[TranscriptItem]:
    """Rows for a stored history (pure; safe in a worker thread)."""
    rows: list[TranscriptItem] = []
    tools: dict[str, TranscriptItem] = {}
    for msg in history:
        role = msg.get("role")
        ts = float(msg.get("ts") or 0.0)
        if role == "user":
            text, names = _content_text(msg.get("content"))
            rows.append(
                TranscriptItem("user", text=text, attachments=names,
                               source=str(msg.get("source") or "user"), ts=ts)
            )
        elif role == "assistant":
            content = msg.get("content")
            text = content if isinstance(content, str) else ""
            reasoning = str(msg.get("reasoning") or "")
            if text or reasoning:
                rows.append(
                    TranscriptItem("assistant", text=text, reasoning=reasoning,
                                   partial=str(msg.get("partial") or ""), ts=ts)
                )
            for call in msg.get("tool_calls") or []:
                fn = call.get("function") or {}
                item = TranscriptItem(
                    "tool",
                    call_id=str(call.get("id")),
                    name=str(fn.get("name", "")),
                    arguments=parse_arguments(fn.get("arguments")),
                    status="pending",
                    ts=ts,
                )
                tools[item.call_id] = item
                rows.append(item)
        elif role == "tool":
            found = tools.get(str(msg.get("tool_call_id")))
            if found is None:
                continue
            item = found
            item.status = str(msg.get("status") or "ok")
            item.result = str(msg.get("content") or "")
            item.rule = str(msg.get("rule") or "")
            display = msg.get("_display")
            item.display = dict(display) if isinstance(display, Mapping) else {}
        elif role == "notice":
            rows.append(
                TranscriptItem("notice", notice_kind=str(msg.get("kind") or ""),
                               text=str(msg.get("text") or ""), ts=ts)
            )
    return rows


class _Rows(Protocol):
    def query(self, sql: str, params: Sequence[object] = ...) -> list[Any]: ...


NEWEST_PAGE = 240  # stored messages read before the first paint of a session
OLDER_CHUNK = 1000  # messages per query while the rest loads (keeps the DB lock short)


def _decode(row: Any) -> dict[str, Any]:
    try:
        msg = json.loads(row["data"])
        if not isinstance(msg, dict):
            raise ValueError("not an object")
    except ValueError as exc:
        msg = {
            "role": "notice",
            "kind": "error",
            "text": f"Stored message #{row['id']} could not be read ({exc}); skipped.",
            "ts": time.time(),
        }
    return msg


def newest_page(
    db: _Rows, session_id: str, limit: int = NEWEST_PAGE
) -> tuple[list[TranscriptItem], int | None]:
    """Rows of the newest ``limit``-odd stored messages, and where older ones begin.

    Opening a 10,000-message session reads and decodes everything in ~150 ms on
    this machine; the newest page takes a few ms, so the window paints first and
    :func:`older_items` fills in the rest. The page is widened back to a user
    message so a tool call is never split from its result. Returns the rows and
    the id of the page's first message (``None`` when nothing older exists).
    Pure SQL + JSON: safe in a worker thread.
    """
    while True:
        rows = db.query(
            "SELECT id, role, data FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?",
            (session_id, limit + 1),
        )
        if len(rows) <= limit:  # the whole session fits
            return items_from_history([_decode(r) for r in reversed(rows)]), None
        page = list(reversed(rows[:limit]))
        start = next((i for i, r in enumerate(page) if r["role"] == "user"), None)
        if start is not None:
            page = page[start:]
            return items_from_history([_decode(r) for r in page]), int(page[0]["id"])
        limit *= 4  # one very long turn: widen the page until it starts at a user message


def older_items(db: _Rows, session_id: str, before_id: int,
                chunk: int = OLDER_CHUNK) -> list[TranscriptItem]:
    """Rows of every stored message older than ``before_id`` (worker thread)."""
    messages: list[dict[str, Any]] = []
    cursor = before_id
    while True:
        rows = db.query(
            "SELECT id, data FROM messages WHERE session_id = ? AND id < ? "
            "ORDER BY id DESC LIMIT ?",
            (session_id, cursor, chunk),
        )
        messages.extend(_decode(r) for r in rows)
        if len(rows) < chunk:
            break
        cursor = int(rows[-1]["id"])
    messages.reverse()
    return items_from_history(messages)


def describe(item: TranscriptItem) -> str:
    """A plain-text rendering for screen readers and copy."""
    if item.kind == "user":
        who = "You (steering)" if item.source == "steering" else "You"
        extra = f" Attachments: {', '.join(item.attachments)}." if item.attachments else ""
        return f"{who}: {item.text}{extra}"
    if item.kind == "assistant":
        think = f" (thinking: {item.reasoning})" if item.reasoning and not item.text else ""
        return f"Assistant: {item.text}{think}"
    if item.kind == "tool":
        base = f"Tool {item.name}, {status_label(item.status)}."
        if item.target:
            base += f" Target: {item.target}."
        if item.result:
            base += f" Result: {first_line(item.result)}"
        return base
    return f"Notice: {item.text}"


def status_label(status: str) -> str:
    return {
        "pending": "proposed",
        "awaiting": "waiting for your approval",
        "asking": "waiting for your answer",
        "running": "running",
        "ok": "done",
        "error": "failed",
        "denied": "denied",
        "interrupted": "interrupted",
    }.get(status, status)


def first_line(text: str, limit: int = 160) -> str:
    line = (text.strip().splitlines() or [""])[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def arguments_preview(arguments: Mapping[str, Any], limit: int = 90) -> str:
    parts: list[str] = []
    for key, value in arguments.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text = " ".join(str(text).split())
        if len(text) > limit:
            text = text[: limit - 1] + "…"
        parts.append(f"{key}: {text}")
    return " · ".join(parts)


def last_of(items: Iterable[TranscriptItem], kind: RowKind) -> TranscriptItem | None:
    found = None
    for item in items:
        if item.kind == kind:
            found = item
    return found
