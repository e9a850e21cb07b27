"""The Slack listener follows the connector without a restart: connecting Slack in
Settings (the app's own registry) or with the CLI (another process, the same
database) starts it; disconnecting stops it. slack-sdk against the local Slack."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

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
