"""Inspection and administration commands: sessions, show, inbox, approve/deny/answer,
keys, models."""

from __future__ import annotations

import argparse
import json
import sys

from openworker_qt.cli.terminal import render_message
from openworker_qt.cli.turns import cli_runtime
from openworker_qt.storage import secrets


def models() -> int:
    from openworker_qt.providers.models import format_models

    with cli_runtime() as rt:
        print(format_models(rt.list_models()))
    return 0


def inbox(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        session = None
        if args.session:
            found = rt.conversations.find_session(args.session)
            if found is None:
                sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
                return 2
            session = found.id
        items = (
            rt.inbox.items(session_id=session) if args.all else rt.inbox.pending(session)
        )
        if args.json:
            from dataclasses import asdict

            for item in items:
                print(json.dumps(asdict(item), ensure_ascii=False))
            return 0
        if not items:
            print("Inbox is empty.")
            return 0
        for item in items:
            state = item.status if item.pending else f"{item.resolution} by {item.resolved_by}"
            print(f"#{item.id:<5} {item.kind:<9} {item.session_id}  {item.tool:<14} "
                  f"{item.args_preview or item.title}  [{state}]")
            if item.reason:
                print(f"       reason: {item.reason}")
        return 0


def resolve(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        item = rt.inbox.get(args.item)
        if item is None:
            sys.stderr.write(f"openworker-qt: no inbox item #{args.item}\n")
            return 2
        if args.command == "answer":
            if item.kind == "approval":
                sys.stderr.write(f"openworker-qt: #{item.id} is an approval; use approve/deny\n")
                return 2
            resolution = args.text
        elif args.command == "approve":
            if getattr(args, "always", False) and not item.can_always:
                sys.stderr.write(
                    f"openworker-qt: #{item.id} cannot be allowed always (only actions on an "
                    "exact external target can)\n"
                )
                return 2
            resolution = "always" if getattr(args, "always", False) else "once"
            if item.kind != "approval":
                resolution = "approve"
        else:
            resolution = "deny"
        if not rt.inbox.resolve(item.id, resolution, by="cli"):
            current = rt.inbox.get(item.id)
            assert current is not None
            sys.stderr.write(
                f"openworker-qt: #{item.id} was already resolved ({current.resolution} by "
                f"{current.resolved_by})\n"
            )
            return 1
        print(f"#{item.id} {resolution}.")
        return 0


def keys(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        try:
            secrets.require()
        except secrets.SecretsUnavailable as exc:
            sys.stderr.write(f"openworker-qt: {exc}\n")
            return 2
        if args.keys_command == "list":
            names = secrets.list_names()
            print("\n".join(names) if names else "No keys stored.")
            return 0
        name = rt.key_name(args.provider)
        if name is None:
            sys.stderr.write(f"openworker-qt: {args.provider} needs no key (or is unknown)\n")
            return 2
        if args.keys_command == "delete":
            removed = secrets.delete_secret(name)
            print(f"{name} removed." if removed else f"{name} was not stored.")
            return 0
        if sys.stdin.isatty():
            import getpass

            value = getpass.getpass(f"{name}: ")
        else:
            value = sys.stdin.readline()
        try:
            secrets.set_secret(name, value)
        except ValueError as exc:
            sys.stderr.write(f"openworker-qt: {exc}\n")
            return 2
        rt.key_changed(args.provider)
        print(f"{name} stored in the keyring.")
        return 0


def sessions() -> int:
    with cli_runtime() as rt:
        rows = rt.conversations.list_sessions()
        if not rows:
            print("No sessions yet. Start one with: openworker-qt run \"…\"")
            return 0
        for s in rows:
            flag = " [unattended]" if s.unattended else ""
            print(f"{s.id}  {s.status:<10} {s.message_count:>4} msgs  {s.model:<28} {s.title}{flag}")
        return 0


def show(args: argparse.Namespace) -> int:
    with cli_runtime() as rt:
        info = rt.conversations.find_session(args.session)
        if info is None:
            sys.stderr.write(f"openworker-qt: no session matches {args.session!r}\n")
            return 2
        if not args.json:
            print(f"# {info.title or '(untitled)'}  ·  {info.id}  ·  {info.model}")
        for msg in rt.conversations.load(info.id):
            if args.json:
                print(json.dumps(msg, ensure_ascii=False))
                continue
            print(render_message(msg))
        return 0


