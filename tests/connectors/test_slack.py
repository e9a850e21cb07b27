"""Slack both ways: slack-sdk (Web API client and Socket Mode client) against a
local Slack of our own (``slack_stub.py``), a real runtime, database and inbox,
and a scripted model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from openworker_qt.connectors.base import ConnectorError
from openworker_qt.connectors.slack_listener import APPROVE, DENY, SlackListener, SlackThreads
from openworker_qt.core.approvers import InboxApprover, InboxQuestioner
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.runtime import Runtime
from tests.connectors.helpers import Sleeps, runtime, script, wait_for
from tests.connectors.slack_stub import Posted, SlackStub

CHANNEL = "C0ACME"
ROOT = "1700000000.000100"
TARGET = f"slack:{CHANNEL}:{ROOT}"
REPLY = "The incident is resolved: the disk was full."


@pytest_asyncio.fixture
async def slack() -> AsyncIterator[SlackStub]:
    stub = SlackStub()
    await stub.start()
    try:
        yield stub
    finally:
        await stub.stop()


def slack_values(stub: SlackStub, **extra: str) -> dict[str, str]:
    return {"bot_token": "xoxb-test-bot-token", "app_token": "xapp-test-app-token",
            "user_token": "xoxp-test-user-token", "allowed_users": "U1, U2",
            "api_url": stub.api_url, **extra}


class App:
    """One process's worth: a runtime, its session manager and the Slack listener."""

    def __init__(self, stub: SlackStub, tmp_path: Path, turns: list[dict[str, Any]]) -> None:
        self.stub = stub
        self.sleeps = Sleeps()
        self.rt: Runtime = runtime(self.sleeps)
        self.manager: SessionManager = self.rt.session_manager(
            approver_for=lambda _i: InboxApprover(self.rt.inbox, poll=0.02),
            questioner_for=lambda _i: InboxQuestioner(self.rt.inbox, poll=0.02),
            default_model=script(tmp_path, turns))
        self.listener = SlackListener(
            self.manager, self.rt.inbox, self.rt.db, workspace=tmp_path,
            values=lambda: self.rt.connectors.values("slack"),
            policy=self.rt.connectors.policy, ping_interval=0.5)
        self.rt.add_service(self.listener)

    async def start(self) -> None:
        assert await self.rt.start() == []

    async def stop(self) -> None:
        await self.rt.stop()
        self.rt.close()

    def session_of(self, target: str) -> str | None:
        return SlackThreads(self.rt.db).session_for(target)

    def sessions(self) -> list[Any]:
        return self.rt.conversations.list_sessions()


def user_messages(app: App, target: str) -> int:
    sid = str(app.session_of(target))
    return len([m for m in app.rt.conversations.load(sid) if m.get("role") == "user"])


def send_turns(text: str = REPLY) -> list[dict[str, Any]]:
    return [{"tool_calls": [{"name": "slack_send_message", "id": "c1",
                             "arguments": {"target": TARGET, "text": text}}]},
            {"text": "Posted the answer in the thread."}]


async def card_in_thread(stub: SlackStub) -> Posted:
    return await wait_for(lambda: next((p for p in stub.posted if p.blocks), None))


def button(card: Posted, action_id: str) -> str:
    actions = next(b for b in card.blocks if b["type"] == "actions")
    return str(next(e["value"] for e in actions["elements"] if e["action_id"] == action_id))


async def replied(stub: SlackStub, text: str = REPLY) -> Posted:
    return await wait_for(lambda: next((p for p in stub.posted if p.text == text), None))


@pytest_asyncio.fixture
async def connected(slack: SlackStub) -> AsyncIterator[None]:
    rt = runtime(Sleeps())
    identity = await rt.connectors.connect("slack", slack_values(slack))
    assert identity.text() == "Connected as @openworker in Acme"
    rt.close()
    yield


