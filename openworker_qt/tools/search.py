"""Search tools: ``glob`` (files by name pattern) and ``grep`` (lines by pattern).

Both search below their ``path`` (the permission engine checks it against the read
roots, as for ``read_file``) and never leave it: symlinks found while walking are
neither followed nor listed (a link inside may point anywhere), and nothing in the
sensitive set (the session's, ``ToolContext.sensitive``: the runtime's own secrets
and :func:`openworker_qt.core.fence.default_sensitive`: keys, tokens, browser
profiles; and credential files by name anywhere, :func:`~openworker_qt.core.fence.
credential_name_reason`: ``.env`` files, histories, key files…) is ever returned. ``grep``
also skips files with other hard links (another of their names may be a secret),
binary files and files over :data:`MAX_GREP_FILE_BYTES`. Results are sorted by path
(then line) and capped.

``grep`` runs ripgrep (``rg``) when it is installed, with options that make it
search what the Python fallback searches (hidden files too, ``.gitignore`` not
applied, the same folders skipped); the fallback gives the same results for the
patterns both understand (Rust and Python regular expressions agree on the common
syntax). ``fixed=true`` searches for the text as it is.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from openworker_qt.core import fence
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.tools.files import SKIP_DIRS, _not_a_path, resolve_path

MAX_GLOB_RESULTS = 500
MAX_GREP_MATCHES = 200
MAX_GREP_COLLECT = 20_000  # matches gathered before sorting; beyond this the search stops
MAX_GREP_FILE_BYTES = 10 * 1024 * 1024
MAX_MATCH_CHARS = 300
RG_TIMEOUT = 120.0


def _walk(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    """Regular files below ``root`` (relative paths with ``/``, and their lstat),
    never through a symlink, skipping :data:`SKIP_DIRS`."""
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            with os.scandir(root / rel if rel else root) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            name = f"{rel}/{entry.name}" if rel else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                if entry.name not in SKIP_DIRS:
                    stack.append(name)
            elif stat.S_ISREG(st.st_mode):
                yield name, st


class _Fence:
    """Drops results in the sensitive set."""

    def __init__(self, workspace: Path, sensitive: tuple[str, ...] | None = None) -> None:
        self.workspace = workspace
        self.sensitive = fence.default_sensitive() if sensitive is None else sensitive

    def hides(self, path: Path) -> bool:
        forms = fence.path_forms(str(path), self.workspace)
        return fence.sensitive_reason(forms, self.sensitive, self.workspace) is not None


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob (``*``, ``?``, ``[...]``, ``**`` for any folders) as a regex over
    ``/``-separated relative paths."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = pattern.find("]", i + 1)
            if end < 0:
                out.append(re.escape(c))
                i += 1
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                out.append("[^" + body[1:] + "]" if body.startswith("!") else "[" + body + "]")
                i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _glob(root: Path, pattern: str, workspace: Path,
          sensitive: tuple[str, ...] | None = None) -> ToolResult:
    if not root.is_dir():
        return ToolResult(f"Error: {root} is not a folder.", is_error=True)
    rx = glob_regex(pattern.lstrip("/").removeprefix("./"))
    guard = _Fence(workspace, sensitive)
    hits = sorted(name for name, _st in _walk(root) if rx.match(name))
    shown = [h for h in hits if not guard.hides(root / h)]
    more = len(shown) > MAX_GLOB_RESULTS
    shown = shown[:MAX_GLOB_RESULTS]
    text = "\n".join(shown) if shown else f"(no file matches {pattern!r})"
    if more:
        text += f"\n[… more files; showing the first {MAX_GLOB_RESULTS}. Narrow the pattern.]"
    return ToolResult(text, display={"path": str(root), "files": len(shown)})


async def glob_files(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    pattern = args.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        return ToolResult("Error: 'pattern' (e.g. **/*.py) is required.", is_error=True)
    raw = str(args.get("path") or ".")
    if (refused := _not_a_path(raw)) is not None:
        return refused
    return await asyncio.to_thread(_glob, resolve_path(ctx, raw), pattern, ctx.workspace.resolve(),
                                   ctx.sensitive)


# -------------------------------------------------------------------- grep

Match = tuple[str, int, str]  # (relative path, line number, line)


def grep_python(root: Path, pattern: str, *, ignore_case: bool = False, fixed: bool = False,
                ) -> tuple[list[Match], bool]:
    """The fallback: (matches, stopped early). Raises ``re.error`` for a bad pattern."""
    flags = re.IGNORECASE if ignore_case else 0
    rx = re.compile(re.escape(pattern) if fixed else pattern, flags)
    out: list[Match] = []
    files = [(root.name, root.stat())] if root.is_file() else _walk(root)
    base = root.parent if root.is_file() else root
    for name, st in files:
        if st.st_nlink > 1 or st.st_size > MAX_GREP_FILE_BYTES:
            continue
        try:
            data = (base / name).read_bytes()
        except OSError:
            continue
        if b"\x00" in data:
            continue
        text = data.decode("utf-8", errors="replace")
        rows = text.split("\n")
        if text.endswith("\n"):
            rows.pop()
        for n, line in enumerate(rows, 1):
            line = line.removesuffix("\r")
            if rx.search(line):
                out.append((name, n, line))
                if len(out) >= MAX_GREP_COLLECT:
                    return out, True
    return out, False


def _rg_command(rg: str, pattern: str, ignore_case: bool, fixed: bool) -> list[str]:
    cmd = [rg, "--no-config", "--line-number", "--with-filename", "--no-heading", "--null",
           "--color", "never", "--no-ignore", "--hidden", "--no-messages",
           "--max-filesize", str(MAX_GREP_FILE_BYTES), "--crlf"]
    for d in sorted(SKIP_DIRS):
        cmd += ["--glob", f"!{d}/"]
    if ignore_case:
        cmd.append("--ignore-case")
    if fixed:
        cmd.append("--fixed-strings")
    return [*cmd, "--regexp", pattern]


def grep_rg(rg: str, root: Path, pattern: str, *, ignore_case: bool = False, fixed: bool = False,
            ) -> tuple[list[Match], bool]:
    """Through ripgrep: (matches, stopped early). Raises ``ValueError`` for a bad pattern."""
    cwd, target = (root.parent, root.name) if root.is_file() else (root, ".")
    cmd = [*_rg_command(rg, pattern, ignore_case, fixed), "--", target]
    out: list[Match] = []
    stopped = False
    with subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        for raw in proc.stdout:
            name_b, _, rest = raw.partition(b"\0")
            num_b, _, line_b = rest.partition(b":")
            name = os.fsdecode(name_b).removeprefix("./")
            line = line_b.decode("utf-8", errors="replace").rstrip("\n").removesuffix("\r")
            out.append((name, int(num_b), line))
            if len(out) >= MAX_GREP_COLLECT:
                stopped = True
                proc.kill()
                break
        _, err = proc.communicate(timeout=RG_TIMEOUT)
        if proc.returncode == 2 and not out and not stopped:
            raise ValueError(err.decode("utf-8", errors="replace").strip() or "ripgrep failed")
    if not out:
        return out, stopped
    # What the walk skips: symlinks rg met (it does not follow them, but names a linked
    # file given by name), files with other hard links.
    keep: dict[str, bool] = {}
    base = cwd
    kept: list[Match] = []
    for m in out:
        ok = keep.get(m[0])
        if ok is None:
            try:
                st = os.lstat(base / m[0])
                ok = keep[m[0]] = stat.S_ISREG(st.st_mode) and st.st_nlink == 1
            except OSError:
                ok = keep[m[0]] = False
        if ok:
            kept.append(m)
    return kept, stopped


def _grep(root: Path, pattern: str, ignore_case: bool, fixed: bool, workspace: Path,
          use_rg: bool = True, sensitive: tuple[str, ...] | None = None) -> ToolResult:
    if not root.exists():
        return ToolResult(f"Error: {root} does not exist.", is_error=True)
    rg = shutil.which("rg") if use_rg else None
    try:
        if rg:
            matches, stopped = grep_rg(rg, root, pattern, ignore_case=ignore_case, fixed=fixed)
        else:
            matches, stopped = grep_python(root, pattern, ignore_case=ignore_case, fixed=fixed)
    except (re.error, ValueError) as exc:
        return ToolResult(f"Error: {pattern!r} is not a valid regular expression ({exc}). "
                          "Pass fixed=true to search for the text as it is.", is_error=True)
    base = root.parent if root.is_file() else root
    guard = _Fence(workspace, sensitive)
    hidden: dict[str, bool] = {}
    shown: list[Match] = []
    for m in sorted(matches):
        h = hidden.get(m[0])
        if h is None:
            h = hidden[m[0]] = guard.hides(base / m[0])
        if not h:
            shown.append(m)
    total = len(shown)
    lines = [f"{name}:{n}:{_clip(line)}" for name, n, line in shown[:MAX_GREP_MATCHES]]
    text = "\n".join(lines) if lines else f"(no line matches {pattern!r})"
    if total > MAX_GREP_MATCHES or stopped:
        count = f"{total}+" if stopped else str(total)
        text += (f"\n[{count} matching lines; showing the first {MAX_GREP_MATCHES}. "
                 "Narrow the pattern or the path.]")
    return ToolResult(text, display={"path": str(root), "matches": total})


def _clip(line: str) -> str:
    line = line.strip("\r")
    return line if len(line) <= MAX_MATCH_CHARS else line[:MAX_MATCH_CHARS] + "…"


async def grep(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    pattern = args.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        return ToolResult("Error: 'pattern' is required.", is_error=True)
    raw = str(args.get("path") or ".")
    if (refused := _not_a_path(raw)) is not None:
        return refused
    return await asyncio.to_thread(
        _grep, resolve_path(ctx, raw), pattern, bool(args.get("ignore_case")),
        bool(args.get("fixed")), ctx.workspace.resolve(), True, ctx.sensitive,
    )


GLOB = Tool(
    name="glob",
    description=(
        "Find files by name pattern below a folder (default the workspace): '*' and '?' "
        "within a name, '**/' for any folders (e.g. '**/*.py', 'docs/*.md'). Sorted, capped."
    ),
    parameters={
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "path": {"type": "string", "description": "Folder to search; default the workspace."},
        },
        "required": ["pattern"],
    },
    handler=glob_files,
    risk=RiskClass.READ,
    target_arg="path",
    concurrency_safe=True,
)

GREP = Tool(
    name="grep",
    description=(
        "Search file contents for a regular expression below a folder or in one file "
        "(default the workspace). Returns path:line:text, sorted and capped. "
        "fixed=true searches for the text as it is; ignore_case=true ignores case."
    ),
    parameters={
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "path": {"type": "string", "description": "Folder or file; default the workspace."},
            "ignore_case": {"type": "boolean"},
            "fixed": {"type": "boolean"},
        },
        "required": ["pattern"],
    },
    handler=grep,
    risk=RiskClass.READ,
    target_arg="path",
    concurrency_safe=True,
)


def search_tools() -> list[Tool]:
    return [GLOB, GREP]
