"""The core services and their lifecycle, shared by every surface.

A :class:`Runtime` owns what a session needs whatever drives it: the config,
the database and its stores (conversations, inbox, audit, standing rules), the
secrets (keyring first, then the environment), the provider router, the tools
(:meth:`Runtime.session_tools`: the one place a session's tools are made, for
every surface), the permission engine (:meth:`Runtime.decider_for`) and the
session managers it builds. The desktop window, the CLI and a headless ``serve`` each open one
(:func:`open_runtime`) and add only their surface: who answers approvals and
questions (:meth:`Runtime.session_manager`) and which listeners follow events.

Long-lived services (MCP clients, connectors, the scheduler) plug in as
:class:`LifecycleService` objects: :meth:`Runtime.start` starts them in the
order they were added (a failing or hanging start is reported, logged and does
not keep the others from starting); :meth:`Runtime.stop` first winds down the
running turns, then stops the started services in reverse order, each within a
bound. :meth:`Runtime.close` releases the database.

No Qt here (import-linter checks it): the desktop app adapts a Runtime.
"""

from __future__ import annotations

import asyncio
import concurrent.futures.thread  # noqa: F401  (asyncio.to_thread's pool: not imported on the loop)
import logging
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from openworker_qt.agents.minds import SessionMinds
from openworker_qt.agents.personas import PersonaRegistry
from openworker_qt.core import events as ev
from openworker_qt.core import fence
from openworker_qt.core.approvals import Approver, Questioner
from openworker_qt.core.approvers import InboxAsks
from openworker_qt.core.audit import AuditLog
from openworker_qt.core.inbox import Inbox
from openworker_qt.core.peers import Peers
from openworker_qt.core.provider_api import ProviderError
from openworker_qt.core.session_fields import granted_roots
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.logs import setup_logging
from openworker_qt.memory import MemoryStore
from openworker_qt.memory.render import memory_prompt
from openworker_qt.providers.router import ProviderRouter, build_router
from openworker_qt.runtime_tools import default_tools, import_tool_modules
from openworker_qt.storage import secrets
from openworker_qt.storage.config import (
    WORKSPACE_MODE_KEY,
    Config,
    load_config,
    mode_with_floor,
    new_session_mode,
)
from openworker_qt.storage.conversations import ConversationStore, SessionInfo
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import AppPaths, app_paths
from openworker_qt.storage.workspace_configs import WorkspaceConfigs

# Start-up imports only what opening a runtime needs (tests/test_startup_modules.py): the
# tools, permissions, connectors and MCP where first used (a session's first turn, the
# settings, enable_mcp). The packaged builds list them as hidden imports (installer/*.spec).
if TYPE_CHECKING:
    from openworker_qt.connectors.registry import ConnectorRegistry
    from openworker_qt.core.permissions import PermissionEngine
    from openworker_qt.mcp.manager import McpManager
    from openworker_qt.teams.runner import TeamRunner
    from openworker_qt.teams.store import TeamStore

__all__ = [
    "LifecycleService",
    "Runtime",
    "ServiceFailure",
    "open_runtime",
    "setup_logging",
]

log = logging.getLogger(__name__)

ToolsFor = Callable[[SessionInfo], ToolRegistry]
ApproverFor = Callable[[SessionInfo], Approver | None]
QuestionerFor = Callable[[SessionInfo], Questioner | None]

START_TIMEOUT = 30.0
STOP_TIMEOUT = 5.0


@runtime_checkable
class LifecycleService(Protocol):
    """Something the runtime starts and stops (an MCP client, a connector, the scheduler)."""

    name: str

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


@dataclass(frozen=True, slots=True)
class ServiceFailure:
    """A service that failed (or timed out) to start or to stop."""

    name: str
    phase: Literal["start", "stop"]
    message: str


