"""Where git would read a repository's data from, found without running git.

git does not read a repository only in its folder: a ``.git`` *file*
(``gitdir: /elsewhere/.git``) moves the data anywhere, a linked worktree's
``commondir`` names the main repository's data folder, and
``objects/info/alternates`` borrows objects (and so whole file contents) from other
repositories. A model that can write one of those files could make a plain
``git log -p`` show it a repository outside the folders it may read. The
permission engine therefore resolves them first (:func:`git_locations`) and checks
every location against the read roots like any other read.

The discovery follows git's own (``setup.c``): from the start folder upwards, a
``.git`` entry (a folder, or a file holding ``gitdir: <path>``) or the folder
itself being a repository's data (a bare repository), stopping below the
``ceiling`` when one is given (``GIT_CEILING_DIRECTORIES``). Alternates are followed
to the depth git follows them (5). Anything this module cannot read the way git
would (a quoted alternates line, an unreadable ``.git`` file) is reported as
``unclear``, and the caller asks.

:func:`config_programs` says whether a repository's own configuration files name
programs git may run on a read (``core.fsmonitor``, a pager, a diff or filter
program, hooks, ``include``…): the shell's allowlisted git commands then ask.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

ALTERNATES_DEPTH = 5


@dataclass(slots=True)
class GitLocations:
    """``git_dir``: the repository's data folder (``None``: not a repository);
    ``common_dir``: where its shared data is; ``object_dirs``: borrowed object
    folders (alternates); ``unclear``: why part of it could not be told."""

    git_dir: Path | None = None
    common_dir: Path | None = None
    object_dirs: list[Path] = field(default_factory=list)
    unclear: str | None = None

    def folders(self) -> list[Path]:
        """Every folder git reads the repository's data from."""
        out: list[Path] = []
        for p in (self.git_dir, self.common_dir, *self.object_dirs):
            if p is not None and p not in out:
                out.append(p)
        return out


def _real(path: str) -> Path:
    return Path(os.path.realpath(path))


def is_git_dir(folder: str) -> bool:
    """A folder git takes for a repository's data (``is_git_directory``): a ``HEAD``
    file, and ``objects`` and ``refs`` folders in it or in the folder its
    ``commondir`` names."""
    try:
        if not os.path.isfile(os.path.join(folder, "HEAD")):
            return False
        common = folder
        text = _read_text(os.path.join(folder, "commondir"))
        if text is not None:
            target = text.rstrip("\r\n")
            common = target if os.path.isabs(target) else os.path.join(folder, target)
        return (os.path.isdir(os.path.join(common, "objects"))
                and os.path.isdir(os.path.join(common, "refs")))
    except (OSError, ValueError):
        return False


def _read_text(path: str, limit: int = 1 << 16) -> str | None:
    try:
        with open(path, "rb") as fh:
            return fh.read(limit).decode("utf-8", errors="replace")
    except OSError:
        return None


def _gitfile(path: str) -> tuple[str | None, str | None]:
    """The folder a ``.git`` file points to, or why it cannot be told."""
    text = _read_text(path)
    if text is None:
        return None, f"{path} cannot be read"
    # As git reads it (``read_gitfile_gently``): the whole file, "gitdir: " with one
    # space, then the rest with only the line ends at its end taken off.
    if not text.startswith("gitdir: "):
        return None, f"{path} is not a git link file git would accept"
    target = text[len("gitdir: "):].rstrip("\r\n")
    if not target or "\n" in target or "\r" in target or "\0" in target:
        return None, f"{path} does not name one folder"
    if not os.path.isabs(target):
        target = os.path.join(os.path.dirname(path), target)
    return os.path.normpath(target), None


def find_git_dir(start: Path, ceiling: Path | None = None) -> tuple[Path | None, str | None]:
    """The repository data folder git would find from ``start`` (and why not, if unclear)."""
    folder = os.path.normpath(str(start))
    stop = os.path.normpath(str(ceiling)) if ceiling is not None else None
    while True:
        if stop is not None and folder == stop:
            return None, None
        dotgit = os.path.join(folder, ".git")
        if os.path.isfile(dotgit):
            target, why = _gitfile(dotgit)
            if why is not None:
                return None, why
            assert target is not None
            return _real(target), None
        if os.path.isdir(dotgit) and is_git_dir(dotgit):
            return _real(dotgit), None
        if is_git_dir(folder):
            return _real(folder), None
        parent = os.path.dirname(folder)
        if parent == folder:
            return None, None
        folder = parent


