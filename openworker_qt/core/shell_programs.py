"""Per-program argument tables for allowlisted shell commands.

Being on the allowlist names a program; it does not make every use of it
harmless: ``find . -delete``, ``git diff --output=~/.bashrc``, ``sort -o x``,
``sed -i`` or ``pytest -p evil`` write, delete or run code. :func:`check_arguments`
says why an allowlisted argv may *not* run without asking, and which of its
arguments are paths (the permission engine then checks that those stay inside
the folders the session may read and outside the sensitive set).

How a program is checked:

* **programs with a table** (every program of the default allowlist and the
  usual read-only tools: ``ls pwd date whoami uname cat head tail wc grep
  egrep fgrep find sort uniq sed tee echo printf git pytest``): every option
  must be one the table knows — an option that executes, deletes or writes is
  refused with its reason, an unknown one (including a GNU-style abbreviation
  such as ``sort --out=x``) is refused as unknown. Arguments and option values
  that name files are returned as paths — the files a program reads through an
  option too (``date -f``/``--file``/``-r``, ``grep -f``/``--exclude-from``,
  ``sort --random-source``, ``find -newer``…). An option that takes the names
  of the files to open from another file (``--files0-from``, ``find
  -files0-from``) or follows symbolic links while it walks a folder (``find
  -L``/``-H``/``-follow``, ``ls -L``, ``grep -R``) is refused: the files it
  reaches cannot be checked.
* ``git``: only read-only subcommands (``status log diff show blame …``;
  ``branch``/``tag``/``stash`` only to list), no ``-c``/``--config-env``/
  ``--exec-path``/pager options, and for each subcommand a deny-list of the
  options that write or run programs (``--output``, ``-o``, ``--ext-diff``,
  ``--open-files-in-pager``, ``--help``); git accepts abbreviated long options,
  so any prefix of a denied option is denied too. (git's option surface is too
  large for an allow-list; a repository's own config can still run programs —
  the permission engine therefore asks before any write into git metadata, and
  through ``git_check`` looks at where the repository's data is — ``-C`` and
  ``--git-dir`` applied — and at its settings before git auto-runs.)
* ``sed``: only scripts :mod:`~openworker_qt.core.shell_sed` reads completely as
  plain print/delete/substitute commands (no ``e w W r R``, no ``s///e`` or
  ``s///w``, bracket expressions read as GNU sed reads them); ``-i`` and script
  files are refused.
* ``printf``: not with ``-v`` (bash's printf assigns a shell variable).
* ``tee``: never (it writes the files it is given).
* ``tar`` (listing only), ``unzip`` (``-l``/``-t``/``-p``), ``jq`` (no ``env``,
  ``$ENV``, modules or program files), ``rg`` (no ``--pre``, ``-z``, ``-L``), ``fd``
  (no ``-x``/``-X``/``-l``), ``npm ls``, ``docker ps/images/version``, read-only
  ``kubectl`` (no secrets), ``man PAGE``.
* :data:`ALWAYS_ASK`: programs that run other programs or code (``env xargs timeout
  nice nohup watch sudo``, shells and interpreters, ``awk``, ``make``, ``npx``,
  ``cargo``…), editors and pagers (``vim -c``, ``less +!``), network tools (``curl
  wget ssh scp rsync``) and ``zip`` (``-TT``): only ``--version``/``--help``.
* **any other program** the user allowlisted: its options are not known, so it
  runs without asking only with no option at all (no argument starting with
  ``-`` or ``+``), and every argument is taken as a path.

Tables are looked up by the program's file name (``/usr/bin/env`` is ``env``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from openworker_qt.core.shell_sed import sed_script_problem

PathCheck = Callable[[str], "str | None"]
"""Given a path argument, why it may not be touched without asking (or ``None``)."""


@dataclass(frozen=True, slots=True)
class ArgCheck:
    """``reason``: why the command must ask (``None``: its options are fine);
    ``paths``: the arguments that name files."""

    reason: str | None
    paths: tuple[str, ...] = ()
    #: git: the folder it starts in (``-C`` applied, relative to the working
    #: folder) and the ``--git-dir`` it was given, if any.
    git_repo: tuple[str, str | None] | None = None


@dataclass(frozen=True, slots=True)
class Spec:
    """A getopt-style option table. Short options are single letters; long ones
    are names without the dashes. ``denied`` maps ``-x``/``--name`` to why."""

    short: str = ""
    short_value: str = ""
    short_path: str = ""
    short_optional: str = ""  # e.g. ``-I[FMT]``: a value only when glued on
    long: frozenset[str] = frozenset()
    long_value: frozenset[str] = frozenset()
    long_optional: frozenset[str] = frozenset()
    long_path: frozenset[str] = frozenset()
    denied: Mapping[str, str] = field(default_factory=dict)
    digits: bool = False  # ``-5`` (a count) is allowed


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


WRITES = "writes to a file"
RUNS = "runs another program"
DELETES = "deletes files"
FILE_LIST = "reads the names of the files to open from a file, which cannot be checked"
_FOLLOWS = "follows symbolic links out of the folder"
HELP = _fs("help", "version")


@dataclass(slots=True)
class Scan:
    positionals: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    values: list[tuple[str, str]] = field(default_factory=list)
    reason: str | None = None


def _denied(spec: Spec, flag: str, program: str) -> str | None:
    why = spec.denied.get(flag)
    return f"{program} {flag} {why}" if why else None


def scan(args: Sequence[str], spec: Spec, program: str) -> Scan:
    """Walk ``args`` like GNU getopt (options anywhere, ``--`` ends them)."""
    out = Scan()
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            out.positionals += args[i:]
            break
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            flag = "--" + name
            denied = _denied(spec, flag, program)
            if denied:
                out.reason = denied
                return out
            out.seen.add(flag)
            if name in spec.long:
                if eq:
                    out.reason = f"{flag} takes no value"
                    return out
                continue
            if name in spec.long_optional:
                continue
            if name in spec.long_value or name in spec.long_path:
                if not eq:
                    if i >= len(args):
                        out.reason = f"{flag} needs a value"
                        return out
                    value = args[i]
                    i += 1
                out.values.append((flag, value))
                if name in spec.long_path:
                    out.paths.append(value)
                continue
            out.reason = f"{program} option {flag} is not one this check knows"
            return out
        if a.startswith("-") and len(a) > 1:
            if spec.digits and a[1:].isdigit():
                continue
            j = 1
            while j < len(a):
                c = a[j]
                j += 1
                denied = _denied(spec, "-" + c, program)
                if denied:
                    out.reason = denied
                    return out
                out.seen.add("-" + c)
                if c in spec.short:
                    continue
                if c in spec.short_optional:
                    break
                if c in spec.short_value or c in spec.short_path:
                    value = a[j:]
                    if not value:
                        if i >= len(args):
                            out.reason = f"-{c} needs a value"
                            return out
                        value = args[i]
                        i += 1
                    out.values.append(("-" + c, value))
                    if c in spec.short_path:
                        out.paths.append(value)
                    break
                out.reason = f"{program} option -{c} is not one this check knows"
                return out
            continue
        out.positionals.append(a)
    return out


# --------------------------------------------------------------- simple programs

LS = Spec(
    short="aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
    short_value="ITw",
    long=_fs(
        "all", "almost-all", "author", "escape", "ignore-backups", "directory", "dired",
        "file-type", "full-time", "group-directories-first", "no-group", "human-readable",
        "si", "dereference-command-line", "dereference-command-line-symlink-to-dir", "inode",
        "kibibytes", "dereference", "literal", "numeric-uid-gid", "hide-control-chars",
        "show-control-chars", "quote-name", "reverse", "recursive", "size", "context", "zero",
        *HELP,
    ),
    long_value=_fs(
        "block-size", "format", "hide", "ignore", "indicator-style", "quoting-style", "sort",
        "time", "time-style", "tabsize", "width",
    ),
    long_optional=_fs("color", "hyperlink", "classify"),
    denied={"-L": _FOLLOWS, "--dereference": _FOLLOWS},
)
PWD = Spec(short="LP", long=_fs("logical", "physical", *HELP))
WHOAMI = Spec(long=HELP)
UNAME = Spec(
    short="asnrvmpio",
    long=_fs(
        "all", "kernel-name", "nodename", "kernel-release", "kernel-version", "machine",
        "processor", "hardware-platform", "operating-system", *HELP,
    ),
)
DATE = Spec(
    short="uR",
    short_value="d",
    short_path="rf",
    short_optional="I",
    long=_fs("utc", "universal", "rfc-email", "debug", *HELP),
    long_value=_fs("date", "rfc-3339"),
    long_optional=_fs("iso-8601"),
    long_path=_fs("reference", "file"),
    denied={"-s": "sets the system clock", "--set": "sets the system clock"},
)
CAT = Spec(
    short="AbeEnstTuv",
    long=_fs(
        "show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs",
        "show-nonprinting", *HELP,
    ),
)
HEAD = Spec(
    short="qvz", short_value="nc", digits=True,
    long=_fs("quiet", "silent", "verbose", "zero-terminated", *HELP),
    long_value=_fs("lines", "bytes"),
)
_FOLLOW = "keeps following the file and never finishes"
TAIL = Spec(
    short="qvz", short_value="nc", digits=True,
    long=_fs("quiet", "silent", "verbose", "zero-terminated", *HELP),
    long_value=_fs("lines", "bytes"),
    denied={"-f": _FOLLOW, "-F": _FOLLOW, "--follow": _FOLLOW, "--retry": _FOLLOW,
            "--pid": _FOLLOW, "-s": _FOLLOW, "--sleep-interval": _FOLLOW},
)
WC = Spec(
    short="cmlLw",
    long=_fs("bytes", "chars", "lines", "max-line-length", "words", *HELP),
    long_value=_fs("total"),
    denied={"--files0-from": FILE_LIST},
)
GREP = Spec(
    short="EFGPiyvwxcLloqsbHhnTZzaIrUuV",
    short_value="eABCmdD",
    short_path="f",
    digits=True,
    long=_fs(
        "extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case",
        "no-ignore-case", "invert-match", "word-regexp", "line-regexp", "count",
        "files-without-match", "files-with-matches", "only-matching", "quiet", "silent",
        "no-messages", "byte-offset", "with-filename", "no-filename", "line-number",
        "initial-tab", "null", "null-data", "text", "recursive", "line-buffered",
        "unix-byte-offsets", *HELP,
    ),
    long_value=_fs(
        "regexp", "after-context", "before-context", "context", "max-count", "devices",
        "directories", "binary-files", "label", "include", "exclude", "exclude-dir",
    ),
    long_optional=_fs("color", "colour"),
    long_path=_fs("file", "exclude-from"),
    denied={"-R": _FOLLOWS, "--dereference-recursive": _FOLLOWS},
)
SORT = Spec(
    short="bdfgiMhnRrVcCmsuz",
    short_value="ktS",
    long=_fs(
        "ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort",
        "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort",
        "reverse", "version-sort", "merge", "stable", "unique", "zero-terminated", "debug",
        *HELP,
    ),
    long_value=_fs("sort", "key", "field-separator", "buffer-size", "parallel", "batch-size"),
    long_optional=_fs("check"),
    long_path=_fs("random-source"),
    denied={"--files0-from": FILE_LIST, "-o": WRITES, "--output": WRITES, "--compress-program": RUNS,
            "-T": "writes temporary files to a folder it is given",
            "--temporary-directory": "writes temporary files to a folder it is given"},
)
UNIQ = Spec(
    short="cdDiuz", short_value="fsw",
    long=_fs("count", "repeated", "ignore-case", "unique", "zero-terminated", *HELP),
    long_value=_fs("skip-fields", "skip-chars", "check-chars"),
    long_optional=_fs("all-repeated", "group"),
)
SED = Spec(
    short="nErsuzb", short_value="el",
    long=_fs("quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data",
             "zero-terminated", "posix", "debug", "sandbox", "binary", "follow-symlinks",
             *HELP),
    long_value=_fs("expression", "line-length"),
    denied={"-i": "edits files in place", "--in-place": "edits files in place",
            "-f": "reads its commands from a file, which cannot be checked",
            "--file": "reads its commands from a file, which cannot be checked"},
)
_PYTEST_CONFIG = "makes pytest read settings or plugins from elsewhere, which can run code"
PYTEST = Spec(
    short="qvxsl", short_value="rkmnp",
    long=_fs(
        "quiet", "verbose", "exitfirst", "last-failed", "lf", "failed-first", "ff",
        "new-first", "nf", "stepwise", "sw", "stepwise-skip", "sw-skip", "collect-only", "co",
        "no-header", "no-summary", "showlocals", "disable-warnings", "disable-pytest-warnings",
        "strict-markers", "strict-config", "strict", "runxfail", "full-trace", "setup-show",
        "setup-only", "setup-plan", "markers", "fixtures", "fixtures-per-test",
        "continue-on-collection-errors", "cache-show", "no-showlocals", *HELP,
    ),
    long_value=_fs(
        "tb", "maxfail", "durations", "durations-min", "color", "code-highlight", "capture",
        "deselect", "ignore-glob", "import-mode", "verbosity", "show-capture", "log-level",
        "log-cli-level", "numprocesses", "dist", "maxprocesses",
    ),
    long_path=_fs("ignore"),
    denied={
        "-c": _PYTEST_CONFIG, "--config-file": _PYTEST_CONFIG, "--rootdir": _PYTEST_CONFIG,
        "--confcutdir": _PYTEST_CONFIG, "-o": _PYTEST_CONFIG, "--override-ini": _PYTEST_CONFIG,
        "--pyargs": "imports test modules from anywhere on the Python path",
        "-W": "imports the warning class it names",
        "--pythonwarnings": "imports the warning class it names",
        "--basetemp": "deletes and recreates the folder it is given",
        "--junitxml": WRITES, "--junit-xml": WRITES, "--log-file": WRITES,
        "--resultlog": WRITES, "--debug": WRITES, "--report-log": WRITES,
        "--pastebin": "sends the test output to a paste service",
        "--pdb": "waits for input at a debugger", "--pdbcls": RUNS, "--trace": RUNS,
    },
)


def _generic_paths(args: Sequence[str], program: str) -> ArgCheck:
    """A program without a table: its options are unknown (any of them may run a
    program or write a file), so it runs without asking only without options, and
    every argument is taken as a path."""
    for a in args:
        if a[:1] in ("-", "+") and a not in ("-", "+"):
            return ArgCheck(
                f"{program} has no option table here, so it runs without asking only "
                f"without options ({a!r} could make it write files or run programs)"
            )
    return ArgCheck(None, tuple(args))


def _spec_program(spec: Spec, *, positionals: str = "paths",
                  max_positionals: int | None = None) -> Callable[[Sequence[str], str], ArgCheck]:
    def check(args: Sequence[str], program: str) -> ArgCheck:
        s = scan(args, spec, program)
        if s.reason:
            return ArgCheck(s.reason)
        if positionals == "none" and s.positionals:
            return ArgCheck(f"{program} takes no arguments here")
        if max_positionals is not None and len(s.positionals) > max_positionals:
            return ArgCheck(f"{program} with an output file {WRITES}")
        extra = s.positionals if positionals == "paths" else []
        return ArgCheck(None, tuple(s.paths + extra))

    return check


def _date(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, DATE, program)
    if s.reason:
        return ArgCheck(s.reason)
    for p in s.positionals:
        if not p.startswith("+"):
            return ArgCheck(f"date {p!r} sets the system clock")
    return ArgCheck(None, tuple(s.paths))


def _grep(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, GREP, program)
    if s.reason:
        return ArgCheck(s.reason)
    rest = list(s.positionals)
    has_pattern = any(f in s.seen for f in ("-e", "-f", "--regexp", "--file"))
    if not has_pattern and rest:
        rest = rest[1:]  # the pattern
    return ArgCheck(None, tuple(s.paths + rest))


def _sed(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, SED, program)
    if s.reason:
        return ArgCheck(s.reason)
    scripts = [v for f, v in s.values if f in ("-e", "--expression")]
    rest = list(s.positionals)
    if not scripts:
        if not rest:
            if {"--version", "--help"} & s.seen:
                return ArgCheck(None)
            return ArgCheck("sed without a script")
        scripts, rest = [rest[0]], rest[1:]
    problem = sed_script_problem("\n".join(scripts))  # how GNU sed joins -e parts
    if problem:
        return ArgCheck(problem)
    return ArgCheck(None, tuple(rest))


def _pytest(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, PYTEST, program)
    if s.reason:
        return ArgCheck(s.reason)
    for flag, value in s.values:
        if flag == "-p" and not value.startswith("no:"):
            return ArgCheck(f"-p {value} loads a plugin, which runs its code")
    paths = [p.split("::", 1)[0] for p in s.positionals]
    return ArgCheck(None, tuple(s.paths + [p for p in paths if p]))


def _tee(args: Sequence[str], program: str) -> ArgCheck:
    return ArgCheck(f"{program} {WRITES} it is given")


def _echo(args: Sequence[str], program: str) -> ArgCheck:
    return ArgCheck(None)


def _printf(args: Sequence[str], program: str) -> ArgCheck:
    if args and args[0].startswith("-") and args[0] != "--":
        return ArgCheck(f"{program} {args[0][:2]} assigns a shell variable (bash's printf -v), "
                        "which would change the session shell")
    return ArgCheck(None)


# --------------------------------------------------------------------- find

_FIND_FLAGS = _fs(
    "-depth", "-d", "-empty", "-executable", "-false", "-ignore_readdir_race",
    "-ls", "-mount", "-noignore_readdir_race", "-noleaf", "-nogroup", "-nouser", "-print",
    "-print0", "-prune", "-quit", "-readable", "-true", "-writable", "-xdev", "-not", "!",
    "-a", "-and", "-o", "-or", "-daystart", "-help", "--help", "-version", "--version",
)
_FIND_VALUE = _fs(
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
    "-regextype", "-type", "-xtype", "-maxdepth", "-mindepth", "-size", "-mtime", "-mmin",
    "-atime", "-amin", "-ctime", "-cmin", "-perm", "-user", "-group", "-uid", "-gid",
    "-links", "-inum", "-lname", "-ilname", "-printf", "-used", "-fstype", "-context",
)
_FIND_PATH = _fs("-newer", "-anewer", "-cnewer", "-samefile")
_FIND_DENIED = {
    "-follow": _FOLLOWS,
    "-files0-from": FILE_LIST,
    "-delete": DELETES,
    "-exec": RUNS, "-execdir": RUNS, "-ok": RUNS, "-okdir": RUNS,
    "-fprint": WRITES, "-fprint0": WRITES, "-fprintf": WRITES, "-fls": WRITES,
}
_NEWER_XY = re.compile(r"^-newer[aBcm][aBcmt]$")


def _find(args: Sequence[str], program: str) -> ArgCheck:
    paths: list[str] = []
    i = 0
    # leading options: -H -L -P -D debugopts -Olevel
    while i < len(args) and (args[i] in ("-H", "-L", "-P", "-D") or re.fullmatch(r"-O\d", args[i])):
        if args[i] in ("-H", "-L"):
            return ArgCheck(f"find {args[i]} {_FOLLOWS}")
        i += 2 if args[i] == "-D" else 1
    # starting points: up to the first expression word
    while i < len(args) and not args[i].startswith("-") and args[i] != "!":
        paths.append(args[i])
        i += 1
    while i < len(args):
        a = args[i]
        i += 1
        if a in _FIND_DENIED:
            return ArgCheck(f"find {a} {_FIND_DENIED[a]}")
        if a in _FIND_FLAGS:
            continue
        if a in _FIND_VALUE or a in _FIND_PATH or _NEWER_XY.match(a):
            if i >= len(args):
                return ArgCheck(f"find {a} needs a value")
            value = args[i]
            i += 1
            if a in _FIND_PATH or (_NEWER_XY.match(a) and not a.endswith("t")):
                paths.append(value)
            continue
        return ArgCheck(f"find {a} is not an expression this check knows")
    return ArgCheck(None, tuple(paths))


# ---------------------------------------------------------------------- git

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


# ------------------------------------------- programs users commonly allowlist
#
# For each, only the uses that read are allowed; anything that writes, runs
# another program, reaches the network or is not known asks.

INTERPRETER = "runs whatever program it is given (an interpreter)"
RUNS_COMMANDS = "runs the command it is given"


def _version_only(reason: str, allowed: frozenset[str] = _fs("--version", "--help")
                  ) -> Callable[[Sequence[str], str], ArgCheck]:
    """A program that only runs without asking to print its version or help."""

    def check(args: Sequence[str], program: str) -> ArgCheck:
        if len(args) == 1 and args[0] in allowed:
            return ArgCheck(None)
        return ArgCheck(f"{program} {reason}, so only '{program} --version' runs without asking")

    return check


#: Programs whose whole job is to run another program, or that run code they
#: are given: they always ask (only their version runs without asking).
ALWAYS_ASK: Mapping[str, str] = {
    **{name: RUNS_COMMANDS for name in (
        "env", "xargs", "timeout", "nice", "nohup", "watch", "sudo", "doas", "su", "runuser",
        "time", "stdbuf", "setsid", "chroot", "strace", "ltrace", "gdb", "lldb", "flock",
        "ionice", "taskset", "unbuffer", "script", "busybox", "parallel", "chrt", "nsenter",
        "unshare", "firejail", "systemd-run", "caffeinate", "command", "exec", "builtin",
        "entr", "expect", "screen", "tmux", "at", "batch", "crontab", "open", "xdg-open",
        "gio", "start", "run-parts", "sg", "newgrp", "pkexec",
    )},
    **{name: INTERPRETER for name in (
        "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "pwsh",
        "powershell", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "luajit",
        "Rscript", "R", "julia", "tclsh", "wish", "osascript", "awk", "gawk", "mawk", "nawk",
        "ipython", "jshell", "groovy", "scala", "elixir", "erl", "ghci", "runghc",
        "irb", "pypy", "uv", "uvx", "pipx", "poetry", "pdm", "hatch", "tox", "nox",
        "conda", "mamba", "python", "sqlite", "duckdb", "m4", "dc", "gnuplot", "octave",
        "matlab", "tex", "latex", "pdflatex", "xelatex", "lualatex", "latexmk", "luatex",
        "sage", "maxima", "swipl", "racket", "guile", "sbcl", "clisp", "ocaml", "gforth",
    )},
    **{name: "runs the commands of a project file the assistant can write (a Makefile, "
              "package scripts, a build file)" for name in (
        "make", "gmake", "cmake", "ninja", "npx", "yarn", "pnpm", "cargo", "go", "gradle",
        "mvn", "ant", "rake", "bundle", "just", "task", "meson", "bazel", "pip", "pip3",
        "gem", "composer",
    )},
    **{name: "is an editor or pager, which can run commands" for name in (
        "vim", "vi", "nvim", "view", "ex", "nano", "pico", "emacs", "ed", "less", "more",
        "most", "pg", "mc", "ranger",
    )},
    **{name: "reaches other machines, which this check cannot judge" for name in (
        "curl", "wget", "ssh", "sftp", "nc", "ncat", "netcat", "socat",
        "telnet", "ftp", "aria2c", "httpie", "http", "https",
    )},
    **{name: "copies files (it writes) and can reach other machines"
       for name in ("rsync", "scp", "cp", "mv", "install")},
    **{name: "changes files (only commands that read run without asking)" for name in (
        "rm", "rmdir", "mkdir", "touch", "ln", "link", "unlink", "chmod", "chown", "chgrp",
        "chattr", "truncate", "dd", "shred", "split", "csplit", "patch", "mkfifo", "mknod",
        "mktemp", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4",
        "7z", "7za", "unrar", "ar", "convert", "magick", "mogrify", "pandoc", "sponge",
        "setfacl", "rename",
    )},
    **{name: "changes the system or other programs" for name in (
        "kill", "pkill", "killall", "shutdown", "reboot", "systemctl", "service", "launchctl",
        "apt", "apt-get", "dpkg", "brew", "yum", "dnf", "pacman", "snap", "flatpak", "mount",
        "umount", "defaults", "code", "gsettings", "dconf",
    )},
    **{name: "reaches other machines or accounts, which this check cannot judge" for name in (
        "gh", "glab", "aws", "gcloud", "az", "helm", "terraform", "pulumi", "ansible",
        "ansible-playbook", "podman", "docker-compose", "hg", "svn", "redis-cli", "mysql",
        "psql", "mongo", "mongosh",
    )},
    "zip": "writes an archive (and -TT runs a program)",
}
_VERSION_SUFFIX = re.compile(r"[0-9][0-9.\-]*$")  # ``python3.11``, ``node18``, ``lua5.4``


# tar: listing only
_TAR_LIST = "only listing an archive (tar -t) runs without asking"
TAR = Spec(
    short="tvzjJaqwkUOP", short_path="fCX",
    long=_fs("list", "verbose", "gzip", "gunzip", "bzip2", "xz", "lzma", "lzip", "lzop",
             "zstd", "auto-compress", "numeric-owner", "force-local", "wildcards",
             "no-wildcards", "anchored", "no-anchored", "ignore-case", "full-time", "utc",
             "show-transformed-names", "quiet", "totals", "null", "no-null", "recursion",
             "no-recursion", "ignore-zeros", *HELP),
    long_value=_fs("exclude", "blocking-factor", "record-size", "occurrence", "format",
                   "strip-components", "quoting-style", "transform", "xform"),
    long_path=_fs("file", "directory", "exclude-from"),
    denied={
        "-I": RUNS, "--use-compress-program": RUNS, "--checkpoint-action": RUNS,
        "--to-command": RUNS, "-F": RUNS, "--info-script": RUNS, "--new-volume-script": RUNS,
        "--rmt-command": RUNS, "--rsh-command": RUNS, "-T": FILE_LIST, "--files-from": FILE_LIST,
        "-x": WRITES, "--extract": WRITES, "--get": WRITES, "-c": WRITES, "--create": WRITES,
        "-r": WRITES, "--append": WRITES, "-u": WRITES, "--update": WRITES, "-A": WRITES,
        "--catenate": WRITES, "--concatenate": WRITES, "--delete": WRITES, "-d": _TAR_LIST,
        "--diff": _TAR_LIST, "--compare": _TAR_LIST, "-g": WRITES, "--listed-incremental": WRITES,
        "-h": _FOLLOWS, "--dereference": _FOLLOWS,
    },
)
_TAR_VALUE_LETTERS = "fCXbIFTgKLNV"


def _tar(args: Sequence[str], program: str) -> ArgCheck:
    args = list(args)
    if args and not args[0].startswith("-"):  # old style: ``tar tvf a.tar``
        letters, rest = args[0], args[1:]
        converted: list[str] = []
        for letter in letters:
            converted.append("-" + letter)
            if letter in _TAR_VALUE_LETTERS:
                if not rest:
                    return ArgCheck(f"tar -{letter} needs a value")
                converted.append(rest.pop(0))
        args = converted + rest
    s = scan(args, TAR, program)
    if s.reason:
        return ArgCheck(s.reason)
    if not {"-t", "--list"} & s.seen and not ({"--help", "--version"} & s.seen):
        return ArgCheck(f"tar {_TAR_LIST}")
    for flag, value in s.values:
        if flag in ("-f", "--file") and ":" in value and "--force-local" not in s.seen:
            return ArgCheck("tar with an archive named host:file runs a remote shell")
    return ArgCheck(None, tuple(s.paths))  # the other arguments are member names


UNZIP = Spec(short="lvtqzCpc", long=HELP)


def _unzip(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, UNZIP, program)
    if s.reason:
        return ArgCheck(f"{s.reason} (only listing, testing or printing an archive runs "
                        "without asking)")
    if not {"-l", "-v", "-t", "-p", "-c", "-z"} & s.seen:
        return ArgCheck(f"{program} without -l, -t or -p extracts files ({WRITES})")
    return ArgCheck(None, tuple(s.positionals[:1]))  # the archive; the rest are member names


JQ = Spec(
    short="rjacnsSCMeRh0",
    long=_fs("raw-output", "join-output", "ascii-output", "compact-output", "null-input",
             "slurp", "sort-keys", "color-output", "monochrome-output", "exit-status",
             "raw-input", "tab", "seq", "stream", "stream-errors", "raw-output0", "unbuffered",
             "args", "jsonargs", *HELP),
    long_value=_fs("indent"),
    denied={"-f": "reads its program from a file, which cannot be checked",
            "--from-file": "reads its program from a file, which cannot be checked",
            "-L": "loads modules from a folder", "--library-path": "loads modules from a folder"},
)
_JQ_NAMED = {"--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2}
_JQ_RISKY = re.compile(r"\benv\b|\$ENV\b|\$__prog|\bimport\b|\binclude\b|\bmodulemeta\b"
                       r"|\bget_search_list\b|\binput_filename\b|\$__loc__")


def _jq(args: Sequence[str], program: str) -> ArgCheck:
    rest: list[str] = []
    paths: list[str] = []
    i = 0
    args = list(args)
    while i < len(args):  # the named-argument options take two values
        a = args[i]
        if a in _JQ_NAMED:
            if i + 2 >= len(args):
                return ArgCheck(f"jq {a} needs a name and a value")
            if a in ("--slurpfile", "--rawfile"):
                paths.append(args[i + 2])
            i += 3
            continue
        if a == "--":
            rest += args[i:]
            break
        rest.append(a)
        i += 1
    s = scan(rest, JQ, program)
    if s.reason:
        return ArgCheck(s.reason)
    positionals = list(s.positionals)
    if positionals:
        program_text = positionals.pop(0)
        if _JQ_RISKY.search(program_text):
            return ArgCheck("the jq program reads the environment or loads files "
                            "(env, $ENV, import, include)")
    if "--args" in s.seen or "--jsonargs" in s.seen:
        positionals = []  # strings, not files
    return ArgCheck(None, tuple(paths + positionals))


RG = Spec(
    short="iSsFwxvcloqnNHIUPa0hbuV", short_path="f",
    short_value="ABCegtTrjMmE",
    long=_fs("ignore-case", "smart-case", "case-sensitive", "fixed-strings", "word-regexp",
             "line-regexp", "invert-match", "count", "count-matches", "files-with-matches",
             "files-without-match", "only-matching", "quiet", "line-number", "no-line-number",
             "with-filename", "no-filename", "hidden", "no-hidden", "no-ignore",
             "no-ignore-vcs", "no-ignore-parent", "no-ignore-dot", "no-ignore-global",
             "no-ignore-exclude", "no-ignore-files", "files", "type-list", "json", "vimgrep",
             "column", "no-column", "heading", "no-heading", "byte-offset", "trim", "text",
             "binary", "no-binary", "null", "null-data", "pcre2", "no-pcre2", "multiline",
             "multiline-dotall", "crlf", "no-config", "no-messages", "stats", "passthru",
             "sort-files", "one-file-system", "unrestricted", "glob-case-insensitive",
             "no-unicode", "debug", "trace", "line-buffered", "block-buffered", "pretty",
             "include-zero", "no-require-git", "no-follow", "no-search-zip", "mmap", "no-mmap",
             *HELP),
    long_value=_fs("after-context", "before-context", "context", "regexp", "glob", "iglob",
                   "type", "type-not", "type-add", "type-clear", "replace", "max-count",
                   "max-depth", "max-filesize", "max-columns", "threads", "color", "colors",
                   "sort", "sortr", "encoding", "engine", "context-separator",
                   "field-match-separator", "field-context-separator", "path-separator",
                   "dfa-size-limit", "regex-size-limit", "generate"),
    long_path=_fs("file", "ignore-file"),
    denied={"--pre": RUNS, "--pre-glob": RUNS, "--hostname-bin": RUNS,
            "-z": "runs decompression programs", "--search-zip": "runs decompression programs",
            "-L": _FOLLOWS, "--follow": _FOLLOWS},
)


def _rg(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, RG, program)
    if s.reason:
        return ArgCheck(s.reason)
    rest = list(s.positionals)
    pattern_given = any(f in s.seen for f in ("-e", "-f", "--regexp", "--file", "--files",
                                              "--type-list"))
    if not pattern_given and rest:
        rest = rest[1:]
    return ArgCheck(None, tuple(s.paths + rest))


FD = Spec(
    short="HIusigFap0q1", short_value="dtEScjeo",
    long=_fs("hidden", "no-hidden", "no-ignore", "no-ignore-vcs", "no-ignore-parent",
             "unrestricted", "case-sensitive", "ignore-case", "glob", "regex", "fixed-strings",
             "absolute-path", "relative-path", "full-path", "print0", "prune", "quiet",
             "show-errors", "strip-cwd-prefix", "one-file-system", "no-require-git", *HELP),
    long_value=_fs("max-depth", "min-depth", "exact-depth", "type", "extension", "exclude",
                   "size", "changed-within", "changed-before", "newer", "older", "owner",
                   "color", "threads", "max-results", "path-separator", "format", "and"),
    long_path=_fs("search-path", "base-directory", "ignore-file"),
    denied={"-x": RUNS, "--exec": RUNS, "-X": RUNS, "--exec-batch": RUNS,
            "-l": "runs ls on what it finds", "--list-details": "runs ls on what it finds",
            "-L": _FOLLOWS, "--follow": _FOLLOWS},
)


def _fd(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, FD, program)
    if s.reason:
        return ArgCheck(s.reason)
    rest = list(s.positionals)[1:]  # the pattern first, then the folders
    return ArgCheck(None, tuple(s.paths + rest))


def _npm(args: Sequence[str], program: str) -> ArgCheck:
    if len(args) == 1 and args[0] in ("--version", "-v"):
        return ArgCheck(None)
    if args and args[0] in ("ls", "list"):
        for a in args[1:]:
            name = a.partition("=")[0]
            if name not in ("--all", "-a", "--json", "--long", "-l", "--parseable", "-p",
                            "--depth", "--omit", "--include", "--link", "--global", "-g"):
                return ArgCheck(f"npm {args[0]} {a} is not one this check knows")
        return ArgCheck(None)
    return ArgCheck("npm runs package scripts and installs code (only 'npm ls' and "
                    "'npm --version' run without asking)")


_DOCKER_SUBS = {
    "ps": Spec(short="aqlsn", short_value="fn",
               long=_fs("all", "quiet", "latest", "size", "no-trunc"),
               long_value=_fs("filter", "format", "last")),
    "images": Spec(short="aq", short_value="f",
                   long=_fs("all", "quiet", "digests", "no-trunc"),
                   long_value=_fs("filter", "format")),
    "version": Spec(short_value="f", long_value=_fs("format")),
}


def _docker(args: Sequence[str], program: str) -> ArgCheck:
    if len(args) == 1 and args[0] in ("--version", "-v"):
        return ArgCheck(None)
    sub = args[0] if args else ""
    spec = _DOCKER_SUBS.get(sub)
    if spec is None:
        return ArgCheck(f"'{program} {sub}' can run containers, change them or read their "
                        "secrets (only 'docker ps', 'docker images' and 'docker version' "
                        "run without asking)")
    s = scan(args[1:], spec, program)
    if s.reason:
        return ArgCheck(s.reason)
    if s.positionals:
        return ArgCheck(f"{program} {sub} takes no arguments here")
    return ArgCheck(None)


_KUBE_READ = frozenset({"get", "describe", "explain", "api-resources", "api-versions",
                        "version"})
_KUBE_SECRET = re.compile(r"(?i)secrets?\b|configmaps?\b|\bcm\b|serviceaccounts?\b|\bsa\b|\ball\b")
_KUBE = Spec(
    short="A", short_value="nlo",
    long=_fs("all-namespaces", "client", "no-headers", "show-labels", "recursive",
             "ignore-not-found", "show-kind"),
    long_value=_fs("namespace", "selector", "field-selector", "output", "sort-by",
                   "label-columns", "chunk-size"),
)


def _kubectl(args: Sequence[str], program: str) -> ArgCheck:
    if not args or args[0] not in _KUBE_READ:
        sub = args[0] if args else ""
        return ArgCheck(f"'{program} {sub}' is not a read-only kubectl command (only get, "
                        "describe, explain, api-resources and version run without asking; "
                        "no other cluster, config or credential options)")
    s = scan(args[1:], _KUBE, program)
    if s.reason:
        return ArgCheck(s.reason)
    for flag, value in s.values:
        if flag in ("-o", "--output") and "file" in value:
            return ArgCheck(f"{program} {flag}={value} reads a template file")
    if args[0] in ("get", "describe") and any(_KUBE_SECRET.search(p) for p in s.positionals):
        return ArgCheck(f"{program} {args[0]} of secrets, config maps or service accounts "
                        "shows credentials")
    return ArgCheck(None)


_MAN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+:-]*")


def _man(args: Sequence[str], program: str) -> ArgCheck:
    if len(args) == 1 and args[0] in ("--version", "--help"):
        return ArgCheck(None)
    words = list(args[1:]) if args and args[0] in ("-k", "-f") else list(args)
    if not words:
        return ArgCheck(f"{program} without a page name")
    for w in words:
        if not _MAN_NAME.fullmatch(w):
            return ArgCheck(f"{program} {w!r}: only page names (no options, no files) run "
                            "without asking (man options can run a pager or a browser)")
    return ArgCheck(None)


PROGRAMS: Mapping[str, Callable[[Sequence[str], str], ArgCheck]] = {
    "ls": _spec_program(LS),
    "pwd": _spec_program(PWD, positionals="none"),
    "whoami": _spec_program(WHOAMI, positionals="none"),
    "uname": _spec_program(UNAME, positionals="none"),
    "date": _date,
    "cat": _spec_program(CAT),
    "head": _spec_program(HEAD),
    "tail": _spec_program(TAIL),
    "wc": _spec_program(WC),
    "grep": _grep,
    "egrep": _grep,
    "fgrep": _grep,
    "find": _find,
    "sort": _spec_program(SORT),
    "uniq": _spec_program(UNIQ, max_positionals=1),
    "sed": _sed,
    "tee": _tee,
    "echo": _echo,
    "printf": _printf,
    "git": _git,
    "pytest": _pytest,
    "py.test": _pytest,
    "tar": _tar,
    "unzip": _unzip,
    "jq": _jq,
    "rg": _rg,
    "fd": _fd,
    "fdfind": _fd,
    "npm": _npm,
    "docker": _docker,
    "kubectl": _kubectl,
    "man": _man,
}


GitCheck = Callable[[str, "str | None"], "str | None"]
"""Given the folder a git command starts in and its ``--git-dir`` (or ``None``), why
it may not run without asking (or ``None``)."""


def check_arguments(argv: Sequence[str], path_check: PathCheck | None = None,
                    git_check: GitCheck | None = None) -> str | None:
    """Why the allowlisted ``argv`` must ask, or ``None`` when it may auto-run.

    ``argv`` is what the program receives (see
    :func:`~openworker_qt.core.shell_policy.shell_words`).
    ``path_check`` (from the permission engine) judges every path argument; without
    it only the options are checked.
    """
    if not argv:
        return "the command is empty"
    program, args = argv[0], list(argv[1:])
    name = program.rsplit("/", 1)[-1]  # ``/usr/bin/env`` is env
    checker = PROGRAMS.get(name)
    if checker is None:
        base = name if name in ALWAYS_ASK else _VERSION_SUFFIX.sub("", name).rstrip("-")
        if base in ALWAYS_ASK:
            checker = _version_only(ALWAYS_ASK[base])
    result = checker(args, program) if checker else _generic_paths(args, program)
    if result.reason:
        return result.reason
    if path_check is not None:
        for raw in result.paths:
            problem = path_check(literal_path(raw))
            if problem:
                return problem
    if git_check is not None and result.git_repo is not None:
        return git_check(*result.git_repo)
    return None


def literal_path(arg: str) -> str:
    """A path argument as the program reads it. ``argv`` is what the program
    receives — the shell has already expanded every ``~`` it expands — so a ``~``
    still leading a path (``-f~/x``, ``--file=~/x``) names a folder called ``~``
    in the working directory, never the home folder."""
    return "./" + arg if arg.startswith("~") else arg
