"""The Slack listener follows the connector without a restart: connecting Slack in
Settings (the app's own registry) or with the CLI (another process, the same
database) starts it; disconnecting stops it. slack-sdk against the local Slack."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio

from openworker_qt.connectors.slack_listener import SlackThreads
from openworker_qt.connectors.slack_service import SlackService
from openworker_qt.core.approvers import InboxApprover
from openworker_qt.runtime import Runtime
from tests.connectors.helpers import Sleeps, runtime, script, wait_for
from tests.connectors.slack_stub import SlackStub
from tests.connectors.test_slack import CHANNEL, ROOT, TARGET, slack_values


@pytest_asyncio.fixture
async def slack() -> AsyncIterator[SlackStub]:
    stub = SlackStub()
    await stub.start()
    try:
        yield stub
    finally:
        await stub.stop()


class App:
    """A running app: its runtime with the Slack service the app registers."""

    def __init__(self, tmp_path: Path, *, poll: float = 0.0) -> None:
        self.rt: Runtime = runtime(Sleeps())
        self.manager = self.rt.session_manager(
            approver_for=lambda _i: InboxApprover(self.rt.inbox, poll=0.02),
            default_model=script(tmp_path, [{"text": "On it."}]))
        self.service = SlackService(self.manager, self.rt.inbox, self.rt.db, self.rt.connectors,
                                    workspace=tmp_path, poll=poll, ping_interval=0.5)
        self.rt.add_service(self.service)

    async def __aenter__(self) -> App:
        assert await self.rt.start() == []
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.rt.stop()
        self.rt.close()


async def test_connecting_in_settings_starts_the_listener_and_disconnecting_stops_it(
    slack: SlackStub, tmp_path: Path
) -> None:
    async with App(tmp_path) as app:
        assert not app.service.listening and not slack.live  # not connected at launch

        await app.rt.connectors.connect("slack", slack_values(slack))
        await wait_for(lambda: app.service.listening and slack.live)
        await slack.acked(await slack.mention(CHANNEL, ROOT, "hello"))
        assert SlackThreads(app.rt.db).session_for(TARGET) is not None

        await app.rt.connectors.disconnect("slack")
        await wait_for(lambda: not app.service.listening and not slack.live)
        connections = slack.connections

        # Connected again: listening again, on one socket.
        await app.rt.connectors.connect("slack", slack_values(slack))
        await wait_for(lambda: app.service.listening and slack.live)
        assert slack.connections == connections + 1
        # Testing the connection again keeps the same socket.
        await app.rt.connectors.test("slack")
        await slack.acked(await slack.mention(CHANNEL, "1700000000.000200", "again",
                                              thread_ts=ROOT))
        assert slack.connections == connections + 1
    assert not slack.live  # the app's stop closed it


async def test_the_cli_connecting_while_the_app_runs_starts_the_listener(
    slack: SlackStub, tmp_path: Path
) -> None:
    async with App(tmp_path, poll=0.05) as app:
        assert not app.service.listening
        cli = runtime(Sleeps())  # another process's runtime: the same database and keyring
        try:
            await cli.connectors.connect("slack", slack_values(slack))
            await wait_for(lambda: app.service.listening and slack.live)
            await slack.acked(await slack.mention(CHANNEL, ROOT, "from the CLI"))
            assert SlackThreads(app.rt.db).session_for(TARGET) is not None

            await cli.connectors.disconnect("slack")
            await wait_for(lambda: not app.service.listening and not slack.live)
        finally:
            cli.close()


async def test_the_app_registers_the_slack_service_even_when_slack_is_not_connected(
    tmp_path: Path,
) -> None:
    rt = runtime(Sleeps())
    try:
        manager = rt.session_manager(default_model=script(tmp_path, [{"text": "hi"}]))
        rt.add_connector_services(manager, workspace=tmp_path)
        assert [s.name for s in rt.services] == ["slack"]
        assert isinstance(rt.services[0], SlackService)
    finally:
        rt.close()


class Serve:
    """`serve`'s shape (cli/serve.py): the automation service, and the Slack service
    on the automation service's session manager."""

    def __init__(self, tmp_path: Path, turns: list[dict[str, Any]]) -> None:
        from openworker_qt.automation.service import AutomationService

        self.rt: Runtime = runtime(Sleeps())
        self.automations = AutomationService(self.rt, default_model=script(tmp_path, turns))
        self.rt.add_service(self.automations)
        self.rt.add_connector_services(self.automations.manager, workspace=tmp_path)

    async def __aenter__(self) -> Serve:
        assert await self.rt.start() == []
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.rt.stop()
        self.rt.close()

    def listener(self) -> Any:
        [listener] = [s.listener for s in self.rt.services if isinstance(s, SlackService)]
        assert listener is not None
        return listener

    def tools(self) -> list[Any]:
        sid = SlackThreads(self.rt.db).session_for(TARGET)
        return [m for m in self.rt.conversations.load(str(sid)) if m.get("role") == "tool"]


