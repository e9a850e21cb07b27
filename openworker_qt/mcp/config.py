"""MCP server configuration in the ``mcpServers`` JSON format.

The same shape Claude Desktop, Cursor and VS Code use::

    {"mcpServers": {
        "time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "UTC"}},
        "docs": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}}
    }}

Two files: the global one (``mcp.json`` in the app's config folder) and a
workspace one (``.openworker/mcp.json``, else ``.mcp.json``). A workspace file is
written by whoever can write the folder — the assistant included — so its servers
start only after the user trusted that exact file (its content hash, see
:class:`TrustStore`), never replace a global server of the same name, and may only
*raise* a tool's risk.

Our own keys beside the standard ones (other apps ignore them): ``disabled``
(bool), ``tools`` (the only tool names offered), ``disabledTools`` (names), ``toolRisk`` (name -> risk class),
``timeout`` (seconds per call), ``startTimeout`` (seconds to start), ``type`` (``stdio``, ``http``/``streamable-http``,
``sse``).

``${VAR}`` in ``env`` values and ``headers`` is resolved from the keyring when the
server starts, else from the environment (the file keeps the placeholder; the
secret never lands in it). VS Code's and Cursor's own variables are expanded when
their files are imported (:func:`expand_editor_vars`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from openworker_qt.domain import mcp_names
from openworker_qt.domain.risk import RiskClass

GLOBAL_FILE = mcp_names.GLOBAL_FILE
TRUST_FILE = "mcp-trusted.json"
WORKSPACE_FILES = tuple(Path(name) for name in mcp_names.WORKSPACE_FILES)
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
VAR_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_.-]*)\}")
TRANSPORTS = ("stdio", "http", "sse")
DEFAULT_TIMEOUT = 60.0
DEFAULT_START_TIMEOUT = 30.0


class McpConfigError(ValueError):
    """A config file or entry that cannot be used (the message says why, in plain words)."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    name: str
    transport: str  # "stdio", "http" (streamable HTTP) or "sse"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    enabled: bool = True
    disabled_tools: frozenset[str] = frozenset()
    #: ``tools``: the only tools the server offers the model (None: every tool it lists).
    allowed_tools: frozenset[str] | None = None
    tool_risk: Mapping[str, RiskClass] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    #: Seconds the server may take to start (connect, initialize, list its tools).
    start_timeout: float = DEFAULT_START_TIMEOUT
    #: OAuth for an HTTP server: None (automatic: when it asks and no Authorization
    #: header is set), False (never) or settings {"port": int, "scope": str}.
    oauth: Mapping[str, Any] | bool | None = None
    #: "global" or the workspace file it came from.
    source: str = "global"

    @property
    def uses_oauth(self) -> bool:
        if self.transport == "stdio" or self.oauth is False:
            return False
        return bool(self.oauth) or not any(k.lower() == "authorization" for k in self.headers)

    def oauth_setting(self, key: str, default: Any = None) -> Any:
        return self.oauth.get(key, default) if isinstance(self.oauth, Mapping) else default

    def offers(self, tool: str) -> bool:
        """Whether the tool is offered to the model (the ``tools`` list, then
        ``disabledTools``)."""
        if self.allowed_tools is not None and tool not in self.allowed_tools:
            return False
        return tool not in self.disabled_tools

    @property
    def workspace(self) -> bool:
        return self.source != "global"

    def describe(self) -> str:
        if self.transport == "stdio":
            return " ".join([self.command, *self.args])
        return self.url

    def to_json(self) -> dict[str, Any]:
        """The entry as written in an ``mcpServers`` file (placeholders kept)."""
        out: dict[str, Any] = {}
        if self.transport == "stdio":
            out["command"] = self.command
            if self.args:
                out["args"] = list(self.args)
            if self.env:
                out["env"] = dict(self.env)
            if self.cwd:
                out["cwd"] = self.cwd
        else:
            out["type"] = self.transport
            out["url"] = self.url
            if self.headers:
                out["headers"] = dict(self.headers)
        if not self.enabled:
            out["disabled"] = True
        if self.allowed_tools is not None:
            out["tools"] = sorted(self.allowed_tools)
        if self.disabled_tools:
            out["disabledTools"] = sorted(self.disabled_tools)
        if self.tool_risk:
            out["toolRisk"] = {k: v.value for k, v in sorted(self.tool_risk.items())}
        if self.timeout != DEFAULT_TIMEOUT:
            out["timeout"] = self.timeout
        if self.start_timeout != DEFAULT_START_TIMEOUT:
            out["startTimeout"] = self.start_timeout
        if self.oauth is not None:
            out["oauth"] = self.oauth if isinstance(self.oauth, bool) else dict(self.oauth)
        return out


