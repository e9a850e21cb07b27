"""The MCP servers as Settings ▸ MCP servers sees and changes them (no widgets here).

:class:`McpSetup` stands between the page and the runtime's MCP manager: the servers
with their live status and tools, a change written to the global ``mcp.json`` and
applied at once (a folder's server is never written there), an import from another
app's file, the "Test server" check (with the keyring's secrets, never opening the
browser), the doctor, a folder's servers to trust. The page keeps its widgets; what a
server is, is the MCP package's (:class:`Server`, :class:`ServerConfig` and the
states are re-exported here for it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from openworker_qt.mcp import config as mc
from openworker_qt.mcp.client import McpServer
from openworker_qt.mcp.manager import McpManager
from openworker_qt.mcp.status import McpFailure, State

if TYPE_CHECKING:
    from openworker_qt.mcp.doctor import CheckResult

__all__ = [
    "ConfigError",
    "Manager",
    "McpFailure",
    "McpSetup",
    "Server",
    "ServerConfig",
    "State",
]

Server = McpServer
ServerConfig = mc.ServerConfig
ConfigError = mc.McpConfigError
Manager = McpManager


def parse_server(name: str, *, command: list[str] | None = None, url: str = "") -> ServerConfig:
    """A server started by ``command`` (its words) or reached at ``url``; raises
    :class:`ConfigError` (or ``ValueError``) for a name or a command that will not do."""
    if url:
        return mc.parse_server(name, {"url": url})
    words = command or []
    return mc.parse_server(name, {"command": words[0] if words else "", "args": words[1:]})


class McpSetup:
    """See module docstring. ``config_dir``: where the global ``mcp.json`` is."""

    def __init__(self, manager: McpManager, config_dir: Path) -> None:
        self.manager = manager
        self.config_dir = config_dir

    @property
    def servers(self) -> Mapping[str, McpServer]:
        return self.manager.servers

    @property
    def problems(self) -> list[str]:
        """What is wrong with the MCP files (one sentence each)."""
        return list(self.manager.problems)

    def untrusted_file(self) -> Path | None:
        """This folder's MCP file, when the user has not trusted it (yet)."""
        return self.manager.untrusted_file()

    def listen(self, listener: Callable[[McpServer], None]) -> Callable[[], None]:
        """Call ``listener(server)`` at each change of a server; returns how to stop."""
        listeners = self.manager.listeners
        listeners.append(listener)

        def detach() -> None:
            if listener in listeners:
                listeners.remove(listener)

        return detach

    async def apply(self, config: ServerConfig) -> None:
        """Add or change a server: applied at once, written to the global file unless
        it is a folder's."""
        await self.manager.update(config)
        if not config.workspace:
            await self.manager.save(self.config_dir)

    async def remove(self, name: str) -> None:
        await self.manager.remove(name)
        await self.manager.save(self.config_dir)

    async def found_sources(self) -> list[tuple[str, Path]]:
        """The MCP files of other apps on this computer (Claude Desktop, Cursor, VS
        Code), each with the app's name."""
        return await asyncio.to_thread(mc.found_configs)

    async def import_file(self, source: Path) -> tuple[list[str], list[str]]:
        """Add the servers of ``source`` to the global file and start them: the names
        added and the sentences of those skipped. Raises :class:`ConfigError`."""
        result = await asyncio.to_thread(mc.import_file, self.config_dir, source)
        if result.added:
            configs, _ = await asyncio.to_thread(mc.load_global, self.config_dir)
            for config in configs:
                if config.name in result.added:
                    await self.manager.update(config)
        return list(result.added), list(result.skipped)

    async def check(self, server: McpServer) -> CheckResult:
        """Connect, list the tools, disconnect (what "Test server" shows): its
        ``message``, ``tools`` and ``stderr``. The sign-in stored in the keyring is
        used as in a session; the browser is never opened."""
        from openworker_qt.mcp.doctor import check_server
        from openworker_qt.storage import secrets

        return await check_server(server.config, get_secret=secrets.get_secret,
                                  set_secret=secrets.set_secret)

    def tool_warnings(self) -> list[str]:
        """Servers (or all of them together) offering the model too many tools."""
        from openworker_qt.mcp.doctor import tool_warnings

        counts = {name: (sum(1 for t in s.tools if s.config.offers(t.name)), len(s.tools))
                  for name, s in self.manager.servers.items()
                  if s.status.state is State.READY and s.config.enabled}
        return tool_warnings(counts)

    async def doctor(self) -> list[str]:
        """The doctor's lines: the programs servers start with, the PATH, advice."""
        from openworker_qt.mcp.doctor import examine

        configs = [s.config for s in self.manager.servers.values()]
        report = await asyncio.to_thread(examine, configs)
        return list(report.lines())

    @staticmethod
    def servers_in_file(path: Path) -> list[tuple[ServerConfig, list[str]]]:
        """The servers a folder's MCP file would run, each with the names it takes from
        the keyring. Raises :class:`ConfigError`."""
        servers, _ = mc.servers_in(mc.read_json(path), source=str(path))
        return [(s, list(mc.placeholders(s))) for s in servers]

    async def trust_workspace(self) -> None:
        """The user trusts this folder's MCP file: its servers start."""
        await self.manager.trust_workspace()
