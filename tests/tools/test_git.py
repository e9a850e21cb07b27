"""The git tools against real git repositories in temporary folders.

A hostile repository (its config names programs for fsmonitor, the pager, hooks,
an external diff, a textconv and a clean filter, an alias) must run nothing
when the read tools look at it: the marker file those programs would write never
appears.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.domain.risk import BUILTIN_RISK
from openworker_qt.runtime_tools import default_tools
from openworker_qt.tools import git as g

assert shutil.which("git"), "these tests run the real git"


def sh(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    done = subprocess.run(["git", "-C", str(repo), *args], env=env, capture_output=True,
                          text=True, check=True)
    return done.stdout


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    sh(path, "init", "-q", "-b", "main")
    sh(path, "config", "user.name", "Ada")
    sh(path, "config", "user.email", "ada@example.com")
    (path / "notes.txt").write_text("one\ntwo\n")
    sh(path, "add", "notes.txt")
    sh(path, "commit", "-q", "-m", "first notes")
    return path


def ctx(ws: Path) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws)


async def call(name: str, args: dict[str, object], ws: Path) -> ToolResult:
    tool = {t.name: t for t in g.git_tools()}[name]
    result = await tool.handler(dict(args), ctx(ws))
    assert isinstance(result, ToolResult)
    return result


@pytest.fixture(autouse=True)
def _no_user_git_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Ada\n\temail = ada@example.com\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)


# ----------------------------------------------------------------- the hostile repo


def hostile(repo: Path, marker: Path) -> None:
    """Config that would run ``evil.sh`` (which writes ``marker``) from every read."""
    script = repo.parent / "evil.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\ncat\n")
    script.chmod(0o755)
    hooks = repo / ".git" / "hooks"
    for hook in ("post-checkout", "post-commit", "pre-commit", "commit-msg", "post-index-change",
                 "reference-transaction", "prepare-commit-msg"):
        (hooks / hook).write_text(f"#!/bin/sh\necho {hook} >> {marker}\n")
        (hooks / hook).chmod(0o755)
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n")
    for key, value in [
        ("core.fsmonitor", str(script)),
        ("core.pager", str(script)),
        ("pager.status", str(script)),
        ("pager.log", str(script)),
        ("diff.external", str(script)),
        ("diff.evil.textconv", str(script)),
        ("diff.evil.command", str(script)),
        ("filter.evil.clean", str(script)),
        ("filter.evil.smudge", str(script)),
        ("filter.evil.process", str(script)),
        ("alias.status", f"!{script}"),
        ("alias.diff", f"!{script}"),
        ("core.editor", str(script)),
        ("gpg.program", str(script)),
        ("log.showSignature", "true"),
        ("commit.gpgSign", "true"),
        ("core.sshCommand", str(script)),
        ("credential.helper", f"!{script}"),
    ]:
        sh(repo, "config", key, value)


@pytest.fixture
def evil(tmp_path: Path) -> tuple[Path, Path]:
    repo = make_repo(tmp_path / "ws")
    marker = tmp_path / "MARKER"
    # Changes for status/diff to see, in a tracked and an untracked file.
    (repo / "notes.txt").write_text("one\ntwo\nthree\n")
    (repo / "new.txt").write_text("fresh\n")
    hostile(repo, marker)
    # Make the tracked file's stat look dirty-but-same-size so status would re-hash it.
    os.utime(repo / "notes.txt", (1, 1))
    return repo, marker


def test_the_hostile_repo_really_runs_programs_under_plain_git(
        evil: tuple[Path, Path]) -> None:
    """The control: without the tool's guards, plain git runs the repo's programs."""
    repo, marker = evil
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run(["git", "-C", str(repo), "diff"], env=env, capture_output=True, check=False)
    assert marker.exists()


@pytest.mark.parametrize(("name", "args"), [
    ("git_status", {}),
    ("git_diff", {}),
    ("git_diff", {"staged": True}),
    ("git_diff", {"revision": "HEAD"}),
    ("git_log", {"patch": True}),
    ("git_log", {}),
    ("git_show", {}),
    ("git_show", {"revision": "HEAD:notes.txt"}),
    ("git_branch", {"all": True}),
])
async def test_reads_run_nothing_the_repo_names(
        evil: tuple[Path, Path], name: str, args: dict[str, object]) -> None:
    repo, marker = evil
    if args.get("staged"):
        sh(repo, "add", "new.txt")
    marker.unlink(missing_ok=True)
    result = await call(name, args, repo)
    assert not result.is_error, result.content
    assert not marker.exists(), marker.read_text()


VECTORS = {
    "fsmonitor": [("core.fsmonitor", "{script}")],
    "pager": [("core.pager", "{script}"), ("pager.diff", "{script}")],
    "external diff": [("diff.external", "{script}")],
    "textconv": [("diff.evil.textconv", "{script}")],
    "diff driver": [("diff.evil.command", "{script}")],
    "clean filter": [("filter.evil.clean", "{script}"), ("filter.evil.required", "true")],
    "filter process": [("filter.evil.process", "{script}")],
    "alias": [("alias.status", "!{script}"), ("alias.st", "!{script}")],
    "signature": [("log.showSignature", "true"), ("gpg.program", "{script}")],
    "hooks path": [("core.hooksPath", "{hooks}")],
}


@pytest.mark.parametrize("vector", sorted(VECTORS))
async def test_each_vector_alone_runs_nothing(tmp_path: Path, vector: str) -> None:
    repo = make_repo(tmp_path / "ws")
    marker = tmp_path / "MARKER"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\ncat\n")
    script.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "reference-transaction", "post-checkout"):
        (hooks / hook).write_text(f"#!/bin/sh\necho {hook} >> {marker}\n")
        (hooks / hook).chmod(0o755)
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n")
    sh(repo, "add", ".gitattributes")
    sh(repo, "commit", "-q", "-m", "attributes")
    for key, value in VECTORS[vector]:
        sh(repo, "config", key, value.format(script=script, hooks=hooks))
    (repo / "notes.txt").write_text("one\ntwo\nthree\n")
    os.utime(repo / "notes.txt", (1, 1))
    for name, args in [("git_status", {}), ("git_diff", {}), ("git_diff", {"revision": "HEAD"}),
                       ("git_log", {"patch": True}), ("git_show", {}), ("git_branch", {})]:
        result = await call(name, args, repo)
        assert not result.is_error, (name, result.content)
        assert not marker.exists(), (name, marker.read_text())


async def test_diff_shows_the_real_change_in_the_hostile_repo(evil: tuple[Path, Path]) -> None:
    repo, marker = evil
    marker.unlink(missing_ok=True)
    result = await call("git_diff", {}, repo)
    assert "+three" in result.content
    assert not marker.exists()


async def test_commit_runs_no_hook_and_no_signing(evil: tuple[Path, Path]) -> None:
    repo, marker = evil
    marker.unlink(missing_ok=True)
    result = await call("git_commit", {"message": "add three", "paths": ["notes.txt"]}, repo)
    assert not result.is_error, result.content
    assert not marker.exists(), marker.read_text()
    assert sh(repo, "log", "-1", "--format=%s").strip() == "add three"


def test_commit_preview_runs_nothing(evil: tuple[Path, Path]) -> None:
    repo, marker = evil
    marker.unlink(missing_ok=True)
    text = g.commit_preview({"message": "m", "paths": ["notes.txt", "new.txt"]}, repo)
    assert text is not None and "+three" in text and "new file: new.txt" in text
    assert not marker.exists()


async def test_status_does_not_rewrite_the_index(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    index = repo / ".git" / "index"
    os.utime(repo / "notes.txt", (1, 1))  # stale stat info: a locking status would refresh it
    before = index.read_bytes()
    result = await call("git_status", {}, repo)
    assert not result.is_error
    assert index.read_bytes() == before


# ---------------------------------------------------------------- happy paths


async def test_status_diff_log_show_branch(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    clean = await call("git_status", {}, repo)
    assert "## main" in clean.content and "clean" in clean.content
    (repo / "notes.txt").write_text("one\n2\n")
    (repo / "todo.md").write_text("x\n")
    status = await call("git_status", {}, repo)
    assert " M notes.txt" in status.content and "?? todo.md" in status.content
    diff = await call("git_diff", {"files": ["notes.txt"]}, repo)
    assert "-two" in diff.content and "+2" in diff.content
    assert (await call("git_diff", {"staged": True}, repo)).content == "No staged differences."
    log = await call("git_log", {}, repo)
    assert "first notes" in log.content and "Ada" in log.content
    show = await call("git_show", {}, repo)
    assert "first notes" in show.content and "+two" in show.content
    sh(repo, "branch", "feature")
    branches = await call("git_branch", {}, repo)
    assert "* main" in branches.content and "feature" in branches.content


async def test_path_argument_and_subfolder(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    repo = make_repo(ws / "project")
    (repo / "sub").mkdir()
    result = await call("git_log", {"path": "project/sub"}, ws)
    assert "first notes" in result.content


async def test_commit_commits_only_what_is_staged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    (repo / "a.txt").write_text("a\n")
    (repo / "b.txt").write_text("b\n")
    sh(repo, "add", "a.txt")
    result = await call("git_commit", {"message": "add a"}, repo)
    assert not result.is_error and result.content.startswith("Committed ")
    assert sh(repo, "show", "--name-only", "--format=", "HEAD").split() == ["a.txt"]
    assert "?? b.txt" in sh(repo, "status", "--short")


async def test_commit_stages_the_paths_given(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    repo = make_repo(ws / "project")
    (repo / "b.txt").write_text("b\n")
    (repo / "c.txt").write_text("c\n")
    result = await call("git_commit", {"message": "add b", "path": "project",
                                       "paths": ["project/b.txt"]}, ws)
    assert not result.is_error, result.content
    assert sh(repo, "show", "--name-only", "--format=", "HEAD").split() == ["b.txt"]


# ------------------------------------------------------------------- bad input


async def test_commit_needs_a_message_and_something_staged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    cases: list[dict[str, object]] = [{}, {"message": "  "}]
    for args in cases:
        result = await call("git_commit", args, repo)
        assert result.is_error and "message" in result.content
    nothing = await call("git_commit", {"message": "m"}, repo)
    assert nothing.is_error and "Nothing is staged" in nothing.content
    assert sh(repo, "rev-list", "--count", "HEAD").strip() == "1"


async def test_not_a_repository(tmp_path: Path) -> None:
    ws = tmp_path / "plain"
    ws.mkdir()
    result = await call("git_status", {}, ws)
    assert result.is_error and "not inside a git repository" in result.content


async def test_a_repository_above_the_workspace_is_not_read(tmp_path: Path) -> None:
    outer = make_repo(tmp_path / "outer")
    ws = outer / "inner" / "ws"
    ws.mkdir(parents=True)
    result = await call("git_log", {}, ws)
    assert result.is_error and "not inside a git repository" in result.content


async def test_a_worktree_moved_elsewhere_is_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "notes.txt").write_text("the secret\n")
    sh(repo, "config", "core.worktree", str(secret))
    for name in ("git_diff", "git_status"):
        result = await call(name, {}, repo)
        assert result.is_error and "core.worktree" in result.content
        assert "the secret" not in result.content
    assert "core.worktree" in (g.commit_preview({"message": "m"}, repo) or "")


async def test_commit_refuses_a_git_folder_elsewhere(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    elsewhere = tmp_path / "elsewhere.git"
    (repo / ".git").rename(elsewhere)
    (repo / ".git").write_text(f"gitdir: {elsewhere}\n")
    sh(repo, "add", "notes.txt")
    (repo / "notes.txt").write_text("changed\n")
    sh(repo, "add", "notes.txt")
    result = await call("git_commit", {"message": "m"}, repo)
    assert result.is_error and "outside its own folder" in result.content
    assert sh(repo, "rev-list", "--count", "HEAD").strip() == "1"
    assert not (await call("git_status", {}, repo)).is_error  # reading still works


async def test_unknown_revision_and_option_injection(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    unknown = await call("git_show", {"revision": "no-such-branch"}, repo)
    assert unknown.is_error and "could not find that revision" in unknown.content
    for name in ("git_show", "git_diff", "git_log"):
        injected = await call(name, {"revision": "--output=/tmp/x"}, repo)
        assert injected.is_error and "not a revision" in injected.content


async def test_missing_path_and_url(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    missing = await call("git_status", {"path": "nope"}, repo)
    assert missing.is_error and "does not exist" in missing.content
    url = await call("git_status", {"path": "file:///etc"}, repo)
    assert url.is_error and "not a path" in url.content


async def test_git_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo(tmp_path / "ws")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = await call("git_status", {}, repo)
    assert result.is_error and "git is not installed" in result.content


async def test_long_output_keeps_the_head_with_a_note(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "ws")
    (repo / "notes.txt").write_text("".join(f"line {i}\n" for i in range(2000)))
    result = await call("git_diff", {}, repo)
    lines = result.content.splitlines()
    assert len(lines) == g.MAX_LINES + 1
    assert lines[-1].startswith("… ") and "more lines" in lines[-1]
    assert "+line 0" in result.content and "+line 1999" not in result.content


async def test_timeout_stops_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo(tmp_path / "ws")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text("#!/bin/sh\nexec sleep 30\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    with pytest.raises(g.GitError, match="longer than"):
        await g.run_git(repo, ["status"], workspace=repo, time_limit=0.5)


# --------------------------------------------------------- registration, fence


def test_registered_with_their_risk() -> None:
    registry = default_tools(None)
    expected = {"git_status": RiskClass.READ, "git_diff": RiskClass.READ,
                "git_log": RiskClass.READ, "git_show": RiskClass.READ,
                "git_branch": RiskClass.READ, "git_commit": RiskClass.WRITE_LOCAL}
    for name, risk in expected.items():
        tool = registry.get(name)
        assert tool is not None and tool.risk is risk and BUILTIN_RISK[name] is risk


def info(name: str, args: dict[str, object]) -> ToolCallInfo:
    tool = {t.name: t for t in g.git_tools()}[name]
    return ToolCallInfo(session_id="s1", call_id="c1", name=name, arguments=args,
                        risk=tool.risk_class(), target=tool.target(args))


def test_the_fence_checks_the_repository_path(tmp_path: Path) -> None:
    ws = make_repo(tmp_path / "ws")
    elsewhere = make_repo(tmp_path / "elsewhere")
    engine = PermissionEngine(workspace=ws)
    assert engine.evaluate(info("git_log", {})).allowed
    outside = engine.evaluate(info("git_log", {"path": str(elsewhere)}))
    assert not outside.allowed and "outside" in outside.reason


def test_commit_asks_and_is_fenced_to_writable_roots(tmp_path: Path) -> None:
    ws = make_repo(tmp_path / "ws")
    elsewhere = make_repo(tmp_path / "elsewhere")
    engine = PermissionEngine(workspace=ws)
    inside = engine.evaluate(info("git_commit", {"message": "m"}))
    assert not inside.allowed and inside.needs_user and str(ws) in inside.reason
    out = engine.evaluate(info("git_commit", {"message": "m", "paths": [str(elsewhere / "x")]}))
    assert not out.allowed and "outside the writable roots" in out.reason
    auto = PermissionEngine(workspace=ws, mode="auto")
    assert auto.evaluate(info("git_commit", {"message": "m"})).allowed
    assert not auto.evaluate(info("git_commit", {"message": "m",
                                                 "path": str(elsewhere)})).allowed