def parse_server(name: str, raw: Any, *, source: str = "global") -> ServerConfig:
    """One ``mcpServers`` entry; :class:`McpConfigError` says what is wrong with it."""
    if not NAME_RE.fullmatch(name):
        raise McpConfigError(
            f"The server name {name!r} cannot be used: use letters, digits, '.', '_' or '-' "
            "(at most 64, starting with a letter or digit).")
    if not isinstance(raw, Mapping):
        raise McpConfigError(f"The server {name!r} must be an object with a command or a url.")
    kind = str(raw.get("type") or raw.get("transport") or "").lower()
    kind = {"streamable-http": "http", "streamablehttp": "http", "streamable_http": "http",
            "local": "stdio"}.get(kind, kind)
    command, url = raw.get("command"), raw.get("url") or raw.get("serverUrl")
    if not kind:
        kind = "stdio" if command else "http" if url else ""
    if kind not in TRANSPORTS:
        raise McpConfigError(
            f"The server {name!r} needs a \"command\" (a program to run) or a \"url\"."
            if not kind else f"The server {name!r} has an unknown type {kind!r} "
            "(use stdio, http or sse).")

    def strings(key: str) -> dict[str, str]:
        value = raw.get(key) or {}
        if not isinstance(value, Mapping):
            raise McpConfigError(f"\"{key}\" of the server {name!r} must be an object of strings.")
        return {str(k): str(v) for k, v in value.items()}

    args = raw.get("args") or []
    if isinstance(args, str) or not isinstance(args, list):
        raise McpConfigError(f"\"args\" of the server {name!r} must be a list of strings.")
    if kind == "stdio" and not (isinstance(command, str) and command.strip()):
        raise McpConfigError(f"The server {name!r} needs a \"command\" (the program to run).")
    if kind != "stdio" and not (isinstance(url, str) and re.match(r"https?://", url)):
        raise McpConfigError(f"The server {name!r} needs a \"url\" starting with http:// or https://.")
    risks: dict[str, RiskClass] = {}
    for tool, value in (raw.get("toolRisk") or {}).items():
        try:
            risks[str(tool)] = RiskClass(str(value).lower())
        except ValueError:
            raise McpConfigError(
                f"The risk {value!r} of the tool {tool!r} on {name!r} is unknown "
                "(use read, write_local, exec or external).") from None
    try:
        timeout = float(raw.get("timeout") or DEFAULT_TIMEOUT)
    except (TypeError, ValueError):
        raise McpConfigError(f"\"timeout\" of the server {name!r} must be a number of seconds.") from None
    try:
        start_timeout = float(raw.get("startTimeout") or DEFAULT_START_TIMEOUT)
    except (TypeError, ValueError):
        raise McpConfigError(
            f"\"startTimeout\" of the server {name!r} must be a number of seconds.") from None
    allowed = raw.get("tools")
    if allowed is not None and (isinstance(allowed, str) or not isinstance(allowed, list)):
        raise McpConfigError(f"\"tools\" of the server {name!r} must be a list of tool names "
                             "(the only ones it offers).")
    oauth = raw.get("oauth")
    if oauth is not None and not isinstance(oauth, (bool, Mapping)):
        raise McpConfigError(f"\"oauth\" of the server {name!r} must be true, false or an object.")
    if isinstance(oauth, Mapping):
        port = oauth.get("port")
        if port is not None and not (isinstance(port, int) and 0 < port < 65536):
            raise McpConfigError(f"The sign-in port of {name!r} must be a number from 1 to 65535.")
        oauth = dict(oauth)
    return ServerConfig(
        name=name, transport=kind, oauth=oauth,
        command=str(command or "").strip(), args=tuple(str(a) for a in args),
        env=strings("env"), cwd=str(raw["cwd"]) if raw.get("cwd") else None,
        url=str(url or ""), headers=strings("headers"),
        enabled=not bool(raw.get("disabled")) and raw.get("enabled", True) is not False,
        disabled_tools=frozenset(str(t) for t in raw.get("disabledTools") or ()),
        allowed_tools=None if allowed is None else frozenset(str(t) for t in allowed),
        tool_risk=risks, timeout=max(1.0, timeout), source=source,
        start_timeout=max(0.1, start_timeout),
    )