async def test_mention_spawns_a_session_whose_send_is_approved_from_a_slack_button(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    app = App(slack, tmp_path, send_turns())
    await app.start()
    try:
        envelope = await slack.mention(CHANNEL, ROOT, "what happened to the API?")
        await slack.acked(envelope)
        card = await card_in_thread(slack)
        sid = app.session_of(TARGET)
        assert sid is not None
        info = app.rt.conversations.get_session(sid)
        assert info is not None and info.meta["slack"]["target"] == TARGET
        assert card.channel == CHANNEL and card.thread_ts == ROOT
        # Parked, not sent: the inbox shows the same item as the card.
        item = app.rt.inbox.get(int(button(card, APPROVE)))
        assert item is not None and item.pending and item.target == TARGET
        assert not [p for p in slack.posted if p.text == REPLY]

        await slack.acked(await slack.click("U1", CHANNEL, APPROVE, str(item.id)))
        reply = await replied(slack)
        assert (reply.channel, reply.thread_ts) == (CHANNEL, ROOT)
        done = app.rt.inbox.get(item.id)
        assert done is not None and done.resolution == "once" and done.resolved_by == "slack:U1"
        update = await wait_for(lambda: slack.updated)
        assert "approved by <@U1>" in update[0]["text"]
        assert len(app.sessions()) == 1
    finally:
        await app.stop()


async def test_the_thread_survives_a_restart(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    app = App(slack, tmp_path, send_turns())
    await app.start()
    await slack.mention(CHANNEL, ROOT, "summarise the incident")
    card = await card_in_thread(slack)
    sid = app.session_of(TARGET)
    await app.stop()  # the turn is parked on the card; the process goes away

    again = App(slack, tmp_path, send_turns())
    await again.start()
    try:
        assert again.manager.recover()  # the parked turn resumes, waiting on the same item
        await slack.acked(await slack.click("U1", CHANNEL, APPROVE, button(card, APPROVE)))
        reply = await replied(slack)
        assert (reply.channel, reply.thread_ts) == (CHANNEL, ROOT)
        # One card only: the resumed ask found its item and its card.
        assert len([p for p in slack.posted if p.blocks]) == 1
        # A new mention in the thread goes to the same session.
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000900", "thanks!",
                                              thread_ts=ROOT))
        assert again.session_of(TARGET) == sid
        assert len(again.sessions()) == 1
        await wait_for(lambda: any("thanks!" in str(m.get("content"))
                                   for m in again.rt.conversations.load(str(sid))))
    finally:
        await again.stop()


