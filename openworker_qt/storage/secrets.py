"""Secrets (model keys, connector tokens) in the OS keyring, and only there.

Values never go to the config file, the database, logs or the model context:

* they are stored with ``keyring`` under the service ``openworker-qt``; a
  non-secret index of their *names* lets the app list them;
* every value this process knows is redacted from messages before they are
  stored or sent (the engine's ``redact`` hook) and from the log
  (:class:`RedactingFormatter` scrubs the final text of a record, tracebacks
  included), so a provider error or a tool output that echoes a key cannot leak
  it further. Every character covered by an occurrence of a known value is
  hidden, overlapping values included.

Loading the known values (:func:`load_known`) imports ``keyring`` and reads every
stored secret: blocking, so a worker does it (``Runtime.warm``, the session
manager before a turn: :func:`ensure_loaded`); :func:`redact` then only scans the
text against the values in memory (kept sorted, re-built only when the set
changes), so the loop thread never waits on the keyring.

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

import asyncio
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
_load_lock = threading.Lock()  # one load at a time; the others wait for it
_loader: int | None = None  # the thread loading now (a log record it emits re-enters)
_known: dict[str, str] = {}
_loaded = False
_generation = 0  # bumped by forget_known(): a load begun before it is discarded
_values: tuple[str, ...] = ()  # the known values worth redacting, longest first


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
            if _known.get(name) == value:
                return
            _known[name] = value
        elif _known.pop(name, None) is None:
            return
        _rebuild()


def _rebuild() -> None:
    """Re-sort the values to redact (with ``_lock`` held): once per change of the set."""
    global _values
    _values = tuple(sorted(
        {v for v in _known.values() if len(v) >= MIN_SECRET_LENGTH}, key=len, reverse=True
    ))


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


def is_loaded() -> bool:
    """Whether the known values were loaded (:func:`redact` will not block)."""
    return _loaded


def load_known() -> None:
    """Load every stored secret (through the index) and the environment's keys, once.

    Blocking (the keyring's import and reads): call it from a worker. Concurrent
    callers wait for the one load; the values count only once all are in.
    """
    global _loaded, _loader
    if _loaded or _loader == threading.get_ident():
        return  # loaded, or the load itself logged something: what is known so far
    generation = _generation  # a load asked for before forget_known() does nothing
    with _load_lock:
        if _loaded or generation != _generation:
            return
        _loader = threading.get_ident()
        try:
            found: dict[str, str] = {}
            for name in list_names():
                try:
                    value = _keyring().get_password(SERVICE, name)
                except SecretsUnavailable:
                    break
                if value:
                    found[name] = str(value)
            found.update(_env_secrets())
            with _lock:
                if generation != _generation:  # forgotten meanwhile: a stale keyring's
                    return
                for name, value in found.items():
                    _known.setdefault(name, value)  # one remembered meanwhile is newer
                _rebuild()
                _loaded = True
        finally:
            _loader = None


async def ensure_loaded() -> None:
    """:func:`load_known` in a worker unless it already ran; then only the environment
    is looked at again (in memory: a key set there since counts from now on)."""
    if not _loaded:
        await asyncio.to_thread(load_known)
        return
    for name, value in _env_secrets().items():
        if _known.get(name) != value:
            _remember(name, value)


def known_values() -> list[str]:
    """Every secret value this process may have seen (loaded once from the index).
    Blocking the first time (see :func:`load_known`)."""
    load_known()
    return list(_values)


def forget_known() -> None:
    """Drop the in-process cache (tests switch keyrings between cases)."""
    global _loaded, _generation
    with _lock:
        _known.clear()
        _rebuild()
        _loaded = False
        _generation += 1


def redact(text: str) -> str:
    """``text`` with every character covered by a known secret value hidden.

    Quick once :func:`load_known` ran: each known value is looked up in the text
    (most texts hold none). Before that it loads them first (blocking): the
    session manager loads them in a worker before a turn writes anything.
    """
    if not text:
        return text
    if not _loaded:
        load_known()
    values = _values
    hits = [v for v in values if v in text]
    if not hits:
        return text
    return _hide(text, hits)


def _hide(text: str, values: list[str]) -> str:
    """Replace the union of every occurrence of ``values`` (overlapping ones too, so
    two secrets that overlap in the text are both hidden whole) by :data:`REDACTED`."""
    spans: list[tuple[int, int]] = []
    for value in values:
        start = text.find(value)
        while start != -1:
            spans.append((start, start + len(value)))
            start = text.find(value, start + 1)
    spans.sort()
    out: list[str] = []
    pos = 0
    cur_start, cur_end = spans[0]
    for start, end in spans[1:]:
        if start < cur_end:  # overlaps the current span: one hidden stretch
            cur_end = max(cur_end, end)
            continue
        out += [text[pos:cur_start], REDACTED]
        pos = cur_end
        cur_start, cur_end = start, end
    out += [text[pos:cur_start], REDACTED, text[cur_end:]]
    return "".join(out)


class RedactingFormatter(logging.Formatter):
    """A formatter whose output has every known secret value scrubbed.

    It redacts the *final* text: the message, its arguments, the traceback
    (``exc_info``/``exc_text``) and ``stack_info`` alike.
    """

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))
