#!/usr/bin/env python3
"""Render the connectors: Settings → Connectors, Slack's settings, a Slack-owned session.

The real app on the scripted provider in a temp state dir on a virtual screen
(helpers of ``scripts/screenshots.py``), with Slack connected to the local Slack
of the tests (``tests/connectors/slack_stub.py``): a mention there starts the
session shown, parked on the approval of its reply. Writes
``docs/screenshots/settings-connectors.png``, ``connector-slack.png`` and
``slack-session.png``.

    .venv/bin/python scripts/screenshot_connectors.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "support"))  # an in-memory keyring

from screenshots import settle, until, virtual_display  # noqa: E402

CHANNEL, ROOT_TS = "C0INCIDENT", "1764572400.000100"
TARGET = f"slack:{CHANNEL}:{ROOT_TS}"
CONVERSATION = {"advance": "history", "turns": [
    {"chunks": ["I'll read the thread first."],
     "tool_calls": [{"name": "slack_read_thread", "arguments": {"target": TARGET}}]},
    {"chunks": ["The API was down 14 minutes: the disk of db-2 filled up. Here is a summary for "
                "the thread."],
     "tool_calls": [{"name": "slack_send_message", "arguments": {
         "target": TARGET,
         "text": "*Incident summary* — API errors 09:02–09:16 UTC. Cause: db-2's disk "
                 "filled with WAL files after a stuck replication slot. Fixed by dropping the "
                 "slot; an alert on disk use is now in place."}}]},
    {"text": "Posted."},
]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-shots-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ["PYTHON_KEYRING_BACKEND"] = "memkeyring.MemoryKeyring"
    os.environ["QT_API"] = "pyside6"
    with virtual_display():
        return shoot_all(out, home)


def shoot_all(out: Path, home: Path) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.connectors.registry import STORED
    from openworker_qt.connectors.slack_listener import SlackThreads
    from openworker_qt.runtime import open_runtime
    from openworker_qt.storage import secrets
    from openworker_qt.ui.theme import apply_theme
    from tests.connectors.slack_stub import Posted, SlackStub

    app = QApplication.instance() or QApplication(["openworker-qt"])
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    workspace = home / "acme"
    workspace.mkdir()
    script = home / "conversation.json"
    script.write_text(json.dumps(CONVERSATION))
    slack = SlackStub()
    loop.run_until_complete(slack.start())
    slack.posted.append(Posted(CHANNEL, "API is throwing 500s, anyone looking?", ROOT_TS))
    slack.posted.append(Posted(CHANNEL, "db-2 disk at 100%, dropped the stuck slot, recovering",
                               "1764573000.000200", ROOT_TS))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    registry = rt.connectors
    loop.run_until_complete(registry.connect("slack", {
        "bot_token": "xoxb-test-bot-token", "app_token": "xapp-test-app-token",
        "allowed_users": "U1", "api_url": slack.api_url}))
    # Two more as a user would have them (their services are not part of this picture).
    secrets.set_secret("connector.github.token", "ghp_example_token_000")
    registry._record("github", "connected", settings={STORED: "token"}, identity="Connected as @ana in GitHub")
    secrets.set_secret("connector.google_calendar.token", "ya29.example-token")
    registry._record("google_calendar", "connected", settings={STORED: "token"},
                     identity="Connected as ana@acme.com in Google Calendar")
    registry._record("jira", "failed", settings={"site": "https://acme.atlassian.net",
                                                 "email": "ana@acme.com"},
                     identity="Connected as Ana Lima in acme.atlassian.net",
                     error="Jira refused the credentials (expired or revoked). Reconnect Jira "
                           "in Settings → Connectors.")
    desktop = DesktopApp(rt, workspace=workspace, enable_tray=False)
    window = desktop.window
    window.resize(1180, 780)
    window.show()

    async def shoot() -> None:
        assert await rt.start() == [], rt.failures
        await slack.mention(CHANNEL, "1764573300.000300",
                            "can you write up what happened for the team?", thread_ts=ROOT_TS)
        await until(lambda: any(p.blocks for p in slack.posted), timeout=20)
        sid = SlackThreads(rt.db).session_for(TARGET)
        assert sid is not None
        window.show_session(sid)
        await settle(1.0)
        window.grab().save(str(out / "slack-session.png"))
        desktop.show_settings()
        settings = desktop.settings_window
        settings.resize(980, 640)
        settings.show_page(settings.nav.count() - 1)
        settings.connectors.select("github")
        await settle(0.6)
        settings.grab().save(str(out / "settings-connectors.png"))
        settings.connectors.select("slack")
        await settle(0.6)
        settings.grab().save(str(out / "connector-slack.png"))
        settings.close()
        await desktop.shutdown()

    try:
        loop.run_until_complete(shoot())
        loop.run_until_complete(slack.stop())
    finally:
        rt.close()
        loop.close()
    for name in ("settings-connectors.png", "connector-slack.png", "slack-session.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
