"""`openworker-qt tools` lists the configured MCP servers' tools (connected, within
a bound) with their risk and what the permission engine does with them; a server
that fails or does not answer is listed with its status."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from openworker_qt.cli import admin, main
from openworker_qt.storage.paths import app_paths
from tests.mcp.helpers import SERVERS


@pytest.fixture(autouse=True)
def servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.chdir(ws)
    monkeypatch.setattr(admin, "MCP_WAIT", 8.0)
    entry = {name: {"command": sys.executable, "args": [str(SERVERS / f"{name}.py")]}
             for name in ("behave", "fail_start", "hang_start")}
    config = app_paths().ensure().config
    (config / "mcp.json").write_text(json.dumps({"mcpServers": entry}), encoding="utf-8")


def test_mcp_tools_are_listed_with_their_risk_and_failing_servers_with_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tools", "--json", "--mode", "interactive"]) == 0
    rows = {r["name"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    add = rows["mcp__behave__add"]
    assert (add["risk"], add["origin"], add["decision"]) == ("external", "mcp:behave", "ask")
    assert "read_file" in rows  # the app's own tools are still there
    failed = rows["mcp__fail_start__*"]
    assert failed["origin"] == "mcp:fail_start"
    assert failed["server_status"].startswith("not working")
    assert "did not finish starting within 8 s" in rows["mcp__hang_start__*"]["server_status"]
    assert main(["tools", "--mode", "interactive"]) == 0
    table = capsys.readouterr().out
    assert "mcp__behave__add" in table and "mcp:behave" in table
    assert "mcp__fail_start__*" in table and "no tools: the server is not working" in table


def test_no_mcp_leaves_them_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--json", "--no-mcp"]) == 0
    names = [json.loads(line)["name"] for line in capsys.readouterr().out.splitlines()]
    assert not [n for n in names if n.startswith("mcp__")]