def servers_in(data: Any, *, source: str = "global") -> tuple[list[ServerConfig], list[str]]:
    """The servers of a parsed file and the problems of the entries left out.

    Accepts ``mcpServers`` (Claude Desktop, Cursor) and ``servers`` (VS Code)."""
    if not isinstance(data, Mapping):
        return [], ["The file is not a JSON object with \"mcpServers\"."]
    entries = data.get("mcpServers")
    if entries is None:
        entries = data.get("servers")
    if entries is None and isinstance(data.get("mcp"), Mapping):  # VS Code settings.json
        entries = data["mcp"].get("servers")
    if not isinstance(entries, Mapping):
        return [], ["The file has no \"mcpServers\" object."]
    servers, problems = [], []
    for name, raw in entries.items():
        try:
            servers.append(parse_server(str(name), raw, source=source))
        except McpConfigError as exc:
            problems.append(str(exc))
    return servers, problems


def read_json(path: Path) -> Any:
    """The parsed file; :class:`McpConfigError` in plain words when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise McpConfigError(f"There is no file {path}.") from None
    except OSError as exc:
        raise McpConfigError(f"{path} cannot be read: {exc.strerror or exc}.") from None
    try:
        return json.loads(_strip_comments(text)) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise McpConfigError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None


def _strip_comments(text: str) -> str:
    """JSON with ``//`` comments and trailing commas (VS Code's files) as plain JSON."""
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


# ------------------------------------------------------------------ the files


def global_file(config_dir: Path) -> Path:
    return config_dir / GLOBAL_FILE


def workspace_file(workspace: Path) -> Path | None:
    """The workspace's MCP file, if it has one (``.openworker/mcp.json`` first)."""
    for rel in WORKSPACE_FILES:
        path = workspace / rel
        if path.is_file():
            return path
    return None


def load_global(config_dir: Path) -> tuple[list[ServerConfig], list[str]]:
    path = global_file(config_dir)
    if not path.exists():
        return [], []
    try:
        return servers_in(read_json(path))
    except McpConfigError as exc:
        return [], [str(exc)]


def save_global(config_dir: Path, servers: Iterable[ServerConfig]) -> Path:
    """Write the global file, keeping its other top-level keys. Atomic (a rename)."""
    path = global_file(config_dir)
    data: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = read_json(path)
            if isinstance(loaded, dict):
                data = loaded
        except McpConfigError:
            # Keep the unreadable file beside the new one: nothing the user wrote is lost.
            path.replace(path.with_suffix(".json.unreadable"))
    data["mcpServers"] = {s.name: s.to_json() for s in servers}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def add_servers(
    config_dir: Path, entries: Mapping[str, Any]
) -> tuple[list[str], list[str], list[str]]:
    """Add ``mcpServers`` entries to the global file (a persona bundle's, agreed to):
    the names added, those kept because a server of that name is set up already,
    and what could not be added (each with why)."""
    servers, _ = load_global(config_dir)
    have = {s.name for s in servers}
    added: list[str] = []
    kept: list[str] = []
    refused: list[str] = []
    for name, raw in sorted(entries.items()):
        if name in have:
            kept.append(name)
            continue
        try:
            servers.append(parse_server(name, raw))
        except McpConfigError as exc:
            refused.append(f"{name}: {exc}")
            continue
        added.append(name)
    if added:
        save_global(config_dir, servers)
    return added, kept, refused


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class TrustStore:
    """Workspace MCP files the user trusted, by folder and the file's content hash:
    an edited file (by anyone, the assistant included) is not trusted until the user
    says so again."""

    def __init__(self, config_dir: Path) -> None:
        self.path = config_dir / TRUST_FILE

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def is_trusted(self, workspace: Path) -> bool:
        path = workspace_file(workspace)
        if path is None:
            return False
        try:
            return self._load().get(str(workspace.resolve())) == file_hash(path)
        except OSError:
            return False

    def trust(self, workspace: Path) -> None:
        path = workspace_file(workspace)
        if path is None:
            raise McpConfigError(f"{workspace} has no .openworker/mcp.json or .mcp.json.")
        data = self._load()
        data[str(workspace.resolve())] = file_hash(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(data, indent=2), encoding="utf-8")

    def untrust(self, workspace: Path) -> None:
        data = self._load()
        if data.pop(str(workspace.resolve()), None) is not None:
            self.path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def load_servers(
    config_dir: Path, workspace: Path | None = None, *, trust: TrustStore | None = None,
) -> tuple[list[ServerConfig], list[str]]:
    """The servers to run: the global ones, then a trusted workspace's own (never one
    named like a global server). Problems (bad entries, an untrusted file) come back
    as plain sentences; nothing raises."""
    servers, problems = load_global(config_dir)
    if workspace is None:
        return servers, problems
    path = workspace_file(workspace)
    if path is None:
        return servers, problems
    trust = trust or TrustStore(config_dir)
    if not trust.is_trusted(workspace):
        problems.append(
            f"The servers in {path} do not start until you trust this folder's MCP file "
            "(it could run any program; an edited file needs trusting again).")
        return servers, problems
    try:
        extra, bad = servers_in(read_json(path), source=str(path))
    except McpConfigError as exc:
        return servers, [*problems, str(exc)]
    problems.extend(bad)
    names = {s.name for s in servers}
    for server in extra:
        if server.name in names:
            problems.append(f"The workspace server {server.name!r} is ignored: a server of "
                            "that name is already set up for all folders.")
            continue
        servers.append(_workspace_view(server))
    return servers, problems


