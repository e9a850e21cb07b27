"""Unified diffs: parse one, list the paths it touches, apply its hunks to a text.

Pure functions (no I/O), shared by the ``apply_patch`` tool (which applies) and the
permission engine (which must check *every* path a patch touches, not one target:
see :func:`touched_paths`). Both read the patch with the same parser, so the paths
checked are exactly the paths written.

A hunk applies where its header says, or — when the file moved on a little — at the
nearest place where its context and removed lines match exactly. A hunk that
matches nowhere raises :class:`PatchError` naming it (``hunk 2 of notes.md (@@ -10,4
+10,5 @@)``), so the caller can write nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DEV_NULL = "/dev/null"
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchError(ValueError):
    """The patch cannot be read or does not apply; the message says where."""


@dataclass(slots=True)
class Hunk:
    header: str
    old_start: int
    old_len: int
    new_start: int
    new_len: int
    lines: list[str] = field(default_factory=list)  # each starts with " ", "-" or "+"
    no_newline_new: bool = False  # "\ No newline at end of file" after a new-side line

    @property
    def old_lines(self) -> list[str]:
        return [ln[1:] for ln in self.lines if ln[0] in " -"]

    @property
    def new_lines(self) -> list[str]:
        return [ln[1:] for ln in self.lines if ln[0] in " +"]


@dataclass(slots=True)
class FilePatch:
    old_path: str  # DEV_NULL when the file is created
    new_path: str  # DEV_NULL when the file is deleted
    hunks: list[Hunk] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The path the patch is about (the new one, unless the file is deleted)."""
        return self.old_path if self.new_path == DEV_NULL else self.new_path

    @property
    def creates(self) -> bool:
        return self.old_path == DEV_NULL

    @property
    def deletes(self) -> bool:
        return self.new_path == DEV_NULL


def _path_of(line: str) -> str:
    raw = line[4:].split("\t", 1)[0].strip()
    if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
        raw = raw[1:-1]
    if raw == DEV_NULL:
        return raw
    if raw.startswith(("a/", "b/")):
        raw = raw[2:]
    return raw


def parse_patch(text: str) -> list[FilePatch]:
    """The files of a unified diff (``---``/``+++`` headers, ``@@`` hunks). Git's
    ``diff --git``/``index`` lines are skipped. Raises :class:`PatchError`."""
    files: list[FilePatch] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("--- "):
            i += 1
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("+++ "):
            raise PatchError(f"line {i + 1}: a '---' header must be followed by a '+++' header")
        fp = FilePatch(_path_of(line), _path_of(lines[i + 1]))
        if not fp.old_path or not fp.new_path or fp.old_path == fp.new_path == DEV_NULL:
            raise PatchError(f"line {i + 1}: the file headers name no file")
        i += 2
        while i < len(lines) and lines[i].startswith("@@"):
            m = _HUNK.match(lines[i])
            if m is None:
                raise PatchError(f"line {i + 1}: not a hunk header: {lines[i]!r}")
            hunk = Hunk(
                header=lines[i][: m.end()], old_start=int(m.group(1)),
                old_len=int(m.group(2)) if m.group(2) is not None else 1,
                new_start=int(m.group(3)),
                new_len=int(m.group(4)) if m.group(4) is not None else 1,
            )
            i += 1
            old_seen = new_seen = 0
            while i < len(lines) and (old_seen < hunk.old_len or new_seen < hunk.new_len
                                      or lines[i].startswith("\\")):
                body = lines[i]
                if body.startswith("\\"):
                    if hunk.lines and hunk.lines[-1][0] in " +":
                        hunk.no_newline_new = True
                    i += 1
                    continue
                kind = body[:1] or " "  # an empty line is an empty context line
                if kind not in " -+":
                    break
                hunk.lines.append(body if body else " ")
                if kind in " -":
                    old_seen += 1
                if kind in " +":
                    new_seen += 1
                i += 1
            if old_seen != hunk.old_len or new_seen != hunk.new_len:
                raise PatchError(
                    f"hunk {len(fp.hunks) + 1} of {fp.path} ({hunk.header}) is cut short: "
                    f"its header promises {hunk.old_len} old and {hunk.new_len} new lines, "
                    f"the body has {old_seen} and {new_seen}"
                )
            fp.hunks.append(hunk)
        if not fp.hunks and not (fp.creates or fp.deletes):
            raise PatchError(f"{fp.path}: no hunks ('@@ -a,b +c,d @@') after its headers")
        files.append(fp)
    if not files:
        raise PatchError(
            "no file in the patch: a unified diff starts each file with '--- a/path' and "
            "'+++ b/path' lines, then '@@ -a,b +c,d @@' hunks"
        )
    return files


def touched_paths(text: str) -> list[str] | None:
    """Every path the patch reads, writes, creates or deletes (``None``: it cannot be
    read, so nothing can be said about where it writes)."""
    try:
        files = parse_patch(text)
    except PatchError:
        return None
    out: list[str] = []
    for fp in files:
        for p in (fp.old_path, fp.new_path):
            if p != DEV_NULL and p not in out:
                out.append(p)
    return out


def _find(lines: list[str], block: list[str], expected: int) -> int | None:
    """Where ``block`` matches ``lines`` exactly, nearest to ``expected``."""
    if not block:
        return min(max(expected, 0), len(lines))
    n = len(block)
    best: int | None = None
    for start in range(0, len(lines) - n + 1):
        if lines[start : start + n] == block and (
            best is None or abs(start - expected) < abs(best - expected)
        ):
            best = start
    return best


def apply_file_patch(original: str | None, fp: FilePatch) -> str | None:
    """The text after ``fp`` (``None``: the file is deleted). ``original`` is ``None``
    when the file does not exist. Raises :class:`PatchError` naming the hunk."""
    if fp.creates and original is not None:
        raise PatchError(f"{fp.path} already exists; the patch would create it")
    if not fp.creates and original is None:
        raise PatchError(f"{fp.path} does not exist")
    text = original or ""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines()
    ends_nl = text.endswith(("\n", "\r")) or not text
    offset = 0
    cursor = 0
    for k, hunk in enumerate(fp.hunks, 1):
        old = hunk.old_lines
        expected = max(hunk.old_start - 1, 0) + offset if old else hunk.old_start + offset
        at = None
        if lines[expected : expected + len(old)] == old and expected >= cursor:
            at = expected
        else:
            found = _find(lines[cursor:], old, expected - cursor)
            at = None if found is None else found + cursor
        if at is None:
            first = next((ln for ln in old if ln.strip()), old[0] if old else "")
            raise PatchError(
                f"hunk {k} of {fp.path} ({hunk.header}) does not apply: its context and "
                f"removed lines (starting {first!r}) are not in the file. Read the file "
                "again and make the patch from its current text"
            )
        lines[at : at + len(old)] = hunk.new_lines
        cursor = at + len(hunk.new_lines)
        offset = at - (hunk.old_start - 1) + len(hunk.new_lines) - len(old)
        if k == len(fp.hunks) and hunk.no_newline_new:
            ends_nl = False
        elif k == len(fp.hunks) and cursor == len(lines) and hunk.lines and not ends_nl:
            ends_nl = hunk.lines[-1][0] == "+"
    if fp.deletes:
        if lines:
            raise PatchError(f"{fp.path}: the patch deletes it, but lines would remain")
        return None
    if not lines:
        return ""
    return newline.join(lines) + (newline if ends_nl else "")
