"""Shell checks for search and query programs: ``jq`` (no ``env``, ``$ENV``,
modules or program files), ``rg`` (no ``--pre``, ``-z``, ``-L``) and ``fd`` (no
``-x``/``-X``/``-l``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from openworker_qt.core.shell_options import (
    FOLLOWS,
    HELP,
    RUNS,
    ArgCheck,
    ProgramCheck,
    Spec,
    by_reason,
    names,
    scan,
)

JQ = Spec(
    short="rjacnsSCMeRh0",
    long=names("raw-output", "join-output", "ascii-output", "compact-output", "null-input",
             "slurp", "sort-keys", "color-output", "monochrome-output", "exit-status",
             "raw-input", "tab", "seq", "stream", "stream-errors", "raw-output0", "unbuffered",
             "args", "jsonargs", *HELP),
    long_value=names("indent"),
    denied=by_reason({
        "reads its program from a file, which cannot be checked": ("-f", "--from-file"),
        "loads modules from a folder": ("-L", "--library-path"),
    }),
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
    long=names("ignore-case", "smart-case", "case-sensitive", "fixed-strings", "word-regexp",
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
    long_value=names("after-context", "before-context", "context", "regexp", "glob", "iglob",
                   "type", "type-not", "type-add", "type-clear", "replace", "max-count",
                   "max-depth", "max-filesize", "max-columns", "threads", "color", "colors",
                   "sort", "sortr", "encoding", "engine", "context-separator",
                   "field-match-separator", "field-context-separator", "path-separator",
                   "dfa-size-limit", "regex-size-limit", "generate"),
    long_path=names("file", "ignore-file"),
    denied=by_reason({RUNS: ("--pre", "--pre-glob", "--hostname-bin"),
                      "runs decompression programs": ("-z", "--search-zip"),
                      FOLLOWS: ("-L", "--follow")}),
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
    long=names("hidden", "no-hidden", "no-ignore", "no-ignore-vcs", "no-ignore-parent",
             "unrestricted", "case-sensitive", "ignore-case", "glob", "regex", "fixed-strings",
             "absolute-path", "relative-path", "full-path", "print0", "prune", "quiet",
             "show-errors", "strip-cwd-prefix", "one-file-system", "no-require-git", *HELP),
    long_value=names("max-depth", "min-depth", "exact-depth", "type", "extension", "exclude",
                   "size", "changed-within", "changed-before", "newer", "older", "owner",
                   "color", "threads", "max-results", "path-separator", "format", "and"),
    long_path=names("search-path", "base-directory", "ignore-file"),
    denied=by_reason({RUNS: ("-x", "--exec", "-X", "--exec-batch"),
                      "runs ls on what it finds": ("-l", "--list-details"),
                      FOLLOWS: ("-L", "--follow")}),
)


def _fd(args: Sequence[str], program: str) -> ArgCheck:
    s = scan(args, FD, program)
    if s.reason:
        return ArgCheck(s.reason)
    rest = list(s.positionals)[1:]  # the pattern first, then the folders
    return ArgCheck(None, tuple(s.paths + rest))


PROGRAMS: Mapping[str, ProgramCheck] = {
    "jq": _jq,
    "rg": _rg,
    "fd": _fd,
    "fdfind": _fd,
}
