"""The MCP doctor: why a server does not start, in plain words.

The usual reason is the PATH: an app started from the desktop does not get the
PATH the user's terminal has (nvm, asdf, pyenv, Homebrew add to it in the shell's
start-up files), so ``npx`` or ``uvx`` are "not found". :func:`login_path` asks
the user's login shell once (``$SHELL -lic 'echo $PATH'``, bounded, never on the
event loop) and adds the version managers' usual folders; servers are spawned
with that PATH.

Everything here blocks (subprocesses): call it from a worker thread.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openworker_qt.mcp.config import ServerConfig

SHELL_TIMEOUT = 5.0
VERSION_TIMEOUT = 5.0
MARK = "__OPENWORKER_PATH__"
PROGRAMS = ("node", "npx", "uvx", "uv", "python3", "python", "docker")

_lock = threading.Lock()
_cached: str | None = None
_shell_note = ""


def shell_path(shell: str | None = None, timeout: float = SHELL_TIMEOUT) -> tuple[str, str]:
    """(PATH printed by the user's interactive login shell, a note when that failed)."""
    if sys.platform.startswith("win"):
        return "", ""
    shell = shell or os.environ.get("SHELL") or "/bin/sh"
    if not os.path.exists(shell):
        return "", f"your shell {shell} does not exist"
    try:
        done = subprocess.run(
            [shell, "-lic", f"echo {MARK}${{PATH}}{MARK}"], capture_output=True, text=True,
            timeout=timeout, stdin=subprocess.DEVNULL, errors="replace",
            start_new_session=True,  # an interactive shell must not take the terminal
        )
    except subprocess.TimeoutExpired:
        return "", f"your shell {shell} took more than {timeout:g} s to start"
    except OSError as exc:
        return "", f"your shell {shell} could not be run ({exc.strerror or exc})"
    found = re.search(f"{MARK}(.*?){MARK}", done.stdout, re.S)
    if not found:
        return "", f"your shell {shell} did not print its PATH"
    return found.group(1).strip(), ""


def manager_dirs(home: Path | None = None) -> list[str]:
    """The folders nvm, asdf, pyenv, volta, Homebrew, uv and pipx put programs in."""
    home = home or Path.home()
    dirs = [home / ".local" / "bin", home / ".cargo" / "bin", home / ".volta" / "bin",
            home / ".asdf" / "shims", home / ".pyenv" / "shims", home / ".bun" / "bin",
            Path("/opt/homebrew/bin"), Path("/usr/local/bin"),
            home / ".nvm" / "current" / "bin"]
    nvm = home / ".nvm" / "versions" / "node"
    try:
        versions = sorted(nvm.iterdir(), key=lambda p: _version_key(p.name), reverse=True)
    except OSError:
        versions = []
    dirs[1:1] = [v / "bin" for v in versions[:1]]
    return [str(d) for d in dirs if d.is_dir()]


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", name)[:3])


def merge_paths(*paths: str) -> str:
    seen: list[str] = []
    for path in paths:
        for part in path.split(os.pathsep):
            if part and part not in seen:
                seen.append(part)
    return os.pathsep.join(seen)


def login_path() -> str:
    """The PATH servers are spawned with: this process's, then the login shell's,
    then the version managers' folders. Cached after the first (blocking) call."""
    global _cached, _shell_note
    with _lock:
        if _cached is None:
            from_shell, _shell_note = shell_path()
            _cached = merge_paths(os.environ.get("PATH", os.defpath), from_shell,
                                  os.pathsep.join(manager_dirs()))
        return _cached


def forget_path() -> None:
    global _cached
    with _lock:
        _cached = None


@dataclass(slots=True)
class Program:
    name: str
    path: str | None
    version: str = ""
    problem: str = ""


def program_version(path: str) -> tuple[str, str]:
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True,
                              timeout=VERSION_TIMEOUT, stdin=subprocess.DEVNULL, errors="replace")
    except subprocess.TimeoutExpired:
        return "", f"did not answer --version within {VERSION_TIMEOUT:g} s"
    except OSError as exc:
        return "", f"cannot be run ({exc.strerror or exc})"
    text = (done.stdout or done.stderr).strip().splitlines()
    return (text[0][:80] if text else ""), ""


def find_programs(path: str, names: tuple[str, ...] = PROGRAMS) -> list[Program]:
    out = []
    for name in names:
        where = shutil.which(name, path=path)
        program = Program(name, where)
        if where:
            program.version, program.problem = program_version(where)
        out.append(program)
    return out


