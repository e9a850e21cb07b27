"""``openworker-qt mcp list|add|import|test|remove|doctor|trust``: the same
operations as the MCP settings page."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openworker_qt.storage.paths import app_paths

# (the MCP package is imported by the commands that use it: `--help` and `run`
# without servers never load it; tests/test_startup_modules.py)
if TYPE_CHECKING:
    from openworker_qt.mcp import config as mcp_config

USAGE = "usage: openworker-qt mcp {list,add,import,test,remove,doctor,trust,secret,login,logout,resources,prompts}"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mcp = sub.add_parser("mcp", help="set up MCP servers (tools from other programs)")
    acts = mcp.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    ls = acts.add_parser("list", help="list the configured servers")
    ls.add_argument("--workspace", "-w", type=Path, help="also this folder's servers")
    ls.add_argument("--json", action="store_true")
    add = acts.add_parser(
        "add", help="add a server: NAME -- COMMAND [ARGS…], or NAME --url URL")
    add.add_argument("name")
    add.add_argument("--url", help="a streamable HTTP (or --sse) server's address")
    add.add_argument("--sse", action="store_true", help="the server speaks the old SSE transport")
    add.add_argument("--env", "-e", action="append", default=[], metavar="KEY=VALUE",
                     help="environment variable; write secrets as ${NAME} (kept in the keyring)")
    add.add_argument("--header", action="append", default=[], metavar="KEY=VALUE",
                     help="HTTP header, e.g. Authorization=Bearer ${TOKEN}")
    add.add_argument("program", nargs="*", help="the program and its arguments (after --)")
    imp = acts.add_parser(
        "import", help="import servers from Claude Desktop, Cursor or VS Code (found automatically)")
    imp.add_argument("file", nargs="?", type=Path, help="an mcpServers JSON file")
    test = acts.add_parser("test", help="start a server, list its tools, stop it")
    test.add_argument("name")
    test.add_argument("--workspace", "-w", type=Path)
    rm = acts.add_parser("remove", help="remove a server")
    rm.add_argument("name")
    acts.add_parser("doctor", help="find node, npx, uvx, python and explain what is missing")
    res = acts.add_parser("resources", help="list a server's resources, or print one (--read URI)")
    res.add_argument("name")
    res.add_argument("--read", metavar="URI", help="print this resource's contents")
    prompts = acts.add_parser("prompts", help="list a server's prompts, or fill one (--get NAME)")
    prompts.add_argument("name")
    prompts.add_argument("--get", metavar="PROMPT", help="print this prompt, filled in")
    prompts.add_argument("--arg", action="append", default=[], metavar="KEY=VALUE",
                         help="an argument of the prompt")
    login = acts.add_parser("login", help="sign in to an HTTP server in the browser (OAuth)")
    login.add_argument("name")
    logout = acts.add_parser("logout", help="forget an HTTP server's sign-in")
    logout.add_argument("name")
    secret = acts.add_parser(
        "secret", help="store the value of a ${NAME} in the keyring (read from stdin or a prompt)")
    secret.add_argument("name")
    trust = acts.add_parser("trust", help="let this folder's .mcp.json servers start")
    trust.add_argument("workspace", type=Path, nargs="?", default=Path.cwd())
    trust.add_argument("--revoke", action="store_true")


def run(args: argparse.Namespace) -> int:
    from openworker_qt.mcp.config import McpConfigError

    try:
        return _run(args)
    except McpConfigError as exc:
        sys.stderr.write(f"openworker-qt: {exc}\n")
        return 2


def _config_dir() -> Path:
    return app_paths().ensure().config


def _run(args: argparse.Namespace) -> int:
    act = args.mcp_command
    if act == "list":
        return _list(args)
    if act == "add":
        return _add(args)
    if act == "import":
        return _import(args)
    if act == "remove":
        return _remove(args.name)
    if act == "test":
        return _test(args)
    if act == "doctor":
        return _doctor()
    if act == "trust":
        return _trust(args)
    if act == "secret":
        return _secret(args.name)
    if act == "login":
        return _login(args.name)
    if act in ("resources", "prompts"):
        return _browse(args)
    if act == "logout":
        return _logout(args.name)
    sys.stderr.write(USAGE + "\n")
    return 2


def _list(args: argparse.Namespace) -> int:
    from openworker_qt.mcp import config as mcp_config

    workspace = args.workspace.resolve() if args.workspace else None
    servers, problems = mcp_config.load_servers(_config_dir(), workspace)
    if args.json:
        for s in servers:
            print(json.dumps({"name": s.name, "source": s.source, **s.to_json()}))
    elif not servers:
        print("No MCP servers. Add one with `openworker-qt mcp add`, or import the ones "
              "Claude Desktop, Cursor or VS Code use: `openworker-qt mcp import`.")
    for s in servers if not args.json else []:
        state = "" if s.enabled else "  (turned off)"
        where = "" if s.source == "global" else f"  [from {s.source}]"
        print(f"{s.name:20} {s.transport:5} {s.describe()}{state}{where}")
        for tool, risk in sorted(s.tool_risk.items()):
            print(f"{'':26}{tool}: risk {risk.value}")
        if s.allowed_tools is not None:
            print(f"{'':26}offers only: {', '.join(sorted(s.allowed_tools)) or '(no tool)'}")
        for tool in sorted(s.disabled_tools):
            print(f"{'':26}{tool}: turned off")
    for problem in problems:
        sys.stderr.write(f"note: {problem}\n")
    return 0


def _pairs(items: list[str], what: str) -> dict[str, str]:
    from openworker_qt.mcp.config import McpConfigError

    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise McpConfigError(f"{what} {item!r} must look like KEY=VALUE.")
        out[key] = value
    return out


def _add(args: argparse.Namespace) -> int:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.config import McpConfigError, parse_server

    command = [c for c in args.program if c != "--"] if args.program else []
    raw: dict[str, object]
    if args.url:
        if command:
            raise McpConfigError("Give either --url or a command, not both.")
        raw = {"type": "sse" if args.sse else "http", "url": args.url,
               "headers": _pairs(args.header, "The header")}
    else:
        if not command:
            raise McpConfigError(
                "Say how to start the server: openworker-qt mcp add NAME -- COMMAND [ARGS…] "
                "(for example: mcp add time -- uvx mcp-server-time), or --url URL.")
        raw = {"command": command[0], "args": command[1:], "env": _pairs(args.env, "The variable")}
    server = parse_server(args.name, raw)
    config_dir = _config_dir()
    servers, _ = mcp_config.load_global(config_dir)
    if any(s.name == server.name for s in servers):
        raise McpConfigError(f"There is already a server named {server.name!r}; "
                             "remove it first or pick another name.")
    path = mcp_config.save_global(config_dir, [*servers, server])
    print(f"Added {server.name!r} to {path}.")
    for name in mcp_config.placeholders(server):
        print(f"It needs {name} from the keyring: store it with your system's keyring "
              f"tool or the settings page (service 'openworker-qt', entry {name!r}).")
    print(f"Check it works: openworker-qt mcp test {server.name}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.config import McpConfigError

    config_dir = _config_dir()
    if args.file is not None:
        sources = [("the file", args.file)]
    else:
        sources = mcp_config.found_configs()
        if not sources:
            places = "\n".join(f"  {app}: {p}" for app, p in mcp_config.import_candidates())
            print(f"No Claude Desktop, Cursor or VS Code MCP settings were found here:\n{places}\n"
                  "Give the file: openworker-qt mcp import FILE")
            return 1
    added = 0
    for app, path in sources:
        try:
            result = mcp_config.import_file(config_dir, path)
        except McpConfigError as exc:
            sys.stderr.write(f"{app} ({path}): {exc}\n")
            continue
        added += len(result.added)
        if result.added:
            print(f"From {app} ({path}): added {', '.join(result.added)}.")
        for note in result.skipped:
            print(f"  skipped: {note}")
    if added:
        print("Secrets written in those files were copied as they are; consider moving them "
              "into the keyring and writing ${NAME} instead.")
    return 0 if added or args.file is None else 1


def _remove(name: str) -> int:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.config import McpConfigError

    config_dir = _config_dir()
    servers, _ = mcp_config.load_global(config_dir)
    kept = [s for s in servers if s.name != name]
    if len(kept) == len(servers):
        raise McpConfigError(f"There is no server named {name!r} (see `openworker-qt mcp list`).")
    mcp_config.save_global(config_dir, kept)
    print(f"Removed {name!r}.")
    return 0


def _test(args: argparse.Namespace) -> int:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.config import McpConfigError
    from openworker_qt.mcp.doctor import check_server
    from openworker_qt.storage import secrets

    workspace = args.workspace.resolve() if args.workspace else None
    servers, _ = mcp_config.load_servers(_config_dir(), workspace)
    server = next((s for s in servers if s.name == args.name), None)
    if server is None:
        raise McpConfigError(f"There is no server named {args.name!r} (see `openworker-qt mcp list`).")
    print(f"Starting {server.name} ({server.describe()})…")
    result = asyncio.run(check_server(server, get_secret=secrets.get_secret,
                                      set_secret=secrets.set_secret))
    print(result.message)
    if result.tools:
        print("Tools: " + ", ".join(result.tools))
    if not result.ok:
        return 1
    return 0


def _doctor() -> int:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.doctor import count_tools, examine, tool_warnings
    from openworker_qt.storage import secrets

    servers, problems = mcp_config.load_servers(_config_dir(), None)
    report = examine(servers)
    for line in report.lines():
        print(line)
    for problem in problems:
        print(f"Note: {problem}")
    if any(s.enabled for s in servers):
        counts = asyncio.run(count_tools(servers, get_secret=secrets.get_secret,
                                         set_secret=secrets.set_secret))
        if counts:
            print("Tools offered to the model: " + ", ".join(
                f"{name} {offered}" + (f" of {listed}" if listed != offered else "")
                for name, (offered, listed) in counts.items()))
        for warning in tool_warnings(counts):
            print(f"Warning: {warning}")
    return 0


def _trust(args: argparse.Namespace) -> int:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.config import McpConfigError

    store = mcp_config.TrustStore(_config_dir())
    workspace = args.workspace.resolve()
    if args.revoke:
        store.untrust(workspace)
        print(f"The MCP servers of {workspace} no longer start.")
        return 0
    path = mcp_config.workspace_file(workspace)
    if path is None:
        raise McpConfigError(f"{workspace} has no .openworker/mcp.json or .mcp.json.")
    servers, problems = mcp_config.servers_in(mcp_config.read_json(path), source=str(path))
    print(f"{path} starts these programs:")
    for s in servers:
        print(f"  {s.name}: {s.describe()}")
        if mcp_config.placeholders(s):
            print(f"    gets from your keyring: {', '.join(mcp_config.placeholders(s))}")
    for problem in problems:
        print(f"  (left out: {problem})")
    store.trust(workspace)
    print("Trusted. If the file changes, it needs trusting again.")
    return 0


def _secret(name: str) -> int:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.config import McpConfigError
    from openworker_qt.storage import secrets

    if not mcp_config.VAR_RE.fullmatch("${" + name + "}"):
        raise McpConfigError(f"{name!r} cannot be a name: use letters, digits and '_'.")
    if sys.stdin.isatty():
        import getpass

        value = getpass.getpass(f"{name}: ")
    else:
        value = sys.stdin.readline()
    value = value.strip()
    if not value:
        raise McpConfigError("Nothing was stored: the value was empty.")
    secrets.set_secret(name, value)
    print(f"Stored {name} in the keyring; servers that use ${{{name}}} get it when they start.")
    return 0


def _configured(name: str) -> mcp_config.ServerConfig:
    from openworker_qt.mcp import config as mcp_config
    from openworker_qt.mcp.config import McpConfigError

    servers, _ = mcp_config.load_global(_config_dir())
    server = next((s for s in servers if s.name == name), None)
    if server is None:
        raise McpConfigError(f"There is no server named {name!r} (see `openworker-qt mcp list`).")
    return server


def _login(name: str) -> int:
    from openworker_qt.mcp.client import McpServer
    from openworker_qt.mcp.config import McpConfigError
    from openworker_qt.mcp.status import McpFailure
    from openworker_qt.storage import secrets

    config = _configured(name)
    if not config.uses_oauth:
        raise McpConfigError(f"{name!r} does not sign in with a browser (it is not an HTTP "
                             "server, or it sends its own Authorization header).")

    async def go() -> int:
        server = McpServer(config, get_secret=secrets.get_secret, set_secret=secrets.set_secret)
        print("Opening your browser to sign in… (waiting up to 5 minutes)")
        try:
            await server.sign_in()
        except McpFailure as exc:
            print(str(exc))
            return 1
        finally:
            await server.stop()
        print(f"Signed in to {name}: {len(server.tools)} tools.")
        return 0

    return asyncio.run(go())


def _logout(name: str) -> int:
    from openworker_qt.mcp.oauth import forget
    from openworker_qt.storage import secrets

    _configured(name)
    forget(name, secrets.delete_secret)
    print(f"Forgot the sign-in of {name}.")
    return 0


#: Seconds ``openworker-qt run`` waits for the MCP servers before the turn starts.
RUN_WAIT = 5.0


def _any_file(config_dir: Path, workspace: Path | None) -> bool:
    """Whether an MCP config file exists (the global one, or ``workspace``'s)."""
    from openworker_qt.domain.mcp_names import GLOBAL_FILE, WORKSPACE_FILES

    if (config_dir / GLOBAL_FILE).exists():
        return True
    return workspace is not None and any((workspace / name).is_file() for name in WORKSPACE_FILES)


async def connect(rt: Any, workspace: Path | None, *, wait: float | None = None) -> Any:
    """For ``openworker-qt run``: the configured servers, started together, so the turn
    is offered their tools; None when there are none. The turn waits for them at most
    ``wait`` seconds (:data:`RUN_WAIT`): a server still starting then is reported and
    its tools join the session when it is ready. Problems go to stderr."""
    if not _any_file(rt.paths.config, workspace):
        return None  # (no server is set up anywhere: MCP is not even imported)
    from openworker_qt.mcp.doctor import login_path
    from openworker_qt.mcp.manager import McpManager
    from openworker_qt.mcp.status import State
    from openworker_qt.storage import secrets

    manager = await asyncio.to_thread(
        McpManager.load, rt.paths.config, workspace, get_secret=secrets.get_secret,
        set_secret=secrets.set_secret, path=login_path)
    for problem in manager.problems:
        sys.stderr.write(f"note: {problem}\n")
    if not manager.servers:
        return None
    rt.mcp = manager
    await manager.start_all()  # (each connects in the background, all at once)
    try:
        await manager.wait_ready(within=RUN_WAIT if wait is None else max(0.0, wait))
    except TimeoutError:
        pass
    late: set[str] = set()
    for server in manager.servers.values():
        if not server.config.enabled or server.status.state is State.READY:
            continue
        if server.status.state is State.STARTING:
            late.add(server.config.name)
            sys.stderr.write(f"note: MCP server {server.config.name} is still starting; its "
                             "tools join this session when it is ready.\n")
        else:
            sys.stderr.write(f"note: MCP server {server.config.name}: "
                             f"{server.status.describe()}\n")

    def joined(server: Any) -> None:
        name = server.config.name
        if name in late and server.status.state is State.READY:
            late.discard(name)
            sys.stderr.write(f"note: MCP server {name} is ready; its tools joined the session.\n")

    def notice(name: str, text: str) -> None:
        late.discard(name)
        sys.stderr.write(f"note: MCP server {name}: {manager.headline(text)}\n")

    manager.listeners.append(joined)
    manager.on_notice = notice
    return manager


async def disconnect(manager: Any) -> None:
    """Stop every server and end its processes (bounded: a server that does not stop
    is killed with its whole process group)."""
    if manager is None and "openworker_qt.mcp.process" not in sys.modules:
        return  # (no server was set up: no process of one can be running)
    from openworker_qt.mcp import process

    if manager is not None:
        manager.on_notice = None
        manager.listeners.clear()
        try:
            await asyncio.wait_for(manager.stop_all(), 15.0)
        except TimeoutError:
            pass
        process.end_all_now()


def _browse(args: argparse.Namespace) -> int:
    """What a server offers besides tools: resources (to attach) and prompts."""
    from openworker_qt.mcp.client import McpServer
    from openworker_qt.mcp.doctor import login_path
    from openworker_qt.mcp.status import McpFailure
    from openworker_qt.storage import secrets

    config = _configured(args.name)

    async def go() -> int:
        server = McpServer(config, get_secret=secrets.get_secret,
                           set_secret=secrets.set_secret, path=login_path)
        try:
            await server.start()
            if args.mcp_command == "resources":
                if args.read:
                    print(await server.read_resource(args.read))
                else:
                    for r in await server.list_resources():
                        print(f"{r.uri}  {r.title or r.name}"
                              + (f" — {r.description}" if r.description else ""))
            elif args.get:
                print(await server.get_prompt(args.get, _pairs(args.arg, "The argument")))
            else:
                for p in await server.list_prompts():
                    names = " ".join(f"{n}{'' if required else '?'}" for n, required in p.arguments)
                    print(f"{p.name}({names})" + (f" — {p.description}" if p.description else ""))
        except McpFailure as exc:
            sys.stderr.write(f"{exc}\n")
            return 1
        except Exception as exc:  # the server answered with an error
            sys.stderr.write(f"The server answered with an error: "
                             f"{getattr(exc, 'message', None) or exc}\n")
            return 1
        finally:
            await server.stop()
        return 0

    return asyncio.run(go())
