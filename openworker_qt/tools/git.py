"""Git tools: status, diff, log, show, branch (reads) and commit (a local write).

Every call runs the real ``git`` as a subprocess (no shell) in a clean
environment, so a repository the model can write cannot make a read run a
program:

- no ``GIT_*`` variable of ours reaches git (the repo is the ``path`` argument —
  default the workspace — never a ``GIT_DIR``/``GIT_WORK_TREE`` the model could
  name); ``GIT_CONFIG_NOSYSTEM``, ``GIT_TERMINAL_PROMPT=0``,
  ``GIT_OPTIONAL_LOCKS=0`` (status does not rewrite the index),
  ``GIT_LITERAL_PATHSPECS=1`` (a file name is a name, never pathspec magic);
- hooks (``core.hooksPath=/dev/null``), fsmonitor, pager, external diff, the
  ssh command, credential helpers, GPG signing/verification and the editor are
  switched off with ``-c`` overrides, and ``--no-ext-diff --no-textconv`` and
  ``--ignore-submodules=all`` are passed where the subcommand takes them;
- the repository's configuration is read first (reading it runs nothing) and
  every key that names a program — a clean/smudge/process filter, a diff
  driver's ``command``/``textconv``, a merge driver, ``*.program`` … — is
  overridden to empty for the call. Aliases are never used: the subcommand is
  always ours.

A repository that sets ``core.worktree`` (its files elsewhere) is refused. The
repository must be the folder given (or hold it): git does not look above
the workspace's parent folder for a ``.git`` (``GIT_CEILING_DIRECTORIES``), so a
workspace inside a larger repository reads as "not a repository" rather than
reading files outside the folders the session may read.

``git_commit`` keeps hooks disabled too: the model must never run a repository's
hooks implicitly (a pre-commit hook is a program the repository chose). The
approval shows the message and the staged diff (:func:`commit_preview`).
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openworker_qt.core import gitdirs
from openworker_qt.core.fence import not_a_path
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult

TIMEOUT = 30.0
MAX_LINES = 400
MAX_CHARS = 60_000
MAX_LOG = 200
DEFAULT_LOG = 20

#: Overrides on every call.
SAFE_CONFIG: tuple[str, ...] = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "core.pager=cat",
    "core.editor=false",
    "sequence.editor=false",
    "core.askPass=",
    "core.sshCommand=false",
    "core.gitProxy=",
    "credential.helper=",
    "diff.external=",
    "diff.submodule=short",
    "diff.ignoreSubmodules=all",
    "status.submoduleSummary=false",
    "submodule.recurse=false",
    "commit.gpgSign=false",
    "tag.gpgSign=false",
    "log.showSignature=false",
    "gpg.program=false",
    "gpg.ssh.program=false",
    "gpg.x509.program=false",
    "interactive.diffFilter=",
    "color.ui=false",
    "protocol.allow=never",
)

#: Configuration keys that name a program (matched case-insensitively on the full key), and
#: a filter's ``required`` flag (its program being off, the file reads as it is on disk).
_PROGRAM_KEY = re.compile(
    r"^(filter\..+\.(clean|smudge|process|required)"
    r"|diff\..+\.(command|textconv)"
    r"|merge\..+\.driver"
    r"|pager\..+|.*\.program|.*command|.*helper|.*hook.*|.*editor|.*askpass)$",
    re.IGNORECASE,
)

_DROPPED_ENV = ("PAGER", "EDITOR", "VISUAL", "SSH_ASKPASS", "LESSOPEN", "LESSCLOSE")


class GitError(Exception):
    """A git call that could not run or failed; the message is for the model and the user."""


def git_env(ceiling: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GIT_") and k not in _DROPPED_ENV}
    env.update({
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_LITERAL_PATHSPECS": "1",
        "GIT_PAGER": "cat",
        "PAGER": "cat",
        "GIT_EDITOR": "false",
        "GIT_ASKPASS": "",
        "LC_ALL": "C",
    })
    if ceiling is not None:
        env["GIT_CEILING_DIRECTORIES"] = str(ceiling)
    return env


#: Set for every git the persistent shell runs (``GIT_CONFIG_COUNT``/``KEY_n``/
#: ``VALUE_n`` beat a repository's own config): a read never starts the
#: repository's fsmonitor, pager or external diff program, and with
#: ``GIT_OPTIONAL_LOCKS=0`` ``git status`` does not rewrite the index (which would
#: run the ``post-index-change`` hook). Hooks and the ssh command otherwise stay as
#: the user set them: only commands that ask (commit, push…) run them.
SHELL_SAFE_CONFIG: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.pager", "cat"),
    ("diff.external", ""),
    ("core.untrackedCache", "false"),
    ("protocol.ext.allow", "never"),
)


def shell_git_env() -> dict[str, str]:
    """The environment entries that give the persistent shell's git the safe settings."""
    env = {"GIT_PAGER": "cat", "GIT_OPTIONAL_LOCKS": "0",
           "GIT_CONFIG_COUNT": str(len(SHELL_SAFE_CONFIG))}
    for n, (key, value) in enumerate(SHELL_SAFE_CONFIG):
        env[f"GIT_CONFIG_KEY_{n}"] = key
        env[f"GIT_CONFIG_VALUE_{n}"] = value
    return env


