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
into "allowed" or "ask the user".
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openworker_qt.core.shell_programs import PathCheck, check_arguments

# Order matters only for the message: multi-character operators are reported
# before the single characters they start with.
SHELL_OPERATORS: tuple[str, ...] = (
    "&&",
    "||",
    "$(",
    ";",
    "&",
    "|",
    ">",
    "<",
    "`",
    "(",
    ")",
    "\n",
    "\r",
)

# Never auto-run either (see the module docstring).
EXTRA_REFUSED: tuple[str, ...] = ("$",)

# Auto-allowed out of the box: commands that cannot run other programs, change
# anything or print a file's contents. Deliberately NOT here: ``git`` (a repo's
# own config can run programs, e.g. ``core.fsmonitor``), ``cat``/``head`` (they
# print secrets such as ``~/.ssh/id_rsa``), ``echo`` (with expansion), ``find``
# (``-exec``), interpreters (``python3 -c``) and test runners (they execute code).
DEFAULT_ALLOWED_COMMANDS: tuple[str, ...] = ("pwd", "ls", "date", "whoami", "uname")

_NAMES = {"\n": "a newline", "\r": "a carriage return", "`": "a backtick"}


def _describe(op: str) -> str:
    return _NAMES.get(op, f"'{op}'")


def find_operator(command: str) -> str | None:
    """The first shell operator (or other refused character) in ``command``, if any."""
    for op in SHELL_OPERATORS + EXTRA_REFUSED:
        if op in command:
            return op
    for ch in command:
        if ch != "\t" and (ord(ch) < 32 or ord(ch) == 127):
            return ch
    return None


def parse_argv(command: str) -> list[str] | None:
    """``shlex`` (POSIX) argv of ``command``; ``None`` when the quoting is unbalanced."""
    try:
        return shlex.split(command, comments=False, posix=True)
    except ValueError:
        return None


def parse_allowlist(entries: Iterable[str]) -> list[tuple[str, ...]]:
    """Token tuples of the usable allowlist entries.

    Entries that are empty, unparseable or contain an operator are dropped: an
    allowlist entry names a program and leading arguments, nothing more.
    """
    out: list[tuple[str, ...]] = []
    for entry in entries:
        if not isinstance(entry, str) or find_operator(entry) is not None:
            continue
        tokens = parse_argv(entry)
        if not tokens or any(t == "" for t in tokens):
            continue
        key = tuple(tokens)
        if key not in out:
            out.append(key)
    return out


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
