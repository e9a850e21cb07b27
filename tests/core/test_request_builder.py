"""The request builder on its own, without an engine: each stored message's outbound
copy is made once and kept while the history grows; another capability set or a
history edited under it gets its copies made again; a compaction note stands in for
what it covers; the reminder rides with the request only."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from openworker_qt.core.context import COMPACTED, summary_message
from openworker_qt.core.messages import Capabilities, notice, user_message
from openworker_qt.core.request_builder import RequestBuilder
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.domain.messages import Message

CAPS = Capabilities(context_window=200_000)


async def build(
    builder: RequestBuilder, history: list[Message], caps: Capabilities = CAPS,
    reminder: Callable[[Sequence[Message]], str] | None = None,
) -> list[Message]:
    request = await builder.build(history, "m", caps, system="You help.", tools=ToolRegistry(),
                                  pdf_mode="text", reminder=reminder)
    return list(request.messages)


async def test_copies_are_kept_while_the_history_grows() -> None:
    history: list[Message] = [user_message("one"), {"role": "assistant", "content": "two"}]
    builder = RequestBuilder(history)
    first = await build(builder, history)
    assert [m.get("content") for m in first] == ["one", "two"]
    kept = builder.copies
    copy_of_one = kept.copies[0]
    history.append(user_message("three"))
    second = await build(builder, history)
    assert [m.get("content") for m in second] == ["one", "two", "three"]
    assert builder.copies is kept and kept.copies[0] is copy_of_one  # made once
    assert builder.estimate > 0 and not builder.last_trim


async def test_another_capability_set_or_an_edited_history_is_copied_again() -> None:
    history: list[Message] = [user_message("one"), {"role": "assistant", "content": "two"}]
    builder = RequestBuilder(history)
    await build(builder, history)
    kept = builder.copies
    await build(builder, history, Capabilities(context_window=100_000))
    assert builder.copies is not kept
    kept = builder.copies
    history[-1] = {"role": "assistant", "content": "edited"}
    sent = await build(builder, history, Capabilities(context_window=100_000))
    assert builder.copies is not kept
    assert [m.get("content") for m in sent] == ["one", "edited"]


async def test_a_note_stands_in_for_what_it_covers_and_the_reminder_is_not_kept() -> None:
    history: list[Message] = [user_message("old"), {"role": "assistant", "content": "older"},
                              user_message("new")]
    builder = RequestBuilder(history)
    sent = await build(builder, history, reminder=lambda h: f"{len(h)} messages")
    assert sent[-1] == {"role": "user", "content": "3 messages"}
    note = notice(COMPACTED, "Summarised 2 messages.", summary="NOTES", covers=2)
    history.append(note)
    builder.noted(note)
    sent = await build(builder, history)
    assert sent == [summary_message("NOTES"), {"role": "user", "content": "new"}]
    # A builder made on a history that already holds a note starts with it.
    assert await build(RequestBuilder(history), history) == sent
