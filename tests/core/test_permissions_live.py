"""PermissionEngine: settings re-read on every check, "always" answers, config wiring."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.approvals import ApprovalOutcome, ToolCallInfo
from openworker_qt.core.permissions import (
    PermissionEngine,
    PermissionMode,
    standing_rule_candidate,
)
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_policy import DEFAULT_ALLOWED_COMMANDS
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.storage.config import DEFAULTS, Config
from openworker_qt.storage.db import Database

W, X, E = RiskClass.WRITE_LOCAL, RiskClass.EXEC, RiskClass.EXTERNAL


def write(path: str, cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo("s1", cid, "write_file", {"path": path}, W, target=path)


def shell(command: str, session: str = "s1", cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo(session, cid, "run_shell", {"command": command}, X, target=command)


def send(channel: str | None, session: str = "s1", cid: str = "c1") -> ToolCallInfo:
    args = {"channel": channel} if channel else {}
    return ToolCallInfo(session, cid, "send_message", args, E, target=channel, needs_approval=True)


def verdict(engine: PermissionEngine, call: ToolCallInfo) -> str:
    d = engine.evaluate(call)
    return "allow" if d.allowed else "ask" if d.needs_user else "deny"


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    ws, other = tmp_path / "ws", tmp_path / "other"
    ws.mkdir()
    other.mkdir()
    return ws, other


# ----------------------------------------------------------------- live roots

def test_roots_list_is_reread_on_every_check(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    roots: list[Path | str] = []
    engine = PermissionEngine(workspace=ws, mode="auto", writable_roots=roots)
    target = str(other / "x.txt")
    assert verdict(engine, write(target)) == "deny"
    roots.append(other)
    assert verdict(engine, write(target)) == "allow"
    assert other.resolve() in engine.writable_roots()
    roots.clear()
    assert verdict(engine, write(target)) == "deny"


def test_roots_callable_is_called_on_every_check(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    granted: set[str] = set()
    engine = PermissionEngine(workspace=ws, mode="auto", writable_roots=lambda: sorted(granted))
    assert not engine.is_writable(str(other / "a"))
    granted.add(str(other))
    assert engine.is_writable(str(other / "a"))
    assert engine.root_for(str(other / "a" / "b")) == other.resolve()
    granted.clear()
    assert verdict(engine, write(str(other / "a"))) == "deny"


def test_symlink_swapped_between_checks_is_seen(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    (ws / "out").mkdir()
    engine = PermissionEngine(workspace=ws, mode="auto")
    assert verdict(engine, write("out/x")) == "allow"
    (ws / "out").rmdir()
    (ws / "out").symlink_to(other)
    assert verdict(engine, write("out/x")) == "deny"


def test_workspace_may_be_live(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    current = [ws]
    engine = PermissionEngine(workspace=lambda: current[0], mode="auto")
    assert verdict(engine, write(str(other / "x"))) == "deny"
    current[0] = other
    assert verdict(engine, write(str(other / "x"))) == "allow"
    assert verdict(engine, write("x")) == "allow"
    assert engine.resolve_path("x") == other.resolve() / "x"


def test_symlink_loop_is_not_writable(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    (ws / "loop").symlink_to(ws / "loop")
    engine = PermissionEngine(workspace=ws, mode="auto")
    assert engine.resolve_path("loop/x") is None
    assert not engine.is_writable("loop/x")
    d = engine.evaluate(write("loop/x"))
    assert not d.allowed and not d.needs_user and "loop/x" in d.reason


# -------------------------------------------------- live mode / lists / rules

def test_mode_allowlist_and_auto_allow_are_live(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    mode = ["interactive"]
    allow: list[str] = []
    auto_allow: list[str] = []
    engine = PermissionEngine(
        workspace=ws, mode=lambda: mode[0], shell_allowlist=allow, auto_allow=auto_allow
    )
    assert verdict(engine, shell("wc -l")) == "ask"
    allow.append("wc")
    assert verdict(engine, shell("wc -l")) == "allow"
    assert verdict(engine, send("slack:C1")) == "ask"
    mode[0] = "custom"
    assert verdict(engine, send("slack:C1")) == "ask"
    auto_allow.append("send_message")
    assert verdict(engine, send("slack:C1")) == "allow"
    mode[0] = "plan"
    assert verdict(engine, shell("wc -l")) == "deny"
    assert verdict(engine, send("slack:C1")) == "deny"


def test_custom_auto_allow_never_covers_shell(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    engine = PermissionEngine(workspace=ws, mode="custom", auto_allow=["run_shell", "write_file"])
    assert verdict(engine, shell("curl x | sh")) == "ask"
    assert verdict(engine, shell("rm -rf ~")) == "ask"
    assert verdict(engine, write("inside.txt")) == "allow"
    assert verdict(engine, write("../outside.txt")) == "ask"


def test_rule_revoked_elsewhere_stops_applying(tmp_path: Path, dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    engine = PermissionEngine(
        workspace=ws, rules=StandingRuleStore(Database(tmp_path / "app.db"))
    )
    cli = StandingRuleStore(Database(tmp_path / "app.db"))  # e.g. the CLI, another process
    rule = cli.add("send_message", "slack:C1", scope="session", scope_id="s1")
    assert verdict(engine, send("slack:C1")) == "allow"
    cli.revoke(rule.id)
    assert verdict(engine, send("slack:C1")) == "ask"


def test_bounded_grant_five_times_in_two_hours(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    now = [1_000.0]
    rules = StandingRuleStore.in_memory(clock=lambda: now[0])
    rules.add("send_message", "slack:#ops", scope="session", scope_id="s1", uses=5,
              ttl_seconds=2 * 3600)
    engine = PermissionEngine(workspace=ws, rules=rules)
    for i in range(5):
        call = send("slack:#ops", cid=f"c{i}")
        assert verdict(engine, call) == "allow"
        assert verdict(engine, call) == "allow"  # evaluating again spends nothing
    assert verdict(engine, send("slack:#ops", cid="c5")) == "ask"
    rules.add("send_message", "slack:#ops", scope="session", scope_id="s1", uses=5,
              ttl_seconds=2 * 3600)
    assert verdict(engine, send("slack:#ops", cid="c6")) == "allow"
    now[0] += 2 * 3600
    assert verdict(engine, send("slack:#ops", cid="c7")) == "ask"


# ------------------------------------------------------------------ remember

def test_always_on_external_adds_a_session_rule_for_that_target(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    engine = PermissionEngine(workspace=ws)
    call = send("slack:T1/C1")
    assert verdict(engine, call) == "ask"
    engine.remember(call, ApprovalOutcome.ALWAYS)
    assert verdict(engine, send("slack:T1/C1", cid="c2")) == "allow"
    assert verdict(engine, send("slack:T1/C2", cid="c3")) == "ask"
    assert verdict(engine, send("slack:T1/C1", session="s2")) == "ask"
    [rule] = engine.rules.list_rules()
    assert (rule.scope, rule.scope_id, rule.tool, rule.target) == (
        "session", "s1", "send_message", "slack:T1/C1"
    )
    engine.remember(call, ApprovalOutcome.ALWAYS)
    assert len(engine.rules.list_rules()) == 1


@pytest.mark.parametrize(
    ("call", "outcome"),
    [
        (send(None), ApprovalOutcome.ALWAYS),  # no target: nothing to bind to
        (send("slack:C1"), ApprovalOutcome.ONCE),
        (send("slack:C1"), ApprovalOutcome.DENY),
        (send("slack:C1"), ApprovalOutcome.ALWAYS_COMMAND),
        (shell("rm -rf build"), ApprovalOutcome.ALWAYS),  # never a standing rule for shell
        (write("a.txt"), ApprovalOutcome.ALWAYS),  # nor for local writes
        (write("../a.txt"), ApprovalOutcome.ALWAYS_COMMAND),
    ],
)
def test_remember_leaves_nothing_behind(
    dirs: tuple[Path, Path], call: ToolCallInfo, outcome: ApprovalOutcome
) -> None:
    ws, _ = dirs
    engine = PermissionEngine(workspace=ws)
    before = engine.evaluate(call)
    engine.remember(call, outcome)
    assert engine.rules.list_rules() == []
    assert engine.remembered_commands("s1") == set()
    assert engine.evaluate(call) == before


def test_always_command_is_exact_and_per_session(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    engine = PermissionEngine(workspace=ws, mode="auto")
    call = shell("npm run build && npm test")
    assert verdict(engine, call) == "ask"
    engine.remember(call, ApprovalOutcome.ALWAYS_COMMAND)
    d = engine.evaluate(shell("npm run build && npm test", cid="c2"))
    assert d.allowed and d.rule == "session:always_command"
    for other in ["npm run build && npm test ", "npm run build && npm test; rm -rf ~",
                  "npm run build", "npm test"]:
        assert verdict(engine, shell(other)) == "ask", other
    assert verdict(engine, shell("npm run build && npm test", session="s2")) == "ask"
    assert engine.rules.list_rules() == []
    engine.mode = PermissionMode.PLAN
    assert verdict(engine, call) == "deny"
    engine.mode = PermissionMode.INTERACTIVE
    assert verdict(engine, call) == "allow"
    engine.forget_session("s1")
    assert verdict(engine, call) == "ask"


def test_standing_rule_candidate() -> None:
    assert standing_rule_candidate(send("slack:C1")) == "slack:C1"
    assert standing_rule_candidate(send(None)) is None
    assert standing_rule_candidate(shell("ls")) is None
    assert standing_rule_candidate(write("a")) is None


# ------------------------------------------------------------------- config

def make_config(**permissions: Any) -> Config:
    data = copy.deepcopy(DEFAULTS)
    data["permissions"].update(permissions)
    return Config(data)


def test_from_config_reads_permissions_live(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    holder = [make_config()]
    granted: list[Path] = []
    engine = PermissionEngine.from_config(lambda: holder[0], workspace=ws, extra_roots=granted)
    assert engine.mode is PermissionMode.INTERACTIVE
    assert engine.shell_allowlist() == list(DEFAULT_ALLOWED_COMMANDS)
    assert verdict(engine, shell("ls -la")) == "allow"
    assert verdict(engine, shell("pytest -q")) == "ask"
    holder[0] = make_config(
        mode="custom",
        shell_allowlist=["pytest"],
        auto_allow=["send_message"],
        writable_roots=[str(other)],
        risk_overrides={"read_file": "external"},
    )
    assert engine.mode is PermissionMode.CUSTOM
    assert verdict(engine, shell("pytest -q")) == "allow"
    assert verdict(engine, shell("rm -rf /")) == "ask"
    assert verdict(engine, send("slack:C1")) == "allow"
    assert engine.is_writable(str(other / "x"))
    assert verdict(engine, ToolCallInfo("s1", "c1", "read_file", {}, RiskClass.READ)) == "ask"
    holder[0] = make_config(mode="auto")
    assert not engine.is_writable(str(other / "x"))
    granted.append(other)
    assert engine.is_writable(str(other / "x"))


def test_from_config_mode_override(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    engine = PermissionEngine.from_config(make_config(mode="auto"), workspace=ws, mode="plan")
    assert engine.mode is PermissionMode.PLAN


# ------------------------------------------------------------ extra guards

def test_hard_linked_file_always_asks(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    (other / "secret.txt").write_text("x")
    os.link(other / "secret.txt", ws / "alias.txt")
    for mode in ("interactive", "custom", "auto"):
        engine = PermissionEngine(workspace=ws, mode=mode, auto_allow=["write_file"])
        d = engine.evaluate(write("alias.txt"))
        assert d.needs_user and "hard link" in d.reason, mode
    assert verdict(PermissionEngine(workspace=ws, mode="auto"), write("plain.txt")) == "allow"


def test_empty_root_entries_are_ignored(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    engine = PermissionEngine(workspace=ws, writable_roots=["", "  "], include_workspace=False)
    assert engine.writable_roots() == []


def test_grant_bounded_and_task_rules(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    engine = PermissionEngine(workspace=ws, task_id="task-1")
    rule = engine.grant(send("slack:#ops"), uses=5, ttl_seconds=7200)
    assert (rule.scope, rule.scope_id, rule.uses_left) == ("session", "s1", 5)
    assert rule.expires_at is not None
    task_rule = engine.grant(send("slack:#eng"), scope="task")
    assert (task_rule.scope, task_rule.scope_id) == ("task", "task-1")
    # the task rule holds for any session of that task (another run)
    assert verdict(engine, send("slack:#eng", session="run-2")) == "allow"
    with pytest.raises(ValueError, match="not an external action"):
        engine.grant(shell("ls"))
    with pytest.raises(ValueError, match="not an external action"):
        engine.grant(write("a.txt"))
    with pytest.raises(ValueError, match="no target"):
        engine.grant(send(None))
    with pytest.raises(ValueError, match="task_id"):
        PermissionEngine(workspace=ws).grant(send("x"), scope="task")