def _alternates(objects: Path, depth: int, out: list[Path]) -> str | None:
    if depth > ALTERNATES_DEPTH:
        return None
    text = _read_text(os.path.join(objects, "info", "alternates"))
    if text is None:
        return None
    for line in text.split("\n"):  # as git reads it: nothing trimmed
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            return f"{objects}/info/alternates has a quoted line this check does not read"
        target = line if os.path.isabs(line) else os.path.join(objects, line)
        real = _real(target)
        if real in out:
            continue
        out.append(real)
        why = _alternates(real, depth + 1, out)
        if why is not None:
            return why
    return None


def locations_of(git_dir: Path) -> GitLocations:
    """The common folder and alternates of the repository data folder ``git_dir``."""
    loc = GitLocations(git_dir=git_dir, common_dir=git_dir)
    text = _read_text(os.path.join(git_dir, "commondir"))
    if text is not None:
        target = text.rstrip("\r\n")  # as git reads it: only the line ends taken off
        if "\n" in target or "\0" in target:
            loc.unclear = f"{git_dir}/commondir does not name one folder"
            return loc
        if target:
            if not os.path.isabs(target):
                target = os.path.join(git_dir, target)
            loc.common_dir = _real(target)
    assert loc.common_dir is not None
    loc.unclear = _alternates(loc.common_dir / "objects", 1, loc.object_dirs)
    return loc


def git_locations(start: Path, ceiling: Path | None = None,
                  git_dir: Path | None = None) -> GitLocations:
    """Where git run in ``start`` (or with ``--git-dir=git_dir``) reads the repository
    data from; an empty :class:`GitLocations` when ``start`` is in no repository."""
    if git_dir is not None:
        return locations_of(_real(str(git_dir)))
    found, why = find_git_dir(start, ceiling)
    if found is None:
        return GitLocations(unclear=why)
    return locations_of(found)


# Keys (section.name, case-insensitive) that make a read run a program or read
# other files. A quick scan of the files: asking too often is the safe failure.
_PROGRAM_WORDS = re.compile(
    r"^\s*(fsmonitor|pager|external|textconv|command|hookspath|worktree|path|"
    r"sshcommand|program|editor|askpass|helper|driver|process|clean|smudge|"
    r"difftool|tool|cmd|gitproxy|alternaterefscommand)\s*(=|$)",
    re.IGNORECASE | re.MULTILINE,
)
_INCLUDE = re.compile(r"^\s*\[\s*include", re.IGNORECASE | re.MULTILINE)
_PAGER_SECTION = re.compile(r"^\s*\[\s*(pager|filter|diff\s+\")", re.IGNORECASE | re.MULTILINE)


#: Hooks a read command can start: ``git status``/``git diff`` rewrite a racy
#: index (``post-index-change``); a ref update runs ``reference-transaction``.
READ_HOOKS = ("post-index-change", "reference-transaction")


def config_programs(loc: GitLocations) -> str | None:
    """Why this repository's own configuration (or one of its hooks a read can
    start) may make a read run a program or read other files, or ``None``."""
    for folder in (loc.git_dir, loc.common_dir):
        if folder is None:
            continue
        for hook in READ_HOOKS:
            path = os.path.join(folder, "hooks", hook)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return f"the repository has a {hook} hook ({path}), a program git may run"
    files: list[str] = []
    for folder in (loc.git_dir, loc.common_dir):
        if folder is None:
            continue
        for name in ("config", "config.worktree"):
            path = os.path.join(folder, name)
            if path not in files:
                files.append(path)
    for path in files:
        text = _read_text(path, 1 << 20)
        if text is None:
            continue
        m = _INCLUDE.search(text) or _PAGER_SECTION.search(text) or _PROGRAM_WORDS.search(text)
        if m is not None:
            return (f"the repository's settings ({path}) set '{m.group(0).strip()}', which can "
                    "make git run a program or read other files")
    return None
