"""Secrets (model keys, connector tokens) in the OS keyring, and only there.

Values never go to the config file, the database, logs or the model context.
When the platform has no secure backend the user is told so clearly; there is
no silent fallback to a plain-text file.
"""

from __future__ import annotations

from typing import Any

SERVICE = "openworker-qt"


class SecretsUnavailable(RuntimeError):
    """No secure keyring backend is available on this system."""


def _keyring() -> Any:
    import keyring
    from keyring.backends import fail

    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring):
        raise SecretsUnavailable(
            "No secure keyring is available (on Linux, install and unlock a Secret Service "
            "such as GNOME Keyring or KWallet). Keys cannot be stored until one is."
        )
    return keyring


def get_secret(name: str) -> str | None:
    """The secret ``name`` or None when unset or when no keyring is available."""
    try:
        value = _keyring().get_password(SERVICE, name)
    except SecretsUnavailable:
        return None
    return str(value) if value is not None else None


def set_secret(name: str, value: str) -> None:
    if not value:
        raise ValueError("refusing to store an empty secret")
    _keyring().set_password(SERVICE, name, value)


def delete_secret(name: str) -> bool:
    import keyring.errors

    try:
        _keyring().delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        return False
    return True
