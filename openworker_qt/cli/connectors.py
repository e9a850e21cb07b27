"""``openworker-qt connectors list|connect|test|disconnect``.

``connect`` takes non-secret values as ``--set KEY=VALUE`` and asks for the
secret ones (hidden input at a terminal; ``KEY=VALUE`` lines on standard input
otherwise), so tokens never sit in the shell's history. The values are checked
against the service before anything is stored; the identity it confirms is
printed ("Connected as @ana in Acme").
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any

from openworker_qt.cli.turns import cli_runtime

if TYPE_CHECKING:  # (the connectors load when a connector command runs)
    from openworker_qt.connectors.base import ConnectorSpec


def add_parser(sub: Any) -> None:
    conn = sub.add_parser("connectors", help="connect Slack, GitHub, mail, calendars and more")
    actions = conn.add_subparsers(dest="connectors_command", metavar="ACTION", required=True)
    actions.add_parser("list", help="every available connector and its state")
    connect = actions.add_parser(
        "connect", help="connect one (secret fields are asked for, never taken as arguments)")
    connect.add_argument("connector", help="connector id, e.g. slack, github, jira")
    connect.add_argument("--set", dest="values", action="append", default=[], metavar="KEY=VALUE",
                         help="a non-secret field, e.g. --set site=https://acme.atlassian.net")
    connect.add_argument("--sign-in", action="store_true",
                         help="sign in through the browser (Google, Microsoft) with your own "
                         "OAuth client: --set client_id=…")
    test = actions.add_parser("test", help="check a connector's stored credentials again")
    test.add_argument("connector")
    off = actions.add_parser("disconnect", help="forget a connector's credentials")
    off.add_argument("connector")


def _fail(message: str) -> int:
    sys.stderr.write(f"openworker-qt: {message}\n")
    return 2


def _fields_text(spec: ConnectorSpec) -> str:
    lines = []
    for f in spec.fields:
        kind = "secret, asked for" if f.secret else "--set " + f.key + "=…"
        need = "" if f.required else ", optional"
        lines.append(f"  {f.key:<14} {f.label} ({kind}{need}): {f.help}")
    return "\n".join(lines)


def _read_secrets(spec: ConnectorSpec, values: dict[str, str]) -> dict[str, str]:
    wanted = [f for f in spec.fields if f.secret and f.key not in values]
    if not wanted:
        return values
    if sys.stdin.isatty():
        import getpass

        for f in wanted:
            suffix = " (Enter to skip)" if not f.required else ""
            entered = getpass.getpass(f"{spec.name} {f.label}{suffix}: ").strip()
            if entered:
                values[f.key] = entered
        return values
    keys = {f.key for f in wanted}
    for line in sys.stdin.read().splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() in keys and value.strip():
            values[key.strip()] = value.strip()
    return values


def _sign_in(spec: ConnectorSpec, values: dict[str, str]) -> dict[str, str]:
    """The browser sign-in (OAuth with PKCE); the refresh token joins the values."""
    import webbrowser

    from openworker_qt.connectors.base import ConnectorError
    from openworker_qt.connectors.oauth import OAuth, sign_in

    flow = spec.extra.get("oauth")
    if not isinstance(flow, OAuth):
        raise ConnectorError("config", f"{spec.name} has no browser sign-in: use its token.")
    if sys.stdin.isatty() and "client_secret" not in values:
        import getpass

        entered = getpass.getpass("OAuth client secret (Enter if none): ").strip()
        if entered:
            values["client_secret"] = entered

    def show(url: str) -> None:
        print(f"Opening your browser to sign in with {flow.service}. If it does not open, "
              f"visit:\n{url}", flush=True)
        webbrowser.open(url)

    tokens = asyncio.run(sign_in(flow, values.get("client_id", ""), show,
                                 client_secret=values.get("client_secret", ""),
                                 token_url=values.get("token_url", "")))
    return {**values, "refresh_token": str(tokens["refresh_token"])}


def run(args: argparse.Namespace) -> int:
    from openworker_qt.connectors.base import ConnectorError
    from openworker_qt.connectors.registry import OVERRIDES

    with cli_runtime() as rt:
        registry = rt.connectors
        command = args.connectors_command
        if command == "list":
            for state in registry.states():
                spec = state.spec
                print(f"{spec.id:<16} {spec.name:<18} {spec.category:<9} {state.summary()}")
            return 0
        try:
            spec = registry.spec(args.connector)
            if command == "connect":
                values: dict[str, str] = {}
                for pair in args.values:
                    key, sep, value = pair.partition("=")
                    field = spec.field(key.strip())
                    if not sep or (field is None and key.strip() not in OVERRIDES):
                        return _fail(f"{pair!r}: {spec.name}'s fields are:\n{_fields_text(spec)}")
                    if field is not None and field.secret:
                        return _fail(f"{key} is secret: leave it out and type it when asked.")
                    values[key.strip()] = value.strip()
                if args.sign_in:
                    values = _sign_in(spec, values)
                values = _read_secrets(spec, values)
                identity = asyncio.run(registry.connect(spec.id, values))
                print(f"{spec.name}: {identity.text()}.")
                return 0
            if command == "test":
                state = asyncio.run(registry.test(spec.id))
                print(f"{spec.name}: {state.summary()}")
                return 0 if state.connected else 1
            if command == "disconnect":
                was = asyncio.run(registry.disconnect(spec.id))
                print(f"{spec.name} disconnected." if was else f"{spec.name} was not connected.")
                return 0
        except ConnectorError as exc:
            if exc.kind == "config" and command == "connect" and "needs" in exc.message:
                return _fail(f"{exc.message}\n{_fields_text(spec)}")
            return _fail(exc.message)
    return 2
