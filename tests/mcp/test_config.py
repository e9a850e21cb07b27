"""MCP configuration: the mcpServers files, import from other apps, workspace
trust, ${VAR} from the keyring, and the doctor's PATH."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from openworker_qt.mcp import config as mc
from openworker_qt.mcp import doctor
from openworker_qt.mcp.manager import McpManager
from openworker_qt.mcp.status import McpFailure
from openworker_qt.storage import secrets
from tests.mcp.helpers import call, script

CLAUDE_DESKTOP = {
    "mcpServers": {
        "filesystem": {"command": "npx",
                       "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]},
        "time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "Europe/Paris"}},
        "bad name!": {"command": "x"},
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
    },
    "globalShortcut": "Ctrl+Space",
}


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_parse_the_shapes_other_apps_write() -> None:
    servers, problems = mc.servers_in(CLAUDE_DESKTOP)
    assert [s.name for s in servers] == ["filesystem", "time", "remote"]
    assert servers[0].transport == "stdio" and servers[0].args[0] == "-y"
    assert servers[1].env == {"TZ": "Europe/Paris"}
    assert servers[2].transport == "http" and servers[2].headers["Authorization"] == "Bearer ${TOKEN}"
    assert len(problems) == 1 and "bad name!" in problems[0]
    vscode = json.loads(mc._strip_comments(
        '{// VS Code\n "servers": {"gh": {"type": "sse", "url": "http://127.0.0.1:1/sse",},},}'))
    (gh,), _ = mc.servers_in(vscode)
    assert gh.transport == "sse"


@pytest.mark.parametrize(("raw", "words"), [
    ({}, 'needs a "command"'),
    ({"command": "x", "args": "a b"}, '"args"'),
    ({"type": "http"}, '"url" starting with http'),
    ({"command": "x", "toolRisk": {"t": "harmless"}}, "risk 'harmless'"),
])
def test_bad_entries_are_explained(raw: dict, words: str) -> None:
    with pytest.raises(mc.McpConfigError, match=words):
        mc.parse_server("s", raw)


def test_a_broken_global_file_is_reported_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {', encoding="utf-8")
    servers, problems = mc.load_global(tmp_path)
    assert servers == [] and "not valid JSON (line 1" in problems[0]
    mc.save_global(tmp_path, [mc.parse_server("a", {"command": "x"})])
    assert (tmp_path / "mcp.json.unreadable").read_text() == '{"mcpServers": {'


def test_import_a_claude_desktop_file_keeps_existing_servers(tmp_path: Path) -> None:
    config_dir = tmp_path / "cfg"
    mc.save_global(config_dir, [mc.parse_server("time", {"command": "mine"})])
    result = mc.import_file(config_dir, write(tmp_path / "claude.json", CLAUDE_DESKTOP))
    assert result.added == ["filesystem", "remote"]
    assert any("'time' is already set up" in s for s in result.skipped)
    servers, _ = mc.load_global(config_dir)
    assert {s.name: s.command for s in servers}["time"] == "mine"
    data = json.loads((config_dir / "mcp.json").read_text())
    assert data["mcpServers"]["remote"]["headers"]["Authorization"] == "Bearer ${TOKEN}"


def test_standard_places_per_platform(tmp_path: Path) -> None:
    mac = dict(mc.import_candidates(tmp_path, "darwin", {}))
    assert mac["Claude Desktop"] == tmp_path / "Library/Application Support/Claude/claude_desktop_config.json"
    win = dict(mc.import_candidates(tmp_path, "win32", {"APPDATA": str(tmp_path / "Roaming")}))
    assert win["Claude Desktop"] == tmp_path / "Roaming/Claude/claude_desktop_config.json"
    linux = mc.import_candidates(tmp_path, "linux", {})
    assert ("Cursor", tmp_path / ".cursor/mcp.json") in linux
    assert ("VS Code", tmp_path / ".config/Code/User/mcp.json") in linux


# ------------------------------------------------------------- workspace trust


def test_a_workspace_server_waits_for_trust_and_an_edit_revokes_it(tmp_path: Path) -> None:
    config_dir = tmp_path / "cfg"
    mc.save_global(config_dir, [mc.parse_server("time", {"command": "global-time"})])
    ws = tmp_path / "ws"
    write(ws / ".mcp.json", {"mcpServers": {
        "local": {"command": "run-me", "toolRisk": {"delete_all": "read"}},
        "time": {"command": "workspace-time"},
    }})
    servers, problems = mc.load_servers(config_dir, ws)
    assert [s.name for s in servers] == ["time"]
    assert any("do not start until you trust" in p for p in problems)
    mc.TrustStore(config_dir).trust(ws)
    servers, problems = mc.load_servers(config_dir, ws)
    by_name = {s.name: s for s in servers}
    assert by_name["time"].command == "global-time"  # never replaced
    assert any("'time' is ignored" in p for p in problems)
    assert by_name["local"].workspace and by_name["local"].tool_risk == {}  # cannot lower risk
    # Someone (the assistant, say) edits the file: trusted no more.
    write(ws / ".mcp.json", {"mcpServers": {"local": {"command": "something-else"}}})
    servers, _ = mc.load_servers(config_dir, ws)
    assert [s.name for s in servers] == ["time"]


async def test_the_runtime_does_not_start_an_untrusted_workspace_server(tmp_path: Path) -> None:
    from openworker_qt.runtime import open_runtime

    ws = tmp_path / "ws"
    mark = tmp_path / "started"
    write(ws / ".openworker" / "mcp.json", {"mcpServers": {"local": {
        "command": sys.executable, "args": ["-c", f"open({str(mark)!r}, 'w')"]}}})
    runtime = open_runtime(ws)
    try:
        manager = runtime.enable_mcp()
        await runtime.start()
        assert manager.servers == {}
        assert any("trust" in p for p in manager.problems)
    finally:
        await runtime.stop()
        runtime.close()
    assert not mark.exists()


# ------------------------------------------------------------------ ${VAR}


async def test_placeholders_come_from_the_keyring_and_stay_out_of_the_file(tmp_path: Path) -> None:
    secrets.set_secret("MY_TOKEN", "s3cr3t-value")
    config = script("behave", env={"GIVEN": "token=${MY_TOKEN}"})
    assert mc.placeholders(config) == ["MY_TOKEN"]
    mc.save_global(tmp_path, [config])
    assert "s3cr3t-value" not in (tmp_path / "mcp.json").read_text()
    manager = McpManager([config], get_secret=secrets.get_secret, connect_timeout=20)
    await manager.start_all()
    await manager.wait_ready(30)
    try:
        result = await call(manager.tools(), "behave", "env", {"name": "GIVEN"})
        assert result.content == "token=s3cr3t-value"
    finally:
        await manager.stop_all()


async def test_a_missing_keyring_entry_is_a_clear_failure() -> None:
    manager = McpManager([script("behave", env={"GIVEN": "${NOT_STORED}"})],
                         get_secret=secrets.get_secret, connect_timeout=20)
    srv = manager.servers["behave"]
    await srv.start()
    with pytest.raises(McpFailure, match="needs NOT_STORED from the keyring"):
        await srv.ensure_ready()
    await manager.stop_all()


# ------------------------------------------------------------------ doctor


def fake_shell(tmp_path: Path, body: str) -> str:
    shell = tmp_path / "fakesh"
    shell.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    shell.chmod(shell.stat().st_mode | stat.S_IEXEC)
    return str(shell)


@pytest.mark.skipif(sys.platform.startswith("win"), reason="login shells are POSIX")
def test_the_login_shell_path_is_read(tmp_path: Path) -> None:
    shell = fake_shell(tmp_path, 'echo "motd banner"; echo "__OPENWORKER_PATH__/opt/nvm/bin:/usr/bin__OPENWORKER_PATH__"')
    assert doctor.shell_path(shell) == ("/opt/nvm/bin:/usr/bin", "")
    hang = fake_shell(tmp_path, "sleep 60")
    path, note = doctor.shell_path(hang, timeout=0.5)
    assert path == "" and "took more than 0.5 s" in note
    assert doctor.shell_path(str(tmp_path / "nope"))[1].endswith("does not exist")


def test_version_manager_folders_are_found(tmp_path: Path) -> None:
    for version in ("v18.1.0", "v20.11.1", "v9.0.0"):
        (tmp_path / ".nvm/versions/node" / version / "bin").mkdir(parents=True)
    (tmp_path / ".asdf/shims").mkdir(parents=True)
    dirs = doctor.manager_dirs(tmp_path)
    assert str(tmp_path / ".nvm/versions/node/v20.11.1/bin") in dirs
    assert str(tmp_path / ".nvm/versions/node/v18.1.0/bin") not in dirs
    assert str(tmp_path / ".asdf/shims") in dirs
    assert doctor.merge_paths("/a:/b", "/b:/c") == os.pathsep.join(["/a", "/b", "/c"])


def test_programs_and_versions_are_detected() -> None:
    (python,) = doctor.find_programs(os.path.dirname(sys.executable), ("python",))
    assert python.path is not None and python.version.startswith("Python 3.")
    (ghost,) = doctor.find_programs("/nonexistent", ("npx",))
    assert ghost.path is None


async def test_check_server_runs_initialize_and_list_tools() -> None:
    ok = await doctor.check_server(script("behave"), within=20)
    assert ok.ok and "add" in ok.tools and "behave 1.0" in ok.message
    bad = await doctor.check_server(script("fail_start"), within=20)
    assert not bad.ok and "missing configuration file" in bad.message