def _workspace_view(server: ServerConfig) -> ServerConfig:
    """A workspace server's tools stay EXTERNAL: its file cannot lower their risk
    (the assistant may have written it)."""
    return replace(server, tool_risk={})


# ------------------------------------------------------------------ ${VAR}


def placeholders(server: ServerConfig) -> list[str]:
    """The ``${VAR}`` names the server's env and headers use."""
    found: list[str] = []
    for value in [*server.env.values(), *server.headers.values()]:
        for name in VAR_RE.findall(value):
            if name not in found:
                found.append(name)
    return found


def resolve(
    values: Mapping[str, str], get_secret: Callable[[str], str | None],
    environ: Mapping[str, str] | None = None,
) -> tuple[dict[str, str], list[str]]:
    """``values`` with every ``${VAR}`` replaced from ``get_secret`` (the keyring),
    else from the environment, and the names that had neither (left out of the
    result). Blocking."""
    environ = os.environ if environ is None else environ
    missing: list[str] = []
    out: dict[str, str] = {}
    for key, value in values.items():
        def sub(m: re.Match[str]) -> str:
            secret = get_secret(m.group(1))
            if secret is None:
                secret = environ.get(m.group(1))
            if secret is None:
                missing.append(m.group(1))
                return ""
            return secret

        resolved = VAR_RE.sub(sub, value)
        if not any(n in missing for n in VAR_RE.findall(value)):
            out[key] = resolved
    return out, missing


# ------------------------------------------------------------------ import


def import_candidates(home: Path | None = None, platform: str | None = None,
                      env: Mapping[str, str] | None = None) -> list[tuple[str, Path]]:
    """Where Claude Desktop, Cursor and VS Code keep their MCP servers on this OS
    (app name, path), whether or not the file exists."""
    home = home or Path.home()
    platform = platform or sys.platform
    env = os.environ if env is None else env
    if platform == "darwin":
        support = home / "Library" / "Application Support"
        claude = support / "Claude" / "claude_desktop_config.json"
        code = support / "Code" / "User"
    elif platform.startswith("win"):
        appdata = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
        claude = appdata / "Claude" / "claude_desktop_config.json"
        code = appdata / "Code" / "User"
    else:
        xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
        claude = xdg / "Claude" / "claude_desktop_config.json"
        code = xdg / "Code" / "User"
    return [
        ("Claude Desktop", claude),
        ("Cursor", home / ".cursor" / "mcp.json"),
        ("VS Code", code / "mcp.json"),
        ("VS Code", code / "settings.json"),
    ]


def found_configs(home: Path | None = None) -> list[tuple[str, Path]]:
    return [(app, p) for app, p in import_candidates(home) if p.is_file()]


@dataclass(slots=True)
class ImportResult:
    added: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # plain sentences
    path: Path | None = None


#: VS Code's (and Cursor's) variables, ``${name}`` or ``${kind:argument}``.
_EDITOR_VAR = re.compile(r"\$\{([^}]*)\}")
#: VS Code's predefined variables that name an editor's state (an open file, a
#: selection): nothing here can stand for them.
_EDITOR_ONLY = frozenset({
    "file", "fileWorkspaceFolder", "relativeFile", "relativeFileDirname", "fileBasename",
    "fileBasenameNoExtension", "fileExtname", "fileDirname", "fileDirnameBasename", "cwd",
    "lineNumber", "selectedText", "execPath", "defaultBuildTask",
})


