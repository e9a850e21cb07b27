"""A keyring backend for the benchmarks: a JSON file named by ``OW_BENCH_KEYRING``.

A stand-in for a desktop Secret Service that answers at once, so a fresh
benchmark process finds the keys an earlier one stored (the tests' in-memory
backend forgets them with the process). Never used by the app.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


def _file() -> Path:
    return Path(os.environ["OW_BENCH_KEYRING"])


def _load() -> dict[str, str]:
    try:
        return dict(json.loads(_file().read_text()))
    except FileNotFoundError:
        return {}


class FileKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        return _load().get(f"{service}\0{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = _load()
        data[f"{service}\0{username}"] = password
        _file().write_text(json.dumps(data))

    def delete_password(self, service: str, username: str) -> None:
        data = _load()
        if data.pop(f"{service}\0{username}", None) is None:
            raise PasswordDeleteError(username)
        _file().write_text(json.dumps(data))
