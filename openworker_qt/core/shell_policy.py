"""When may a shell command run without asking? (The shell allowlist.)

A command auto-runs only when both hold:

1. it contains **no shell operator anywhere** — ``;`` ``&`` ``|`` ``>`` ``<``
   a backtick, ``$(``, ``(``, ``)``, a newline or carriage return (so ``&&``,
   ``||``, ``2>``, ``<<<``, ``<(…)`` are all covered). The check is on the raw
   string, quotes included: ``git commit -m "a; b"`` asks too. That is
   deliberately stricter than the shell's own grammar — asking is the safe
   failure. This module is also stricter than the mission's list in two ways:
   any ``$`` (parameter expansion such as ``echo $OPENAI_API_KEY`` would leak
   a secret into the model's context) and any other control character
   (NUL, escape, …) also refuse auto-run;
2. its ``shlex`` argv starts with the tokens of one allowlist entry, compared
   **token by token**: ``git status`` allows ``git status -s`` but neither
   ``git statusx`` nor bare ``git``; ``ls`` does not allow ``lsof``; ``ls``
   does not allow ``/bin/ls`` either (argv[0] is compared as written);
3. its arguments pass the program's table (see
   :mod:`~openworker_qt.core.shell_programs`): no option that executes,
   deletes or writes (``find -delete``, ``git diff --output=…``, ``sort -o``,
   ``sed -i``, ``pytest -p …``), no option the table does not know, and —
   when the caller passes a ``path_check`` (the permission engine does) —
   every path argument, including ``--option=path`` values, inside the folders
   the session may read and outside the sensitive set (``cat ~/.ssh/id_rsa``
   asks even with ``cat`` allowlisted).

A command whose quoting ``shlex`` cannot parse never auto-runs.

Everything here is pure: the permission engine turns a :class:`ShellVerdict`
into "allowed" or "ask the user". The operators, the default entries and the
entry parser are plain data in :mod:`openworker_qt.domain.shell` (the settings
check workspace files with them too); this module re-exports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openworker_qt.core.shell_programs import PathCheck, check_arguments
from openworker_qt.domain.shell import (
    DEFAULT_ALLOWED_COMMANDS,
    EXTRA_REFUSED,
    SHELL_OPERATORS,
    find_operator,
    parse_allowlist,
    parse_argv,
)

__all__ = [
    "DEFAULT_ALLOWED_COMMANDS",
    "EXTRA_REFUSED",
    "SHELL_OPERATORS",
    "ShellVerdict",
    "check_command",
    "find_operator",
    "matching_entry",
    "parse_allowlist",
    "parse_argv",
]

_NAMES = {"\n": "a newline", "\r": "a carriage return", "`": "a backtick"}


def _describe(op: str) -> str:
    return _NAMES.get(op, f"'{op}'")


def matching_entry(argv: Sequence[str], allowlist: Iterable[str]) -> str | None:
    """The allowlist entry whose tokens are a prefix of ``argv`` (the longest one)."""
    best: tuple[str, ...] | None = None
    for tokens in parse_allowlist(allowlist):
        if len(argv) >= len(tokens) and tuple(argv[: len(tokens)]) == tokens:
            if best is None or len(tokens) > len(best):
                best = tokens
    return " ".join(best) if best is not None else None


@dataclass(frozen=True, slots=True)
class ShellVerdict:
    """``auto``: may run without asking; ``entry``: the allowlist entry that matched."""

    auto: bool
    reason: str
    entry: str | None = None
    argv: tuple[str, ...] | None = None


def check_command(
    command: str, allowlist: Iterable[str], *, path_check: PathCheck | None = None
) -> ShellVerdict:
    """Decide whether ``command`` may auto-run under ``allowlist``.

    ``path_check`` judges each path argument (``None``: paths are not checked,
    only operators, the allowlist and the options)."""
    if not command.strip():
        return ShellVerdict(False, "the command is empty")
    op = find_operator(command)
    if op is not None:
        return ShellVerdict(
            False,
            f"the command contains {_describe(op)}, so it never runs without asking",
        )
    argv = parse_argv(command)
    if argv is None:
        return ShellVerdict(False, "the command's quoting cannot be parsed")
    if not argv:
        return ShellVerdict(False, "the command is empty")
    entry = matching_entry(argv, allowlist)
    if entry is None:
        return ShellVerdict(
            False, f"'{argv[0]}' with these arguments is not on the shell allowlist", argv=tuple(argv)
        )
    problem = check_arguments(argv, path_check)
    if problem is not None:
        return ShellVerdict(
            False, f"'{entry}' is allowlisted, but {problem}", argv=tuple(argv)
        )
    return ShellVerdict(True, f"matches the shell allowlist entry '{entry}'", entry, tuple(argv))
