"""The outbound request of each model call, built from a session's history as it grows.

Stored messages never change once appended, so each one's outbound copy is made once
per capability set and kept (:class:`OutboundCopies`; bench/engine.py: re-copying the
whole history every call was the largest per-iteration cost). :class:`RequestBuilder`
adds the compaction note in force, trims to the model's window (core/context.py) and
appends the per-call reminder.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from openworker_qt.core.context import (
    CHARS_PER_TOKEN,
    Trim,
    TrimIndex,
    budget_for,
    estimate_tokens,
    fit_parts,
    latest_compaction,
    summary_message,
)
from openworker_qt.core.messages import (
    Capabilities,
    has_parts,
    order_tool_results,
    outbound_message,
    settled_length,
)
from openworker_qt.core.provider_api import ModelRequest
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.domain.messages import Message, NoticeMessage

__all__ = ["OutboundCopies", "RequestBuilder"]


@dataclass(slots=True)
class OutboundCopies:
    """The outbound copies of a history's messages for one capability set (and PDF
    mode), extended as the history grows; a new capability set or an edited history
    gets a new one."""

    #: The capabilities and PDF mode the copies are made for.
    made_for: tuple[Capabilities, str] | None = None
    #: One per stored message, in history order (None: the message is not sent).
    copies: list[Message | None] = field(default_factory=list)
    #: What they were made of: the history list and the message it then ended with.
    made_of: tuple[list[Message], Message | None] | None = None
    #: The copies that are sent, in history order, and their total estimate.
    sent: list[Message] = field(default_factory=list)
    tokens: int = 0
    #: Ordered once for good: the prefix of ``sent`` no later message can reorder
    #: (core.messages.settled_length), indexed for trimming as it grows; only the
    #: tail after it is ordered per call.
    settled: TrimIndex = field(default_factory=TrimIndex)
    #: id(unsettled copy) -> its estimate (kept by identity: the copies live as long
    #: as this object).
    sizes: dict[int, int] = field(default_factory=dict)
    #: What a compaction note replaces: (covers, copies skipped, their tokens).
    skip: tuple[int, int, int] | None = None

    def current(self, history: list[Message]) -> bool:
        """Whether these copies were made of ``history`` (the same list, and the
        message it ended with still in its place): a history edited or replaced under
        the engine gets its outbound copy made again."""
        if self.made_of is None:
            return not self.copies
        made_of, last = self.made_of
        n = len(self.copies)
        return made_of is history and len(history) >= n and (
            n == 0 or history[n - 1] is last)

    def add(self, history: list[Message], converted: Sequence[Message | None]) -> None:
        """The copies of the messages ``history`` gained since the last call."""
        self.copies.extend(converted)
        self.made_of = (history, history[-1] if history else None)
        kept = [m for m in converted if m is not None]
        self.sent.extend(kept)
        sizes = self.sizes
        for m in kept:
            size = sizes[id(m)] = estimate_tokens(m)
            self.tokens += size

    def settle(self) -> list[Message]:
        """Move what became settled into :attr:`settled`; returns the rest of
        :attr:`sent`, ordered (re-ordering the whole history on every model call grew
        with the turn: bench/engine.py)."""
        settled = self.settled
        tail = self.sent[len(settled):]
        ordered_tail = order_tool_results(tail)
        cut = settled_length(tail)
        if cut:
            for m in ordered_tail[:cut]:
                settled.append(m, self.sizes.pop(id(m), None))
            ordered_tail = ordered_tail[cut:]
        return ordered_tail

    def skipped(self, covers: int) -> tuple[int, int]:
        """How many sent copies (and tokens) the stored ``history[:covers]`` make:
        they come first in the outbound copy (a note's cut is a clean boundary)."""
        if self.skip is None or self.skip[0] != covers:
            kept = [m for m in self.copies[:covers] if m is not None]
            self.skip = (covers, len(kept), sum(estimate_tokens(m) for m in kept))
        return self.skip[1], self.skip[2]


class RequestBuilder:
    """Builds one session's model requests (see the module docstring). It owns the
    outbound copies and the compaction note in force (core/compaction.py writes a
    new one through :meth:`noted`)."""

    def __init__(self, history: Sequence[Message]) -> None:
        self.copies = OutboundCopies()
        #: The compaction note in force (it stands in for the messages it covers).
        self.note: NoticeMessage | None = latest_compaction(history)
        #: History length at which compaction found nothing to do (-1: none yet).
        self.no_cut_at = -1
        #: The last request's estimate before trimming, and how it was trimmed.
        self.estimate = 0
        self.last_trim = Trim()
        self._noticed_trim = Trim()  # the trim last announced to the user
        self._schema_size: tuple[tuple[int, tuple[str, ...]], int] | None = None

    def trim_news(self) -> Trim | None:
        """The last request's trim, when the user is to be told of it: the first time,
        and again only when more messages drop out (shortening one more old tool
        result each step is not news)."""
        trim = self.last_trim
        if trim and (
            not self._noticed_trim
            or trim.dropped_messages > self._noticed_trim.dropped_messages
        ):
            self._noticed_trim = trim
            return trim
        return None

    def noted(self, note: NoticeMessage) -> None:
        """A compaction note was stored: the next requests start with it."""
        self.note = note

    async def build(
        self,
        history: list[Message],
        model_id: str,
        caps: Capabilities,
        *,
        system: str,
        tools: ToolRegistry,
        pdf_mode: str,
        reminder: Callable[[Sequence[Message]], str] | None,
    ) -> ModelRequest:
        """The request for the next call on ``history`` (``reminder``: added to this
        request only, never stored)."""
        out = self.copies
        current = out.current(history)
        if not current:  # the note in force is the edited history's
            self.note = latest_compaction(history)
            self.no_cut_at = -1
        if (caps, pdf_mode) != out.made_for or not current:
            out = self.copies = OutboundCopies((caps, pdf_mode))
        fresh = history[len(out.copies):]
        if has_parts(fresh, "file") or has_parts(fresh, "image_url"):
            # PDF extraction is CPU work: keep it off the loop thread.
            converted = await asyncio.to_thread(
                lambda: [outbound_message(m, caps, pdf_mode=pdf_mode) for m in fresh]
            )
        else:
            converted = [outbound_message(m, caps, pdf_mode=pdf_mode) for m in fresh]
        out.add(history, converted)
        ordered_tail = out.settle()
        settled = out.settled
        tokens = out.tokens
        head: list[Message] = []
        skip = 0
        if self.note is not None:  # the note stands in for the messages it covers
            skip, skipped = out.skipped(int(self.note.get("covers") or 0))
            head = [summary_message(str(self.note.get("summary") or ""))]
            tokens += estimate_tokens(head[0]) - skipped
        lo = min(skip, len(settled))
        ordered_tail = ordered_tail[skip - lo:]
        budget = budget_for(caps.context_window)
        # What rides with every call besides the history: the system prompt (the
        # persona, AGENTS.md, memory, skills) and the tool schemas the persona offers.
        system_tokens = (len(system) + self._schema_chars(tools, caps)) // CHARS_PER_TOKEN
        self.estimate = tokens + system_tokens
        messages: list[Message]
        if tokens + system_tokens > budget:  # the common case skips trimming entirely
            known = out.sizes
            end = TrimIndex(ordered_tail, [known.get(id(m)) or estimate_tokens(m)
                                           for m in ordered_tail])
            messages, self.last_trim = fit_parts(
                [(TrimIndex(head), 0, len(head)), (settled, lo, len(settled)),
                 (end, 0, len(end))], budget, system_tokens)
        else:
            messages = [*head, *settled.messages[lo:], *ordered_tail]
            self.last_trim = Trim()
        if reminder is not None and (text := reminder(history)):
            messages = [*messages, {"role": "user", "content": text}]
        return ModelRequest(
            model=model_id,
            messages=messages,
            tools=tools.schemas() if caps.tools else [],
            system=system,
        )

    def _schema_chars(self, tools: ToolRegistry, caps: Capabilities) -> int:
        """Characters of the tool schemas sent with each call (0 when the model takes no
        tools), kept until the offered tools change."""
        if not caps.tools:
            return 0
        key = (id(tools), tuple(tools.names()))
        if self._schema_size is None or self._schema_size[0] != key:
            size = len(json.dumps(tools.schemas(), ensure_ascii=False))
            self._schema_size = (key, size)
        return self._schema_size[1]
