"""An in-memory keyring backend for tests (selected via PYTHON_KEYRING_BACKEND)."""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

_STORE: dict[tuple[str, str], str] = {}


class MemoryKeyring(KeyringBackend):
    priority = 1

    def get_password(self, service: str, username: str) -> str | None:
        return _STORE.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        _STORE[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in _STORE:
            raise PasswordDeleteError(username)
        del _STORE[(service, username)]


def clear() -> None:
    _STORE.clear()
