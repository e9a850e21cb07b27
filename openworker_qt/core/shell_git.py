"""The check for ``git`` on the shell allowlist: read-only subcommands only.

No ``-c``/``--config-env``/``--exec-path``/pager options, and for each
subcommand a deny-list of the options that write or run programs; git accepts
abbreviated long options, so any prefix of a denied option is denied too. The
check returns where git starts (``-C`` applied) and its ``--git-dir``, for the
permission engine to look at the repository's data and settings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from openworker_qt.core.shell_options import RUNS, WRITES, ArgCheck, ProgramCheck

GIT_READ_ONLY = frozenset({
    "status", "log", "diff", "show", "blame", "annotate", "shortlog", "describe",
    "rev-parse", "rev-list", "ls-files", "ls-tree", "cat-file", "grep", "merge-base",
    "name-rev", "show-ref", "show-branch", "whatchanged", "diff-tree", "diff-files",
    "diff-index", "count-objects", "for-each-ref", "version", "branch", "tag", "stash",
})
_GIT_DIFFISH = frozenset({"log", "diff", "show", "whatchanged", "diff-tree", "diff-files",
                          "diff-index", "shortlog"})
_GIT_GLOBAL_FLAGS = frozenset({
    "--no-pager", "-P", "--no-replace-objects", "--literal-pathspecs", "--glob-pathspecs",
    "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--bare",
    "--no-advice", "--version", "-v",
})
_GIT_GLOBAL_PATH = frozenset({"-C", "--git-dir", "--work-tree"})
_GIT_GLOBAL_VALUE = frozenset({"--namespace"})
_GIT_GLOBAL_DENIED = {
    "-c": "sets git configuration, which can run programs",
    "--config-env": "sets git configuration, which can run programs",
    "--exec-path": "points git at other programs to run",
    "-p": "runs a pager program", "--paginate": "runs a pager program",
    "-h": "", "--help": "opens a manual page",
}
_GIT_SUB_DENIED = {
    "--output": WRITES,
    "--ext-diff": "runs an external diff program",
    "--open-files-in-pager": "runs a pager program",
    "--help": "opens a manual page",
    "--exec": RUNS,
    "--upload-pack": RUNS,
}
_BRANCH_LIST = frozenset({
    "-a", "-r", "-v", "-vv", "--all", "--remotes", "--verbose", "--show-current", "--list",
    "-l", "--merged", "--no-merged", "--contains", "--no-contains", "--sort", "--format",
    "--points-at", "--color", "--no-color", "--column", "--no-column", "-i", "--ignore-case",
    "--omit-empty",
})
_TAG_LIST = frozenset({
    "-l", "--list", "--sort", "--contains", "--no-contains", "--merged", "--no-merged",
    "--points-at", "--format", "--column", "--no-column", "-i", "--ignore-case", "--color",
    "--omit-empty",
})


def _git_long_denied(name: str, table: Mapping[str, str]) -> str | None:
    """git accepts any unambiguous prefix of a long option: deny prefixes too."""
    bare = name[2:]
    for flag, why in table.items():
        if not flag.startswith("--"):
            continue
        if flag == name or (len(bare) >= 3 and flag[2:].startswith(bare)):
            return f"{flag} {why}" if why else f"{flag} is not allowed"
    return None


def _git(args: Sequence[str], program: str) -> ArgCheck:
    paths: list[str] = []
    start = "."
    git_dir: str | None = None
    i = 0
    while i < len(args) and args[i].startswith("-"):
        a = args[i]
        i += 1
        name, eq, value = a.partition("=")
        if name.startswith("--"):
            denied = _git_long_denied(name, _GIT_GLOBAL_DENIED)
        elif name[:2] in _GIT_GLOBAL_DENIED:  # ``-c``, ``-p``, ``-h`` (glued values too)
            why = _GIT_GLOBAL_DENIED[name[:2]]
            denied = f"{name[:2]} {why}" if why else f"{name[:2]} is not allowed"
        else:
            denied = None
        if denied:
            return ArgCheck(f"git {denied}")
        if name in _GIT_GLOBAL_FLAGS and not eq:
            continue
        if name in _GIT_GLOBAL_PATH or name in _GIT_GLOBAL_VALUE:
            if not eq:
                if i >= len(args):
                    return ArgCheck(f"git {name} needs a value")
                value = args[i]
                i += 1
            if name in _GIT_GLOBAL_PATH:
                paths.append(value)
            if name == "-C":
                start = os.path.join(start, value) if value else start
            elif name == "--git-dir":
                git_dir = value
            continue
        return ArgCheck(f"git option {name} is not one this check knows")
    if i >= len(args):
        return ArgCheck(None, tuple(paths))  # e.g. ``git --version``
    sub = args[i]
    rest = list(args[i + 1:])
    if sub not in GIT_READ_ONLY:
        return ArgCheck(f"'git {sub}' is not a read-only git command")
    if sub == "stash":
        if not rest or rest[0] not in ("list", "show"):
            return ArgCheck("git stash changes the working tree (only 'stash list' and "
                            "'stash show' run without asking)")
        rest = rest[1:]
    listing = {"branch": _BRANCH_LIST, "tag": _TAG_LIST}.get(sub)
    positionals: list[str] = []
    after_dashes = False
    for a in rest:
        if after_dashes or not a.startswith("-") or a == "-":
            positionals.append(a)
            continue
        if a == "--":
            after_dashes = True
            continue
        name, eq, value = a.partition("=")
        if listing is not None:
            if name not in listing and not (sub == "tag" and re.fullmatch(r"-n\d*", name)):
                return ArgCheck(f"git {sub} {name} changes branches or tags "
                                "(only listing runs without asking)")
            continue
        if name.startswith("--"):
            denied = _git_long_denied(name, _GIT_SUB_DENIED)
            if denied:
                return ArgCheck(f"git {sub} {denied}")
            if eq and value:
                paths.append(value)
            continue
        # short options
        if sub in _GIT_DIFFISH and "o" in name[1:2]:
            return ArgCheck(f"git {sub} -o {WRITES}")
        if sub == "grep" and "O" in name[1:]:
            return ArgCheck("git grep -O runs a pager program")
        if sub in _GIT_DIFFISH and name.startswith("-O") and len(name) > 2:
            paths.append(name[2:])
            continue
        if "/" in name[2:] or "~" in name[2:]:
            return ArgCheck(f"git {sub}: the path glued to option {name[:2]} cannot be checked")
    if listing is not None and positionals and not ({"-l", "--list"} & set(rest)):
        return ArgCheck(f"git {sub} with a name creates a {sub} (only listing runs without asking)")
    if listing is None:
        paths += positionals
    if git_dir is not None and not os.path.isabs(git_dir):
        git_dir = os.path.join(start, git_dir)
    return ArgCheck(None, tuple(paths), (start, git_dir))


PROGRAMS: Mapping[str, ProgramCheck] = {"git": _git}