class Runtime:
    """The core services (see module docstring). Build it with :func:`open_runtime`."""

    def __init__(
        self,
        paths: AppPaths,
        config: Config,
        db: Database,
        *,
        workspace: Path | None = None,
        router: ProviderRouter | None = None,
        tools_for: ToolsFor = default_tools,
        get_key: Callable[[str], str | None] = secrets.get_key,
    ) -> None:
        self.paths = paths
        self.config = config
        self.workspace = workspace
        self.db = db
        #: Applied to every text stored: messages, audit entries, inbox items.
        self.redact: Callable[[str], str] = secrets.redact
        self.conversations = ConversationStore(db)
        self.inbox = Inbox(db, redact=self._redact)
        self.audit = AuditLog(db, redact=self._redact)
        self.rules = StandingRuleStore(db)
        #: Saved memories; saving follows ``memory.enabled`` of the session's folder.
        self.memory = MemoryStore(
            db, saving=lambda ws: bool(self.config_for(ws or None).get("memory.enabled", True)))
        self._connectors: ConnectorRegistry | None = None
        #: Provider keys by entry name: the keyring first, then the environment.
        self.get_key = get_key
        self.router = router if router is not None else build_router(config, get_key)
        self.tools_for = tools_for
        self.managers = Peers()  # every session manager built here (core/peers.py)
        self._workspace_configs = WorkspaceConfigs(lambda: self.config.base or self.config)
        self.services: list[LifecycleService] = []
        self.failures: list[ServiceFailure] = []
        self._running: list[LifecycleService] = []
        self._started = False
        self._starting: asyncio.Task[None] | None = None  # start() at work
        self._stopping = False
        #: Personas (built in and installed) and the user's skills folder.
        self.personas = PersonaRegistry(paths.data / "personas")
        self.skills_dir = paths.data / "skills"
        #: The memory text of a session (blocking; read once per session before its
        #: first turn): the memory package plugs its renderer in here.
        self.memory_for: Callable[[SessionInfo], str | None] | None = (
            lambda info: memory_prompt(self.memory, info.workspace).text)
        #: A notice for the per-call reminder only, read at every turn (blocking), e.g.
        #: that saving memories is off.
        self.notice_for: Callable[[SessionInfo], str] | None = (
            lambda info: memory_prompt(self.memory, info.workspace).reminder)
        self.minds = SessionMinds(
            self.personas, user_skills=self.skills_dir, decider_for=self.decider_for,
            memory_for=lambda info: self.memory_for(info) if self.memory_for else None,
            notice_for=lambda info: self.notice_for(info) if self.notice_for else "",
        )
        #: The MCP servers (openworker_qt.mcp), once :meth:`enable_mcp` ran.
        self.mcp: McpManager | None = None

    def _redact(self, text: str) -> str:
        return self.redact(text)

    @property
    def connectors(self) -> ConnectorRegistry:
        """The connectors (Slack, GitHub, mail, …): their state and the connected ones'
        tools. Built on first use (the catalogue imports every connector's module)."""
        if self._connectors is None:
            from openworker_qt.connectors.registry import ConnectorRegistry

            self._connectors = ConnectorRegistry(self.db)
        return self._connectors

    @connectors.setter
    def connectors(self, registry: ConnectorRegistry) -> None:
        self._connectors = registry

    # ------------------------------------------------------------ permissions

    def config_for(self, workspace: str | Path | None) -> Config:
        """The config a session working in ``workspace`` sees: the global config
        narrowed by that folder's ``.openworker/config.toml`` (``storage/config.py``
        says what a workspace may set). ``None``: the global config.

        Cached per folder (``storage/workspace_configs.py``): the permission engine
        may call this on every check.
        """
        return self._workspace_configs.get(workspace)

    async def config_for_async(self, workspace: str | Path | None) -> Config:
        """:meth:`config_for` in a worker thread (the first read of a folder's file)."""
        return await asyncio.to_thread(self.config_for, workspace)

    def decider_for(self, info: SessionInfo, *, force_mode: str | None = None) -> PermissionEngine:
        """The session's permission engine: the config of the session's folder
        (:meth:`config_for`) on every check, the session's own mode raised to the
        floor that folder's file sets, standing rules from the database.

        Read roots: the workspace, the writable roots, every folder granted to the
        session (read-only ones too) and the files the user attached to its
        messages. This runtime's config, data, log and cache folders and its
        database are the app's own state (never written; the data folder and the
        database are never read without asking).

        ``force_mode``: this mode whatever the session's (the explorer's ``plan``)."""
        sid = info.id

        def current() -> SessionInfo:
            # Re-read when anything may have changed (cheap otherwise: checked per call).
            return self.conversations.session_settings(sid) or info

        workspace = info.workspace or str(Path.cwd())

        def config() -> Config:
            return self.config_for(workspace)

        def mode() -> str:
            if force_mode is not None:
                return force_mode
            cfg = config()
            return mode_with_floor(current().mode or str(cfg.get("permissions.mode")),
                                   cfg.get(f"permissions.{WORKSPACE_MODE_KEY}"))

        databases = [self.db.path] if str(self.db.path) != ":memory:" else []
        # An automation's run: its task-scoped standing rules apply, and an "always"
        # answer binds the rule to the task (every later run), not to this run.
        task = info.meta.get("automation_id") if isinstance(info.meta, dict) else None
        own_state = fence.app_state_paths(self.paths, databases)
        own_secrets = fence.sensitive_paths(self.paths, databases)
        from openworker_qt.core.permissions import PermissionEngine  # (at a first turn)
        return PermissionEngine.from_config(
            config,
            workspace=workspace,
            rules=self.rules,
            # Live: an approved plan switches the session's mode, a granted folder
            # becomes a root — both take effect on the next check.
            mode=mode,
            extra_roots=lambda: granted_roots(current()),
            extra_read_roots=lambda: granted_roots(current(), writable_only=False),
            attached_files=lambda: self.conversations.attached_paths(sid),
            protected=_joined(own_state, fence.default_app_state),
            sensitive=_joined(own_secrets, fence.default_sensitive),
            task_id=str(task) if task else None,
        )

    # --------------------------------------------------------------- sessions

    def session_manager(
        self,
        *,
        approver_for: ApproverFor | None = None,
        questioner_for: QuestionerFor | None = None,
        tools_for: ToolsFor | None = None,
        system_prompt_for: Callable[[SessionInfo], str] | None = None,
        default_model: str | None = None,
        max_iterations: int | None = None,
    ) -> SessionManager:
        """A session manager on this runtime's services; the surface adds its policy.

        ``approver_for``/``questioner_for`` decide who answers a session's asks
        (the inbox, a terminal prompt, nobody). Defaults come from the config.
        The runtime stops its turns in :meth:`stop`.
        """
        if default_model is None:
            default_model = str(self.config.get("general.default_model") or "")

        def iterations(info: SessionInfo) -> int:
            return int(self.config_for(info.workspace).get("general.max_iterations", 25))

        def new_mode(workspace: str, mode: str | None) -> str:
            cfg = self.config_for(workspace)
            return new_session_mode(mode or str(cfg.get("permissions.mode")),
                                    cfg.get(f"permissions.{WORKSPACE_MODE_KEY}"))

        async def prepare(info: SessionInfo) -> None:
            # The first read of the session folder's file, off the loop: the engine
            # and the permission checks then find it cached.
            try:
                await self.config_for_async(info.workspace)
            except Exception:  # config_for on the loop will say what is wrong
                log.exception("reading the settings of %s failed", info.workspace)
            # The session's tool modules, in a worker: building the tools imports nothing.
            await asyncio.to_thread(import_tool_modules)
            try:  # the persona, AGENTS.md, skills and memory of the system prompt
                await self.minds.prepare(info)
            except Exception:
                log.exception("preparing the system prompt of %s failed", info.id)

        manager: SessionManager

        def tools(info: SessionInfo) -> ToolRegistry:
            return self.session_tools(info, base=tools_for, default_model=manager.default_model)

        manager = SessionManager(
            self.conversations,
            self.router,
            tools_for=tools,
            decider_for=self.decider_for,
            approver_for=approver_for,
            questioner_for=questioner_for,
            system_prompt_for=system_prompt_for or self.minds.system_prompt,
            reminder_for=self.minds.reminder,
            default_model=default_model,
            max_iterations=max_iterations or iterations,
            new_session_mode=new_mode,
            prepare=prepare,
            audit=self.audit,
            redact=self.redact,
            # A new message closes the inbox asks of calls a parked turn left waiting.
            asks=InboxAsks(self.inbox),
            # Redaction on the loop never reads the keyring: a worker loads it first.
            ready=secrets.ensure_loaded,
            compaction=True,
            peers=self.managers,  # (adds it): their turns are known to each other
        )
        manager.listeners.append(_log_event)
        return manager

    def enable_mcp(self, manager: McpManager | None = None) -> McpManager:
        """The configured MCP servers as services (they connect in the background once
        :meth:`start` runs) and their tools in every session. Blocking (reads the
        config files) unless ``manager`` is given."""
        if manager is None:
            from openworker_qt.mcp.doctor import login_path
            from openworker_qt.mcp.manager import McpManager

            manager = McpManager.load(
                self.paths.config, self.workspace, get_secret=secrets.get_secret,
                set_secret=secrets.set_secret, path=login_path)
        self.mcp = manager
        for server in manager.servers.values():
            self.add_service(server)
        return manager

    def session_tools(
        self, info: SessionInfo, *, base: ToolsFor | None = None, default_model: str = "",
    ) -> ToolRegistry:
        """The tools a session is offered: the one place they are made, for every
        surface (the window, ``run``, ``serve``, a Slack thread, a scheduled run).

        The base set is the runtime's (:func:`default_tools` with an explorer bound
        to the session, memory and the connected connectors), or ``base`` /
        the runtime's ``tools_for`` when a surface or a test gave its own; a
        scheduled run loses the scheduling tools; the session's persona narrows the
        set (never widens it); the MCP servers' tools join last (servers that
        connect later add theirs to this registry), for personas that use
        connected services. Its permissions are :meth:`decider_for`'s."""
        chosen = base or self.tools_for
        if chosen is default_tools:
            registry = self._default_tools(info, default_model)
        else:
            registry = chosen(info)
        from openworker_qt.automation.tools import SCHEDULING_TOOLS, is_run

        if is_run(info.meta):
            for name in SCHEDULING_TOOLS:
                registry.remove(name)
        narrowed = self.minds.tools(info, registry)
        if isinstance(info.meta, dict) and info.meta.get("team_id"):
            narrowed = self._team_tools(info, narrowed)
        if self.mcp is not None and self.minds.uses_services(info):
            # (a session's own folder brings its trusted workspace servers)
            self.mcp.attach(narrowed, Path(info.workspace) if info.workspace else self.workspace)
        return narrowed

    # ------------------------------------------------------------------ teams

    @property
    def teams(self) -> TeamStore:
        """The teams' boards (issue 29), opened on first use."""
        store: TeamStore | None = self.__dict__.get("_teams")
        if store is None:
            from openworker_qt.teams import plan_answer  # noqa: F401  (checks edited plans)
            from openworker_qt.teams.store import TeamStore

            store = self.__dict__["_teams"] = TeamStore(self.db, audit=self.audit,
                                                        redact=self._redact)
        return store

    def _team_tools(self, info: SessionInfo, registry: ToolRegistry) -> ToolRegistry:
        from openworker_qt.teams.session_tools import team_tools

        return team_tools(self.teams, self.inbox, info, registry)

    def team_runner(self) -> TeamRunner:
        """The one team runner of this runtime (``teams/wiring.py``), built on first use."""
        runner: TeamRunner | None = self.__dict__.get("_team_runner")
        if runner is None:
            from openworker_qt.teams.wiring import build_runner

            runner = self.__dict__["_team_runner"] = build_runner(self)
        return runner

    def leads_team(self, persona: str) -> bool:
        """Whether ``persona`` leads a team: an automation with it runs a team."""
        from openworker_qt.teams.wiring import leads_team

        return leads_team(self.personas, persona)

    async def run_team(self, outcome: str, **how: Any) -> str:
        """A team on ``outcome`` (``teams/wiring.py``: ``run_team``), until it ends."""
        from openworker_qt.teams.wiring import run_team

        return await run_team(self.team_runner(), outcome, **how)

    async def wait_team(self, team_id: str) -> str:
        """Wait for the end of a team this runtime's runner drives; its state then."""
        return (await self.team_runner().wait(team_id)).state.value

    def _default_tools(self, info: SessionInfo, default_model: str) -> ToolRegistry:
        from openworker_qt.tools.explore import Explorer

        sid = info.id

        def model() -> str:
            current = self.conversations.session_settings(sid) or info
            return current.model or default_model

        explorer = Explorer(
            resolver=self.router, model=model,
            decider=lambda: self.decider_for(info, force_mode="plan"),
        )
        connectors = self.connectors if self._connectors is not None or self._any_connected() else None
        return default_tools(info, explorer, self.memory, connectors, author=self.user_name)

    def user_name(self) -> str:
        """The user's name from settings (``general.user_name``): the author written
        into documents; '' (no author) when it is not set."""
        return str(self.config.get("general.user_name") or "").strip()

    def _any_connected(self) -> bool:
        """Whether a connector is connected, without importing the connectors (a
        session's tools need their registry only then)."""
        try:
            if not self.db.query(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'connectors'"):
                return False  # (the registry never ran: nothing was ever connected)
            return bool(self.db.query(
                "SELECT 1 FROM connectors WHERE status = 'connected' LIMIT 1"))
        except Exception:  # the registry reports what is wrong
            return True

    def tools_with_explorer(self, default_model: str) -> ToolsFor:
        """The default session tools before the persona narrows them (each session
        with an explorer bound to it, memory and the connected connectors)."""
        return lambda info: self._default_tools(info, default_model)

    # -------------------------------------------------------------- providers

    def list_models(self, *, ask_servers: bool = False) -> list[Any]:
        """The configured providers and their models (blocking: keyring reads;
        ``ask_servers``: a local server's context windows too, short timeouts)."""
        from openworker_qt.providers.models import list_models

        return list_models(self.config, self.get_key, ask_servers=ask_servers)

    def key_name(self, provider: str) -> str | None:
        """The keyring entry (and environment variable) of ``provider``'s key."""
        from openworker_qt.providers.factories import internal_config, key_name

        return key_name(internal_config(self.config), provider.lower())

    def key_changed(self, provider: str) -> None:
        """A key was stored or removed: its client is rebuilt on the next call."""
        self.router.invalidate(provider.lower())

    def reload_config(self) -> None:
        """Re-read the config files (the permission engine reads it on every check;
        every folder's narrowed config is rebuilt on its next use)."""
        self.config = load_config(self.workspace)
        self._workspace_configs.clear()

    def providers_changed(self) -> None:
        """Re-register the providers from the current config (URLs, key names, models)."""
        self.router.configure(self.config, self.get_key)

    def warm(self, model: str | None = None) -> None:
        """Do the slow first-use work ahead of time. Blocking: call it from a worker.

        Loads the keyring (its import and backend discovery) and every known
        secret for redaction, then prepares ``model``'s provider (default: the
        configured default model): key read, adapter and SDK import, client.
        """
        _warm(self.router, model or str(self.config.get("general.default_model") or ""))

    def warm_in_background(self, model: str | None = None) -> threading.Thread:
        """:meth:`warm` in a daemon thread (the window calls it after its first paint).

        The thread holds the router only: never the runtime, whose session managers
        reach the surface's (Qt) objects, which must not be released off their thread.
        """
        model = model or str(self.config.get("general.default_model") or "")
        thread = threading.Thread(target=_warm, args=(self.router, model),
                                  name="runtime-warm-up", daemon=True)
        thread.start()
        return thread

    # -------------------------------------------------------------- lifecycle

    def add_service(self, service: LifecycleService) -> None:
        """Register a service to start with :meth:`start` (in the order added)."""
        if self._started:
            raise RuntimeError(f"the runtime is running: add {service.name!r} before start()")
        self.services.append(service)

    def add_connector_services(self, manager: SessionManager, *, workspace: str | Path) -> None:
        """The connectors' long-lived services for ``manager``'s sessions: the Slack
        listener, running while Slack is connected (a mention in a thread starts a
        session); connecting or disconnecting Slack starts or stops it, no restart."""
        from openworker_qt.connectors.slack_service import SlackService

        self.add_service(SlackService(manager, self.inbox, self.db, self.connectors,
                                      workspace=workspace))

    @property
    def running_services(self) -> list[str]:
        return [s.name for s in self._running]

    async def start(self, *, service_timeout: float = START_TIMEOUT) -> list[ServiceFailure]:
        """Start every service in order; returns (and keeps in :attr:`failures`) those
        that raised or took longer than ``service_timeout``. The others run regardless.

        A :meth:`stop` while this runs ends it (it returns what failed so far); a
        cancelled start re-raises. Either way the service caught mid-start is stopped
        at once (it may have made tasks already) and the started ones by :meth:`stop`."""
        if self._started or self._stopping:
            return []
        self._started = True
        failures: list[ServiceFailure] = []
        starting = asyncio.ensure_future(self._start_each(failures, service_timeout))
        self._starting = starting
        try:
            await starting
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not starting.cancelled() or (current is not None and current.cancelling()):
                raise  # our caller was cancelled, not overtaken by stop()
        finally:
            self._starting = None
        return failures

    async def _start_each(self, failures: list[ServiceFailure], each: float) -> None:
        current = asyncio.current_task()
        for service in self.services:
            if self._stopping or (current is not None and current.cancelling()):
                # (a cancel that came as a service's start ended is not raised by
                # wait_for: the next service does not start either)
                raise asyncio.CancelledError
            try:
                await asyncio.wait_for(service.start(), each)
            except TimeoutError:
                failures.append(self._failed(
                    service, "start", f"did not start within {each:g} s"))
            except asyncio.CancelledError:
                await self._stop_cut_off(service)
                raise
            except Exception as exc:
                failures.append(self._failed(service, "start", str(exc) or type(exc).__name__, exc))
            else:
                self._running.append(service)

    async def _stop_cut_off(self, service: LifecycleService) -> None:
        """Stop a service whose start was cancelled: what it made so far is closed."""
        try:
            await asyncio.wait_for(service.stop(), STOP_TIMEOUT)
        except Exception:
            log.warning("stopping %s after its start was cut off failed", service.name,
                        exc_info=True)

    async def stop(
        self, *, grace: float = 3.0, service_timeout: float = STOP_TIMEOUT
    ) -> list[ServiceFailure]:
        """Wind down running turns (``grace`` seconds), stop the started services in
        reverse order, each within ``service_timeout``, and close the provider
        clients' connections. Safe to call twice. A :meth:`start` still at work is
        ended first (see there)."""
        self._stopping = True
        try:
            return await self._stop(grace, service_timeout)
        finally:
            self._stopping = False

    async def _stop(self, grace: float, service_timeout: float) -> list[ServiceFailure]:
        if self._starting is not None:
            self._starting.cancel()
            await asyncio.wait([self._starting])
        if (runner := self.__dict__.get("_team_runner")) is not None:
            await runner.close()  # its watch first: it would start workers' turns
        for manager in self.managers:
            try:
                await manager.shutdown(grace=grace)
            except Exception:
                log.exception("stopping the sessions' turns failed")
        if self.mcp is not None:  # every MCP server at once (each stop is bounded)
            try:
                await asyncio.wait_for(self.mcp.stop_all(), service_timeout)
            except Exception:
                log.exception("stopping the MCP servers failed")
        failures: list[ServiceFailure] = []
        while self._running:
            service = self._running.pop()
            try:
                await asyncio.wait_for(service.stop(), service_timeout)
            except TimeoutError:
                failures.append(self._failed(
                    service, "stop", f"did not stop within {service_timeout:g} s"))
            except Exception as exc:
                failures.append(self._failed(service, "stop", str(exc) or type(exc).__name__, exc))
        await _close_all("openworker_qt.tools.shell")  # every session's shell and background task
        await _close_all("openworker_qt.connectors.browser")  # every session's browser
        await self.router.aclose()
        self._started = False
        return failures

    def _failed(
        self, service: LifecycleService, phase: Literal["start", "stop"], message: str,
        exc: BaseException | None = None,
    ) -> ServiceFailure:
        log.error("service %s failed to %s: %s", service.name, phase, message, exc_info=exc)
        failure = ServiceFailure(service.name, phase, self.redact(message))
        self.failures.append(failure)
        return failure

    def close(self) -> None:
        self.db.close()


def _joined(own: list[str], defaults: Callable[[], tuple[str, ...]]) -> Callable[[], tuple[str, ...]]:
    """``own`` then ``defaults()`` (re-read on every call: the environment may change),
    as the same tuple while ``defaults()`` is: the fence compiles a set once per tuple."""
    memo: list[Any] = [None, ()]

    def current() -> tuple[str, ...]:
        base = defaults()
        if memo[0] is not base:
            memo[:] = [base, (*own, *base)]
        return memo[1]  # type: ignore[no-any-return]

    return current


async def _close_all(module: str) -> None:
    """``module.close_all()``, when it was imported (nothing of it runs otherwise;
    a worker thread importing it right now has not opened anything with it yet)."""
    imported = sys.modules.get(module)
    close_all = getattr(imported, "close_all", None)  # None: still being imported
    if close_all is not None:
        await close_all()


def _warm(router: ProviderRouter, model: str) -> None:
    try:
        secrets.known_values()
    except Exception:  # the first real use reports keyring problems to the user
        log.debug("keyring warm-up failed", exc_info=True)
    if not model:
        return
    try:
        router.prepare(model)
    except ProviderError as exc:  # remembered; the first turn reports it
        log.info("the default model is not ready: %s", exc)
    except Exception:
        log.warning("preparing %s failed", model, exc_info=True)


def _log_event(event: ev.Event) -> None:
    """Every surface's log tells why a turn failed (secrets are scrubbed by the log)."""
    if isinstance(event, ev.ErrorOccurred):
        log.warning("session %s: the turn failed (%s): %s", event.session_id, event.kind,
                    event.message)


def open_runtime(
    workspace: Path | None = None,
    *,
    router: ProviderRouter | None = None,
    tools_for: ToolsFor = default_tools,
    get_key: Callable[[str], str | None] = secrets.get_key,
) -> Runtime:
    """The runtime on the platform's (or ``OPENWORKER_HOME``'s) state.

    ``workspace``: its ``.openworker/config.toml`` is merged into the config.
    """
    paths = app_paths().ensure()
    config = load_config(workspace)
    db = Database(paths.database)
    return Runtime(paths, config, db, workspace=workspace, router=router, tools_for=tools_for,
                   get_key=get_key)