def _base(repo: Path, extra_config: Sequence[str]) -> list[str]:
    argv = ["git", "--no-pager", "-C", str(repo)]
    for item in (*SAFE_CONFIG, *extra_config):
        argv += ["-c", item]
    return argv


def program_overrides(config_listing: str) -> list[str]:
    """``key=`` overrides for every key of a ``git config -l -z`` listing that names a program."""
    keys: list[str] = []
    for entry in config_listing.split("\0"):
        key = entry.split("\n", 1)[0].strip()
        if key and _PROGRAM_KEY.match(key) and key.lower() not in (k.lower() for k in keys):
            keys.append(key)
    # core.fsmonitor / core.hooksPath are already set to safe values above.
    return [f"{k}=" for k in keys if k.lower() not in ("core.fsmonitor", "core.hookspath")]


def _check_listing(config_listing: str, repo: Path) -> None:
    """Refuse a repository whose configuration moves its working tree elsewhere
    (``core.worktree``): git would read files outside the folder that was checked."""
    for entry in config_listing.split("\0"):
        if entry.split("\n", 1)[0].strip().lower() == "core.worktree":
            raise GitError(
                f"The repository at {repo} sets core.worktree (its files live in another "
                "folder); the git tools only read repositories whose files are in their own folder.")


def _ceiling(repo: Path, workspace: Path) -> Path:
    ws = workspace.resolve()
    return ws.parent if repo == ws or repo.is_relative_to(ws) else repo.parent


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _failure(code: int, err: str, repo: Path) -> GitError:
    text = err.strip()
    low = text.lower()
    if "not a git repository" in low:
        return GitError(f"{repo} is not inside a git repository.")
    if ("unknown revision" in low or "bad revision" in low or "bad object" in low
            or "ambiguous argument" in low or "invalid object name" in low):
        return GitError(f"git could not find that revision: {text.splitlines()[-1]}")
    if "does not have any commits yet" in low:
        return GitError(f"The repository at {repo} has no commits yet.")
    return GitError(f"git failed (exit {code}): {text[-2000:] or 'no message'}")


# ----------------------------------------------------------------- async runner


async def _spawn(argv: list[str], env: dict[str, str]) -> asyncio.subprocess.Process:
    try:
        return await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True)
    except FileNotFoundError as exc:
        raise GitError("git is not installed (or not on the PATH).") from exc


async def _collect(proc: asyncio.subprocess.Process, max_chars: int) -> tuple[bytes, int, bytes]:
    """Stdout's head (at most ``max_chars`` bytes), its total line count, and stderr."""
    assert proc.stdout is not None and proc.stderr is not None
    head = bytearray()
    lines = 0
    err_task = asyncio.ensure_future(_drain(proc.stderr, 1 << 16))
    try:
        while chunk := await proc.stdout.read(1 << 16):
            lines += chunk.count(b"\n")
            if len(head) < max_chars:
                head += chunk[: max_chars - len(head)]
        await proc.wait()
        return bytes(head), lines, await err_task
    finally:
        err_task.cancel()


