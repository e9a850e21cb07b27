"""Every configured MCP server, and their tools in the sessions' registries.

The runtime adds each :class:`~openworker_qt.mcp.client.McpServer` as a
lifecycle service (:func:`attach`): they start in the background, in parallel,
once the window has painted. A session's registry gets the tools of the servers
ready when it is built, and is kept up to date as servers come up, change their
tools or are turned off (:meth:`McpManager.attach`).

Workspace servers follow each session's folder: a registry attached for a folder
gets the global servers' tools and that folder's own servers' (when the user
trusts its ``.openworker/mcp.json`` / ``.mcp.json``), never another folder's. A
folder other than the runtime's own is read (in a worker) and its servers started
the first time a session there is built.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.mcp.client import McpServer
from openworker_qt.mcp.config import (
    ServerConfig,
    TrustStore,
    load_servers,
    save_global,
    workspace_file,
)
from openworker_qt.mcp.status import PromptInfo, ResourceInfo, State
from openworker_qt.mcp.tools import PREFIX, server_tools, tool_name

log = logging.getLogger(__name__)


class McpManager:
    def __init__(
        self,
        configs: list[ServerConfig],
        *,
        get_secret: Callable[[str], str | None] | None = None,
        set_secret: Callable[[str, str], None] | None = None,
        path: Callable[[], str] | None = None,
        problems: list[str] | None = None,
        connect_timeout: float | None = None,
    ) -> None:
        self.get_secret = get_secret
        self.set_secret = set_secret
        self.path = path
        self.connect_timeout = connect_timeout
        self.problems = list(problems or [])
        self.config_dir: Path | None = None
        self.workspace: Path | None = None
        self.servers: dict[str, McpServer] = {}
        self.notices: list[tuple[str, str]] = []  # (server, text), newest last
        self.on_notice: Callable[[str, str], None] | None = None
        self.listeners: list[Callable[[McpServer], None]] = []
        #: Each attached registry and the folder it serves (None: every server here).
        self._registries: weakref.WeakKeyDictionary[ToolRegistry, Path | None] = (
            weakref.WeakKeyDictionary())
        #: Workspace servers of the sessions' other folders, by folder (resolved).
        self.folders: dict[Path, dict[str, McpServer]] = {}
        self._home: dict[int, Path] = {}  # id(server) → its folder, for workspace servers
        self._others: set[int] = set()  # ids of the servers in ``folders``
        self._loading: dict[Path, asyncio.Task[None]] = {}
        for config in configs:
            self.add(config)

    @classmethod
    def load(cls, config_dir: Path, workspace: Path | None = None, **kw: Any) -> McpManager:
        """From the global file and (when trusted) ``workspace``'s file. Blocking."""
        configs, problems = load_servers(config_dir, workspace)
        for problem in problems:
            log.warning("MCP: %s", problem)
        manager = cls([], problems=problems, **kw)
        manager.config_dir, manager.workspace = config_dir, workspace
        for config in configs:
            manager.add(config)
        return manager

    def untrusted_file(self) -> Path | None:
        """The workspace's MCP file when it waits for the user's trust."""
        if self.workspace is None or self.config_dir is None:
            return None
        path = workspace_file(self.workspace)
        if path is None or TrustStore(self.config_dir).is_trusted(self.workspace):
            return None
        return path

    async def trust_workspace(self) -> list[str]:
        """The user trusts the workspace's MCP file as it is now: its servers start.
        Returns their names."""
        if self.workspace is None or self.config_dir is None:
            return []
        store = TrustStore(self.config_dir)
        await asyncio.to_thread(store.trust, self.workspace)
        configs, problems = await asyncio.to_thread(load_servers, self.config_dir, self.workspace)
        self.problems = problems
        added = []
        for config in configs:
            if config.workspace and config.name not in self.servers:
                server = self.add(config)
                await server.start()
                added.append(config.name)
        return added

    def add(self, config: ServerConfig) -> McpServer:
        server = self._make(config)
        self.servers[config.name] = server
        if config.workspace and self.workspace is not None:
            self._home[id(server)] = _folder(self.workspace)
        return server

    def _make(self, config: ServerConfig) -> McpServer:
        kw: dict[str, Any] = {}
        if self.connect_timeout is not None:  # (a bound: a shorter startTimeout is kept)
            kw["connect_timeout"] = min(self.connect_timeout, config.start_timeout)
        server = McpServer(config, get_secret=self.get_secret, set_secret=self.set_secret,
                           path=self.path, **kw)
        server.on_notice = self._notice
        server.on_tools_changed = self._refresh
        server.listeners.append(self._changed)
        return server

    def global_configs(self) -> list[ServerConfig]:
        return [s.config for s in self.servers.values() if not s.config.workspace]

    async def save(self, config_dir: Path) -> None:
        """Write the global servers to the global file (in a worker)."""
        configs = self.global_configs()
        await asyncio.to_thread(save_global, config_dir, configs)

    async def update(self, config: ServerConfig) -> McpServer:
        """Apply an edited entry: tool settings at once; a changed command, address,
        environment or on/off restarts (or stops) the server."""
        server = self.servers.get(config.name)
        if server is None:
            server = self.add(config)
            if config.enabled:
                await server.start()
            return server
        before = server.config
        server.config = config
        connection = ("transport", "command", "args", "env", "cwd", "url", "headers", "enabled")
        if any(getattr(before, f) != getattr(config, f) for f in connection):
            await server.stop()
            if config.enabled:
                await server.restart()
            else:
                server.disable()
        self._refresh(server)
        self._changed(server)
        return server

    async def remove(self, name: str) -> None:
        server = self.servers.pop(name, None)
        if server is not None:
            await server.stop()
            self._refresh(server, drop=True)

    # ------------------------------------------------------------ events

    @staticmethod
    def headline(text: str) -> str:
        """A notice in one line: what happened, and the last thing the server printed."""
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 2 and lines[1].startswith("What the server printed last"):
            return f"{lines[0]} It said: {lines[-1].strip()[:200]}"
        return lines[0] if lines else text

    def _notice(self, server: McpServer, text: str) -> None:
        self.notices.append((server.config.name, text))
        del self.notices[:-50]
        if self.on_notice is not None:
            self.on_notice(server.config.name, text)

    def _changed(self, server: McpServer) -> None:
        if server.status.state is State.READY:
            self._refresh(server)
        for listener in list(self.listeners):
            try:
                listener(server)
            except Exception:
                log.exception("an MCP listener failed")

    # ------------------------------------------------------------- tools

    def attach(self, registry: ToolRegistry, workspace: Path | None = None) -> ToolRegistry:
        """Add the ready servers' tools to ``registry`` and keep them current there.

        With ``workspace`` (a session's folder) the registry gets the global servers
        and that folder's own trusted servers only; a folder seen for the first time
        is read in a worker and its servers started (their tools arrive when they
        are ready). Without it, every server of this manager."""
        folder = _folder(workspace) if workspace is not None else None
        self._registries[registry] = folder
        for server in self._servers_for(folder):
            self._fill(registry, server)
        if (folder is not None and self._foreign(folder) and not self.folders.get(folder)
                and folder not in self._loading):
            self._load_folder(folder)  # (again while it has none: trusted since?)
        return registry

    def _foreign(self, folder: Path) -> bool:
        """A folder whose servers this manager did not load with itself."""
        return self.config_dir is not None and (
            self.workspace is None or folder != _folder(self.workspace))

    def _servers_for(self, folder: Path | None) -> list[McpServer]:
        if folder is None:
            return list(self.servers.values())
        own = [s for s in self.servers.values()
               if not s.config.workspace or self._home.get(id(s)) == folder]
        return own + list(self.folders.get(folder, {}).values())

    def _serves(self, folder: Path | None, server: McpServer) -> bool:
        if folder is None:  # every server of this manager, none of the other folders'
            return id(server) not in self._others
        return not server.config.workspace or self._home.get(id(server)) == folder

    def _load_folder(self, folder: Path) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop (a blocking caller): nothing may start here
            return
        self.folders.setdefault(folder, {})
        task = asyncio.ensure_future(self._start_folder(folder))
        self._loading[folder] = task
        task.add_done_callback(lambda _t: self._loading.pop(folder, None))

    async def _start_folder(self, folder: Path) -> None:
        """Read ``folder``'s MCP file (in a worker) and start its trusted servers."""
        assert self.config_dir is not None
        try:
            configs, problems = await asyncio.to_thread(load_servers, self.config_dir, folder)
        except Exception:
            log.exception("reading the MCP servers of %s failed", folder)
            return
        for problem in problems:
            log.info("MCP (%s): %s", folder, problem)
        servers = self.folders.setdefault(folder, {})
        for config in configs:
            if not config.workspace or config.name in servers or not config.enabled:
                continue
            server = self._make(config)
            self._home[id(server)] = folder
            self._others.add(id(server))
            servers[config.name] = server
            await server.start()  # in the background: tools join when it is ready

    async def folder_ready(self, workspace: Path) -> None:
        """Wait until ``workspace``'s servers were read and started (tests, the CLI)."""
        task = self._loading.get(_folder(workspace))
        if task is not None:
            await asyncio.shield(task)

    def _fill(self, registry: ToolRegistry, server: McpServer, *, drop: bool = False) -> None:
        origin = f"mcp:{server.config.name}"
        for name in [t.name for t in registry if t.origin == origin]:
            registry.remove(name)
        if drop or not server.config.enabled:
            return
        for tool in server_tools(server):
            taken = registry.get(tool.name)
            if taken is not None:  # never one tool standing in for another
                self._collision(server, tool.name, taken.origin)
                continue
            try:
                registry.add(tool)
            except ValueError:
                self._collision(server, tool.name, "OpenWorker")

    def _collision(self, server: McpServer, name: str, other: str) -> None:
        text = (f"The tool {name} of the MCP server {server.config.name!r} is left out: "
                f"{other.removeprefix('mcp:')} already has a tool of that name.")
        log.warning("%s", text)
        if (server.config.name, text) not in self.notices:  # once, not at every refresh
            self._notice(server, text)

    def _refresh(self, server: McpServer, *, drop: bool = False) -> None:
        for registry, folder in list(self._registries.items()):
            if self._serves(folder, server):
                self._fill(registry, server, drop=drop)

    def tools(self) -> ToolRegistry:
        return self.attach(ToolRegistry())

    def server_of(self, tool: str) -> McpServer | None:
        """The server whose tool is named ``tool`` (names are one per (server, tool))."""
        if not tool.startswith(PREFIX):
            return None
        for server in self.servers.values():
            if any(tool_name(server.config.name, info.name) == tool for info in server.tools):
                return server
        return None

    # ------------------------------------------- resources, prompts (composer)

    async def resources(self) -> list[tuple[str, ResourceInfo]]:
        """(server, resource) of every ready server: what a message may attach."""
        return [(name, r) for name, found in await self._gather("list_resources") for r in found]

    async def prompts(self) -> list[tuple[str, PromptInfo]]:
        """(server, prompt) of every ready server: what the composer offers."""
        return [(name, p) for name, found in await self._gather("list_prompts") for p in found]

    async def _gather(self, method: str) -> list[tuple[str, list[Any]]]:
        ready = [s for s in self.servers.values() if s.status.state is State.READY]

        async def one(server: McpServer) -> tuple[str, list[Any]]:
            try:
                return server.config.name, await getattr(server, method)()
            except Exception as exc:  # one server's trouble leaves the others' lists
                log.info("MCP server %s: %s failed: %s", server.config.name, method, exc)
                return server.config.name, []

        return list(await asyncio.gather(*(one(s) for s in ready)))

    async def attachment(self, server: str, uri: str) -> str:
        """A resource's text, to attach to a message (capped)."""
        found = self.servers.get(server)
        if found is None:
            raise KeyError(server)
        return await found.read_resource(uri)

    async def prompt(self, server: str, name: str, arguments: dict[str, str] | None = None) -> str:
        """A prompt's rendered messages, to put in the composer."""
        found = self.servers.get(server)
        if found is None:
            raise KeyError(server)
        return await found.get_prompt(name, arguments)

    # --------------------------------------------------------- lifecycle

    async def start_all(self) -> None:
        for server in self.servers.values():
            await server.start()

    async def wait_ready(self, within: float = 30.0) -> None:
        """Wait (bounded) until every enabled server is ready or failed (tests, the CLI)."""
        async def one(server: McpServer) -> None:
            try:
                await server.ensure_ready(wait_backoff=False)
            except Exception:
                pass

        await asyncio.wait_for(
            asyncio.gather(*(one(s) for s in self.servers.values() if s.config.enabled)),
            within)

    async def stop_all(self) -> None:
        for task in list(self._loading.values()):
            task.cancel()
        others = [s for servers in self.folders.values() for s in servers.values()]
        await asyncio.gather(*(s.stop() for s in [*self.servers.values(), *others]),
                             return_exceptions=True)


def _folder(path: Path) -> Path:
    """A folder's absolute, normalised path (computed, no disk access: this runs on
    the loop)."""
    return Path(os.path.normpath(os.path.abspath(os.path.expanduser(path))))
