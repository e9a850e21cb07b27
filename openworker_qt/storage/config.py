"""Configuration in TOML: defaults ← global file ← workspace file.

The global file lives in the platform config dir, the workspace file in
``<workspace>/.openworker/config.toml``. Every known key has a default whose
type the file must match. Unknown keys are kept but reported as warnings (a
typo should not be silently ignored); a malformed file raises
:class:`ConfigError` naming the file, line and column.

Secrets never live here (see ``secrets.py``).
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openworker_qt.storage.paths import app_paths, workspace_config_file

DEFAULTS: dict[str, Any] = {
    "general": {
        "default_model": "",
        "persona": "cowork",
        "max_iterations": 25,
        "language": "",
    },
    "permissions": {
        "mode": "interactive",
        "writable_roots": [],
        "shell_allowlist": [],
        "auto_allow": [],
        "risk_overrides": {},
    },
    "providers": {},
    "ui": {
        "theme": "system",
        "quick_ask_hotkey": "Ctrl+Alt+Space",
        "voice_hotkey": "Ctrl+Alt+V",
        "notifications": True,
    },
    "automation": {
        "tick_seconds": 30,
        "paused": False,
    },
    "memory": {
        "enabled": True,
    },
    "voice": {
        "model": "",  # a ggml whisper model file; "" = <data dir>/models/ggml-*.bin
        "language": "en",
    },
}

# Tables whose keys are free-form (names chosen by the user).
OPEN_TABLES = frozenset({"providers", "permissions.risk_overrides"})


class ConfigError(ValueError):
    """A config file cannot be used; the message names the file and the place."""


@dataclass(slots=True)
class Config:
    data: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node


def _check(
    data: Mapping[str, Any], defaults: Mapping[str, Any], path: Path, prefix: str,
    warnings: list[str],
) -> None:
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if prefix.rstrip(".") in OPEN_TABLES:
            continue
        if key not in defaults:
            warnings.append(f"{path}: unknown setting '{dotted}' (ignored)")
            continue
        expected = defaults[key]
        if isinstance(expected, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: '{dotted}' must be a table")
            _check(value, expected, path, dotted + ".", warnings)
        elif isinstance(expected, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: '{dotted}' must be true or false, got {value!r}")
        elif isinstance(expected, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{path}: '{dotted}' must be an integer, got {value!r}")
        elif isinstance(expected, str):
            if not isinstance(value, str):
                raise ConfigError(f"{path}: '{dotted}' must be a string, got {value!r}")
        elif isinstance(expected, list) and not isinstance(value, list):
            raise ConfigError(f"{path}: '{dotted}' must be a list, got {value!r}")


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> None:
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse one TOML file; a missing file is empty, a malformed one a ConfigError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc})") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def load_config(workspace: Path | None = None, *, global_file: Path | None = None) -> Config:
    """Defaults, then the global file, then the workspace file (if any)."""
    gfile = global_file or app_paths().config_file
    data = copy.deepcopy(DEFAULTS)
    warnings: list[str] = []
    sources: list[Path] = []
    files = [gfile]
    if workspace is not None:
        files.append(workspace_config_file(workspace))
    for path in files:
        raw = read_toml(path)
        if not raw:
            continue
        _check(raw, DEFAULTS, path, "", warnings)
        _merge(data, raw)
        sources.append(path)
    return Config(data, warnings, sources)


def update_global(updates: Mapping[str, Any], *, global_file: Path | None = None) -> None:
    """Merge ``updates`` into the global file (written atomically).

    The file is edited as a document (tomlkit), not re-serialised from a dict:
    the user's comments, blank lines and key order survive; only the changed
    values are rewritten. A file that cannot be parsed is left untouched.
    """
    import tomlkit

    gfile = global_file or app_paths().config_file
    _check(updates, DEFAULTS, gfile, "", [])
    document = _read_document(gfile)
    _merge_into_document(document, updates)
    gfile.parent.mkdir(parents=True, exist_ok=True)
    tmp = gfile.with_suffix(".toml.tmp")
    tmp.write_text(tomlkit.dumps(document), encoding="utf-8")
    tmp.replace(gfile)


def warm_up_writer() -> None:
    """Import the writer (tomlkit, ~27 ms) on a worker thread, so the first setting
    saved from a settings surface does not wait for it on the GUI thread."""
    import importlib
    import threading

    threading.Thread(target=importlib.import_module, args=("tomlkit",),
                     name="config-writer-warm-up", daemon=True).start()


def _read_document(path: Path) -> Any:
    """The global file as a style-preserving tomlkit document (empty when missing)."""
    import tomlkit
    from tomlkit.exceptions import ParseError

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return tomlkit.document()
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc})") from exc
    try:
        return tomlkit.parse(text)
    except ParseError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def _merge_into_document(node: Any, updates: Mapping[str, Any]) -> None:
    """Tables merge key by key; any other value (lists too) replaces the old one."""
    for key, value in updates.items():
        current = node.get(key)
        if isinstance(value, Mapping) and isinstance(current, MutableMapping):
            _merge_into_document(current, value)
        elif isinstance(value, Mapping) and current is None:
            import tomlkit

            table = tomlkit.item(copy.deepcopy(dict(value)))
            table.add(tomlkit.nl())  # a new table keeps a blank line before the next one
            node[key] = table
        else:
            node[key] = copy.deepcopy(value)