@dataclass(slots=True)
class Report:
    path: str
    shell_note: str
    added: list[str]
    programs: list[Program]
    advice: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = ["Programs MCP servers usually need:"]
        for p in self.programs:
            if p.path:
                out.append(f"  {p.name:8} {p.version or '?'}  ({p.path})"
                           + (f" — {p.problem}" if p.problem else ""))
            else:
                out.append(f"  {p.name:8} not found")
        if self.added:
            out.append("Folders found outside this app's PATH (servers get them too):")
            out.extend(f"  {d}" for d in self.added)
        if self.shell_note:
            out.append(f"Note: {self.shell_note}; only the usual folders were added.")
        out.extend(self.advice)
        return out


def examine(servers: list[ServerConfig] | None = None) -> Report:
    """What the doctor shows: the programs, the PATH it found, advice per server."""
    path = login_path()
    own = set(os.environ.get("PATH", "").split(os.pathsep))
    added = [d for d in path.split(os.pathsep) if d and d not in own]
    programs = find_programs(path)
    have = {p.name for p in programs if p.path}
    advice: list[str] = []
    if "npx" not in have:
        advice.append("npx was not found: servers started with npx need Node.js "
                      "(https://nodejs.org, or nvm).")
    if "uvx" not in have:
        advice.append("uvx was not found: servers started with uvx need uv "
                      "(https://docs.astral.sh/uv/).")
    for server in servers or []:
        if server.transport == "stdio" and shutil.which(server.command, path=path) is None:
            advice.append(f"The server {server.name!r} runs {server.command!r}, which was not "
                          "found on this machine.")
    return Report(path, _shell_note, added, programs, advice)


@dataclass(slots=True)
class CheckResult:
    ok: bool
    message: str
    tools: list[str] = field(default_factory=list)
    stderr: str = ""
    server_info: str = ""


async def check_server(config: ServerConfig, *, within: float = 30.0,
                      get_secret: Any = None, set_secret: Any = None) -> CheckResult:
    """Connect (initialize), list the tools, disconnect: what "Test server" shows.
    With ``set_secret`` an HTTP server's sign-in (its stored tokens, refreshed if
    needed) is used as in a session; the browser is never opened."""
    from openworker_qt.mcp.client import McpServer
    from openworker_qt.mcp.status import McpFailure

    server = McpServer(config, get_secret=get_secret, set_secret=set_secret, path=login_path,
                       connect_timeout=within)
    try:
        await server.start()
        await server.ensure_ready()
    except McpFailure as exc:
        return CheckResult(False, str(exc), stderr=server.stderr.text())
    finally:
        await server.stop()
    names = [t.name for t in server.tools]
    return CheckResult(True, f"{server.server_info or config.name} answered and offers "
                      f"{len(names)} tools.", names, server.stderr.text(), server.server_info)


#: Past this many tools (one server's, or all servers' together) the doctor and the
#: settings page warn: every tool's description goes to the model at every turn.
TOOL_WARN = 40


def tool_warnings(offered: dict[str, tuple[int, int]], limit: int = TOOL_WARN) -> list[str]:
    """Warnings for ``offered`` (server → (tools offered to the model, tools it lists)):
    a server, or all of them together, offering more than ``limit``."""
    out = []
    for name, (count, listed) in offered.items():
        if count > limit:
            out.append(
                f"The server {name!r} offers {count} tools to the model (it lists {listed}). "
                f"More than {limit} fill the model's context at every turn and make it choose "
                "worse: keep only the ones you use (Settings → MCP servers, untick them; or "
                f"\"tools\": [...] in its entry of mcp.json).")
    total = sum(count for count, _ in offered.values())
    if total > limit and len([c for c, _ in offered.values() if c]) > 1:
        out.append(f"The MCP servers offer {total} tools in all to the model; more than "
                   f"{limit} fill its context at every turn. Turn off the ones you do not use.")
    return out


async def count_tools(servers: list[ServerConfig], *, within: float = 20.0,
                      get_secret: Any = None, set_secret: Any = None) -> dict[str, tuple[int, int]]:
    """Start the enabled servers together (bounded), and count their tools:
    server → (offered to the model, listed by the server). Servers that did not
    start are left out."""
    import asyncio

    from openworker_qt.mcp.manager import McpManager
    from openworker_qt.mcp.status import State

    manager = McpManager([s for s in servers if s.enabled], get_secret=get_secret,
                         set_secret=set_secret, path=login_path, connect_timeout=within)
    try:
        await manager.start_all()
        try:
            await manager.wait_ready(within)
        except TimeoutError:
            pass
        return {name: (sum(1 for t in server.tools if server.config.offers(t.name)),
                       len(server.tools))
                for name, server in manager.servers.items()
                if server.status.state is State.READY}
    finally:
        await asyncio.wait_for(manager.stop_all(), 15.0)
