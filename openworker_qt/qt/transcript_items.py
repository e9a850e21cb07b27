"""Display rows of a transcript and their plain-text renderings.

No Qt here on purpose: rows of a stored session are built in a worker thread
(see :mod:`~openworker_qt.qt.transcript_reducer`, the one place that builds
and changes rows) and handed to the
:class:`~openworker_qt.qt.transcript_model.TranscriptModel` on the loop thread.

A row is one of:

``user``       a user message (``source`` tells steering from a normal message)
``assistant``  assistant text and/or reasoning (``streaming`` while deltas arrive)
``tool``       one tool call and, once it has one, its result; ``status`` moves
               ``pending → [awaiting → pending] → running → ok/error/denied/interrupted``
               (``awaiting`` while an inbox item for the call is open)
``notice``     model switch, interrupted, error (with Retry), iteration limit, …
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

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
    status: str = ""
    result: str = ""
    rule: str = ""
    # what a running call printed so far (its tail; live only, cleared by its result)
    progress: str = ""
    # while the call waits for the user: the inbox item, why it asks, on what
    waiting_on: int = 0
    reason: str = ""
    target: str = ""
    display: dict[str, Any] = field(default_factory=dict)
    # when the call started and finished running (live only)
    started: float = 0.0
    finished: float = 0.0
    # the seconds it ran, as stored with its result ("Ran … · 3.2 s"; None: not
    # known — it did not run, or its result was stored before durations were kept)
    duration: float | None = None
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


_GRANT_NOTE = re.compile(
    r"\[Folder granted for this session \((?P<access>read and write|read only)\): (?P<folder>.+?) — ")


def content_text(content: Any) -> tuple[str, tuple[str, ...]]:
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
            names.append(str(part["name"]))  # an attached file or folder, not typed text
        elif kind == "text" and (grant := _GRANT_NOTE.match(str(part.get("text", "")))):
            # A folder grant's note stored before it was named: a chip, not typed text.
            access = "read and write" if grant["access"] == "read and write" else "read only"
            names.append(f"{Path(grant['folder']).name or grant['folder']}/ ({access})")
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


def describe(item: TranscriptItem, status_words: Callable[[str], str]) -> str:
    """A plain-text rendering for screen readers and copy; ``status_words`` says a
    tool call's state (the Qt side passes ``wording.status_text``: one table)."""
    if item.kind == "user":
        who = "You (steering)" if item.source == "steering" else "You"
        extra = f" Attachments: {', '.join(item.attachments)}." if item.attachments else ""
        return f"{who}: {item.text}{extra}"
    if item.kind == "assistant":
        think = f" (thinking: {item.reasoning})" if item.reasoning and not item.text else ""
        return f"Assistant: {item.text}{think}"
    if item.kind == "tool":
        base = f"Tool {item.name}, {status_words(item.status)}."
        if item.target:
            base += f" Target: {item.target}."
        if item.result:
            base += f" Result: {first_line(item.result)}"
        return base
    return f"Notice: {item.text}"


def first_line(text: str, limit: int = 160) -> str:
    line = (text.strip().splitlines() or [""])[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def arguments_preview(arguments: Mapping[str, Any], limit: int = 90) -> str:
    parts: list[str] = []
    for key, value in arguments.items():
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            # A structured payload (a document's blocks): its size says more than its JSON.
            parts.append(f"{key}: {len(value)} item{'s' * (len(value) != 1)}")
            continue
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
