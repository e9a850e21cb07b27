"""Every surface offers a session the same tools (issue 24, item 14): the window
(a real DesktopApp, offscreen), its automations, `openworker-qt run`, `serve` (its
automation service's session manager, which also drives the sessions a Slack
mention starts) and a scheduled run — with a connector connected (Slack, against
the local Slack), a real MCP server subprocess, memory and the automation tools.
They all come from one place, Runtime.session_tools."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from openworker_qt.automation.service import AutomationService
from openworker_qt.automation.tools import SCHEDULING_TOOLS
from openworker_qt.cli.turns import build_manager
from openworker_qt.connectors.base import RetryPolicy
from openworker_qt.mcp.manager import McpManager
from openworker_qt.storage.conversations import SessionInfo
from tests.connectors.helpers import Sleeps
from tests.connectors.slack_stub import SlackStub
from tests.connectors.test_slack import TARGET, slack_values
from tests.mcp.helpers import script


def names(manager: Any, info: SessionInfo) -> set[str]:
    """What the manager's engine for ``info`` is offered (the factory it builds with)."""
    return {tool.name for tool in manager.tools_for(info)}


def test_every_surface_offers_the_same_tools(make_desktop: Any, qloop: Any,
                                             tmp_path: Path) -> None:
    desktop = make_desktop()
    rt = desktop.runtime
    rt.connectors.policy = RetryPolicy(sleep=Sleeps())
    stub = SlackStub()
    mcp = McpManager([script("behave")], connect_timeout=20)

    async def scenario() -> dict[str, set[str]]:
        await stub.start()
        await rt.connectors.connect("slack", slack_values(stub))
        await mcp.start_all()
        await mcp.wait_ready(30)
        rt.mcp = mcp
        ws = str(tmp_path / "ws")
        window = desktop.manager.create_session(workspace=ws)
        seen = {"window": names(desktop.manager, window)}
        cli = build_manager(rt, argparse.Namespace(wait=False, yes=False, max_iterations=None),
                            "scripted")
        seen["run"] = names(cli, rt.conversations.create_session(workspace=ws))
        serve = AutomationService(rt)  # as cli/serve.py makes it
        seen["serve"] = names(serve.manager, serve.manager.create_session(workspace=ws))
        slack = serve.manager.create_session(  # as the Slack listener makes one
            workspace=ws, mode="interactive", meta={"slack": {"target": TARGET, "user": "U1"}})
        seen["slack under serve"] = names(serve.manager, slack)
        seen["slack in the window"] = names(desktop.manager, slack)
        for label, manager in (("run under serve", serve.manager),
                               ("run in the window", desktop.automations.manager)):
            run = manager.create_session(workspace=ws, unattended=True,
                                         meta={"automation_id": "a1", "automation_run": 7})
            seen[label] = names(manager, run) | SCHEDULING_TOOLS
        return seen

    try:
        seen = qloop.run_until_complete(scenario())
    finally:
        qloop.run_until_complete(mcp.stop_all())
        qloop.run_until_complete(stub.stop())
    expected = seen["window"]
    # What the window offers: the built-in tools, the explorer, memory, the automation
    # tools, the connected connector's and the MCP server's.
    assert {"read_file", "run_shell", "explore", "remember", "create_automation", "sleep_for",
            "slack_read_thread", "slack_send_message", "mcp__behave__add"} <= expected
    for surface, offered in seen.items():
        assert offered == expected, (surface, sorted(offered ^ expected))