async def _drain(stream: asyncio.StreamReader, keep: int) -> bytes:
    """Read ``stream`` to its end (so git never blocks writing it), keeping its last bytes."""
    tail = b""
    while chunk := await stream.read(1 << 16):
        tail = (tail + chunk)[-keep:]
    return tail


_WHERE = ["rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-common-dir"]


def _check_where(where: str, code: int, repo: Path, ceiling: Path) -> None:
    """Refuse when git finds the repository's data somewhere the permission check did
    not look (:func:`~openworker_qt.core.gitdirs.git_locations` is what it checked)."""
    if code != 0:
        return  # not a repository: the command itself says so
    expected = gitdirs.git_locations(repo, ceiling).folders()
    for line in where.splitlines():
        if line.strip() and Path(os.path.realpath(line.strip())) not in expected:
            raise GitError(
                f"git finds the data of the repository at {repo} in {line.strip()}, which "
                "the permission check did not see; the git tools do not read it.")


async def run_git(
    repo: Path, args: Sequence[str], *, workspace: Path, time_limit: float = TIMEOUT,
    max_chars: int = MAX_CHARS, ok_codes: Sequence[int] = (0,),
) -> tuple[str, int, int]:
    """Run ``git <args>`` safely in ``repo``: (stdout head, its line count, exit code)."""
    ceiling = await asyncio.to_thread(_ceiling, repo, workspace)  # resolve() reads the disk
    env = git_env(ceiling)
    where, _, code, _ = await _run(_base(repo, ()) + _WHERE, env, time_limit, 1 << 16)
    await asyncio.to_thread(_check_where, where, code, repo, ceiling)
    listing, _, code, _ = await _run(_base(repo, ()) + ["config", "--list", "-z"], env,
                                     time_limit, 1 << 20)
    if code == 0:
        _check_listing(listing, repo)
    extra = program_overrides(listing) if code == 0 else []
    out, lines, code, err = await _run(_base(repo, extra) + list(args), env, time_limit,
                                       max_chars)
    if code not in ok_codes:
        raise _failure(code, err, repo)
    return out, lines, code


async def _run(argv: list[str], env: dict[str, str], time_limit: float,
               max_chars: int) -> tuple[str, int, int, str]:
    proc = await _spawn(argv, env)
    try:
        out, lines, err = await asyncio.wait_for(_collect(proc, max_chars), time_limit)
    except TimeoutError:
        _kill(proc.pid)
        await proc.wait()
        raise GitError(f"git took longer than {time_limit:g} s and was stopped.") from None
    except BaseException:
        _kill(proc.pid)
        raise
    assert proc.returncode is not None
    return _decode(out), lines, proc.returncode, _decode(err)


def _kill(pid: int) -> None:
    try:
        os.killpg(pid, 9)
    except (ProcessLookupError, PermissionError, OSError):
        pass


# ------------------------------------------------------------------ sync runner


def run_git_sync(repo: Path, args: Sequence[str], *, workspace: Path,
                 timeout: float = TIMEOUT) -> str:
    """The blocking twin of :func:`run_git` (for a worker thread): stdout, or GitError."""
    ceiling = _ceiling(repo, workspace)
    env = git_env(ceiling)
    try:
        where = subprocess.run(
            _base(repo, ()) + _WHERE, env=env, capture_output=True,
            stdin=subprocess.DEVNULL, timeout=timeout, check=False)
        _check_where(_decode(where.stdout), where.returncode, repo, ceiling)
        listing = subprocess.run(
            _base(repo, ()) + ["config", "--list", "-z"], env=env, capture_output=True,
            stdin=subprocess.DEVNULL, timeout=timeout, check=False)
        if listing.returncode == 0:
            _check_listing(_decode(listing.stdout), repo)
        extra = program_overrides(_decode(listing.stdout)) if listing.returncode == 0 else []
        done = subprocess.run(
            _base(repo, extra) + list(args), env=env, capture_output=True,
            stdin=subprocess.DEVNULL, timeout=timeout, check=False)
    except FileNotFoundError as exc:
        raise GitError("git is not installed (or not on the PATH).") from exc
    except subprocess.TimeoutExpired as exc:
        raise GitError(f"git took longer than {timeout:g} s and was stopped.") from exc
    if done.returncode != 0:
        raise _failure(done.returncode, _decode(done.stderr), repo)
    return _decode(done.stdout)


