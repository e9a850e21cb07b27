"""The wider "always" answers of every session of a process, in one place.

A shell command's prefix ("always allow “grep” commands": each command still
checked as an allowlisted one) and a folder a session's writes may go to ("always
allow changes in acme") last as long as the session's engine, at most until the
app quits. Every session's :class:`~openworker_qt.core.grants.Grants` keeps them
here (the runtime's standing-rule store carries one :class:`WiderGrants`), so
Settings can list what is allowed and take it back: a revoked grant is gone
for the next call, which asks again.

Thread-safe: decisions may be made in worker threads while the window lists.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Kind = Literal["prefix", "folder"]


@dataclass(frozen=True)
class WiderGrant:
    """One wider answer: ``kind`` "prefix" (``value`` a command prefix) or
    "folder" (``value`` a folder's absolute path), for ``session_id``."""

    session_id: str
    kind: Kind
    value: str
    granted_at: float


class WiderGrants:
    """See module docstring. :meth:`subscribe` a listener to hear of every change
    (called on the thread that made it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._grants: dict[tuple[str, Kind, str], WiderGrant] = {}
        self._listeners: list[Callable[[], None]] = []

    def add(self, session_id: str, kind: Kind, value: str) -> None:
        key = (session_id, kind, value)
        with self._lock:
            if key in self._grants:
                return
            self._grants[key] = WiderGrant(session_id, kind, value, time.time())
        self._changed()

    def values(self, session_id: str, kind: Kind) -> tuple[str, ...]:
        with self._lock:
            return tuple(sorted(g.value for (sid, k, _v), g in self._grants.items()
                                if sid == session_id and k == kind))

    def prefixes(self, session_id: str) -> tuple[str, ...]:
        return self.values(session_id, "prefix")

    def folders(self, session_id: str) -> list[Path]:
        return [Path(v) for v in self.values(session_id, "folder")]

    def all(self) -> list[WiderGrant]:
        """Every grant in force, oldest first."""
        with self._lock:
            return sorted(self._grants.values(), key=lambda g: g.granted_at)

    def revoke(self, grant: WiderGrant) -> bool:
        """Take ``grant`` back (the next call it covered asks again); False if it
        was not in force."""
        with self._lock:
            gone = self._grants.pop((grant.session_id, grant.kind, grant.value), None)
        if gone is not None:
            self._changed()
        return gone is not None

    def forget(self, session_id: str) -> None:
        """The session is closed or deleted: its wider answers end with it."""
        with self._lock:
            keys = [k for k in self._grants if k[0] == session_id]
            for key in keys:
                del self._grants[key]
        if keys:
            self._changed()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after every change; returns the unsubscribe."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener()
