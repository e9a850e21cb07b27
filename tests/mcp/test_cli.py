"""`openworker-qt mcp …`: the settings page's operations on the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from openworker_qt.cli import main
from openworker_qt.storage import secrets
from openworker_qt.storage.paths import app_paths
from tests.mcp.helpers import SERVERS


def global_file() -> dict:
    return json.loads((app_paths().config / "mcp.json").read_text(encoding="utf-8"))


def test_add_list_test_remove(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "add", "behave", "--", sys.executable, str(SERVERS / "behave.py"),
                 "--flag"]) == 0
    assert global_file()["mcpServers"]["behave"]["args"][-1] == "--flag"
    assert main(["mcp", "add", "docs", "--url", "http://127.0.0.1:9/mcp",
                 "--header", "Authorization=Bearer ${DOCS_TOKEN}"]) == 0
    out = capsys.readouterr().out
    assert "It needs DOCS_TOKEN from the keyring" in out
    assert main(["mcp", "add", "docs", "--url", "http://127.0.0.1:9/mcp"]) == 2
    assert "already a server named 'docs'" in capsys.readouterr().err
    assert main(["mcp", "list"]) == 0
    listing = capsys.readouterr().out
    assert "behave" in listing and "http  http://127.0.0.1:9/mcp" in listing
    assert main(["mcp", "test", "behave"]) == 0
    out = capsys.readouterr().out
    assert "behave 1.0 answered and offers" in out and "add" in out
    assert main(["mcp", "test", "docs"]) == 1
    assert "needs DOCS_TOKEN from the keyring" in capsys.readouterr().out
    assert main(["mcp", "remove", "docs"]) == 0
    assert list(global_file()["mcpServers"]) == ["behave"]
    assert main(["mcp", "remove", "docs"]) == 2


def test_add_without_a_command_says_how(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "add", "x"]) == 2
    assert "mcp add NAME -- COMMAND" in capsys.readouterr().err


def test_import_finds_claude_desktop_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["mcp", "import"]) == 1
    assert "claude_desktop_config.json" in capsys.readouterr().out
    claude = home / ".config" / "Claude" / "claude_desktop_config.json"
    claude.parent.mkdir(parents=True)
    claude.write_text(json.dumps({"mcpServers": {"time": {"command": "uvx",
                                                          "args": ["mcp-server-time"]}}}))
    assert main(["mcp", "import"]) == 0
    assert "From Claude Desktop" in capsys.readouterr().out
    assert global_file()["mcpServers"]["time"] == {"command": "uvx", "args": ["mcp-server-time"]}


def test_import_a_given_file_and_a_bad_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert main(["mcp", "import", str(bad)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    good = tmp_path / "cursor.json"
    good.write_text(json.dumps({"mcpServers": {"a": {"command": "x"}}}))
    assert main(["mcp", "import", str(good)]) == 0


def test_trust_and_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": {"local": {"command": "run-me"}}}))
    assert main(["mcp", "list", "-w", str(ws)]) == 0
    assert "trust" in capsys.readouterr().err
    assert main(["mcp", "trust", str(ws)]) == 0
    assert "local: run-me" in capsys.readouterr().out
    assert main(["mcp", "list", "-w", str(ws)]) == 0
    assert "local" in capsys.readouterr().out
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("tok-123\n"))
    assert main(["mcp", "secret", "DOCS_TOKEN"]) == 0
    assert secrets.get_secret("DOCS_TOKEN") == "tok-123"


def test_doctor_prints_programs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "doctor"]) == 0
    out = capsys.readouterr().out
    assert "Programs MCP servers usually need:" in out and "node" in out


def test_run_offers_the_configured_servers_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["mcp", "add", "behave", "--", sys.executable, str(SERVERS / "behave.py")]) == 0
    script = tmp_path / "turns.json"
    script.write_text(json.dumps([
        {"tool_calls": [{"name": "mcp__behave__add", "arguments": {"a": 40, "b": 2}}]},
        {"text": "It is 42."},
    ]))
    capsys.readouterr()
    code = main(["run", "add them", "--model", f"scripted:{script}", "--yes", "--json",
                 "-w", str(tmp_path)])
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    finished = [e for e in events if e["type"] == "tool_finished"]
    assert code == 0, events
    assert [(f["name"], f["status"], f["result"]) for f in finished] == [
        ("mcp__behave__add", "ok", "42")]


def test_resources_and_prompts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "add", "behave", "--", sys.executable, str(SERVERS / "behave.py")]) == 0
    capsys.readouterr()
    assert main(["mcp", "resources", "behave"]) == 0
    assert "note://hello" in capsys.readouterr().out
    assert main(["mcp", "resources", "behave", "--read", "note://hello"]) == 0
    assert "Hello from a resource" in capsys.readouterr().out
    assert main(["mcp", "prompts", "behave"]) == 0
    assert "greet(who)" in capsys.readouterr().out
    assert main(["mcp", "prompts", "behave", "--get", "greet", "--arg", "who=Ada"]) == 0
    assert "Please greet Ada warmly." in capsys.readouterr().out
    assert main(["mcp", "resources", "behave", "--read", "note://missing"]) == 1
    assert "error" in capsys.readouterr().err
