"""Ask in Slack, get the answer in Slack: a Slack-started turn's final answer is
posted in its thread when the model did not reply there itself (once), and the
header the model reads with a Slack message shows in plain words in the
transcript. slack-sdk against the local Slack, a real runtime and a scripted model."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from openworker_qt.domain.slack_header import message_header, plain_header
from openworker_qt.qt.transcript_reducer import TranscriptReducer
from tests.connectors.helpers import wait_for
from tests.connectors.slack_stub import SlackStub
from tests.connectors.test_slack import (
    APPROVE,
    CHANNEL,
    REPLY,
    ROOT,
    TARGET,
    App,
    button,
    card_in_thread,
    connected,  # noqa: F401 (fixture)
    replied,
    send_turns,
    slack,  # noqa: F401 (fixture)
)

ANSWER = "The disk on db-2 was full; it has been cleaned up."


async def idle(app: App, sid: str) -> None:
    task = app.manager._tasks.get(sid)
    if task is not None:
        await asyncio.wait_for(asyncio.shield(task), 20)
    while app.listener._tasks:  # the posts the turn's end started
        await asyncio.gather(*list(app.listener._tasks), return_exceptions=True)


def posted(stub: SlackStub, text: str) -> list[Any]:
    return [p for p in stub.posted if p.text == text]


async def test_the_final_answer_is_posted_in_the_thread_when_the_model_did_not_reply_there(
    slack: SlackStub, connected: None, tmp_path: Path  # noqa: F811
) -> None:
    app = App(slack, tmp_path, [{"text": ANSWER}, {"text": "You're welcome."}])
    await app.start()
    try:
        await slack.acked(await slack.mention(CHANNEL, ROOT, "what happened to the API?"))
        answer = await replied(slack, ANSWER)
        assert (answer.channel, answer.thread_ts) == (CHANNEL, ROOT)
        sid = str(app.session_of(TARGET))
        await idle(app, sid)
        # A second question in the thread: its answer follows; the first is not repeated.
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000300", "thanks",
                                              thread_ts=ROOT))
        await replied(slack, "You're welcome.")
        await idle(app, sid)
        assert len(posted(slack, ANSWER)) == 1
        assert len(posted(slack, "You're welcome.")) == 1
    finally:
        await app.stop()


async def test_no_second_post_when_the_model_replied_in_the_thread(
    slack: SlackStub, connected: None, tmp_path: Path  # noqa: F811
) -> None:
    app = App(slack, tmp_path, send_turns())
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "what happened to the API?")
        card = await card_in_thread(slack)
        await slack.acked(await slack.click("U1", CHANNEL, APPROVE, button(card, APPROVE)))
        await replied(slack)
        sid = str(app.session_of(TARGET))
        await wait_for(lambda: any(m.get("content") == "Posted the answer in the thread."
                                   for m in app.rt.conversations.load(sid)))
        await idle(app, sid)
        assert len(posted(slack, REPLY)) == 1
        assert not posted(slack, "Posted the answer in the thread.")
    finally:
        await app.stop()


async def test_a_message_typed_in_the_app_is_answered_in_the_app_only(
    slack: SlackStub, connected: None, tmp_path: Path  # noqa: F811
) -> None:
    app = App(slack, tmp_path, [{"text": ANSWER}, {"text": "Only in the app."}])
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "what happened?")
        await replied(slack, ANSWER)
        sid = str(app.session_of(TARGET))
        await idle(app, sid)
        task = app.manager.send(sid, "and in one word?")
        assert task is not None
        await asyncio.wait_for(task, 20)
        await idle(app, sid)
        assert any(m.get("content") == "Only in the app." for m in app.rt.conversations.load(sid))
        assert not posted(slack, "Only in the app.")
    finally:
        await app.stop()


async def test_the_transcript_shows_who_wrote_in_slack_and_the_model_keeps_the_header(
    slack: SlackStub, connected: None, tmp_path: Path  # noqa: F811
) -> None:
    app = App(slack, tmp_path, [{"text": ANSWER}])
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "what happened to the API?")
        await replied(slack, ANSWER)
        history = app.rt.conversations.load(str(app.session_of(TARGET)))
    finally:
        await app.stop()
    stored = next(m for m in history if m.get("role") == "user")
    # The model's copy: who, where, and how to reply.
    assert stored["content"] == (
        f"[Slack message from <@U1> (@ana) in #sales, in the thread {TARGET}. Reply there "
        f"with slack_send_message, target {TARGET}.]\nwhat happened to the API?")
    reducer = TranscriptReducer()
    reducer.apply_messages(history)
    user_rows = [r for r in reducer.rows if r.kind == "user"]
    assert [r.text for r in user_rows] == ["From @ana in #sales\nwhat happened to the API?"]


def test_the_header_reads_plainly_without_names_and_text_that_only_looks_like_it_stays() -> None:
    header = message_header("U7", TARGET)
    assert header == (f"[Slack message from <@U7> in the thread {TARGET}. Reply there with "
                      f"slack_send_message, target {TARGET}.]\n")
    assert plain_header(header + "hi") == "From @U7 in a Slack thread\nhi"
    # Names from Slack cannot break out of the header.
    odd = message_header("U7", TARGET, user_name="x] [y\n", channel_name="a, b]")
    assert plain_header(odd + "hi") == "From @x y in #a b\nhi"
    assert plain_header("[Slack message from me] hello") is None
    assert plain_header(f"[Slack message from <@U7> in the thread {TARGET}. Reply there with "
                        f"slack_send_message, target slack:C9:1.2.]\nhi") is None

