"""Secrets (model keys, connector tokens) in the OS keyring, and only there.

Values never go to the config file, the database, logs or the model context:

* they are stored with ``keyring`` under the service ``openworker-qt``; a
  non-secret index of their *names* lets the app list them;
* every value this process knows is redacted from messages before they are
  stored or sent (the engine's ``redact`` hook) and from the log
  (:class:`RedactingFormatter` scrubs the final text of a record, tracebacks
  included), so a provider error or a tool output that echoes a key cannot leak
  it further.

Keys may also come from the environment, as every SDK reads them
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY`` or
``GOOGLE_API_KEY``, ``<NAME>_API_KEY``): :func:`get_key` looks in the keyring
first, then the environment. The keyring stays the place the app *stores* keys;
environment values are only read, and are redacted like stored ones (every
``*_API_KEY``/``*_TOKEN``/``*_SECRET`` variable counts as a known value).

When the platform has no secure backend the user is told so clearly; there is
no silent fallback to a plain-text file.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from typing import Any

SERVICE = "openworker-qt"
INDEX = "__index__"
REDACTED = "[redacted secret]"
MIN_SECRET_LENGTH = 8  # shorter values would redact ordinary words
#: Other environment variables an SDK reads for the same key (besides the entry's name).
ENV_ALIASES: dict[str, tuple[str, ...]] = {"GEMINI_API_KEY": ("GOOGLE_API_KEY",)}
#: Environment variables whose values are redacted wherever they appear.
ENV_SECRET_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET", "_SECRET_KEY", "_ACCESS_KEY")

_lock = threading.Lock()
_known: dict[str, str] = {}
_loaded = False


class SecretsUnavailable(RuntimeError):
    """No secure keyring backend is available on this system."""


def _keyring() -> Any:
    import keyring
    from keyring.backends import chainer, fail, null

    backend = keyring.get_keyring()
    # "fail" raises on use and "null" silently forgets: neither keeps a key, and a
    # chainer with nothing behind it is the same. Never fall back to a plain file.
    empty_chain = isinstance(backend, chainer.ChainerBackend) and not backend.backends
    if isinstance(backend, fail.Keyring | null.Keyring) or empty_chain:
        raise SecretsUnavailable(
            "No secure keyring is available (on Linux, install and unlock a Secret Service "
            "such as GNOME Keyring or KWallet). Keys cannot be stored until one is."
        )
    return keyring


def require() -> None:
    """Raise :class:`SecretsUnavailable` with a clear message when there is no keyring."""
    _keyring()


def available() -> bool:
    try:
        _keyring()
    except SecretsUnavailable:
        return False
    return True


def _remember(name: str, value: str | None) -> None:
    with _lock:
        if value:
            _known[name] = value
        else:
            _known.pop(name, None)


def get_secret(name: str) -> str | None:
    """The secret ``name`` or None when unset or when no keyring is available."""
    try:
        value = _keyring().get_password(SERVICE, name)
    except SecretsUnavailable:
        return None
    if value is None:
        return None
    _remember(name, str(value))
    return str(value)


def env_names(name: str) -> tuple[str, ...]:
    """The environment variables holding the key stored as ``name``, in order."""
    return (name, *ENV_ALIASES.get(name, ()))


def get_key(name: str) -> str | None:
    """A provider key: the keyring entry ``name`` first, then the environment
    (``name`` itself, then its aliases, e.g. ``GOOGLE_API_KEY`` for Gemini).

    Blocking (a keyring read): call it from a worker, never the loop thread.
    """
    value = get_secret(name)
    if value:
        return value
    for var in env_names(name):
        found = os.environ.get(var, "").strip()
        if found:
            _remember(f"env:{var}", found)
            return found
    return None


def _env_secrets() -> dict[str, str]:
    return {
        f"env:{var}": value.strip()
        for var, value in os.environ.items()
        if var.upper().endswith(ENV_SECRET_SUFFIXES) and value.strip()
    }


def list_names() -> list[str]:
    """Names of the stored secrets (never their values)."""
    try:
        raw = _keyring().get_password(SERVICE, INDEX)
    except SecretsUnavailable:
        return []
    try:
        names = json.loads(raw) if raw else []
    except ValueError:
        return []
    return sorted(str(n) for n in names) if isinstance(names, list) else []


def _write_index(names: list[str]) -> None:
    _keyring().set_password(SERVICE, INDEX, json.dumps(sorted(set(names))))


def set_secret(name: str, value: str) -> None:
    if not name or name == INDEX:
        raise ValueError(f"invalid secret name {name!r}")
    if not value or not value.strip():
        raise ValueError("refusing to store an empty secret")
    kr = _keyring()
    kr.set_password(SERVICE, name, value.strip())
    _write_index([*list_names(), name])
    _remember(name, value.strip())


def delete_secret(name: str) -> bool:
    import keyring.errors

    kr = _keyring()
    try:
        kr.delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        return False
    finally:
        _write_index([n for n in list_names() if n != name])
        _remember(name, None)
    return True


def known_values() -> list[str]:
    """Every secret value this process may have seen (loaded once from the index)."""
    global _loaded
    if not _loaded:
        _loaded = True
        for name in list_names():
            get_secret(name)
        for name, value in _env_secrets().items():
            _remember(name, value)
    with _lock:
        return [v for v in _known.values() if len(v) >= MIN_SECRET_LENGTH]


def forget_known() -> None:
    """Drop the in-process cache (tests switch keyrings between cases)."""
    global _loaded
    with _lock:
        _known.clear()
        _loaded = False


def redact(text: str) -> str:
    """``text`` with every known secret value replaced."""
    values = known_values()
    if not values or not text:
        return text
    for value in sorted(values, key=len, reverse=True):
        if value in text:
            text = text.replace(value, REDACTED)
    return text


class RedactingFormatter(logging.Formatter):
    """A formatter whose output has every known secret value scrubbed.

    It redacts the *final* text: the message, its arguments, the traceback
    (``exc_info``/``exc_text``) and ``stack_info`` alike.
    """

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))
