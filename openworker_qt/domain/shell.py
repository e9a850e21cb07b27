"""The shell allowlist's words: operators, the default entries, the entry parser.

Pure data and parsers, shared by the permission engine
(:mod:`openworker_qt.core.shell_policy`, which decides) and the settings
(:mod:`openworker_qt.storage.config`, which checks that a workspace file only
narrows the user's allowlist). It imports nothing of the package.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable

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