# --------------------------------------------------------------------- helpers


def _repo_of(args: dict[str, Any], ctx: ToolContext) -> Path:
    raw = args.get("path")
    raw = "." if raw in (None, "") else str(raw)
    why = not_a_path(raw)
    if why:
        raise GitError(f"{why}.")
    p = Path(os.path.expanduser(raw))
    repo = (p if p.is_absolute() else ctx.workspace / p).resolve()
    if not repo.exists():
        raise GitError(f"{repo} does not exist.")
    return repo if repo.is_dir() else repo.parent


def _revision(value: Any, name: str = "revision") -> str | None:
    if value in (None, ""):
        return None
    text = str(value).strip()
    if not text or text.startswith("-") or any(c in text for c in "\0\n\r"):
        raise GitError(f"{name} {value!r} is not a revision (it may not start with '-').")
    return text


def _files(value: Any, name: str = "files") -> list[str]:
    if value in (None, "", []):
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) and i for i in items):
        raise GitError(f"{name} must be a list of file paths.")
    for item in items:
        why = not_a_path(item)
        if why:
            raise GitError(f"{item!r}: {why}.")
    return list(items)


def _staging(args: dict[str, Any], workspace: Path) -> list[str]:
    """The ``paths`` to stage, made absolute (they are relative to the workspace, as the
    permission check reads them)."""
    out = []
    for raw in _files(args.get("paths"), "paths"):
        p = Path(os.path.expanduser(raw))
        out.append(str(p if p.is_absolute() else workspace / p))
    return out


def _capped(text: str, lines: int, *, hint: str = "") -> str:
    """Keep the head: at most MAX_LINES lines, with a note of how many more there were."""
    kept = text.splitlines()
    if len(kept) > MAX_LINES:
        kept = kept[:MAX_LINES]
    shown = len(kept)
    body = "\n".join(kept)
    if lines > shown:
        body += f"\n… {lines - shown} more lines" + (f" ({hint})" if hint else "")
    return body


def _wrap(fn: Any) -> Any:
    async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            result: ToolResult = await fn(args, ctx)
            return result
        except GitError as exc:
            return ToolResult(f"Error: {exc}", is_error=True)
    return handler


# ----------------------------------------------------------------------- reads

_DIFF_FLAGS = ["--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=all"]