def expand_editor_vars(
    server: ServerConfig, *, workspace: Path | None = None, home: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> ServerConfig:
    """An entry imported from VS Code or Cursor with their variables expanded:
    ``${userHome}``, ``${workspaceFolder}`` and ``${workspaceFolderBasename}`` (the
    folder whose ``.vscode``/``.cursor`` holds the file), ``${pathSeparator}`` and
    ``${/}``; ``${env:X}`` becomes ``${X}`` in ``env`` and ``headers`` (read when the
    server starts: the keyring, else the environment) and X's value elsewhere. A bare
    ``${X}`` stays. :class:`McpConfigError` says what cannot be expanded and why
    (``${input:…}`` asks VS Code's user; an editor's own state; an unset variable)."""
    home = home or Path.home()
    environ = os.environ if environ is None else environ
    name = server.name

    def expand(value: str, *, secret_ok: bool) -> str:
        def one(m: re.Match[str]) -> str:
            var = m.group(1)
            kind, sep, arg = var.partition(":")
            if var == "userHome":
                return str(home)
            if var in ("workspaceFolder", "workspaceFolderBasename"):
                if workspace is None:
                    raise McpConfigError(
                        f"{name!r} uses ${{{var}}}, the folder open in the editor, and this file "
                        "belongs to no folder; write the folder's path instead.")
                return str(workspace) if var == "workspaceFolder" else workspace.name
            if var in ("pathSeparator", "/"):
                return os.sep
            if sep and kind == "env":
                if secret_ok and VAR_RE.fullmatch("${" + arg + "}"):
                    return "${" + arg + "}"  # read when it starts: the keyring, else the environment
                if arg in environ:
                    return environ[arg]
                raise McpConfigError(
                    f"{name!r} uses ${{env:{arg}}}, and {arg} is not set in this environment.")
            if sep and kind == "input":
                raise McpConfigError(
                    f"{name!r} uses ${{input:{arg}}}, which VS Code asks you for each time it "
                    "starts the server; OpenWorker cannot ask that way. Store the value with "
                    f"`openworker-qt mcp secret NAME` and write ${{NAME}} instead.")
            if sep:
                raise McpConfigError(
                    f"{name!r} uses ${{{var}}}, which only VS Code can fill in ({kind}: "
                    "variables are the editor's own); write the value instead.")
            if var in _EDITOR_ONLY:
                raise McpConfigError(
                    f"{name!r} uses ${{{var}}}, which names something open in the editor; "
                    "write the value instead.")
            return m.group(0)  # ${NAME}: the keyring (else the environment) when it starts

        return _EDITOR_VAR.sub(one, value)

    def plain(value: str) -> str:
        return expand(value, secret_ok=False)

    def secret(values: Mapping[str, str]) -> dict[str, str]:
        return {k: expand(v, secret_ok=True) for k, v in values.items()}

    return replace(
        server, command=plain(server.command), args=tuple(plain(a) for a in server.args),
        cwd=plain(server.cwd) if server.cwd else server.cwd, url=plain(server.url),
        env=secret(server.env), headers=secret(server.headers))


def _editor_folder(source: Path) -> Path | None:
    """The folder a ``.vscode/mcp.json`` or ``.cursor/mcp.json`` belongs to."""
    parent = source.resolve().parent
    if parent.name in (".vscode", ".cursor") and parent.parent != Path.home().resolve():
        return parent.parent
    return None


def import_file(config_dir: Path, source: Path) -> ImportResult:
    """Add the servers of ``source`` to the global file; a name already there is kept
    as it is (reported as skipped). VS Code's and Cursor's variables are expanded
    (:func:`expand_editor_vars`); an entry using one that cannot be is skipped, with
    the reason. Secrets in the imported env/headers are copied as they are: the user
    is told to move them into the keyring (``${VAR}``)."""
    found, problems = servers_in(read_json(source))
    current, _ = load_global(config_dir)
    have = {s.name for s in current}
    result = ImportResult(skipped=list(problems))
    folder = _editor_folder(source)
    for raw_server in found:
        try:
            server = expand_editor_vars(raw_server, workspace=folder)
        except McpConfigError as exc:
            result.skipped.append(f"{exc} (not imported)")
            continue
        if server.name in have:
            result.skipped.append(f"{server.name!r} is already set up; kept as it was.")
            continue
        current.append(server)
        have.add(server.name)
        result.added.append(server.name)
    if result.added:
        result.path = save_global(config_dir, current)
    return result
