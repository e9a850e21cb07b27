"""Git metadata is code (issue 23 item 5), and OpenWorker's own folders through the
shell and symlinks (item 8), against real git and a real bash.

* a write into any git metadata asks in every mode (auto too), through the file
  tools and through an allowlisted shell command;
* a repository whose data is outside the folders the session may read (a
  model-written ``.git`` file, ``commondir``, alternates, a worktree link,
  ``-C``/``--git-dir``/``--work-tree``) is an outside read for the git tools and
  the shell's allowlisted git: refused in auto mode, asked in interactive mode;
  real git is first shown to return the outside repository's content (the control);
* the shell's git never starts a repository's fsmonitor or external diff, and a
  repository whose own settings name a program makes allowlisted git ask;
* the own-state check follows a ``.openworker`` symlink and covers every path
  argument of an allowlisted shell command.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core import fence
from openworker_qt.core.approvals import Decision, ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.shell import close_shell_state, shell_tools
from tests.tools.test_git import _no_user_git_config, call, make_repo, sh

__all__ = ["_no_user_git_config"]  # (the autouse fixture: no user git config)

SECRET = "TOPSECRET-outside-the-workspace"
R, W, X = RiskClass.READ, RiskClass.WRITE_LOCAL, RiskClass.EXEC


def info(name: str, risk: RiskClass, args: dict[str, Any]) -> ToolCallInfo:
    target = args.get("path") if risk is not X else args.get("command")
    return ToolCallInfo(session_id="s", call_id="c", name=name, arguments=args, risk=risk,
                        target=target)


def verdict(d: Decision) -> str:
    return "allow" if d.allowed else "ask" if d.needs_user else "deny"


GIT_ALLOWLIST = ["git status", "git log", "git show", "git diff", "git cat-file", "git grep",
                 "git -C", "git --git-dir", "git --work-tree", "git -c", "git --exec-path",
                 "git branch"]


def engine(ws: Path, mode: str, **kw: Any) -> PermissionEngine:
    kw["shell_allowlist"] = [*kw.get("shell_allowlist", ()), *GIT_ALLOWLIST]
    return PermissionEngine(workspace=ws, mode=mode, **kw)


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace and a private repository outside it with a secret in its history."""
    private = make_repo(tmp_path / "private")
    (private / "notes.txt").write_text(SECRET + "\n")
    sh(private, "commit", "-q", "-am", "the secret")
    ws = tmp_path / "ws"
    ws.mkdir()
    fence.forget_resolved()
    return ws, private


