"""A server listing 500 tools (a real stdio server): the doctor and the settings
page warn, and the user picks the tools it offers — a ``tools`` list, and/or
``disabledTools`` — which the sessions' tool lists honour."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openworker_qt.cli import main
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.mcp import config as mc
from openworker_qt.mcp.doctor import TOOL_WARN, count_tools, tool_warnings
from openworker_qt.mcp.manager import McpManager
from openworker_qt.storage.paths import app_paths
from tests.mcp.helpers import SERVERS, call
from tests.mcp.test_settings_page import page_on, tool_row
from tests.ui.conftest import run, until


def many(count: int, name: str = "many", **extra: Any) -> mc.ServerConfig:
    return mc.parse_server(name, {"command": sys.executable,
                                  "args": [str(SERVERS / "many.py"), str(count)], **extra})


def mcp_names(registry: ToolRegistry) -> set[str]:
    return {n for n in registry.names() if n.startswith("mcp__")}


async def test_the_tools_list_and_disabled_tools_choose_what_is_offered() -> None:
    picked = many(500, "picked", tools=["tool_1", "tool_7", "tool_9"], disabledTools=["tool_9"])
    everything = many(500, "all")
    manager = McpManager([picked, everything], connect_timeout=30)
    await manager.start_all()
    await manager.wait_ready(60)
    try:
        registry = manager.tools()
        assert {n for n in mcp_names(registry) if n.startswith("mcp__picked__")} == {
            "mcp__picked__tool_1", "mcp__picked__tool_7"}
        assert len([n for n in mcp_names(registry) if n.startswith("mcp__all__")]) == 500
        assert (await call(registry, "picked", "tool_7", {})).content == "tool_7"
    finally:
        await manager.stop_all()
    assert mc.parse_server("x", picked.to_json()).allowed_tools == {"tool_1", "tool_7", "tool_9"}
    with pytest.raises(mc.McpConfigError, match="must be a list of tool names"):
        mc.parse_server("x", {"command": "x", "tools": "tool_1"})


async def test_the_doctor_warns_about_a_server_with_too_many_tools() -> None:
    counts = await count_tools([many(500), many(3, "few")],
                               within=30)
    assert counts == {"many": (500, 500), "few": (3, 3)}
    warnings = tool_warnings(counts)
    assert any("'many' offers 500 tools to the model" in w and f"More than {TOOL_WARN}" in w
               for w in warnings)
    assert not any("'few'" in w for w in warnings)
    (together,) = tool_warnings({"a": (30, 30), "b": (30, 30)})  # each fine, too many in all
    assert "offer 60 tools in all" in together
    assert tool_warnings({"many": (5, 500)}) == []  # the user picked 5: nothing to say


def test_mcp_doctor_prints_the_warning(capsys: pytest.CaptureFixture[str]) -> None:
    mc.save_global(app_paths().ensure().config, [many(500)])
    assert main(["mcp", "doctor"]) == 0
    out = capsys.readouterr().out
    assert "Tools offered to the model: many 500" in out
    assert "Warning: The server 'many' offers 500 tools to the model" in out


def test_the_settings_page_warns_and_picks_tools(qtbot: Any, qloop: Any) -> None:
    page, manager, config_dir = page_on(qtbot, many(500))
    registry = manager.attach(ToolRegistry())

    async def scenario() -> None:
        await manager.start_all()
        await until(lambda: "● many · 500 tools" in page.servers.item(0).text(), 60, "ready")
        assert page.too_many.isVisibleTo(page)
        assert "offers 500 tools to the model" in page.too_many.text()
        page.all_tools_off()
        await until(lambda: not mcp_names(registry), 20, "none offered")
        tool_row(page, "tool_3").setCheckState(0, Qt.CheckState.Checked)
        await until(lambda: mcp_names(registry) == {"mcp__many__tool_3"}, 20, "one offered")
        await until(lambda: not page.too_many.isVisibleTo(page), 10, "warning gone")
        def saved() -> Any:
            return json.loads((config_dir / "mcp.json").read_text())["mcpServers"]["many"]

        await until(lambda: saved().get("tools") == ["tool_3"], 10, "saved")
        page.all_tools_on()
        await until(lambda: len(mcp_names(registry)) == 500, 20, "all offered")
        await manager.stop_all()

    run(qloop, scenario)
