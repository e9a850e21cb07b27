"""The session managers of one process, and the listeners that follow all of them.

A process drives turns through several :class:`~openworker_qt.core.sessions.SessionManager`
instances — the window's, the scheduled automations', the team runner's, the Slack
listener's — each with the surface's policy (who answers an approval). What the user
sees does not depend on which of them drives a session: the window streams a team
worker's answer or a scheduled run as it streams its own, the machine stays awake
while any turn runs. :class:`Peers` is the one list of those managers (the runtime's
``managers``) and the one place to follow every event any of them publishes, whether
the manager was built before or after the listener came: :meth:`Peers.watch`.

Each event reaches a watcher once: a turn's events come from the manager driving it,
and a :class:`~openworker_qt.core.events.RunningChanged` (which every peer's own
listeners hear) is told to the watchers once per change of the process's answer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from openworker_qt.core import events as ev

log = logging.getLogger(__name__)

Listener = Callable[[ev.Event], None]

__all__ = ["Peers"]


class Peers(list[Any]):
    """The managers of a process (a list of ``SessionManager``: typed loosely, as
    ``core/sessions.py`` imports this module) and the listeners of all of them."""

    def __init__(self, managers: Any = ()) -> None:
        super().__init__(managers)
        self.watchers: list[Listener] = []

    def watch(self, listener: Listener) -> None:
        """Hear every event of every manager of the process, once (see module docstring)."""
        if listener not in self.watchers:
            self.watchers.append(listener)

    def unwatch(self, listener: Listener) -> None:
        if listener in self.watchers:
            self.watchers.remove(listener)

    def publish(self, event: ev.Event) -> None:
        for listener in list(self.watchers):
            try:
                listener(event)
            except Exception:  # a broken surface must not break the turn
                log.exception("process-wide session listener failed on %s", event.type)
