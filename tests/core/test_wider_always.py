"""A wider "always" (issue 27, B11): commands starting with a prefix, or a folder's
writes, for the rest of a session — offered only where the engine can bound it, and
granted only from what the engine works out itself when the user's answer comes."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.core.approvals import ApprovalOutcome, ToolCallInfo
from openworker_qt.core.inbox import Inbox, InboxError
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_policy import command_prefix
from openworker_qt.storage.db import Database


def shell(command: str, session: str = "s1", cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo(session, cid, "run_shell", {"command": command}, RiskClass.EXEC,
                        target=command)


def write(path: str, session: str = "s1", cid: str = "c1") -> ToolCallInfo:
    return ToolCallInfo(session, cid, "write_file", {"path": path}, RiskClass.WRITE_LOCAL,
                        target=path)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "outputs").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "notes.md").write_text("n")
    return root


def test_the_prefix_is_the_program_or_its_subcommand() -> None:
    assert command_prefix("pytest -q tests") == "pytest"
    assert command_prefix("git log --oneline -5") == "git log"
    assert command_prefix("npm test") == "npm test"
    assert command_prefix("git -C /etc log") is None  # an option where the subcommand goes
    for never in ("python x.py", "bash -c ls", "rm -rf build", "curl example.com",
                  "./run.sh", "make", "pytest; rm -rf ~", "export A=1", "cd /"):
        assert command_prefix(never) is None, never


def test_a_prefix_is_offered_only_when_it_would_let_this_command_run(ws: Path) -> None:
    engine = PermissionEngine(workspace=ws, mode="interactive")
    asked = engine.evaluate(shell("grep -rn TODO tests"))
    assert asked.needs_user and asked.always_scope == "grep"
    # the rest of the command reads outside the folders: no prefix could make it harmless
    outside = engine.evaluate(shell("grep -rn root /etc"))
    assert outside.needs_user and outside.always_scope is None
    # a program whose arguments the check cannot judge gets none either
    assert engine.evaluate(shell("python -m pytest")).always_scope is None
    # git: a subcommand that changes the repository is not made harmless by a prefix
    assert engine.evaluate(shell("git push --force")).always_scope is None


def test_always_for_a_prefix_lets_harmless_commands_with_it_run_and_nothing_else(ws: Path) -> None:
    engine = PermissionEngine(workspace=ws, mode="interactive")
    engine.remember(shell("grep -rn TODO tests"), ApprovalOutcome.ALWAYS_PREFIX)
    later = engine.evaluate(shell("grep -c FIXME notes.md", cid="c2"))
    assert later.allowed and later.rule == "session:always_prefix:grep"
    # the rest of every command is still checked
    assert engine.evaluate(shell("grep -r root /etc", cid="c3")).needs_user
    assert engine.evaluate(shell("grep x notes.md; rm -rf ~", cid="c4")).needs_user
    assert engine.evaluate(shell("find . -delete", cid="c5")).needs_user
    # another session, or this one forgotten: asks again
    assert engine.evaluate(shell("grep -c FIXME notes.md", session="s2")).needs_user
    engine.forget_session("s1")
    assert engine.evaluate(shell("grep -c FIXME notes.md", cid="c6")).needs_user
    assert engine.rules.list_rules() == []  # nothing kept beyond the process


def test_the_answer_binds_what_the_engine_offers_not_what_is_claimed(ws: Path) -> None:
    engine = PermissionEngine(workspace=ws, mode="interactive")
    # a call for which the engine offers no prefix: the answer grants nothing
    engine.remember(shell("python -c 'print(1)'"), ApprovalOutcome.ALWAYS_PREFIX)
    engine.remember(shell("grep -r root /etc"), ApprovalOutcome.ALWAYS_PREFIX)
    assert engine.grants.command_prefixes("s1") == ()
    assert engine.evaluate(shell("grep -c x notes.md")).needs_user
    # the wrong kind of answer for the call grants nothing either
    engine.remember(write("outputs/a.md"), ApprovalOutcome.ALWAYS_PREFIX)
    engine.remember(shell("grep -c x notes.md"), ApprovalOutcome.ALWAYS_FOLDER)
    assert engine.grants.command_prefixes("s1") == ()
    assert engine.evaluate(write("outputs/b.md")).needs_user


def test_always_for_a_folder_lets_writes_inside_it_run(ws: Path) -> None:
    engine = PermissionEngine(workspace=ws, mode="interactive")
    asked = engine.evaluate(write("outputs/brief.md"))
    assert asked.needs_user and asked.always_scope == str((ws / "outputs").resolve())
    engine.remember(write("outputs/brief.md"), ApprovalOutcome.ALWAYS_FOLDER)
    later = engine.evaluate(write("outputs/deck/notes.md", cid="c2"))
    assert later.allowed and later.rule.startswith("session:always_folder:")
    assert engine.evaluate(write("notes.md", cid="c3")).needs_user  # beside the folder
    assert engine.evaluate(write("outputs/.git/config", cid="c4")).needs_user  # git's data
    assert engine.evaluate(write("outputs/x.md", session="s2")).needs_user
    engine.mode = "plan"
    assert not engine.evaluate(write("outputs/x.md", cid="c5")).allowed  # read-only mode


def test_a_write_outside_the_writable_roots_offers_no_folder(ws: Path, tmp_path: Path) -> None:
    engine = PermissionEngine(workspace=ws, mode="interactive")
    outside = engine.evaluate(write(str(tmp_path / "elsewhere.md")))
    assert outside.needs_user and outside.always_scope is None
    engine.remember(write(str(tmp_path / "elsewhere.md")), ApprovalOutcome.ALWAYS_FOLDER)
    assert engine.evaluate(write(str(tmp_path / "other.md"))).needs_user


def test_a_scheduled_tasks_run_offers_neither(ws: Path) -> None:
    engine = PermissionEngine(workspace=ws, mode="interactive", task_id="t1")
    assert engine.evaluate(shell("grep -rn TODO tests")).always_scope is None
    assert engine.evaluate(write("outputs/a.md")).always_scope is None


def test_the_inbox_keeps_the_offer_and_refuses_a_wider_answer_without_one(tmp_path: Path) -> None:
    inbox = Inbox(Database(tmp_path / "inbox.db"))
    offered = inbox.add("approval", "s1", tool_call_id="c1", tool="run_shell", risk="exec",
                        arguments={"command": "grep -rn TODO tests"}, always_scope="grep")
    assert inbox.get(offered.id).always_scope == "grep"
    assert inbox.resolve(offered.id, "always_prefix", by="card")
    plain = inbox.add("approval", "s1", tool_call_id="c2", tool="run_shell", risk="exec",
                      arguments={"command": "python x.py"})
    assert plain.always_scope is None
    with pytest.raises(InboxError):
        inbox.resolve(plain.id, "always_prefix", by="card")
