"""Edit tools: ``replace_in_file`` (one exact replacement) and ``apply_patch`` (a
unified diff, all or nothing).

Both write through :func:`openworker_qt.tools.files._write` (atomic, the file's
permission bits kept, a folder refused). ``replace_in_file`` names its file as its
target; ``apply_patch`` has no single target: the permission engine checks every
path its patch touches (:func:`openworker_qt.core.permissions.default_write_paths`,
with the same parser this module applies with).

A replacement whose text is missing says so and shows the closest passages of the
file (difflib), with their line numbers; one whose text occurs more than once says
where and asks for more context (or ``replace_all``). A patch is applied in memory
first: if one hunk does not apply, the error names it and nothing is written.

:func:`edit_preview` is the diff the approval shows for either tool.
"""

from __future__ import annotations

import asyncio
import difflib
import os
from pathlib import Path
from typing import Any

from openworker_qt.core.fence import names_a_folder, not_a_path
from openworker_qt.core.patch import FilePatch, PatchError, apply_file_patch, parse_patch
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.tools.files import (
    MAX_READ_BYTES,
    _is_a_folder,
    _write,
    binary_kind,
    resolve_path,
    size_text,
)

MAX_CANDIDATES = 3
MAX_PREVIEW = 20_000


class EditError(ValueError):
    """A clear, user-facing reason the edit cannot be made."""


def read_text(path: Path) -> str:
    """The text of an existing file, or :class:`EditError` saying why not."""
    if not path.exists():
        raise EditError(f"{path} does not exist.")
    if path.is_dir():
        raise EditError(f"{path} is a folder, not a file.")
    size = path.stat().st_size
    if size > MAX_READ_BYTES:
        raise EditError(f"{path} is {size_text(size)}, more than the {size_text(MAX_READ_BYTES)} "
                        "an edit may change.")
    data = path.read_bytes()
    kind = binary_kind(data[:8192])
    if kind is not None:
        raise EditError(f"{path} is {kind}, not text; it cannot be edited as text.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EditError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}).") from exc


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def closest(text: str, wanted: str, n: int = MAX_CANDIDATES) -> list[tuple[int, str, float]]:
    """The passages of ``text`` most like ``wanted``: (first line, passage, ratio),
    best first. Passages are as many lines long as ``wanted``."""
    lines = text.splitlines()
    size = max(len(wanted.splitlines()), 1)
    scored: list[tuple[float, int, str]] = []
    for i in range(0, max(len(lines) - size + 1, 1)):
        passage = "\n".join(lines[i : i + size])
        m = difflib.SequenceMatcher(None, passage, wanted, autojunk=False)
        if m.real_quick_ratio() < 0.3 or m.quick_ratio() < 0.3:
            continue
        scored.append((m.ratio(), i + 1, passage))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(line, passage, ratio) for ratio, line, passage in scored[:n] if ratio >= 0.3]


def replaced(text: str, old: str, new: str, replace_all: bool, path: Path) -> tuple[str, int]:
    """``text`` with ``old`` replaced by ``new`` and the count; :class:`EditError` when
    ``old`` is missing or (without ``replace_all``) occurs more than once."""
    if not old:
        raise EditError("old_string is empty; give the exact text to replace.")
    if old == new:
        raise EditError("old_string and new_string are the same; nothing would change.")
    count = text.count(old)
    if count == 0:
        found = closest(text, old)
        msg = f"old_string was not found in {path}."
        if found:
            msg += " The closest passages are:\n" + "\n".join(
                f"--- line {line} ({ratio:.0%} alike):\n{passage}" for line, passage, ratio in found
            )
            msg += "\nCopy the text exactly (spaces, tabs and line breaks count)."
        raise EditError(msg)
    if count > 1 and not replace_all:
        at, starts = 0, list[int]()
        while len(starts) < 10:
            at = text.find(old, at)
            if at < 0:
                break
            starts.append(_line_of(text, at))
            at += len(old)
        where = ", ".join(str(n) for n in starts) + (" …" if count > len(starts) else "")
        raise EditError(
            f"old_string occurs {count} times in {path} (at lines {where}). Include more "
            "surrounding text so it occurs once, or pass replace_all=true to replace every one."
        )
    return text.replace(old, new) if replace_all else text.replace(old, new, 1), count


def _replace(path: Path, old: str, new: str, replace_all: bool) -> ToolResult:
    try:
        text = read_text(path)
        after, count = replaced(text, old, new, replace_all, path)
    except EditError as exc:
        return ToolResult(f"Error: {exc}", is_error=True)
    written = _write(path, after)
    if written.is_error:
        return written
    n = "1 place" if count == 1 else f"{count} places"
    return ToolResult(f"Replaced the text in {n} in {path}.",
                      display={"path": str(path), "replacements": count})


