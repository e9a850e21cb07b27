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
2. every word means what it says: the shell would change no argument between
   this check and the program. An unquoted pattern or brace (``*`` ``?`` ``[``
   ``]`` ``{`` ``}``: ``date -f {~/.ssh/id_rsa,+%s}``, ``cat ss*/id_rsa``), a
   backslash escape outside quotes, a ``#`` starting a word (a comment), a
   ``~`` the check cannot resolve like the shell (``~-`` ``~+`` ``~1``, a quoted
   ``~``, a ``~`` after ``=`` or ``:``) or an environment assignment in front of
   the program all refuse auto-run. A leading ``~``, ``~/…`` or ``~name/…`` is
   expanded here exactly as the shell expands it, and the arguments are checked
   in that form (see :func:`shell_words`);
   a shell builtin that changes the shell's state (``printf -v``, ``read``,
   ``export``, ``hash``, ``set``, ``cd``, ``source``, ``eval``…: see
   :data:`STATE_BUILTINS`) never auto-runs, allowlisted or not — the session shell
   is persistent;
3. its argv (quotes removed) starts with the tokens of one allowlist entry, compared
   **token by token**: ``git status`` allows ``git status -s`` but neither
   ``git statusx`` nor bare ``git``; ``ls`` does not allow ``lsof``; ``ls``
   does not allow ``/bin/ls`` either (argv[0] is compared as written);
4. its arguments pass the program's table (see
   :mod:`~openworker_qt.core.shell_programs`): no option that executes,
   deletes or writes (``find -delete``, ``git diff --output=…``, ``sort -o``,
   ``sed -i``, ``pytest -p …``), no option the table does not know, and —
   when the caller passes a ``path_check`` (the permission engine does) —
   every path argument, including ``--option=path`` values, inside the folders
   the session may read and outside the sensitive set (``cat ~/.ssh/id_rsa``
   asks even with ``cat`` allowlisted).

A command whose quoting cannot be parsed never auto-runs. The words are those a
POSIX shell or bash (``bash -c``) would pass: ``tests/core/test_shell_policy.py``
runs every auto-run command of its corpus through a real ``bash -c`` and
compares.

Everything here is pure: the permission engine turns a :class:`ShellVerdict`
into "allowed" or "ask the user". The operators, the default entries and the
entry parser are plain data in :mod:`openworker_qt.domain.shell` (the settings
check workspace files with them too); this module re-exports them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openworker_qt.core.shell_programs import (
    ALWAYS_ASK,
    PROGRAMS,
    GitCheck,
    PathCheck,
    check_arguments,
)
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
    "POWERSHELL_STATE",
    "STATE_BUILTINS",
    "ShellVerdict",
    "check_command",
    "command_prefix",
    "find_operator",
    "matching_entry",
    "note_shell_folder",
    "parse_allowlist",
    "parse_argv",
    "shell_folder",
    "shell_words",
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


QUOTING = "the command's quoting cannot be parsed"
_PATTERN = frozenset("*?[]")
_BRACES = frozenset("{}")
_TILDE_USER = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")

#: Shell builtins and keywords that change the shell's own state (variables, options,
#: traps, the command table, the folder, limits…) or run other commands. The session
#: shell is persistent, so a change would outlive the command that made it (e.g.
#: ``printf -v 'BASH_CMDS[ls]' %s /bin/sh`` makes every later ``ls`` run ``sh``): none
#: of them ever runs without asking, allowlisted or not. (``printf`` itself is checked
#: by its table: only ``-v`` assigns.) Only ``echo printf pwd true false test type``
#: and the like are harmless builtins.
STATE_BUILTINS: frozenset[str] = frozenset({
    ".", ":", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command",
    "compgen", "complete", "compopt", "continue", "coproc", "declare", "dirs", "disown",
    "enable", "eval", "exec", "exit", "export", "fc", "fg", "getopts", "hash", "history",
    "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "pushd", "read",
    "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend",
    "times", "trap", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
    # keywords
    "!", "case", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
    "in", "select", "then", "time", "until", "while", "{", "}", "[[", "]]",
})
#: The same for the Windows session shell (PowerShell, whose names ignore case):
#: aliases, variables, the folder, modules and anything that runs a string or a program.
POWERSHELL_STATE: frozenset[str] = frozenset({
    "set-alias", "sal", "new-alias", "nal", "import-alias", "ipal", "set-variable", "sv",
    "new-variable", "nv", "remove-variable", "rv", "clear-variable", "clv", "set-item", "si",
    "new-item", "ni", "set-location", "sl", "push-location", "pop-location", "import-module",
    "ipmo", "invoke-expression", "iex", "invoke-command", "icm", "invoke-item", "ii",
    "start-process", "saps", "start", "add-type", "set-psdebug", "set-strictmode",
    "set-executionpolicy", "new-psdrive", "ndr", "remove-item", "ri", "del", "erase", "rd",
    "set-content", "add-content", "ac", "out-file", "update-typedata", "update-formatdata",
    "register-argumentcompleter", "set-psreadlineoption", "function", "filter", "chdir",
})


