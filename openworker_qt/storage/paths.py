"""Where OpenWorker Qt keeps its files.

Platform directories by default (``platformdirs``). ``OPENWORKER_HOME`` puts
everything under one folder instead: used by tests (a temp dir per test) and by
portable installs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "OpenWorker Qt"
APP_SLUG = "openworker-qt"
HOME_ENV = "OPENWORKER_HOME"


@dataclass(frozen=True, slots=True)
class AppPaths:
    data: Path
    config: Path
    logs: Path
    cache: Path

    @property
    def database(self) -> Path:
        return self.data / "openworker.sqlite3"

    @property
    def config_file(self) -> Path:
        return self.config / "config.toml"

    @property
    def outputs(self) -> Path:
        return self.data / "outputs"

    def ensure(self) -> AppPaths:
        for p in (self.data, self.config, self.logs, self.cache):
            p.mkdir(parents=True, exist_ok=True)
        return self


def app_paths() -> AppPaths:
    """The directories in force now (re-read ``OPENWORKER_HOME`` every call)."""
    home = os.environ.get(HOME_ENV)
    if home:
        root = Path(home).expanduser()
        return AppPaths(root / "data", root / "config", root / "logs", root / "cache")
    import platformdirs

    return AppPaths(
        Path(platformdirs.user_data_dir(APP_SLUG, appauthor=False)),
        Path(platformdirs.user_config_dir(APP_SLUG, appauthor=False)),
        Path(platformdirs.user_log_dir(APP_SLUG, appauthor=False)),
        Path(platformdirs.user_cache_dir(APP_SLUG, appauthor=False)),
    )


def workspace_config_file(workspace: Path) -> Path:
    return workspace / ".openworker" / "config.toml"