async def test_a_duplicate_envelope_spawns_no_second_session(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    app = App(slack, tmp_path, [{"text": "On it."}])
    await app.start()
    try:
        first = await slack.mention(CHANNEL, ROOT, "look at this", event_id="Ev0001")
        await slack.acked(first)
        # Slack retries with a new envelope id and the same event id.
        retry = await slack.mention(CHANNEL, ROOT, "look at this", event_id="Ev0001")
        await slack.acked(retry)
        assert len(app.sessions()) == 1
        sid = app.session_of(TARGET)
        await wait_for(lambda: not app.manager.is_running(str(sid)))
        users = [m for m in app.rt.conversations.load(str(sid)) if m.get("role") == "user"]
        assert len(users) == 1
    finally:
        await app.stop()


async def test_a_dropped_socket_reconnects_without_losing_or_repeating_events(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    app = App(slack, tmp_path, [{"text": "On it."}])
    await app.start()
    try:
        await slack.connected()
        await slack.acked(await slack.mention(CHANNEL, ROOT, "first", event_id="Ev0101"))
        await slack.drop()
        # Sent as soon as the client is back: not lost.
        second = await slack.mention(CHANNEL, "1700000000.000200", "second", event_id="Ev0102")
        await slack.acked(second)
        assert slack.connections == 2
        # Slack's own refresh request: the client moves to a new socket.
        await slack.ask_to_reconnect()
        await wait_for(lambda: slack.connections == 3)
        # A redelivery of an event handled before the drop is acknowledged and dropped.
        await slack.acked(await slack.mention(CHANNEL, ROOT, "first", event_id="Ev0101"))
        assert {s.title for s in app.sessions()} == {"Slack: first", "Slack: second"}
        # The turn stores the message once it is prepared (the prompt is read in a worker).
        await wait_for(lambda: user_messages(app, TARGET) >= 1)
        await wait_for(lambda: not app.manager.is_running(str(app.session_of(TARGET))))
        assert user_messages(app, TARGET) == 1
    finally:
        await app.stop()


async def test_an_envelope_left_unacknowledged_by_a_drop_is_handled_once(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    app = App(slack, tmp_path, [{"text": "On it."}])
    await app.start()
    try:
        await slack.connected()
        # Delivered, then the socket drops before the stub reads the ack: the stub
        # delivers it again on the new connection (retry_attempt 1).
        envelope = slack.event_envelope({"type": "app_mention", "user": "U1", "channel": CHANNEL,
                                         "text": "<@UBOT> hello", "ts": ROOT})
        await slack.send(envelope)
        await slack.drop()
        await slack.acked(envelope["envelope_id"])
        await wait_for(lambda: app.session_of(TARGET))
        # Its turn has ended and been told in the thread (the redelivery was acked,
        # so dropped, before that): nothing more can come of it.
        await wait_for(lambda: not app.manager.running_sessions()
                       and all(task.done() for task in app.listener._tasks))
        assert len(app.sessions()) == 1
        assert user_messages(app, TARGET) == 1
    finally:
        await app.stop()


async def test_only_allowed_members_start_sessions_and_answer(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    app = App(slack, tmp_path, send_turns())
    await app.start()
    try:
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000050", "hi", user="U9"))
        assert app.sessions() == []
        assert slack.ephemeral and slack.ephemeral[0]["user"] == "U9"

        await slack.mention(CHANNEL, ROOT, "post the summary")
        card = await card_in_thread(slack)
        item_id = int(button(card, APPROVE))
        await slack.acked(await slack.click("U9", CHANNEL, APPROVE, str(item_id)))
        item = app.rt.inbox.get(item_id)
        assert item is not None and item.pending
        # A click in another channel does not reach this thread's item either.
        await slack.acked(await slack.click("U1", "C0OTHER", APPROVE, str(item_id)))
        assert app.rt.inbox.get(item_id).pending
        # Denied by an allowed member: nothing is posted.
        await slack.acked(await slack.click("U2", CHANNEL, DENY, str(item_id)))
        sid = str(app.session_of(TARGET))
        await wait_for(lambda: not app.manager.is_running(sid))
        assert app.rt.inbox.get(item_id).resolution == "deny"
        assert not [p for p in slack.posted if p.text == REPLY]
    finally:
        await app.stop()


async def test_first_answer_wins_between_the_app_and_slack(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    app = App(slack, tmp_path, send_turns())
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "post it")
        card = await card_in_thread(slack)
        item_id = int(button(card, APPROVE))
        assert app.rt.inbox.respond(item_id, "deny", by="app")  # the window answered first
        await slack.acked(await slack.click("U1", CHANNEL, APPROVE, str(item_id)))
        assert app.rt.inbox.get(item_id).resolution == "deny"
        update = await wait_for(lambda: slack.updated)
        assert "denied" in update[-1]["text"]
        sid = str(app.session_of(TARGET))
        await wait_for(lambda: not app.manager.is_running(sid))
        assert not [p for p in slack.posted if p.text == REPLY]
    finally:
        await app.stop()


async def test_a_send_message_rule_never_covers_sending_a_file(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    (tmp_path / "report.txt").write_text("numbers", encoding="utf-8")
    turns = [{"tool_calls": [
        {"name": "slack_send_message", "id": "c1", "arguments": {"target": TARGET, "text": "hi"}},
        {"name": "slack_send_file", "id": "c2", "arguments": {"target": TARGET,
                                                              "path": "report.txt"}}]},
        {"text": "done"}]
    app = App(slack, tmp_path, turns)
    info = app.manager.create_session(workspace=str(tmp_path), mode="interactive")
    app.rt.rules.add("slack_send_message", TARGET, scope="session", scope_id=info.id)
    task = app.manager.send(info.id, "send both")
    assert task is not None
    item = await wait_for(lambda: next(iter(app.rt.inbox.pending(info.id)), None))
    assert item.tool == "slack_send_file"  # the message went by the rule; the file asks
    assert [p.text for p in slack.posted] == ["hi"]
    assert app.rt.inbox.respond(item.id, "approve")
    await asyncio.wait_for(task, 30)
    assert slack.uploads == [b"numbers"]
    app.rt.close()


# ------------------------------------------------------------------ the tools


async def tool(rt: Runtime, name: str, args: dict[str, Any], folder: Path) -> ToolResult:
    return await found_tool(rt, name, args, folder)


async def found_tool(rt: Runtime, name: str, args: dict[str, Any], folder: Path) -> ToolResult:
    """Run ``name`` of the Slack connector (whatever its state now)."""
    spec = rt.connectors.spec("slack")
    found = next(t for t in rt.connectors.tools_of(spec) if t.name == name)
    out = await found.handler(args, ToolContext(session_id="s", workspace=folder))
    return out if isinstance(out, ToolResult) else ToolResult(out)


async def test_read_search_and_react_tools(slack: SlackStub, tmp_path: Path) -> None:
    sleeps = Sleeps()
    rt = runtime(sleeps)
    try:
        await rt.connectors.connect("slack", slack_values(slack))
        slack.posted.append(Posted(CHANNEL, "deploy finished", ROOT))
        slack.posted.append(Posted(CHANNEL, "great, thanks", "1700000000.000300", ROOT))
        out = await tool(rt, "slack_read_channel", {"channel": CHANNEL}, tmp_path)
        assert "deploy finished" in out.content
        out = await tool(rt, "slack_read_thread", {"target": TARGET}, tmp_path)
        assert "great, thanks" in out.content
        out = await tool(rt, "slack_search", {"query": "deploy"}, tmp_path)
        assert "deploy finished" in out.content
        assert slack.calls_to("search.messages")[0].token == "xoxp-test-user-token"
        out = await tool(rt, "slack_react", {"target": TARGET, "emoji": ":eyes:"}, tmp_path)
        assert not out.is_error and slack.reactions[0]["name"] == "eyes"
        out = await tool(rt, "slack_send_message", {"target": "#general", "text": "x"}, tmp_path)
        assert out.is_error and "not a Slack target" in out.content
        out = await tool(rt, "slack_send_file", {"target": TARGET, "path": "../../etc/passwd"},
                         tmp_path)
        assert out.is_error and "session's folder" in out.content
        # Rate limited: waited out as Retry-After says; a server error on a post is not repeated.
        slack.fail["conversations.history"] = [(429, {"ok": False, "error": "ratelimited"},
                                                {"Retry-After": "4"})]
        out = await tool(rt, "slack_read_channel", {"channel": CHANNEL}, tmp_path)
        assert "deploy finished" in out.content and sleeps.asked == [4.0]
        slack.fail["chat.postMessage"] = [(500, {"ok": False, "error": "fatal_error"}, {})]
        before = len(slack.calls_to("chat.postMessage"))
        out = await tool(rt, "slack_send_message", {"target": TARGET, "text": "x"}, tmp_path)
        assert out.is_error and "HTTP 500" in out.content
        assert len(slack.calls_to("chat.postMessage")) == before + 1
    finally:
        rt.close()


async def test_a_revoked_token_is_reported(slack: SlackStub, tmp_path: Path) -> None:
    rt = runtime(Sleeps())
    try:
        with pytest.raises(ConnectorError) as raised:
            await rt.connectors.connect("slack", {**slack_values(slack), "bot_token": "xoxb-old"})
        assert raised.value.kind == "auth" and "invalid_auth" in raised.value.message
        assert rt.connectors.state("slack").status == "not connected"
        with pytest.raises(ConnectorError) as raised:  # the listener's token is checked too
            await rt.connectors.connect("slack", {**slack_values(slack), "app_token": "xapp-old"})
        assert raised.value.kind == "auth"
        await rt.connectors.connect("slack", slack_values(slack))
        slack.tokens.pop("xoxb-test-bot-token")  # revoked on Slack's side
        out = await tool(rt, "slack_read_channel", {"channel": CHANNEL}, tmp_path)
        assert out.is_error and "Reconnect" in out.content
        assert rt.connectors.state("slack").status == "failed"
        await rt.connectors.disconnect("slack")  # a session built before keeps the tool
        out = await found_tool(rt, "slack_read_channel", {"channel": CHANNEL}, tmp_path)
        assert out.is_error and "not connected" in out.content
    finally:
        rt.close()


async def test_local_changes_are_approved_at_the_computer_not_from_slack(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    turns = [{"tool_calls": [{"name": "write_file", "id": "c1", "arguments": {
        "path": "notes.md", "content": "from slack"}}]}, {"text": "done"}]
    app = App(slack, tmp_path, turns)
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "write a note")
        card = await card_in_thread(slack)
        assert not [b for b in card.blocks if b["type"] == "actions"]
        assert "answered there" in str(card.blocks)
        item = next(iter(app.rt.inbox.pending()))
        await slack.acked(await slack.click("U1", CHANNEL, APPROVE, str(item.id)))  # forged
        assert app.rt.inbox.get(item.id).pending
        assert not (tmp_path / "notes.md").exists()
        assert app.rt.inbox.respond(item.id, "approve")  # at the computer
        await wait_for(lambda: (tmp_path / "notes.md").exists())
    finally:
        await app.stop()


async def test_a_question_is_asked_in_the_thread_and_the_next_mention_answers_it(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    turns = [{"tool_calls": [{"name": "ask_user", "id": "q1", "arguments": {
        "question": "Which day suits the team?", "options": ["Thursday", "Friday"]}}]},
        {"text": "Friday it is."}]
    app = App(slack, tmp_path, turns)
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "plan the retro")
        asked = await card_in_thread(slack)
        assert "Which day suits the team?" in str(asked.blocks) and "2. Friday" in str(asked.blocks)
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000500", "Friday",
                                              thread_ts=ROOT))
        sid = str(app.session_of(TARGET))
        await wait_for(lambda: not app.manager.is_running(sid))
        messages = app.rt.conversations.load(sid)
        assert any(m.get("role") == "tool" and "Friday" in str(m.get("content")) for m in messages)
        assert user_messages(app, TARGET) == 1  # the answer went to the question, not the chat
        update = await wait_for(lambda: slack.updated)
        assert "answered by <@U1>" in update[-1]["text"]
    finally:
        await app.stop()



async def test_a_choice_is_picked_with_its_button_and_a_wrong_number_is_refused(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    turns = [{"tool_calls": [{"name": "ask_user", "id": "q1", "arguments": {
        "question": "Which format?", "other": False, "options": [
            {"label": "PDF", "description": "for printing"},
            {"label": "Slides", "description": "for the meeting"}]}}]},
        {"text": "Slides then."}]
    app = App(slack, tmp_path, turns)
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "make the report")
        asked = await card_in_thread(slack)
        assert "1. PDF — for printing" in str(asked.blocks)
        sid = str(app.session_of(TARGET))
        [question] = app.rt.inbox.pending(sid, "question")
        # A number that is no option, by mention: refused to its author, still pending.
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000500", "7", thread_ts=ROOT))
        await wait_for(lambda: slack.ephemeral)
        assert "there is no choice 7" in slack.ephemeral[-1]["text"]
        assert app.rt.inbox.get(question.id).pending
        await slack.acked(await slack.click("U9", CHANNEL, "openworker_choose_2",
                                            button(asked, "openworker_choose_2")))
        assert app.rt.inbox.get(question.id).pending  # not an allowed member
        await slack.acked(await slack.click("U1", CHANNEL, "openworker_choose_2",
                                            button(asked, "openworker_choose_2")))
        await wait_for(lambda: not app.manager.is_running(sid))
        done = app.rt.inbox.get(question.id)
        assert done.resolution == "Slides" and done.resolved_by == "slack:U1"
        tool = next(m for m in app.rt.conversations.load(sid) if m.get("role") == "tool")
        assert "The user chose: Slides." in str(tool.get("content"))
    finally:
        await app.stop()


OFFSITE = {"question": "Details for the offsite", "questions": [
    {"question": "Which day?", "options": ["Thursday", "Friday"]},
    {"question": "Which rooms?", "options": ["A", "B", "C"], "multiple": True},
    {"question": "Which city?", "options": [f"City {n}" for n in range(1, 8)]},
    {"question": "Anything else?"}]}


def element(card: Posted, block_id: str) -> dict[str, Any]:
    return next(b["elements"][0] for b in card.blocks if b.get("block_id") == block_id)


async def test_grouped_questions_get_a_block_each_and_are_sent_when_all_are_answered(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    turns = [{"tool_calls": [{"name": "ask_user", "id": "q1", "arguments": OFFSITE}]},
             {"text": "Booked."}]
    app = App(slack, tmp_path, turns)
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "plan the offsite")
        asked = await card_in_thread(slack)
        sid = str(app.session_of(TARGET))
        [question] = app.rt.inbox.pending(sid, "question")
        q = question.id
        shown = str(asked.blocks)
        assert "*1. Which day?*" in shown and "*4. Anything else?*" in shown
        day = next(b for b in asked.blocks if b.get("block_id") == f"openworker_item_{q}_q1")
        assert [e["type"] for e in day["elements"]] == ["button", "button"]
        rooms, city = element(asked, f"openworker_item_{q}_q2"), element(asked, f"openworker_item_{q}_q3")
        assert (rooms["type"], city["type"]) == ("checkboxes", "static_select")
        assert element(asked, f"openworker_item_{q}_send")["value"] == str(q)

        await slack.acked(await slack.click("U1", CHANNEL, "openworker_part_1_2", f"{q}:1:2"))
        await slack.acked(await slack.pick("U1", CHANNEL, rooms, f"openworker_item_{q}_q2",
                                           [f"{q}:2:1", f"{q}:2:3"]))
        await slack.acked(await slack.pick("U1", CHANNEL, city, f"openworker_item_{q}_q3",
                                           [f"{q}:3:6"]))
        redrawn = await wait_for(lambda: len(slack.updated) >= 3 and slack.updated[-1])
        assert "✓ Friday" in str(redrawn["blocks"]) and "✓ A; C" in str(redrawn["blocks"])
        # Not all answered: Send says what is left, and nothing is sent.
        await slack.acked(await slack.click("U1", CHANNEL, "openworker_send_answers", str(q)))
        await wait_for(lambda: slack.ephemeral)
        assert "Not sent yet: still to answer: question 4" in slack.ephemeral[-1]["text"]
        assert app.rt.inbox.get(q).pending
        # Words by mention; still waiting for Send (a pick-several question is in the group).
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000500", "4: vegetarian lunch",
                                              thread_ts=ROOT))
        await wait_for(lambda: "✓ vegetarian lunch" in str(slack.updated[-1]["blocks"]))
        assert app.rt.inbox.get(q).pending
        await slack.acked(await slack.click("U9", CHANNEL, "openworker_send_answers", str(q)))
        assert app.rt.inbox.get(q).pending  # not an allowed member
        await slack.acked(await slack.click("U2", CHANNEL, "openworker_send_answers", str(q)))
        await wait_for(lambda: not app.manager.is_running(sid))
        done = app.rt.inbox.get(q)
        assert done.resolved_by == "slack:U2"
        tool = next(m for m in app.rt.conversations.load(sid) if m.get("role") == "tool")
        assert tool["content"] == (
            "The user answered 4 questions:\n1. Which day? — chose Friday\n"
            "2. Which rooms? — chose A; C\n3. Which city? — chose City 6\n"
            "4. Anything else? — answered: vegetarian lunch")
        assert app.listener.partial.kept(q) == {}
    finally:
        await app.stop()


async def test_a_group_of_single_choices_is_sent_at_its_last_pick(
    slack: SlackStub, connected: None, tmp_path: Path
) -> None:
    args = {"question": "Two quick ones", "questions": [
        {"question": "Format?", "options": ["PDF", "Slides"], "other": False},
        {"question": "Length?", "options": ["Short", "Long"]}]}
    turns = [{"tool_calls": [{"name": "ask_user", "id": "q1", "arguments": args}]},
             {"text": "Done."}]
    app = App(slack, tmp_path, turns)
    await app.start()
    try:
        await slack.mention(CHANNEL, ROOT, "make the deck")
        asked = await card_in_thread(slack)
        assert "openworker_send_answers" not in str(asked.blocks)
        sid = str(app.session_of(TARGET))
        [question] = app.rt.inbox.pending(sid, "question")
        q = question.id
        # A mention line that does not fit its question is refused, saying which.
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000500", "1: Video",
                                              thread_ts=ROOT))
        await wait_for(lambda: slack.ephemeral)
        assert "question 1: choose one of the options" in slack.ephemeral[-1]["text"]
        await slack.acked(await slack.click("U1", CHANNEL, "openworker_part_2_1", f"{q}:2:1"))
        assert app.rt.inbox.get(q).pending
        await slack.acked(await slack.click("U1", CHANNEL, "openworker_part_1_2", f"{q}:1:2"))
        await wait_for(lambda: not app.manager.is_running(sid))
        assert json.loads(app.rt.inbox.get(q).resolution) == ["Slides", "Short"]
    finally:
        await app.stop()