async def connect(slack: SlackStub) -> None:
    rt = runtime(Sleeps())
    try:
        await rt.connectors.connect("slack", slack_values(slack))
    finally:
        rt.close()


async def test_a_mention_under_serve_gets_the_connectors_tools(
    slack: SlackStub, tmp_path: Path
) -> None:
    await connect(slack)
    turns = [{"tool_calls": [{"name": "slack_read_thread", "id": "r1",
                              "arguments": {"target": TARGET}}]},
             {"text": "I read the thread: nothing new."}]
    async with Serve(tmp_path, turns) as app:
        await slack.acked(await slack.mention(CHANNEL, ROOT, "anything new?"))
        await wait_for(lambda: [p for p in slack.posted
                                if p.text == "I read the thread: nothing new."])
        [result] = app.tools()
        assert result["status"] == "ok", result["content"]
        assert "unknown tool" not in str(result["content"])
        assert slack.calls_to("conversations.replies")  # it really read the thread


async def test_a_failed_turn_is_told_in_the_thread_not_posted_as_the_answer(
    slack: SlackStub, tmp_path: Path
) -> None:
    await connect(slack)
    turns = [{"chunks": ["Posted it", " — all"], "error": "the model's server refused",
              "error_kind": "bad_request"}]
    async with Serve(tmp_path, turns) as app:
        await slack.acked(await slack.mention(CHANNEL, ROOT, "post the summary"))
        told = await wait_for(lambda: [p for p in slack.posted if p.thread_ts == ROOT])
        listener = app.listener()
        # The turn is over and nothing the listener spawned is still at work: a
        # second post would have been made by now.
        await wait_for(lambda: not app.automations.manager.running_sessions()
                       and all(task.done() for task in listener._tasks))
    [post] = [p for p in slack.posted if p.thread_ts == ROOT]
    assert post is told[0]
    assert post.text.startswith("I could not finish this: the work stopped with an error")
    assert "Posted it" not in post.text


async def test_a_reply_that_failed_is_said_under_the_answer(tmp_path: Path) -> None:
    from openworker_qt.connectors.slack_listener import unsent_answer

    history = [
        {"role": "user", "content": "[Slack message from U1 in slack:C:1]\npost it"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "s1", "function": {
            "name": "slack_send_message", "arguments": json.dumps({"target": "slack:C:1",
                                                                   "text": "hi"})}}]},
        {"role": "tool", "tool_call_id": "s1", "status": "error",
         "content": "Error: unknown tool 'slack_send_message'"},
        {"role": "assistant", "content": "Posted it."},
    ]
    found = unsent_answer(history, "slack:C:1")
    assert found is not None
    assert found[1].startswith("Posted it.")
    assert "my attempt to post here with slack_send_message failed" in found[1]


async def test_quitting_mid_answer_tells_the_thread_the_app_was_shut_down(
    slack: SlackStub, tmp_path: Path
) -> None:
    await connect(slack)
    turns = [{"chunks": ["Working on it"] * 400, "delay": 0.01}]
    app = Serve(tmp_path, turns)
    await app.__aenter__()
    try:
        await slack.acked(await slack.mention(CHANNEL, ROOT, "write the summary"))
        seen: list[Any] = []
        app.automations.manager.listeners.append(seen.append)
        await wait_for(lambda: [e for e in seen if e.type == "assistant_delta"])
    finally:
        await app.__aexit__()
    [post] = [p for p in slack.posted if p.thread_ts == ROOT]
    assert post.text.startswith("OpenWorker was shut down before I finished")
    assert "Working on it" not in post.text