async def git_status(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    repo = await asyncio.to_thread(_repo_of, args, ctx)
    out, lines, _ = await run_git(
        repo, ["status", "--short", "--branch", "--untracked-files=normal",
               "--ignore-submodules=all", "--no-renames"], workspace=ctx.workspace)
    text = _capped(out, lines) if out.strip() else "(no output)"
    if lines <= 1:
        text += "\nNothing to commit: the working tree is clean."
    return ToolResult(text, display={"path": str(repo)})


async def git_diff(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    repo = await asyncio.to_thread(_repo_of, args, ctx)
    argv = ["diff", *_DIFF_FLAGS]
    if args.get("staged"):
        argv.append("--cached")
    if (rev := _revision(args.get("revision"))) is not None:
        argv.append(rev)
    argv += ["--", *_files(args.get("files"))]
    out, lines, _ = await run_git(repo, argv, workspace=ctx.workspace)
    if not out.strip():
        what = "staged " if args.get("staged") else ""
        return ToolResult(f"No {what}differences.", display={"path": str(repo)})
    return ToolResult(_capped(out, lines, hint="narrow it with files"),
                      display={"path": str(repo), "lines": lines})


async def git_log(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    repo = await asyncio.to_thread(_repo_of, args, ctx)
    count = args.get("max_count", DEFAULT_LOG)
    if isinstance(count, bool) or not isinstance(count, int | str) or not str(count).isdigit() \
            or int(count) < 1:
        raise GitError(f"max_count must be a whole number of 1 or more; got {count!r}.")
    argv = ["log", "--no-color", "--no-show-signature", f"--max-count={min(int(count), MAX_LOG)}",
            "--date=short", "--format=%h %ad %an%d%n    %s"]
    if args.get("patch"):
        argv += ["--patch", *_DIFF_FLAGS]
    if (rev := _revision(args.get("revision"))) is not None:
        argv.append(rev)
    argv += ["--", *_files(args.get("files"))]
    out, lines, _ = await run_git(repo, argv, workspace=ctx.workspace)
    if not out.strip():
        return ToolResult("No commits.", display={"path": str(repo)})
    return ToolResult(_capped(out, lines, hint="lower max_count or narrow it with files"),
                      display={"path": str(repo)})


async def git_show(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    repo = await asyncio.to_thread(_repo_of, args, ctx)
    rev = _revision(args.get("revision")) or "HEAD"
    argv = ["show", "--no-show-signature", "--stat", "--patch", *_DIFF_FLAGS, rev, "--"]
    out, lines, _ = await run_git(repo, argv, workspace=ctx.workspace)
    return ToolResult(_capped(out, lines, hint="use git_diff with files for one file"),
                      display={"path": str(repo)})


async def git_branch(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    repo = await asyncio.to_thread(_repo_of, args, ctx)
    argv = ["branch", "--list", "--no-color", "-vv"]
    if args.get("all"):
        argv.append("--all")
    out, lines, _ = await run_git(repo, argv, workspace=ctx.workspace)
    return ToolResult(_capped(out, lines) if out.strip() else "No branches yet.",
                      display={"path": str(repo)})


# ---------------------------------------------------------------------- commit


async def _own_git_folder(repo: Path, workspace: Path) -> None:
    """Refuse to commit where the repository's data lives outside its own folder (a
    ``.git`` file pointing elsewhere): the write would land where nothing checked it."""
    out, _, _ = await run_git(repo, ["rev-parse", "--path-format=absolute", "--show-toplevel",
                                     "--absolute-git-dir", "--git-common-dir"],
                              workspace=workspace)
    top, *data = out.strip().split("\n")
    for git_dir in data:
        if not Path(git_dir).is_relative_to(Path(top)):
            raise GitError(
                f"The repository at {top} keeps its data in {git_dir}, outside its own folder; "
                "git_commit only commits in repositories whose .git folder is inside them.")


async def git_commit(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    message = args.get("message")
    if not isinstance(message, str) or not message.strip():
        raise GitError("'message' is required: say what the commit changes.")
    repo = await asyncio.to_thread(_repo_of, args, ctx)
    paths = _staging(args, ctx.workspace)
    await _own_git_folder(repo, ctx.workspace)
    if paths:
        await run_git(repo, ["add", "--", *paths], workspace=ctx.workspace)
    _, _, code = await run_git(repo, ["diff", "--cached", "--quiet", "--no-ext-diff",
                                      "--ignore-submodules=all"],
                               workspace=ctx.workspace, ok_codes=(0, 1))
    if code == 0:
        raise GitError("Nothing is staged to commit. Pass 'paths' to stage files first.")
    await run_git(repo, ["commit", "--no-verify", "--no-edit", "--cleanup=strip",
                         "-m", message], workspace=ctx.workspace)
    out, lines, _ = await run_git(
        repo, ["show", "--no-color", "--no-show-signature", "--stat", "--no-ext-diff",
               "--format=%H%n%s", "HEAD", "--"], workspace=ctx.workspace)
    sha = out.split("\n", 1)[0]
    return ToolResult(f"Committed {sha[:12]}.\n" + _capped(out, lines),
                      display={"path": str(repo), "commit": sha})


def commit_preview(arguments: dict[str, Any], workspace: Path) -> str | None:
    """What a ``git_commit`` call would commit: its message and the staged diff.

    Blocking (run it in a worker). Files named in ``paths`` are shown as they would
    be staged (their diff against HEAD, or as new files)."""
    message = arguments.get("message")
    ctx = ToolContext(session_id="", workspace=workspace)
    try:
        repo = _repo_of(arguments, ctx)
        paths = _staging(arguments, workspace)
        staged = run_git_sync(repo, ["diff", "--cached", *_DIFF_FLAGS], workspace=workspace)
        parts = [f"Commit message:\n{message if isinstance(message, str) else ''}\n"]
        parts.append("Staged changes:\n" + (staged or "(nothing staged)\n"))
        if paths:
            unstaged = run_git_sync(repo, ["diff", *_DIFF_FLAGS, "--", *paths],
                                    workspace=workspace)
            new = run_git_sync(repo, ["ls-files", "--others", "--exclude-standard", "--", *paths],
                               workspace=workspace)
            parts.append("To be staged first:\n" + (unstaged or ""))
            parts += [f"new file: {name}\n" for name in new.splitlines()]
    except GitError as exc:
        return f"Error: {exc}"
    return "".join(parts)


# ----------------------------------------------------------------------- tools

_PATH = {"type": "string",
         "description": "The repository folder (default: the workspace)."}
_FILES = {"type": "array", "items": {"type": "string"},
          "description": "Limit to these files (paths inside the repository)."}

GIT_STATUS = Tool(
    name="git_status",
    description="Show the branch and which files are changed, staged or untracked.",
    parameters={"type": "object", "properties": {"path": _PATH}},
    handler=_wrap(git_status), risk=RiskClass.READ, target_arg="path", concurrency_safe=True,
)

GIT_DIFF = Tool(
    name="git_diff",
    description=("Show changes as a unified diff: unstaged by default, staged=true for the "
                 "index, or against a revision."),
    parameters={"type": "object", "properties": {
        "path": _PATH, "staged": {"type": "boolean"},
        "revision": {"type": "string", "description": "Compare against this commit/branch."},
        "files": _FILES}},
    handler=_wrap(git_diff), risk=RiskClass.READ, target_arg="path", concurrency_safe=True,
)

GIT_LOG = Tool(
    name="git_log",
    description="List recent commits (newest first); patch=true includes their diffs.",
    parameters={"type": "object", "properties": {
        "path": _PATH,
        "revision": {"type": "string", "description": "Start from this commit/branch/range."},
        "max_count": {"type": "integer", "minimum": 1, "maximum": MAX_LOG},
        "patch": {"type": "boolean"}, "files": _FILES}},
    handler=_wrap(git_log), risk=RiskClass.READ, target_arg="path", concurrency_safe=True,
)

GIT_SHOW = Tool(
    name="git_show",
    description="Show one commit (message, changed files, diff); default HEAD.",
    parameters={"type": "object", "properties": {
        "path": _PATH, "revision": {"type": "string"}}},
    handler=_wrap(git_show), risk=RiskClass.READ, target_arg="path", concurrency_safe=True,
)

GIT_BRANCH = Tool(
    name="git_branch",
    description="List branches (the current one marked *); all=true includes remote ones.",
    parameters={"type": "object", "properties": {"path": _PATH, "all": {"type": "boolean"}}},
    handler=_wrap(git_branch), risk=RiskClass.READ, target_arg="path", concurrency_safe=True,
)

GIT_COMMIT = Tool(
    name="git_commit",
    description=("Commit what is staged, with a message. Pass paths to stage those files "
                 "first. Repository hooks do not run."),
    parameters={"type": "object", "properties": {
        "message": {"type": "string"}, "path": _PATH,
        "paths": {"type": "array", "items": {"type": "string"},
                  "description": "Files to stage before committing (relative to the workspace)."}},
        "required": ["message"]},
    handler=_wrap(git_commit), risk=RiskClass.WRITE_LOCAL, target_arg="path",
)


def git_tools() -> list[Tool]:
    return [GIT_STATUS, GIT_DIFF, GIT_LOG, GIT_SHOW, GIT_BRANCH, GIT_COMMIT]
