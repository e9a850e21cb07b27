"""Compaction: when a session's history nears the model's window, ask the model for a
note on the older messages and store it; the note then stands in for them in every
request (core/request_builder.py). Where to cut and what the note holds: core/context.py.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from openworker_qt.core import events as ev
from openworker_qt.core.context import (
    CHARS_PER_TOKEN,
    COMPACTED,
    KEEP_RECENT,
    SUMMARY_SYSTEM,
    budget_for,
    compaction_cut,
    compaction_text,
    estimate_tokens,
    summary_request_text,
)
from openworker_qt.core.history import SessionHistory
from openworker_qt.core.messages import Capabilities, notice
from openworker_qt.core.provider_api import FinishChunk, ModelRequest, TextChunk
from openworker_qt.core.request_builder import RequestBuilder
from openworker_qt.core.stop import StopRequested
from openworker_qt.domain.messages import Message
from openworker_qt.domain.usage import Usage

__all__ = ["compact"]

log = logging.getLogger(__name__)


async def compact(
    *,
    session_log: SessionHistory,
    history: list[Message],
    requests: RequestBuilder,
    model: str,
    provider: Any,
    model_id: str,
    caps: Capabilities,
    next_chunk: Callable[[AsyncIterator[Any]], Awaitable[Any]],
    usage: dict[str, int],
) -> AsyncIterator[ev.Event]:
    """Ask the model for a note on the older part of ``history`` and store it in
    ``session_log``, counting what the call used in ``usage``. ``next_chunk`` awaits the
    provider's next chunk (raising StopRequested when the user stops first). A
    failure leaves trimming to keep the request in bounds."""
    if len(history) == requests.no_cut_at:
        return
    session_id = session_log.session_id
    copies = requests.copies.copies
    budget = budget_for(caps.context_window)
    previous = requests.note
    start = int(previous.get("covers") or 0) if previous is not None else 0
    sizes = [estimate_tokens(m) if m is not None else 0 for m in copies]
    cut = compaction_cut(history, sizes, start, int(budget * KEEP_RECENT))
    if cut is None:
        requests.no_cut_at = len(history)
        return
    older = [m for m in copies[start:cut] if m is not None]
    text = summary_request_text(
        str(previous.get("summary") or "") if previous is not None else "", older,
        limit_chars=int(budget * 0.6) * CHARS_PER_TOKEN,
    )
    request = ModelRequest(model=model_id, messages=[{"role": "user", "content": text}],
                           system=SUMMARY_SYSTEM, max_tokens=2_048)
    parts: list[str] = []
    used_now: dict[str, int] = {}
    chunks = provider.stream(request).__aiter__()
    try:
        while True:
            try:
                item = await next_chunk(chunks)
            except StopAsyncIteration:
                break
            if isinstance(item, TextChunk):
                parts.append(item.text)
            elif isinstance(item, FinishChunk):
                used_now = dict(item.usage)
    except StopRequested:
        raise
    except Exception:
        log.warning("summarising the older messages of %s failed; trimming instead",
                    session_id, exc_info=True)
        requests.no_cut_at = len(history)
        return
    finally:
        with contextlib.suppress(BaseException):
            await chunks.aclose()
    summary = "".join(parts).strip()
    if not summary:
        requests.no_cut_at = len(history)
        return
    for key, value in used_now.items():
        usage[key] = usage.get(key, 0) + int(value)
    covered = sum(1 for m in history[:cut] if m.get("role") != "notice")
    note = notice(COMPACTED, compaction_text(covered), summary=summary, covers=cut,
                  model=model)
    used = Usage.of(used_now)
    if used:
        note["usage"] = used.as_dict()
    async with session_log.writing():
        note = session_log.append(note)
    requests.noted(note)
    yield ev.NoticeAdded(session_id=session_id, kind=COMPACTED, text=note["text"])