def plain_git(ws: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(["git", "-C", str(ws), *args], env=env, capture_output=True,
                          text=True, check=False).stdout


# ------------------------------------------------------------ metadata writes

GIT_WRITES = [
    ".git", ".git/config", ".git/commondir", ".git/hooks/post-checkout", ".git/info/attributes",
    ".git/info/exclude", ".git/objects/info/alternates", ".git/worktrees/x/gitdir",
    ".git/worktrees/x/commondir", ".git/HEAD", ".git/refs/heads/main", ".git/modules/m/config",
    ".GIT/config", "sub/.git", "sub/.git/config", ".gitmodules", ".gitattributes",
    "sub/.gitattributes", ".gitconfig", ".lfsconfig", "bare.git/config", "bare.git/hooks/x",
    "data/HEAD",
]


@pytest.mark.parametrize("rel", GIT_WRITES)
@pytest.mark.parametrize("mode", ["auto", "interactive", "custom"])
def test_a_write_into_git_metadata_always_asks(world: tuple[Path, Path], rel: str,
                                               mode: str) -> None:
    ws, _ = world
    make_repo(ws)
    sh(ws, "init", "-q", "--bare", str(ws / "bare.git"))
    sh(ws, "init", "-q", "--separate-git-dir", str(ws / "data"), str(ws / "wt2"))
    e = engine(ws, mode, auto_allow=["write_file", "replace_in_file"])
    d = e.evaluate(info("write_file", W, {"path": rel, "content": "x"}))
    if (ws / rel).is_dir():  # (a folder is never a file tool's target)
        assert verdict(d) == "deny" and "is a folder" in d.reason
    else:
        assert verdict(d) == "ask", (rel, d.reason)
        assert "git" in d.reason
    patch = f"--- a/{rel}\n+++ b/{rel}\n@@ -0,0 +1 @@\n+x\n"
    d = e.evaluate(info("apply_patch", W, {"patch": patch}))
    assert verdict(d) in ("ask", "deny") and not d.allowed, (rel, d.reason)


@pytest.mark.parametrize("command", [
    "cp x.txt .git/config", "cp x.txt .git/hooks/pre-commit", "mv x.txt .gitattributes",
    "cp x.txt sub/.git", "cp -r hooks .git", "install x.txt .git/info/alternates",
    "echo x > .git/config", "tee .git/config", "cat x.txt >> .gitmodules",
])
def test_shell_writes_into_git_metadata_never_auto_run(world: tuple[Path, Path],
                                                       command: str) -> None:
    ws, _ = world
    make_repo(ws)
    e = engine(ws, "auto", shell_allowlist=["cp", "mv", "install", "echo", "tee", "cat"])
    d = e.evaluate(info("run_shell", X, {"command": command}))
    assert verdict(d) == "ask", (command, d.reason)


@pytest.mark.parametrize("target", [
    ".git/config", ".git/hooks/pre-commit", ".gitattributes", "sub/.git", ".git",
    ".git/info/alternates", ".gitmodules",
])
def test_a_program_without_a_table_never_auto_runs_on_git_metadata(
        world: tuple[Path, Path], target: str) -> None:
    # (cp, mv and install always ask now; a program the user added without an option
    # table takes every argument as a path, which may be one it writes)
    ws, _ = world
    make_repo(ws)
    e = engine(ws, "auto", shell_allowlist=["mytool"])
    d = e.evaluate(info("run_shell", X, {"command": f"mytool {target}"}))
    assert verdict(d) == "ask" and "git" in d.reason, (target, d.reason)
    # the same program on an ordinary file still runs (the allowlist works)
    assert verdict(e.evaluate(info("run_shell", X, {"command": "mytool y.txt"}))) == "allow"


# ------------------------------------------------------- indirections (reads)


def _gitfile(ws: Path, private: Path) -> None:
    (ws / ".git").write_text(f"gitdir: {private / '.git'}\n")


def _commondir(ws: Path, private: Path) -> None:
    sh(ws, "init", "-q")
    (ws / ".git" / "commondir").write_text(str(private / ".git") + "\n")


def _alternates(ws: Path, private: Path) -> None:
    make_repo(ws)
    (ws / ".git" / "objects" / "info" / "alternates").write_text(
        str(private / ".git" / "objects") + "\n")
    sha = sh(private, "rev-parse", "HEAD").strip()
    sh(ws, "update-ref", "refs/heads/main", sha)  # (git now reads the private history)


def _worktree(ws: Path, private: Path) -> None:
    sh(private, "worktree", "add", "-q", str(private.parent / "wt"), "-b", "side")
    (ws / ".git").write_text(f"gitdir: {private / '.git' / 'worktrees' / 'wt'}\n")


def _relative_gitfile(ws: Path, private: Path) -> None:
    (ws / ".git").write_text("gitdir: ../private/.git\n")


def _nested(ws: Path, private: Path) -> None:
    (ws / "sub").mkdir()
    (ws / "sub" / ".git").write_text(f"gitdir: {private / '.git'}\n")


def _symlink(ws: Path, private: Path) -> None:
    (ws / ".git").symlink_to(private / ".git")


def _crlf_gitfile(ws: Path, private: Path) -> None:
    (ws / ".git").write_bytes(f"gitdir: {private / '.git'}\r\n\r\n".encode())


def _relative_commondir(ws: Path, private: Path) -> None:
    sh(ws, "init", "-q")
    (ws / ".git" / "commondir").write_text("../../private/.git\n")


def _alternates_chain(ws: Path, private: Path) -> None:
    """The workspace borrows from a folder inside it, which borrows from the private repo."""
    make_repo(ws)
    mid = ws / "mid" / "objects"
    (mid / "info").mkdir(parents=True)
    (mid / "info" / "alternates").write_text(str(private / ".git" / "objects") + "\n")
    (ws / ".git" / "objects" / "info" / "alternates").write_text("../../mid/objects\n")
    sh(ws, "update-ref", "refs/heads/main", sh(private, "rev-parse", "HEAD").strip())


INDIRECTIONS = {"gitfile": _gitfile, "commondir": _commondir, "alternates": _alternates,
                "worktree": _worktree, "relative-gitfile": _relative_gitfile,
                "symlink": _symlink, "crlf-gitfile": _crlf_gitfile,
                "relative-commondir": _relative_commondir, "alternates-chain": _alternates_chain}


@pytest.mark.parametrize("how", INDIRECTIONS)
def test_real_git_reads_the_outside_repo_through_each_indirection(
        world: tuple[Path, Path], how: str) -> None:
    """The control: plain git really shows the private history from the workspace."""
    ws, private = world
    INDIRECTIONS[how](ws, private)
    assert SECRET in plain_git(ws, "log", "-p", "--all") + plain_git(ws, "show", "main")


@pytest.mark.parametrize("how", INDIRECTIONS)
@pytest.mark.parametrize(("name", "args"), [
    ("git_log", {"patch": True}), ("git_show", {}), ("git_show", {"revision": "main"}),
    ("git_diff", {"revision": "HEAD~1"}), ("git_status", {}), ("git_branch", {}),
])
def test_git_tools_treat_outside_repository_data_as_an_outside_read(
        world: tuple[Path, Path], how: str, name: str, args: dict[str, Any]) -> None:
    ws, private = world
    INDIRECTIONS[how](ws, private)
    d = engine(ws, "auto").evaluate(info(name, R, args))
    assert verdict(d) == "deny", d.reason
    assert "outside the folders" in d.reason
    assert verdict(engine(ws, "interactive").evaluate(info(name, R, args))) == "ask"
    # granting the private folder makes it an ordinary read
    granted = engine(ws, "auto", read_roots=[private.parent])
    assert verdict(granted.evaluate(info(name, R, args))) == "allow"


@pytest.mark.parametrize("how", INDIRECTIONS)
@pytest.mark.parametrize("command", [
    "git log -p", "git show", "git show main", "git log --all -p", "git status",
    "git diff HEAD~1", "git cat-file -p HEAD", "git grep TOPSECRET main",
])
def test_shell_git_treats_outside_repository_data_as_an_outside_read(
        world: tuple[Path, Path], how: str, command: str) -> None:
    ws, private = world
    INDIRECTIONS[how](ws, private)
    d = engine(ws, "auto").evaluate(info("run_shell", X, {"command": command}))
    assert verdict(d) == "ask", d.reason
    assert "outside the folders" in d.reason


@pytest.mark.parametrize("command", [
    "git -C {private} log -p", "git --git-dir={private}/.git log -p",
    "git --git-dir {private}/.git show", "git --work-tree={private} status",
    "git -C sub log -p", "GIT_DIR={private}/.git git log -p", "git -C .. -C private log",
    "git -c core.fsmonitor=x status", "git --exec-path=/tmp status",
])
def test_shell_git_options_that_point_elsewhere_ask(world: tuple[Path, Path],
                                                    command: str) -> None:
    ws, private = world
    make_repo(ws)
    _nested(ws, private)
    cmd = command.format(private=private)
    d = engine(ws, "auto").evaluate(info("run_shell", X, {"command": cmd}))
    assert verdict(d) == "ask", (cmd, d.reason)


def test_an_own_repository_still_runs_without_asking(world: tuple[Path, Path]) -> None:
    ws, _ = world
    make_repo(ws)
    e = engine(ws, "auto")
    for command in ("git status", "git log -p", "git show", "git -C . log", "git diff HEAD"):
        assert verdict(e.evaluate(info("run_shell", X, {"command": command}))) == "allow"
    for name in ("git_log", "git_show", "git_status"):
        assert verdict(e.evaluate(info(name, R, {}))) == "allow"


def test_a_repository_above_the_workspace_makes_shell_git_ask(tmp_path: Path) -> None:
    """The shell's git looks above the workspace (the git tools do not)."""
    outer = make_repo(tmp_path / "home")
    ws = outer / "project"
    ws.mkdir()
    d = engine(ws, "auto").evaluate(info("run_shell", X, {"command": "git log -p"}))
    assert verdict(d) == "ask" and "outside the folders" in d.reason
    assert verdict(engine(ws, "auto").evaluate(info("git_log", R, {"patch": True}))) == "allow"


async def test_the_git_tools_themselves_do_not_return_the_outside_repo_unchecked(
        world: tuple[Path, Path]) -> None:
    """Approved (or granted), the tool reads what the check saw; git's own answer is
    compared with it before anything runs."""
    ws, private = world
    _gitfile(ws, private)
    result = await call("git_log", {"patch": True}, ws)
    assert SECRET in result.content  # the engine gates this call; the tool agrees with it
    # a .git file the check cannot read as git does asks (or is refused unattended)
    for text in ("gitdir: \n", "gitdir:/x\n", f"gitdir: {private}\nmore\n"):
        (ws / ".git").write_text(text)
        d = engine(ws, "interactive").evaluate(info("git_log", R, {}))
        assert verdict(d) == "ask" and "cannot be told" in d.reason, text
        assert verdict(engine(ws, "auto").evaluate(info("git_log", R, {}))) == "deny"
        d = engine(ws, "auto").evaluate(info("run_shell", X, {"command": "git log"}))
        assert verdict(d) == "ask" and "cannot be told" in d.reason


# ----------------------------------------------------- programs in the config


def _marker_repo(tmp_path: Path, key: str) -> tuple[Path, Path]:
    ws = make_repo(tmp_path / "ws")
    marker = tmp_path / "MARKER"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\ncat\n")
    script.chmod(0o755)
    (ws / ".gitattributes").write_text("* diff=evil filter=evil\n")
    sh(ws, "config", key, str(script))
    (ws / "notes.txt").write_text("one\ntwo\nthree\n")
    os.utime(ws / "notes.txt", (1, 1))
    return ws, marker


SHELL_VECTORS = ["core.fsmonitor", "diff.external", "core.pager", "pager.log"]


@pytest.mark.parametrize("key", SHELL_VECTORS)
async def test_the_shells_git_starts_no_fsmonitor_pager_or_external_diff(
        tmp_path: Path, key: str) -> None:
    ws, marker = _marker_repo(tmp_path, key)
    # the control: plain git runs fsmonitor and the external diff
    if key in ("core.fsmonitor", "diff.external"):
        plain_git(ws, "status")
        plain_git(ws, "diff")
        assert marker.exists()
        marker.unlink()
    ctx = ToolContext("s1", ws)
    run_shell = {t.name: t for t in shell_tools()}["run_shell"]
    try:
        for command in ("git status", "git diff", "git log -p", "git -p log", "git show"):
            result = await run_shell.handler({"command": command}, ctx)
            assert not isinstance(result, str)
            assert "exit_code" in json.loads(result.content)
    finally:
        await close_shell_state(ctx.state)
    assert not marker.exists(), marker.read_text()


@pytest.mark.parametrize("key", [
    "core.fsmonitor", "diff.external", "core.pager", "pager.log", "diff.evil.textconv",
    "diff.evil.command", "filter.evil.clean", "filter.evil.process", "core.hooksPath",
    "core.sshCommand", "include.path", "includeIf.gitdir:/.path", "core.worktree",
])
def test_a_repository_whose_settings_name_a_program_makes_shell_git_ask(
        tmp_path: Path, key: str) -> None:
    ws, _ = _marker_repo(tmp_path, key)
    d = engine(ws, "auto").evaluate(info("run_shell", X, {"command": "git status"}))
    assert verdict(d) == "ask", (key, d.reason)
    assert "settings" in d.reason


# ------------------------------------------------------------ own folders (8)


def test_a_state_folder_symlink_protects_where_it_leads(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "elsewhere").mkdir(parents=True)
    (ws / ".openworker").symlink_to(ws / "elsewhere")
    outside = tmp_path / "out"
    outside.mkdir()
    root = tmp_path / "root"  # a writable root whose .openworker leads outside it
    root.mkdir()
    (root / ".openworker").symlink_to(outside)
    for mode in ("auto", "interactive", "custom"):
        e = engine(ws, mode, auto_allow=["write_file"], writable_roots=[ws, root, outside])
        for path in ("elsewhere/config.toml", ".openworker/config.toml",
                     str(ws / "elsewhere" / "x" / "y.toml"), str(outside / "config.toml"),
                     str(root / ".openworker" / "config.toml")):
            d = e.evaluate(info("write_file", W, {"path": path, "content": "x"}))
            assert verdict(d) == "deny", (mode, path, d.reason)
            assert ".openworker" in d.reason
        # an ordinary file next to it is written as before
        assert verdict(e.evaluate(info("write_file", W, {"path": "notes.txt"}))) in (
            "allow", "ask")
        assert not e.evaluate(info("write_file", W, {"path": "notes.txt"})).reason.count(
            "own settings")


@pytest.mark.parametrize("command", [
    "mytool x.toml .openworker/config.toml", "mytool x.toml elsewhere/config.toml",
    "mytool x.toml .openworker", "mytool x.toml ./.openworker/config.toml",
    "mytool x.toml .openworker/",
    "mytool x.toml linked/config.toml",
])
def test_an_allowlisted_command_never_auto_runs_on_own_state(tmp_path: Path,
                                                             command: str) -> None:
    # (a program the user added without an option table: every argument is a path it
    # may write; cp, mv and rsync themselves always ask now)
    ws = tmp_path / "ws"
    (ws / "elsewhere").mkdir(parents=True)
    (ws / ".openworker").symlink_to(ws / "elsewhere")
    (ws / "linked").symlink_to(ws / "elsewhere")
    e = engine(ws, "auto", shell_allowlist=["mytool", "cp", "mv", "rsync"])
    d = e.evaluate(info("run_shell", X, {"command": command}))
    assert verdict(d) == "ask", (command, d.reason)
    assert "own settings" in d.reason
    assert verdict(e.evaluate(info("run_shell", X, {"command": "mytool x.toml y.toml"}))) == "allow"
    for copy in ("cp", "mv", "rsync"):
        spelled = command.replace("mytool", copy)
        assert verdict(e.evaluate(info("run_shell", X, {"command": spelled}))) == "ask"


async def test_shell_path_check_runs_a_real_copy_only_when_allowed(tmp_path: Path) -> None:
    """Checked and run against a real bash: what auto-runs really writes, and the own
    folder is untouched because the command asks."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "x.toml").write_text("mode = 'auto'\n")
    e = engine(ws, "auto", shell_allowlist=["cp"])
    ctx = ToolContext("s1", ws)
    run_shell = {t.name: t for t in shell_tools()}["run_shell"]
    try:
        for command, target in (("cp x.toml y.toml", ws / "y.toml"),
                                ("cp x.toml .openworker/config.toml",
                                 ws / ".openworker" / "config.toml")):
            (ws / ".openworker").mkdir(exist_ok=True)
            d = e.evaluate(info("run_shell", X, {"command": command}))
            if d.allowed:
                await run_shell.handler({"command": command}, ctx)
            assert target.exists() is d.allowed, command
    finally:
        await close_shell_state(ctx.state)


def test_the_tool_refuses_when_git_finds_data_the_check_did_not_see(
        world: tuple[Path, Path]) -> None:
    from openworker_qt.tools import git as g

    ws, private = world
    make_repo(ws)
    g._check_where(f"{ws / '.git'}\n{ws / '.git'}\n", 0, ws, ws.parent)  # agrees: fine
    with pytest.raises(g.GitError, match="did not see"):
        g._check_where(f"{private / '.git'}\n", 0, ws, ws.parent)


@pytest.mark.parametrize("how", [*INDIRECTIONS, "plain", "nested-start"])
def test_the_check_finds_what_real_git_finds(world: tuple[Path, Path], how: str) -> None:
    """gitdirs agrees with ``git rev-parse`` on the data folder and the common folder."""
    from openworker_qt.core import gitdirs

    ws, private = world
    if how in INDIRECTIONS:
        INDIRECTIONS[how](ws, private)
    else:
        make_repo(ws)
    start = ws
    if how == "nested-start":
        start = ws / "deep" / "er"
        start.mkdir(parents=True)
    out = plain_git(start, "rev-parse", "--path-format=absolute", "--absolute-git-dir",
                    "--git-common-dir").split()
    loc = gitdirs.git_locations(start)
    assert loc.unclear is None
    assert [str(loc.git_dir), str(loc.common_dir)] == [os.path.realpath(p) for p in out]


@pytest.mark.parametrize("hook", ["post-index-change", "reference-transaction"])
def test_a_hook_a_read_can_start_makes_shell_git_ask(tmp_path: Path, hook: str) -> None:
    ws = make_repo(tmp_path / "ws")
    marker = tmp_path / "MARKER"
    path = ws / ".git" / "hooks" / hook
    path.write_text(f"#!/bin/sh\necho {hook} >> {marker}\n")
    path.chmod(0o755)
    if hook == "post-index-change":  # the control: a racy index makes plain git diff run it
        os.utime(ws / "notes.txt", (1, 1))
        plain_git(ws, "diff")
        assert marker.exists()
    d = engine(ws, "auto").evaluate(info("run_shell", X, {"command": "git diff"}))
    assert verdict(d) == "ask" and hook in d.reason
    path.chmod(0o644)  # not runnable: no longer a reason
    assert verdict(engine(ws, "auto").evaluate(info("run_shell", X, {"command": "git diff"}))) \
        == "allow"


@pytest.mark.parametrize(("name", "args"), [
    ("git_show", {"revision": "HEAD:.env"}), ("git_show", {"revision": "HEAD:conf/secrets.yaml"}),
    ("git_show", {"revision": ":0:.env"}), ("git_diff", {"files": [".env"]}),
    ("git_log", {"patch": True, "files": ["deploy/id_rsa"]}),
])
def test_git_tools_naming_a_credential_file_ask(world: tuple[Path, Path], name: str,
                                                args: dict[str, Any]) -> None:
    ws, _ = world
    make_repo(ws)
    d = engine(ws, "auto").evaluate(info(name, R, args))
    assert verdict(d) == "ask", d.reason
    ordinary = {**args, "revision": "HEAD:notes.txt"} if "revision" in args else \
        {**args, "files": ["notes.txt"]}
    assert verdict(engine(ws, "auto").evaluate(info(name, R, ordinary))) == "allow"