async def replace_in_file(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    raw = args.get("path")
    old, new = args.get("old_string"), args.get("new_string")
    if not raw or not isinstance(raw, str):
        return ToolResult("Error: 'path' is required.", is_error=True)
    if not isinstance(old, str) or not isinstance(new, str):
        return ToolResult("Error: 'old_string' and 'new_string' must be strings.", is_error=True)
    if (why := not_a_path(raw)) is not None:
        return ToolResult(f"Error: {why}.", is_error=True)
    path = resolve_path(ctx, raw)
    if names_a_folder(raw) or path == ctx.workspace.resolve():
        return _is_a_folder(path)
    return await asyncio.to_thread(_replace, path, old, new, bool(args.get("replace_all")))


# ------------------------------------------------------------------ patches

def planned(patch: str, workspace: Path) -> list[tuple[FilePatch, Path, str | None, str | None]]:
    """For each file of ``patch``: (its patch, its path, text before, text after —
    ``None`` for a file that does not exist / is deleted). Reads, never writes.
    Raises :class:`PatchError` or :class:`EditError`."""
    files = parse_patch(patch)
    out: list[tuple[FilePatch, Path, str | None, str | None]] = []
    seen: set[Path] = set()
    for fp in files:
        for raw in {fp.old_path, fp.new_path} - {"/dev/null"}:
            if (why := not_a_path(raw)) is not None:
                raise EditError(why)
            if names_a_folder(raw):
                raise EditError(f"{raw} is a folder, not a file.")
        path = (workspace / os.path.expanduser(fp.path)).resolve()
        if path in seen:
            raise EditError(f"{fp.path} appears twice in the patch; put all its hunks together.")
        seen.add(path)
        if fp.creates:
            if path.exists():
                raise EditError(f"{path} already exists; the patch would create it.")
            before = None
        else:
            source = (workspace / os.path.expanduser(fp.old_path)).resolve()
            before = read_text(source)
        after = apply_file_patch(before, fp)
        out.append((fp, path, before, after))
        if not fp.creates and not fp.deletes and fp.old_path != fp.new_path:
            source = (workspace / os.path.expanduser(fp.old_path)).resolve()
            if path.exists():
                raise EditError(f"{path} already exists; the patch would rename {source} onto it.")
            out.append((fp, source, before, None))  # a rename removes the old name
    return out


def _apply(patch: str, workspace: Path) -> ToolResult:
    try:
        plan = planned(patch, workspace)
    except (PatchError, EditError) as exc:
        return ToolResult(f"Error: {exc} Nothing was written.", is_error=True)
    done: list[tuple[Path, str | None]] = []  # (path, text before) to undo
    try:
        for _fp, path, before, after in plan:
            if after is None:
                if path.exists():
                    path.unlink()
            else:
                result = _write(path, after)
                if result.is_error:
                    raise EditError(result.content.removeprefix("Error: "))
            done.append((path, before))
    except (OSError, EditError) as exc:
        for path, before in reversed(done):
            try:
                if before is None:
                    path.unlink(missing_ok=True)
                else:
                    _write(path, before)
            except OSError:
                pass
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return ToolResult(f"Error: writing {path} failed ({why}); the files written before it "
                          "were put back.", is_error=True)
    changed = [str(path) for _fp, path, _b, _a in plan]
    hunks = sum(len(fp.hunks) for fp, *_ in plan)
    return ToolResult(
        f"Applied the patch ({hunks} hunk(s)) to: " + ", ".join(changed) + ".",
        display={"paths": changed, "hunks": hunks},
    )


async def apply_patch(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    patch = args.get("patch")
    if not isinstance(patch, str) or not patch.strip():
        return ToolResult("Error: 'patch' (a unified diff) is required.", is_error=True)
    return await asyncio.to_thread(_apply, patch, ctx.workspace)


# ------------------------------------------------------------------ preview

def _diff(before: str | None, after: str | None, name: str) -> str:
    return "".join(difflib.unified_diff(
        (before or "").splitlines(keepends=True), (after or "").splitlines(keepends=True),
        fromfile=f"a/{name}" if before is not None else "/dev/null",
        tofile=f"b/{name}" if after is not None else "/dev/null",
    ))


def edit_preview(tool: str, arguments: dict[str, Any], workspace: Path) -> str | None:
    """The unified diff a ``replace_in_file`` or ``apply_patch`` call would make (or
    why it would fail), for its approval. Blocking: run it in a worker."""
    try:
        if tool == "replace_in_file":
            raw, old, new = (arguments.get(k) for k in ("path", "old_string", "new_string"))
            if not isinstance(raw, str) or not isinstance(old, str) or not isinstance(new, str):
                return None
            path = (workspace / os.path.expanduser(raw)).resolve()
            before = read_text(path)
            after, _n = replaced(before, old, new, bool(arguments.get("replace_all")), path)
            text = _diff(before, after, raw)
        elif tool == "apply_patch":
            patch = arguments.get("patch")
            if not isinstance(patch, str):
                return None
            text = "".join(_diff(b, a, fp.path if a is not None or fp.deletes else str(p))
                           for fp, p, b, a in planned(patch, workspace))
        else:
            return None
    except (PatchError, EditError, OSError) as exc:
        return f"(this call would fail: {exc})"
    return text[:MAX_PREVIEW] + ("\n…" if len(text) > MAX_PREVIEW else "")


REPLACE_IN_FILE = Tool(
    name="replace_in_file",
    description=(
        "Replace an exact passage of a text file. old_string must occur exactly once "
        "(include surrounding lines to make it unique) unless replace_all=true. "
        "Copy it exactly, whitespace included; read the file first."
    ),
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File path, relative to the workspace."},
            "old_string": {"type": "string", "description": "The exact text to replace."},
            "new_string": {"type": "string", "description": "The text to put in its place."},
            "replace_all": {"type": "boolean", "description": "Replace every occurrence."},
        },
        "required": ["path", "old_string", "new_string"],
    },
    handler=replace_in_file,
    risk=RiskClass.WRITE_LOCAL,
    target_arg="path",
)

APPLY_PATCH = Tool(
    name="apply_patch",
    description=(
        "Apply a unified diff (one or more files: '--- a/path', '+++ b/path', '@@ -a,b +c,d @@' "
        "hunks; /dev/null creates or deletes a file). Paths are relative to the workspace. "
        "All or nothing: if a hunk does not apply, nothing is written."
    ),
    parameters={
        "type": "object",
        "properties": {"patch": {"type": "string", "description": "The unified diff."}},
        "required": ["patch"],
    },
    handler=apply_patch,
    risk=RiskClass.WRITE_LOCAL,
)


def edit_tools() -> list[Tool]:
    return [REPLACE_IN_FILE, APPLY_PATCH]
