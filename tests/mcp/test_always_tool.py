""""Always for this tool of this server" for MCP tools (their calls name no target):
offered by the terminal prompt as ``[y/N/a]``, the answer lets later calls of the
same tool of the same server run without asking — and nothing else: another tool
of that server, or the same tool of another server, still asks. The CLI as a
subprocess on a pty, real stdio MCP servers (tests/mcp/servers/behave.py)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from openworker_qt.core.approvals import (
    ApprovalOutcome,
    ToolCallInfo,
    parse_tool_key,
    tool_key,
)
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.storage.paths import app_paths
from tests.mcp.helpers import REPO, SERVERS


def owq(*args: str, cwd: Path, stdin: int) -> subprocess.CompletedProcess[str]:
    env = os.environ.copy()
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "openworker_qt", *args], cwd=cwd, stdin=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


def call(name: str, args: dict) -> dict:
    return {"name": name, "arguments": args}


def test_always_at_the_prompt_covers_that_tool_of_that_server_only(tmp_path: Path) -> None:
    behave = {"command": sys.executable, "args": [str(SERVERS / "behave.py")]}
    (app_paths().ensure().config / "mcp.json").write_text(
        json.dumps({"mcpServers": {"behave": behave, "twin": behave}}), encoding="utf-8")
    turns = [
        {"text": "1", "tool_calls": [call("mcp__behave__add", {"a": 1, "b": 2})]},
        {"text": "2", "tool_calls": [call("mcp__behave__add", {"a": 3, "b": 4})]},
        {"text": "3", "tool_calls": [call("mcp__behave__env", {"name": "HOME"})]},
        {"text": "4", "tool_calls": [call("mcp__twin__add", {"a": 5, "b": 6})]},
        {"text": "Done."},
    ]
    model = tmp_path / "script.json"
    model.write_text(json.dumps({"turns": turns}))
    master, slave = pty.openpty()
    try:
        os.write(master, b"a\nn\nn\n")  # always; then no; no
        res = owq("run", "--model", f"scripted:{model}", "--mcp-wait", "60", "go", cwd=tmp_path,
                  stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert res.returncode == 0, res.stderr
    asked = [p.split(" (", 1)[0].rsplit("\n", 1)[-1] for p in res.stderr.split("Allow? [y/N/a]")[:-1]]
    assert asked == ["mcp__behave__add", "mcp__behave__env", "mcp__twin__add"]
    assert "a = always for this tool of this server: add of the MCP server behave" in res.stderr
    out = res.stdout
    assert out.count("mcp__behave__add: ok") == 2  # the second one ran by the rule
    assert "mcp__behave__env: denied" in out and "mcp__twin__add: denied" in out


def test_the_rule_is_keyed_by_server_and_tool(tmp_path: Path) -> None:
    assert parse_tool_key(tool_key("git-hub", "create:issue")) == ("git-hub", "create:issue")
    assert parse_tool_key("slack:C0123") is None
    engine = PermissionEngine(workspace=tmp_path)

    def info(name: str, server: str, tool: str, n: int) -> ToolCallInfo:
        return ToolCallInfo(session_id="s", call_id=f"c{n}", name=name, arguments={},
                            risk=RiskClass.EXTERNAL, tool_key=tool_key(server, tool))

    first = info("mcp__a__t", "a", "t", 1)
    decision = engine.evaluate(first)
    assert decision.needs_user and decision.can_always
    assert "mcp-tool" not in decision.reason  # (the key is not a target to show)
    engine.remember(first, ApprovalOutcome.ALWAYS)
    assert engine.evaluate(info("mcp__a__t", "a", "t", 2)).allowed
    # The same engine name standing for another (server, tool) pair is not covered.
    assert not engine.evaluate(info("mcp__a__t", "a_", "t", 3)).allowed
    assert not engine.evaluate(info("mcp__a__t", "a", "t_", 4)).allowed
    # Only EXTERNAL calls: a tool the user made a local write gets no such rule.
    local = ToolCallInfo(session_id="s", call_id="c5", name="mcp__a__t", arguments={},
                         risk=RiskClass.WRITE_LOCAL, tool_key=tool_key("a", "t"))
    assert not engine.evaluate(local).can_always


def test_always_from_the_inbox_and_on_the_card(tmp_path: Path, qtbot) -> None:
    """An unattended turn parks the MCP call in the inbox offering "always"; answered
    so (``approve --always``), the resumed call runs and a later turn's call of the same
    tool runs without asking. The card offers the same words."""
    from openworker_qt.core.approvals import ApprovalRequest
    from openworker_qt.ui.approval import ApprovalPanel

    behave = {"command": sys.executable, "args": [str(SERVERS / "behave.py")]}
    (app_paths().ensure().config / "mcp.json").write_text(
        json.dumps({"mcpServers": {"behave": behave}}), encoding="utf-8")
    model = tmp_path / "script.json"
    model.write_text(json.dumps({"turns": [
        {"text": "1", "tool_calls": [call("mcp__behave__add", {"a": 1, "b": 2})]},
        {"text": "first done"},
        {"text": "2", "tool_calls": [call("mcp__behave__add", {"a": 3, "b": 4})]},
        {"text": "second done"},
    ]}))
    res = owq("run", "--unattended", "--model", f"scripted:{model}", "--mcp-wait", "60", "go",
              cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert res.returncode == 4, res.stderr  # suspended: waiting in the inbox
    listing = owq("inbox", "--json", cwd=tmp_path, stdin=subprocess.DEVNULL)
    (item,) = [json.loads(line) for line in listing.stdout.splitlines()]
    assert item["can_always"] and parse_tool_key(item["standing_target"]) == ("behave", "add")
    assert owq("approve", str(item["id"]), "--always", cwd=tmp_path,
               stdin=subprocess.DEVNULL).returncode == 0
    resumed = owq("resume", cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert resumed.returncode == 0, resumed.stderr
    assert "mcp__behave__add: ok" in resumed.stdout  # (its server was connected to resume)
    session = res.stderr.split("[session ", 1)[1].split(" ", 1)[0]
    again = owq("run", "--unattended", "-s", session, "--model", f"scripted:{model}",
                "--mcp-wait", "60", "again", cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert again.returncode == 0, again.stderr  # no ask: the rule covered it
    assert "mcp__behave__add: ok" in again.stdout

    request = ApprovalRequest(
        session_id="s", call_id="c", tool="mcp__behave__add", arguments={},
        risk=RiskClass.EXTERNAL, reason="r", can_always=True,
        standing_target=tool_key("behave", "add"))
    panel = ApprovalPanel(request)
    qtbot.addWidget(panel)
    assert panel.always.text().replace("&", "") == "Always for this tool of this server"
    assert "add from the MCP server behave" in panel.always.accessibleDescription()
