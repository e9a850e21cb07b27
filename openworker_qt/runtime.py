"""Composition of the core services, shared by the CLI and the desktop app.

No Qt here: the desktop app builds a :class:`Runtime` and adapts it.
"""

from __future__ import annotations

import logging
import logging.handlers
from dataclasses import dataclass
from pathlib import Path

from openworker_qt.core import fence
from openworker_qt.core.audit import AuditLog
from openworker_qt.core.inbox import Inbox
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.sessions import granted_roots
from openworker_qt.core.standing_rules import StandingRuleStore
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.router import ProviderRouter
from openworker_qt.storage.config import Config, load_config
from openworker_qt.storage.conversations import ConversationStore, SessionInfo
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import AppPaths, app_paths
from openworker_qt.tools.files import file_tools
from openworker_qt.tools.interaction import interaction_tools


@dataclass
class Runtime:
    paths: AppPaths
    config: Config
    db: Database
    conversations: ConversationStore
    router: ProviderRouter
    inbox: Inbox
    audit: AuditLog
    rules: StandingRuleStore

    def decider_for(self, info: SessionInfo) -> PermissionEngine:
        """The session's permission engine: config re-read on every check, the
        session's own mode when it has one, standing rules from the database.

        Read roots: the workspace, the writable roots, every folder granted to the
        session (read-only ones too) and the files the user attached to its
        messages. This runtime's config, data, log and cache folders and its
        database are the app's own state (never written; the data folder and the
        database are never read without asking)."""
        sid = info.id

        def current() -> SessionInfo:
            return self.conversations.get_session(sid) or info

        databases = [self.db.path] if str(self.db.path) != ":memory:" else []
        own_state = fence.app_state_paths(self.paths, databases)
        own_secrets = fence.sensitive_paths(self.paths, databases)
        return PermissionEngine.from_config(
            lambda: self.config,
            workspace=info.workspace or str(Path.cwd()),
            rules=self.rules,
            # Live: an approved plan switches the session's mode, a granted folder
            # becomes a root — both take effect on the next check.
            mode=lambda: current().mode or str(self.config.get("permissions.mode")),
            extra_roots=lambda: granted_roots(current()),
            extra_read_roots=lambda: granted_roots(current(), writable_only=False),
            attached_files=lambda: self.conversations.attached_paths(sid),
            protected=lambda: [*own_state, *fence.app_state_paths()],
            sensitive=lambda: [*own_secrets, *fence.sensitive_paths()],
        )

    def close(self) -> None:
        self.db.close()


def setup_logging(paths: AppPaths, *, level: int = logging.INFO) -> logging.Handler:
    """A rotating log file in the platform log dir, with secrets scrubbed."""
    from openworker_qt.storage.secrets import RedactingFilter

    paths.logs.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(
        paths.logs / "openworker-qt.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > level or root.level == logging.NOTSET:
        root.setLevel(level)
    return handler


def build_router(config: Config) -> ProviderRouter:
    """The provider router with every configured provider registered."""
    router = ProviderRouter()
    try:
        from openworker_qt.providers.setup import register_providers
    except ImportError:
        return router
    from openworker_qt.storage.secrets import get_secret

    register_providers(router, config, get_secret)
    return router


def open_runtime(workspace: Path | None = None) -> Runtime:
    paths = app_paths().ensure()
    config = load_config(workspace)
    db = Database(paths.database)
    return Runtime(
        paths, config, db, ConversationStore(db), build_router(config), Inbox(db), AuditLog(db),
        StandingRuleStore(db),
    )


def default_tools(_info: SessionInfo) -> ToolRegistry:
    return ToolRegistry([*file_tools(), *interaction_tools()])