class Unclear(ValueError):
    """The shell would change a word before the program sees it (the message says how)."""


@dataclass(frozen=True, slots=True)
class ShellWords:
    """``written``: the words with their quotes removed; ``argv``: what the program
    receives (a leading ``~`` expanded as the shell expands it)."""

    written: tuple[str, ...]
    argv: tuple[str, ...]


Chars = list[tuple[str, bool]]  # each character of a word, and whether it was quoted


def _split(command: str) -> list[Chars]:
    """The words of an operator-free ``command``: quotes removed, each character
    marked quoted or not. Raises :class:`Unclear`."""
    words: list[Chars] = []
    word: Chars | None = None
    i, n = 0, len(command)
    while i < n:
        c = command[i]
        if c in " \t":
            if word is not None:
                words.append(word)
                word = None
            i += 1
            continue
        if word is None:
            word = []
        if c == "'":
            end = command.find("'", i + 1)
            if end < 0:
                raise Unclear(QUOTING)
            word += [(ch, True) for ch in command[i + 1 : end]]
            i = end + 1
        elif c == '"':
            i += 1
            while True:
                if i >= n:
                    raise Unclear(QUOTING)
                ch = command[i]
                if ch == '"':
                    i += 1
                    break
                if ch == "\\" and i + 1 < n and command[i + 1] in '"\\':
                    ch = command[i + 1]
                    i += 1
                word.append((ch, True))
                i += 1
        elif c == "\\":
            raise Unclear(
                "the command contains a backslash escape outside quotes, so it never runs "
                "without asking"
            )
        elif c == "#" and not word:
            raise Unclear(
                "the command contains a '#' that starts a shell comment, so it never runs "
                "without asking"
            )
        else:
            word.append((c, False))
            i += 1
    if word is not None:
        words.append(word)
    return words


def _expand(word: Chars) -> str:
    """What the shell passes for ``word``, or :class:`Unclear`."""
    text = "".join(ch for ch, _ in word)
    for ch, quoted in word:
        if not quoted and ch in _PATTERN:
            raise Unclear(
                f"the command contains a pattern ('{ch}' in {text!r}) that the shell expands "
                "into file names, so it never runs without asking"
            )
        if not quoted and ch in _BRACES:
            raise Unclear(
                f"the command contains braces ({text!r}) that the shell expands, so it never "
                "runs without asking"
            )
    for k in range(1, len(word)):
        if word[k][0] == "~" and word[k - 1][0] in "=:":
            raise Unclear(
                f"the command contains a '~' after '{word[k - 1][0]}' ({text!r}) that the "
                "shell may expand to a folder, so it never runs without asking"
            )
    if not word or word[0][0] != "~":
        return text
    end = next((k for k, (ch, q) in enumerate(word) if ch == "/" and not q), len(word))
    prefix = word[:end]
    name = "".join(ch for ch, _ in prefix[1:])
    if any(q for _, q in prefix) or (name and not _TILDE_USER.fullmatch(name)):
        raise Unclear(
            f"the command contains {text!r}, whose '~' the shell would read differently "
            "from this check, so it never runs without asking"
        )
    return os.path.expanduser("~" + name) + "".join(ch for ch, _ in word[end:])


