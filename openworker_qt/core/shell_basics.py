"""Option tables for the everyday file and text programs of the shell allowlist.

``ls pwd whoami uname date cat head tail wc grep egrep fgrep find sort uniq sed
tee echo printf pytest``: every option must be one the table knows (see
:mod:`openworker_qt.core.shell_programs` for how a table is applied).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from openworker_qt.core.shell_options import (
    DELETES,
    FILE_LIST,
    FOLLOWS,
    HELP,
    RUNS,
    WRITES,
    ArgCheck,
    ProgramCheck,
    Spec,
    by_reason,
    names,
    scan,
    spec_program,
)
from openworker_qt.core.shell_sed import sed_script_problem

LS = Spec(
    short="aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
    short_value="ITw",
    long=names(
        "all", "almost-all", "author", "escape", "ignore-backups", "directory", "dired",
        "file-type", "full-time", "group-directories-first", "no-group", "human-readable",
        "si", "dereference-command-line", "dereference-command-line-symlink-to-dir", "inode",
        "kibibytes", "dereference", "literal", "numeric-uid-gid", "hide-control-chars",
        "show-control-chars", "quote-name", "reverse", "recursive", "size", "context", "zero",
        *HELP,
    ),
    long_value=names(
        "block-size", "format", "hide", "ignore", "indicator-style", "quoting-style", "sort",
        "time", "time-style", "tabsize", "width",
    ),
    long_optional=names("color", "hyperlink", "classify"),
    denied={"-L": FOLLOWS, "--dereference": FOLLOWS},
)
PWD = Spec(short="LP", long=names("logical", "physical", *HELP))
WHOAMI = Spec(long=HELP)
UNAME = Spec(
    short="asnrvmpio",
    long=names(
        "all", "kernel-name", "nodename", "kernel-release", "kernel-version", "machine",
        "processor", "hardware-platform", "operating-system", *HELP,
    ),
)
DATE = Spec(
    short="uR",
    short_value="d",
    short_path="rf",
    short_optional="I",
    long=names("utc", "universal", "rfc-email", "debug", *HELP),
    long_value=names("date", "rfc-3339"),
    long_optional=names("iso-8601"),
    long_path=names("reference", "file"),
    denied={"-s": "sets the system clock", "--set": "sets the system clock"},
)
CAT = Spec(
    short="AbeEnstTuv",
    long=names(
        "show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs",
        "show-nonprinting", *HELP,
    ),
)
HEAD = Spec(
    short="qvz", short_value="nc", digits=True,
    long=names("quiet", "silent", "verbose", "zero-terminated", *HELP),
    long_value=names("lines", "bytes"),
)
_FOLLOW = "keeps following the file and never finishes"
TAIL = Spec(
    short="qvz", short_value="nc", digits=True,
    long=names("quiet", "silent", "verbose", "zero-terminated", *HELP),
    long_value=names("lines", "bytes"),
    denied=by_reason({_FOLLOW: ("-f", "-F", "--follow", "--retry", "--pid", "-s",
                                "--sleep-interval")}),
)
WC = Spec(
    short="cmlLw",
    long=names("bytes", "chars", "lines", "max-line-length", "words", *HELP),
    long_value=names("total"),
    denied={"--files0-from": FILE_LIST},
)
GREP = Spec(
    short="EFGPiyvwxcLloqsbHhnTZzaIrUuV",
    short_value="eABCmdD",
    short_path="f",
    digits=True,
    long=names(
        "extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case",
        "no-ignore-case", "invert-match", "word-regexp", "line-regexp", "count",
        "files-without-match", "files-with-matches", "only-matching", "quiet", "silent",
        "no-messages", "byte-offset", "with-filename", "no-filename", "line-number",
        "initial-tab", "null", "null-data", "text", "recursive", "line-buffered",
        "unix-byte-offsets", *HELP,
    ),
    long_value=names(
        "regexp", "after-context", "before-context", "context", "max-count", "devices",
        "directories", "binary-files", "label", "include", "exclude", "exclude-dir",
    ),
    long_optional=names("color", "colour"),
    long_path=names("file", "exclude-from"),
    denied={"-R": FOLLOWS, "--dereference-recursive": FOLLOWS},
)
SORT = Spec(
    short="bdfgiMhnRrVcCmsuz",
    short_value="ktS",
    long=names(
        "ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort",
        "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort",
        "reverse", "version-sort", "merge", "stable", "unique", "zero-terminated", "debug",
        *HELP,
    ),
    long_value=names("sort", "key", "field-separator", "buffer-size", "parallel", "batch-size"),
    long_optional=names("check"),
    long_path=names("random-source"),
    denied=by_reason({
        FILE_LIST: ("--files0-from",), WRITES: ("-o", "--output"), RUNS: ("--compress-program",),
        "writes temporary files to a folder it is given": ("-T", "--temporary-directory"),
    }),
)
UNIQ = Spec(
    short="cdDiuz", short_value="fsw",
    long=names("count", "repeated", "ignore-case", "unique", "zero-terminated", *HELP),
    long_value=names("skip-fields", "skip-chars", "check-chars"),
    long_optional=names("all-repeated", "group"),
)
SED = Spec(
    short="nErsuzb", short_value="el",
    long=names("quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data",
             "zero-terminated", "posix", "debug", "sandbox", "binary", "follow-symlinks",
             *HELP),
    long_value=names("expression", "line-length"),
    denied=by_reason({"edits files in place": ("-i", "--in-place"),
                      "reads its commands from a file, which cannot be checked": ("-f", "--file")}),
)
_PYTEST_CONFIG = "makes pytest read settings or plugins from elsewhere, which can run code"
PYTEST = Spec(
    short="qvxsl", short_value="rkmnp",
    long=names(
        "quiet", "verbose", "exitfirst", "last-failed", "lf", "failed-first", "ff",
        "new-first", "nf", "stepwise", "sw", "stepwise-skip", "sw-skip", "collect-only", "co",
        "no-header", "no-summary", "showlocals", "disable-warnings", "disable-pytest-warnings",
        "strict-markers", "strict-config", "strict", "runxfail", "full-trace", "setup-show",
        "setup-only", "setup-plan", "markers", "fixtures", "fixtures-per-test",
        "continue-on-collection-errors", "cache-show", "no-showlocals", *HELP,
    ),
    long_value=names(
        "tb", "maxfail", "durations", "durations-min", "color", "code-highlight", "capture",
        "deselect", "ignore-glob", "import-mode", "verbosity", "show-capture", "log-level",
        "log-cli-level", "numprocesses", "dist", "maxprocesses",
    ),
    long_path=names("ignore"),
    denied=by_reason({
        _PYTEST_CONFIG: ("-c", "--config-file", "--rootdir", "--confcutdir", "-o",
                         "--override-ini"),
        "imports test modules from anywhere on the Python path": ("--pyargs",),
        "imports the warning class it names": ("-W", "--pythonwarnings"),
        "deletes and recreates the folder it is given": ("--basetemp",),
        WRITES: ("--junitxml", "--junit-xml", "--log-file", "--resultlog", "--debug",
                 "--report-log"),
        "sends the test output to a paste service": ("--pastebin",),
        "waits for input at a debugger": ("--pdb",),
        RUNS: ("--pdbcls", "--trace"),
    }),
)


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

_FIND_FLAGS = names(
    "-depth", "-d", "-empty", "-executable", "-false", "-ignore_readdir_race",
    "-ls", "-mount", "-noignore_readdir_race", "-noleaf", "-nogroup", "-nouser", "-print",
    "-print0", "-prune", "-quit", "-readable", "-true", "-writable", "-xdev", "-not", "!",
    "-a", "-and", "-o", "-or", "-daystart", "-help", "--help", "-version", "--version",
)
_FIND_VALUE = names(
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
    "-regextype", "-type", "-xtype", "-maxdepth", "-mindepth", "-size", "-mtime", "-mmin",
    "-atime", "-amin", "-ctime", "-cmin", "-perm", "-user", "-group", "-uid", "-gid",
    "-links", "-inum", "-lname", "-ilname", "-printf", "-used", "-fstype", "-context",
)
_FIND_PATH = names("-newer", "-anewer", "-cnewer", "-samefile")
_FIND_DENIED = by_reason({
    FOLLOWS: ("-follow",),
    FILE_LIST: ("-files0-from",),
    DELETES: ("-delete",),
    RUNS: ("-exec", "-execdir", "-ok", "-okdir"),
    WRITES: ("-fprint", "-fprint0", "-fprintf", "-fls"),
})
_NEWER_XY = re.compile(r"^-newer[aBcm][aBcmt]$")


def _find(args: Sequence[str], program: str) -> ArgCheck:
    paths: list[str] = []
    i = 0
    # leading options: -H -L -P -D debugopts -Olevel
    while i < len(args) and (args[i] in ("-H", "-L", "-P", "-D") or re.fullmatch(r"-O\d", args[i])):
        if args[i] in ("-H", "-L"):
            return ArgCheck(f"find {args[i]} {FOLLOWS}")
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


PROGRAMS: Mapping[str, ProgramCheck] = {
    "ls": spec_program(LS),
    "pwd": spec_program(PWD, positionals="none"),
    "whoami": spec_program(WHOAMI, positionals="none"),
    "uname": spec_program(UNAME, positionals="none"),
    "date": _date,
    "cat": spec_program(CAT),
    "head": spec_program(HEAD),
    "tail": spec_program(TAIL),
    "wc": spec_program(WC),
    "grep": _grep,
    "egrep": _grep,
    "fgrep": _grep,
    "find": _find,
    "sort": spec_program(SORT),
    "uniq": spec_program(UNIQ, max_positionals=1),
    "sed": _sed,
    "tee": _tee,
    "echo": _echo,
    "printf": _printf,
    "pytest": _pytest,
    "py.test": _pytest,
}
