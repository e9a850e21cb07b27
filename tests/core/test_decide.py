"""decide(): a function of one frozen settings snapshot, the grants and the call.

A settings change makes a new snapshot, which the next check reads; an old
snapshot keeps giving the old answers (nothing is remembered between checks).
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest

from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.decide import decide
from openworker_qt.core.grants import Grants
from openworker_qt.core.permission_settings import PermissionMode, PermissionSettings
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_options import by_reason

SID = "decide-test"  # a session no other test moves the shell of


def write(path: str, cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo(SID, cid, "write_file", {"path": path}, RiskClass.WRITE_LOCAL,
                        target=path)


def read(path: str, cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo(SID, cid, "read_file", {"path": path}, RiskClass.READ, target=path)


def shell(command: str) -> ToolCallInfo:
    return ToolCallInfo(SID, "c1", "run_shell", {"command": command}, RiskClass.EXEC,
                        target=command)


def send(channel: str) -> ToolCallInfo:
    return ToolCallInfo(SID, "c1", "send_message", {"channel": channel}, RiskClass.EXTERNAL,
                        target=channel, needs_approval=True)


def verdict(d: object) -> str:
    assert hasattr(d, "allowed")
    return "allow" if d.allowed else "ask" if d.needs_user else "deny"  # type: ignore[attr-defined]


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    ws, other = tmp_path / "ws", tmp_path / "other"
    ws.mkdir()
    other.mkdir()
    (ws / "a.txt").write_text("a")
    (other / "b.txt").write_text("b")
    return ws, other


def test_same_inputs_give_the_same_decision(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    engine = PermissionEngine(workspace=ws, mode="interactive", writable_roots=[other],
                              shell_allowlist=["ls", "cat"])
    settings = engine.settings()
    grants = Grants()
    calls = [write("a.txt"), write(str(other / "b.txt")), write("../elsewhere.txt"),
             read("a.txt"), read("/etc/passwd"), shell("ls"), shell("cat ../x"),
             shell("rm -rf ~"), send("slack:C1")]
    first = [decide(settings, grants, c) for c in calls]
    second = [decide(settings, grants, c) for c in calls]
    assert first == second
    assert [verdict(d) for d in first] == [
        "ask", "ask", "ask", "allow", "ask", "allow", "ask", "ask", "ask"]
    # the engine, reading the same settings, says the same
    assert [engine.evaluate(c) for c in calls] == first


def test_the_snapshot_cannot_be_changed(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    settings = PermissionEngine(workspace=ws, risk_overrides={"read_file": "exec"}).settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.mode = PermissionMode.AUTO  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.writable_roots = (Path("/"),)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.attached_files = (Path("/"),)  # type: ignore[misc]
    with pytest.raises(TypeError):
        settings.risk_overrides["write_file"] = RiskClass.READ  # type: ignore[index]
    assert isinstance(settings.writable_roots, tuple)
    assert isinstance(settings.read_roots, tuple)
    assert isinstance(settings.auto_allow, frozenset)
    assert settings.risk_of(read("a.txt")) is RiskClass.EXEC


def test_an_old_snapshot_keeps_its_answers_and_the_next_check_reads_the_change(
    dirs: tuple[Path, Path],
) -> None:
    ws, other = dirs
    mode = ["auto"]
    roots: list[str] = []
    allow: list[str] = []
    engine = PermissionEngine(workspace=ws, mode=lambda: mode[0], writable_roots=roots,
                              shell_allowlist=allow)
    target = write(str(other / "b.txt"))
    before = engine.settings()
    assert verdict(decide(before, engine.grants, target)) == "deny"
    assert verdict(decide(before, engine.grants, shell("ls"))) == "ask"

    roots.append(str(other))
    allow.append("ls")
    after = engine.settings()
    assert after is not before and after != before
    assert other.resolve() in after.writable_roots
    assert verdict(engine.evaluate(target)) == "allow"  # the next check: the new settings
    assert verdict(engine.evaluate(shell("ls"))) == "allow"
    # the old snapshot is unchanged, so deciding on it again gives its old answers
    assert other.resolve() not in before.writable_roots
    assert verdict(decide(before, engine.grants, target)) == "deny"
    assert verdict(decide(before, engine.grants, shell("ls"))) == "ask"

    mode[0] = "plan"
    assert engine.settings().mode is PermissionMode.PLAN
    assert verdict(engine.evaluate(target)) == "deny"
    assert before.mode is PermissionMode.AUTO


def test_a_snapshot_block_reads_once_and_the_check_after_it_reads_again(
    dirs: tuple[Path, Path],
) -> None:
    ws, other = dirs
    roots: list[str] = []
    engine = PermissionEngine(workspace=ws, mode="auto", writable_roots=roots)
    target = write(str(other / "b.txt"))
    with engine.snapshot():
        held = engine.settings()
        assert engine.settings() is held
        roots.append(str(other))
        assert verdict(engine.evaluate(target)) == "deny"  # the block's reading
        engine.mode = "plan"  # set on the engine itself: the block reads again
        assert engine.settings() is not held
        assert engine.settings().mode is PermissionMode.PLAN
        engine.mode = "auto"
    assert engine.settings() is not held
    assert verdict(engine.evaluate(target)) == "allow"  # no stale reading after the block


def test_another_thread_never_reads_a_blocks_snapshot(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    roots: list[str] = []
    engine = PermissionEngine(workspace=ws, mode="auto", writable_roots=roots)
    target = write(str(other / "b.txt"))
    seen: list[str] = []
    with engine.snapshot():
        assert verdict(engine.evaluate(target)) == "deny"
        roots.append(str(other))
        worker = threading.Thread(target=lambda: seen.append(verdict(engine.evaluate(target))))
        worker.start()
        worker.join()
        assert verdict(engine.evaluate(target)) == "deny"
    assert seen == ["allow"]


def test_attached_files_are_read_when_first_needed_once_per_snapshot(
    dirs: tuple[Path, Path],
) -> None:
    ws, other = dirs
    asked: list[int] = []

    def attached() -> list[str]:
        asked.append(1)
        return [str(other / "b.txt")]

    engine = PermissionEngine(workspace=ws, mode="interactive", attached_files=attached)
    with engine.snapshot():
        assert verdict(engine.evaluate(read("a.txt"))) == "allow"
        assert asked == []  # inside the workspace: the history is not read
        assert verdict(engine.evaluate(read(str(other / "b.txt")))) == "allow"
        assert verdict(engine.evaluate(read(str(other / "c.txt"), cid="c2"))) == "ask"
        assert asked == [1]
    assert verdict(engine.evaluate(read(str(other / "b.txt")))) == "allow"
    assert asked == [1, 1]  # a new snapshot reads them again


def test_grants_are_the_only_state_decide_consults(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    settings = PermissionSettings(mode=PermissionMode.INTERACTIVE, workspace=ws.resolve(),
                                  writable_roots=(ws.resolve(),), read_roots=(ws.resolve(),))
    grants = Grants()
    assert verdict(decide(settings, grants, shell("make"))) == "ask"
    assert verdict(decide(settings, grants, send("slack:C1"))) == "ask"
    grants.allow_command(SID, "make")
    grants.grant(send("slack:C1"))
    assert verdict(decide(settings, grants, shell("make"))) == "allow"
    assert verdict(decide(settings, grants, send("slack:C1"))) == "allow"
    assert verdict(decide(settings, Grants(), shell("make"))) == "ask"
    grants.forget_session(SID)
    assert verdict(decide(settings, grants, shell("make"))) == "ask"


def test_by_reason_turns_a_table_round_in_order() -> None:
    table = by_reason({"runs": ("-x", "--exec"), "writes": ("-o",), "again": ("-x",)})
    assert list(table.items()) == [("-x", "again"), ("--exec", "runs"), ("-o", "writes")]


def test_where_the_shell_is_is_an_input(dirs: tuple[Path, Path]) -> None:
    ws, other = dirs
    settings = PermissionEngine(workspace=ws, shell_allowlist=["ls"]).settings()
    assert verdict(decide(settings, Grants(), shell("ls"))) == "allow"
    moved = decide(settings, Grants(), shell("ls"), shell_folder=str(other))
    assert verdict(moved) == "ask" and f"the shell is in {other}" in moved.reason