def shell_words(command: str) -> ShellWords:
    """The words the shell makes of an operator-free ``command`` (see the module
    docstring). Raises :class:`Unclear` when a word would be expanded in a way this
    check cannot follow (a pattern, braces, an unusual ``~``…) or the quoting is
    unbalanced."""
    words = _split(command)
    written = tuple("".join(ch for ch, _ in w) for w in words)
    if written and _ASSIGNMENT.match(written[0]):
        raise Unclear(
            f"the command contains {written[0]!r}, which sets an environment variable for "
            "the program, so it never runs without asking"
        )
    return ShellWords(written, tuple(_expand(w) for w in words))


#: Each session's shell folder as its last command left it (the session shell is
#: persistent: an approved ``cd`` carries over). The shell tool notes it; the
#: permission engine resolves an auto-run command's relative paths against it.
_SHELL_FOLDERS: dict[str, str] = {}


def note_shell_folder(session_id: str, folder: str | None) -> None:
    """Remember where ``session_id``'s shell now is (``None``: it is gone)."""
    if folder:
        _SHELL_FOLDERS[session_id] = folder
    else:
        _SHELL_FOLDERS.pop(session_id, None)


def shell_folder(session_id: str) -> str | None:
    """Where ``session_id``'s shell is, if it has run a command."""
    return _SHELL_FOLDERS.get(session_id)


@dataclass(frozen=True, slots=True)
class ShellVerdict:
    """``auto``: may run without asking; ``entry``: the allowlist entry that matched."""

    auto: bool
    reason: str
    entry: str | None = None
    argv: tuple[str, ...] | None = None


def check_command(
    command: str, allowlist: Iterable[str], *, path_check: PathCheck | None = None,
    git_check: GitCheck | None = None,
) -> ShellVerdict:
    """Decide whether ``command`` may auto-run under ``allowlist``.

    ``path_check`` judges each path argument (``None``: paths are not checked,
    only operators, the allowlist and the options); ``git_check`` where a git
    command's repository data is and what its settings run."""
    if not command.strip():
        return ShellVerdict(False, "the command is empty")
    op = find_operator(command)
    if op is not None:
        return ShellVerdict(
            False,
            f"the command contains {_describe(op)}, so it never runs without asking",
        )
    try:
        words = shell_words(command)
    except Unclear as exc:
        return ShellVerdict(False, str(exc))
    if not words.argv:
        return ShellVerdict(False, "the command is empty")
    argv = words.argv
    if words.written[0] in STATE_BUILTINS or words.written[0].lower() in POWERSHELL_STATE:
        return ShellVerdict(
            False,
            f"'{words.written[0]}' is a shell command that changes the shell's own state "
            "(variables, settings, the folder or the commands it runs), so it never runs "
            "without asking",
            argv=argv,
        )
    entry = matching_entry(words.written, allowlist)
    if entry is None:
        return ShellVerdict(
            False, f"'{argv[0]}' with these arguments is not on the shell allowlist", argv=argv
        )
    problem = check_arguments(argv, path_check, git_check)
    if problem is not None:
        return ShellVerdict(False, f"'{entry}' is allowlisted, but {problem}", argv=argv)
    return ShellVerdict(True, f"matches the shell allowlist entry '{entry}'", entry, argv)


#: Programs whose first word after the name is a subcommand: a prefix keeps it
#: ("git log", "npm test"), never the program alone.
SUBCOMMANDS = frozenset({"git", "npm", "docker", "kubectl"})


def command_prefix(command: str) -> str | None:
    """The prefix an "always for commands starting with …" answer could name: the
    program (with its subcommand, for :data:`SUBCOMMANDS`), and only for a program
    whose arguments this check knows how to judge; None otherwise (operators, a
    path to a program, an interpreter, a program it asks about whatever it is
    given). Whether the rest of *this* command is harmless is for
    :func:`check_command` with the prefix as the allowlist."""
    if find_operator(command) is not None:
        return None
    try:
        written = shell_words(command).written
    except Unclear:
        return None
    if not written:
        return None
    program = written[0]
    if program not in PROGRAMS or program in ALWAYS_ASK or program in STATE_BUILTINS:
        return None
    if program not in SUBCOMMANDS:
        return program
    if len(written) < 2 or written[1].startswith("-"):
        return None
    return f"{program} {written[1]}"
