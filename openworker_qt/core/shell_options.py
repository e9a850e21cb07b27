"""The option scanner the shell program tables are built on.

:class:`Spec` is a getopt-style option table, :func:`scan` walks a program's
arguments through one, and :class:`ArgCheck` is what a program's check says (why
it must ask, and which arguments are paths). Also the small builders the program
modules share: a check from a table alone (:func:`spec_program`), for a program
only allowed to print its version (:func:`version_only`), for a program without
a table (:func:`generic_paths`), and :func:`by_reason` for tables written as
reason -> names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ArgCheck:
    """``reason``: why the command must ask (``None``: its options are fine);
    ``paths``: the arguments that name files."""

    reason: str | None
    paths: tuple[str, ...] = ()
    #: git: the folder it starts in (``-C`` applied, relative to the working
    #: folder) and the ``--git-dir`` it was given, if any.
    git_repo: tuple[str, str | None] | None = None


ProgramCheck = Callable[[Sequence[str], str], "ArgCheck"]
"""A program's check: given its arguments and its name as written, an :class:`ArgCheck`."""


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


def names(*items: str) -> frozenset[str]:
    return frozenset(items)


WRITES = "writes to a file"
RUNS = "runs another program"
DELETES = "deletes files"
FILE_LIST = "reads the names of the files to open from a file, which cannot be checked"
FOLLOWS = "follows symbolic links out of the folder"
HELP = names("help", "version")


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



def generic_paths(args: Sequence[str], program: str) -> ArgCheck:
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


def spec_program(spec: Spec, *, positionals: str = "paths",
                 max_positionals: int | None = None) -> ProgramCheck:
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


def version_only(reason: str, allowed: frozenset[str] = names("--version", "--help")
                 ) -> ProgramCheck:
    """A program that only runs without asking to print its version or help."""

    def check(args: Sequence[str], program: str) -> ArgCheck:
        if len(args) == 1 and args[0] in allowed:
            return ArgCheck(None)
        return ArgCheck(f"{program} {reason}, so only '{program} --version' runs without asking")

    return check


def by_reason(table: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """``{reason: names}`` turned round into ``{name: reason}``, in the order
    written (a name listed twice takes its last reason)."""
    out: dict[str, str] = {}
    for reason, group in table.items():
        for name in group:
            out[name] = reason
    return out
