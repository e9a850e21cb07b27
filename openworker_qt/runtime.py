"""Composition of the core services, shared by the CLI and the desktop app.

No Qt here: the desktop app builds a :class:`Runtime` and adapts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from openworker_qt.core.audit import AuditLog
from openworker_qt.core.inbox import Inbox
from openworker_qt.providers.router import ProviderRouter
from openworker_qt.storage.config import Config, load_config
from openworker_qt.storage.conversations import ConversationStore, SessionInfo
from openworker_qt.storage.db import Database
from openworker_qt.storage.paths import AppPaths, app_paths
from openworker_qt.tools.base import ToolRegistry
from openworker_qt.tools.files import file_tools


@dataclass
class Runtime:
    paths: AppPaths
    config: Config
    db: Database
    conversations: ConversationStore
    router: ProviderRouter
    inbox: Inbox
    audit: AuditLog

    def close(self) -> None:
        self.db.close()


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
        paths, config, db, ConversationStore(db), build_router(config), Inbox(db), AuditLog(db)
    )


def default_tools(_info: SessionInfo) -> ToolRegistry:
    return ToolRegistry(file_tools())
