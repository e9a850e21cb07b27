"""Shell checks for developer tools: ``npm ls``, ``docker ps/images/version``,
read-only ``kubectl`` (no secrets) and ``man PAGE``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from openworker_qt.core.shell_options import ArgCheck, ProgramCheck, Spec, names, scan


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
               long=names("all", "quiet", "latest", "size", "no-trunc"),
               long_value=names("filter", "format", "last")),
    "images": Spec(short="aq", short_value="f",
                   long=names("all", "quiet", "digests", "no-trunc"),
                   long_value=names("filter", "format")),
    "version": Spec(short_value="f", long_value=names("format")),
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
    long=names("all-namespaces", "client", "no-headers", "show-labels", "recursive",
             "ignore-not-found", "show-kind"),
    long_value=names("namespace", "selector", "field-selector", "output", "sort-by",
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


PROGRAMS: Mapping[str, ProgramCheck] = {
    "npm": _npm,
    "docker": _docker,
    "kubectl": _kubectl,
    "man": _man,
}
