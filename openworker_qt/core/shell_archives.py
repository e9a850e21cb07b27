"""Shell checks for archive programs: ``tar`` (listing only) and ``unzip``
(``-l``/``-t``/``-p``: listing, testing or printing an archive)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openworker_qt.core.shell_options import (
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
)

# tar: listing only
_TAR_LIST = "only listing an archive (tar -t) runs without asking"
TAR = Spec(
    short="tvzjJaqwkUOP", short_path="fCX",
    long=names("list", "verbose", "gzip", "gunzip", "bzip2", "xz", "lzma", "lzip", "lzop",
             "zstd", "auto-compress", "numeric-owner", "force-local", "wildcards",
             "no-wildcards", "anchored", "no-anchored", "ignore-case", "full-time", "utc",
             "show-transformed-names", "quiet", "totals", "null", "no-null", "recursion",
             "no-recursion", "ignore-zeros", *HELP),
    long_value=names("exclude", "blocking-factor", "record-size", "occurrence", "format",
                   "strip-components", "quoting-style", "transform", "xform"),
    long_path=names("file", "directory", "exclude-from"),
    denied=by_reason({
        RUNS: ("-I", "--use-compress-program", "--checkpoint-action", "--to-command", "-F",
               "--info-script", "--new-volume-script", "--rmt-command", "--rsh-command"),
        FILE_LIST: ("-T", "--files-from"),
        WRITES: ("-x", "--extract", "--get", "-c", "--create", "-r", "--append", "-u",
                 "--update", "-A", "--catenate", "--concatenate", "--delete", "-g",
                 "--listed-incremental"),
        _TAR_LIST: ("-d", "--diff", "--compare"),
        FOLLOWS: ("-h", "--dereference"),
    }),
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


PROGRAMS: Mapping[str, ProgramCheck] = {"tar": _tar, "unzip": _unzip}
