"""The MCP settings page (real widgets, offscreen) on real servers: live status,
tool counts, logs, per-tool on/off and risk written to mcp.json and applied at
once; and the desktop app shows the page and starts servers after first paint."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.domain.risk import RiskClass
from openworker_qt.mcp import config as mc
from openworker_qt.mcp.manager import McpManager
from openworker_qt.mcp.status import State
from openworker_qt.storage import secrets
from openworker_qt.storage.paths import app_paths
from openworker_qt.ui.settings_mcp import RISKS, McpPage
from tests.mcp.helpers import SERVERS, script
from tests.ui.conftest import run, until


def page_on(qtbot: Any, *configs: mc.ServerConfig) -> tuple[McpPage, McpManager, Path]:
    config_dir = app_paths().ensure().config
    mc.save_global(config_dir, list(configs))
    manager = McpManager(list(configs), connect_timeout=20)
    page = McpPage(manager, config_dir)
    qtbot.addWidget(page)
    page.show()
    return page, manager, config_dir


def tool_row(page: McpPage, name: str) -> Any:
    for i in range(page.tools.topLevelItemCount()):
        item = page.tools.topLevelItem(i)
        if item.text(0) == name:
            return item
    raise AssertionError(f"no row {name}")


def test_status_tools_and_per_tool_settings(qtbot, qloop) -> None:
    page, manager, config_dir = page_on(qtbot, script("behave"))
    registry = manager.attach(ToolRegistry())

    async def scenario() -> None:
        assert "○ behave" in page.servers.item(0).text()
        await manager.start_all()
        await until(lambda: "● behave · " in page.servers.item(0).text(), 30, "ready")
        assert "ready, " in page.status.text()
        assert page.tools.topLevelItemCount() == len(manager.servers["behave"].tools)
        assert "behave server starting" in page.log.toPlainText()
        # Turn a tool off: it leaves the sessions' tools and the file says so.
        tool_row(page, "crash").setCheckState(0, Qt.CheckState.Unchecked)
        await until(lambda: "mcp__behave__crash" not in registry, 10, "tool removed")
        await until(lambda: "disabledTools" in (config_dir / "mcp.json").read_text(), 10, "saved")
        # Lower one tool's risk.
        combo = page.tools.itemWidget(tool_row(page, "add"), 1)
        combo.setCurrentIndex(RISKS.index(RiskClass.READ))
        await until(lambda: registry.get("mcp__behave__add").risk_class() is RiskClass.READ,
                    10, "risk applied")
        await until(lambda: "toolRisk" in (config_dir / "mcp.json").read_text(), 10, "saved")
        data = json.loads((config_dir / "mcp.json").read_text())["mcpServers"]["behave"]
        assert data["disabledTools"] == ["crash"] and data["toolRisk"] == {"add": "read"}
        await manager.stop_all()

    run(qloop, scenario)


def test_a_failing_server_shows_why_and_test_server_reports(qtbot, qloop) -> None:
    page, manager, _ = page_on(qtbot, script("fail_start"))

    async def scenario() -> None:
        await manager.start_all()
        await until(lambda: "✕ fail_start" in page.servers.item(0).text(), 30, "failed")
        assert "not working" in page.status.text()
        assert "missing configuration file settings.yaml" in page.log.toPlainText()
        await page.test_server()
        assert "missing configuration file settings.yaml" in page.log.toPlainText()
        await manager.stop_all()

    run(qloop, scenario)


def test_add_import_and_remove(qtbot, qloop, tmp_path: Path) -> None:
    page, manager, config_dir = page_on(qtbot)
    claude = tmp_path / "claude_desktop_config.json"
    claude.write_text(json.dumps({"mcpServers": {
        "behave": {"command": sys.executable, "args": [str(SERVERS / "behave.py")]}}}))

    async def scenario() -> None:
        assert page.servers.count() == 0 and "No MCP servers yet" in page.status.text()
        dialog = page.add_server()
        dialog.name.setText("second")
        dialog.command.setText(f"{sys.executable} {SERVERS / 'behave.py'}")
        dialog._check()
        await until(lambda: page.servers.count() == 1, 10, "added")
        await page.import_servers(claude)
        assert page.servers.count() == 2 and "added behave" in page.problems.text()
        await until(lambda: manager.servers["behave"].status.state is State.READY, 30, "ready")
        page.servers.setCurrentRow(0)
        await page.remove_server()
        names = json.loads((config_dir / "mcp.json").read_text())["mcpServers"]
        assert list(names) == ["behave"]
        await manager.stop_all()

    run(qloop, scenario)


def test_the_desktop_starts_servers_after_first_paint_and_shows_the_page(
    qtbot, qloop, tmp_path: Path,
) -> None:
    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    config_dir = app_paths().ensure().config
    mc.save_global(config_dir, [
        script("behave"),
        mc.parse_server("stuck", {"command": sys.executable,
                                  "args": [str(SERVERS / "hang_start.py")]}),
        script("fail_start"),
    ])
    runtime = open_runtime()
    manager = runtime.enable_mcp()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    desktop = DesktopApp(runtime, workspace=workspace, enable_tray=False)
    banners: list[str] = []
    desktop.error_reported.connect(banners.append)
    try:
        assert all(s.status.state is State.STOPPED for s in manager.servers.values())
        desktop.start()

        async def scenario() -> None:
            await until(lambda: manager.servers["behave"].status.state is State.READY, 30, "ready")
            assert manager.servers["stuck"].status.state is State.STARTING  # nobody waits for it
            window = desktop.show_settings()
            titles = [window.nav.item(i).text() for i in range(window.nav.count())]
            assert "MCP servers" in titles
            page = window.stack.widget(titles.index("MCP servers"))
            assert isinstance(page, McpPage) and page.servers.count() == 3
            # The failing one: one banner for the episode, however often it is retried.
            await until(lambda: banners, 30, "banner")
            assert banners == ["The MCP server fail_start is not working: stopped before it "
                               "finished starting. It said: Error: missing configuration file "
                               "settings.yaml"]
            failing = manager.servers["fail_start"]
            await until(lambda: sum(line.split(" ", 1)[1].startswith("failed")
                                    for line in failing.log) >= 2, 30, "a retry failed")
            assert len(banners) == 1
            # The window's composer offers what the ready servers have.
            composer = desktop.window.composer
            assert composer.attach_menu is not None
            offer = [a for a in composer.attach_menu.actions()
                     if a.text() == "From an MCP server…"]
            offer[0].trigger()
            await until(lambda: desktop.mcp_composer.dialog is not None, 30, "the list")
            dialog = desktop.mcp_composer.dialog
            assert "note://hello" in dialog.list.item(0).text()
            dialog.accept()
            await until(lambda: composer.attachments, 30, "attached")

        run(qloop, scenario)
    finally:
        qloop.run_until_complete(asyncio.wait_for(desktop.shutdown(), 60))
        desktop.window.deleteLater()
        runtime.close()


def test_a_workspace_file_waits_for_trust_on_the_page(qtbot, qloop, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QMessageBox

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": {"local": {
        "command": sys.executable, "args": [str(SERVERS / "behave.py")],
        "env": {"KEY": "${ANTHROPIC_KEY}"}}}}))
    secrets.set_secret("ANTHROPIC_KEY", "sk-test")
    config_dir = app_paths().ensure().config
    manager = McpManager.load(config_dir, ws, connect_timeout=20, get_secret=secrets.get_secret)
    assert manager.servers == {}
    page = McpPage(manager, config_dir)
    qtbot.addWidget(page)
    page.show()
    assert page.trust_button.isVisible() and "trust" in page.problems.text()

    async def scenario() -> None:
        box = page.trust_workspace()
        assert "local: " in box.text() and "behave.py" in box.text()
        assert "gets from your keyring: ANTHROPIC_KEY" in box.text()  # the user sees it
        box.button(QMessageBox.StandardButton.Yes).click()
        await until(lambda: page.trusting is not None and page.trusting.done(), 10, "trusted")
        assert not page.trust_button.isVisible()
        await until(lambda: manager.servers["local"].status.state is State.READY, 30, "ready")
        assert "this folder" in page.servers.item(0).text()
        await manager.stop_all()

    run(qloop, scenario)
    # The file changes: it waits for trust again.
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": {"local": {"command": "other"}}}))
    assert McpManager.load(config_dir, ws).untrusted_file() == ws / ".mcp.json"
