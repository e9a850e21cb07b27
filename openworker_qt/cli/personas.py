"""``openworker-qt personas``: list, install, enable, disable, update and remove personas,
and ``export`` / ``import`` one as a single shareable file (``agents/bundles.py``).

An installed persona stays disabled until you agree to what it declares: the
command shows it in plain words and asks (``--yes`` agrees without asking, after
showing it). Exit status 2 when a persona cannot be installed or changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from openworker_qt.agents import bundles
from openworker_qt.agents.personas import (
    Persona,
    PersonaError,
    PersonaRegistry,
    capabilities,
    is_git_url,
)
from openworker_qt.storage.paths import app_paths

__all__ = ["add_parser", "personas"]


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("personas", help="list, install, enable, disable, update or remove personas")
    actions = p.add_subparsers(dest="personas_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="list the personas and whether they are enabled")
    listing.add_argument("--json", action="store_true", help="print one JSON object per persona")
    install = actions.add_parser("install", help="install a persona from a folder or a git URL")
    install.add_argument("source", help="a folder holding PERSONA.md, or a git URL")
    install.add_argument("--yes", "-y", action="store_true",
                         help="agree to what it declares and enable it (shown first)")
    enable = actions.add_parser("enable", help="enable a persona (asks for your consent first)")
    enable.add_argument("name")
    enable.add_argument("--yes", "-y", action="store_true",
                        help="agree to what it declares (shown first)")
    export = actions.add_parser(
        "export", help="write a persona, with the skills and MCP servers it needs, to one file "
                       "(secrets are never written)")
    export.add_argument("name")
    export.add_argument("--output", "-o", default=".", help="file or folder (default: here)")
    export.add_argument("--version", default="", help="the bundle's version, e.g. 1.2")
    export.add_argument("--skill", action="append", default=[], metavar="NAME",
                        help="a skill to bring along (repeat)")
    export.add_argument("--server", action="append", default=[], metavar="NAME",
                        help="an MCP server it needs, from your MCP settings (repeat)")
    imp = actions.add_parser("import", help="install a persona from a bundle file "
                                            "(disabled until you agree to what it brings)")
    imp.add_argument("file")
    imp.add_argument("--yes", "-y", action="store_true",
                     help="agree to what it declares and brings, and enable it (shown first)")
    for name, text in (("disable", "disable a persona"), ("remove", "remove an installed persona"),
                       ("update", "fetch an installed persona again from where it came from")):
        action = actions.add_parser(name, help=text)
        action.add_argument("name")


def _status(p: Persona) -> str:
    if p.enabled:
        return "enabled"
    return "disabled" if p.consented else "needs your consent"


def _show(registry: PersonaRegistry, p: Persona, new: list[str] | None = None) -> None:
    print(f"{p.title} ({p.name}) — {p.description}")
    if p.source:
        print(f"From: {p.source}")
    if new is not None:  # an update: only what it adds asks again
        print("New in this version:" if new else "Nothing new: it asks for nothing more.")
        for line in new:
            print(f"  • {line}")
        return
    print("It may:")
    for line in capabilities(p) + bundles.brings(bundles.manifest_of(registry, p.name)):
        print(f"  • {line}")


def _activate(registry: PersonaRegistry, name: str) -> None:
    """What an enabled bundle brings goes where the app finds it: its skills into
    your skills folder, its MCP servers into your MCP settings (a name you already
    use is kept as it is)."""
    from openworker_qt.mcp.config import add_servers

    paths = app_paths()
    for skill in bundles.activate(registry, name, paths.data / "skills"):
        print(f"Added the skill {skill}.")
    wanted = bundles.manifest_of(registry, name).get("servers") or {}
    added, kept, refused = add_servers(paths.config, wanted)
    for server in added:
        print(f"Added the MCP server {server} (set its secrets in Settings › MCP servers).")
    for server in kept:
        print(f"The MCP server {server} is already set up: kept as it is.")
    for why in refused:
        print(f"An MCP server was not added: {why}")


def _ask_consent(registry: PersonaRegistry, p: Persona, yes: bool,
                 new: list[str] | None = None) -> int:
    _show(registry, p, new)
    if not yes:
        if not sys.stdin.isatty():
            print(f"\n{p.name} stays disabled. To enable it, run "
                  f"`openworker-qt personas enable {p.name} --yes`.")
            return 0
        answer = input("\nEnable this persona? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print(f"{p.name} stays disabled.")
            return 0
    registry.consent(p.name, p.fingerprint)
    print(f"{p.name} is enabled.")
    _activate(registry, p.name)
    return 0


def _export(registry: PersonaRegistry, args: argparse.Namespace) -> int:
    from openworker_qt.agents.skills import discover
    from openworker_qt.mcp.config import load_global

    paths = app_paths()
    found = {s.name: s.folder for s in discover(Path.cwd(), paths.data / "skills")}
    missing = [s for s in args.skill if s not in found]
    servers = {s.name: s.to_json() for s in load_global(paths.config)[0]}
    missing += [s for s in args.server if s not in servers]
    if missing:
        raise PersonaError(f"not found: {', '.join(missing)} (skills of this folder or yours, "
                           "MCP servers of your settings)")
    path = bundles.export_bundle(
        registry, args.name, Path(args.output), version=args.version,
        skills={s: found[s] for s in args.skill}, servers={s: servers[s] for s in args.server})
    print(f"Wrote {path} (no secrets: whoever imports it sets their own).")
    return 0


def personas(args: argparse.Namespace) -> int:
    registry = PersonaRegistry(app_paths().ensure().data / "personas")
    action = args.personas_command
    try:
        if action == "list":
            found = registry.load().values()
            if args.json:
                for p in found:
                    print(json.dumps({
                        "name": p.name, "title": p.title, "description": p.description,
                        "builtin": p.builtin, "enabled": p.enabled, "consented": p.consented,
                        "tools": list(p.tools), "source": p.source, "status": _status(p),
                    }, ensure_ascii=False))
                return 0
            width = max(len(p.name) for p in found)
            for p in found:
                origin = "built in" if p.builtin else p.source
                print(f"{p.name:<{width}}  {_status(p):<18}  {p.description}  [{origin}]")
            return 0
        if action == "install":
            source = args.source
            if is_git_url(source):
                installed = registry.install_git(source)
            else:
                installed = registry.install_folder(Path(source))
            print(f"Installed {installed.name} (disabled until you agree to what it may do).\n")
            return _ask_consent(registry, installed, args.yes)
        if action == "export":
            return _export(registry, args)
        if action == "import":
            imported, new = bundles.import_bundle(registry, Path(args.file))
            print(f"Imported {imported.name} (disabled until you agree to what it may do "
                  "and brings).\n")
            if imported.enabled:  # the same version as the one agreed to
                print(f"{imported.name} is unchanged and stays enabled.")
                return 0
            return _ask_consent(registry, imported, args.yes, new)
        if action == "enable":
            wanted = registry.load().get(args.name)
            if wanted is not None and not wanted.builtin and not wanted.consented:
                return _ask_consent(registry, wanted, args.yes)
            registry.enable(args.name)
            print(f"{args.name} is enabled.")
            return 0
        if action == "disable":
            registry.disable(args.name)
            print(f"{args.name} is disabled.")
            return 0
        if action == "remove":
            registry.remove(args.name)
            print(f"{args.name} was removed.")
            return 0
        if action == "update":
            updated = registry.update(args.name)
            print(f"{updated.name} is up to date ({_status(updated)}).")
            return 0
    except PersonaError as exc:
        sys.stderr.write(f"openworker-qt: {exc}\n")
        return 2
    return 2
