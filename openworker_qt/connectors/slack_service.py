"""The Slack listener follows the connector: connected, it listens; disconnected, it stops.

:class:`SlackService` is the Runtime ``LifecycleService`` the app and ``serve``
register for Slack, whether or not Slack is connected at launch. It keeps one
:class:`~.slack_listener.SlackListener` running exactly while the Slack
connector is connected:

* connecting (or reconnecting with other tokens) in Settings starts it, or
  restarts it on the new tokens, at once — the registry tells the service;
* disconnecting stops it;
* a change made by another process (``openworker-qt connectors connect slack``
  while the app runs) is noticed by a cheap look at the connector's row (in a
  worker) every :attr:`SlackService.poll` seconds; the tokens themselves are
  read from the keyring in a worker, only when that row changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from openworker_qt.connectors.registry import ConnectorRegistry
from openworker_qt.connectors.slack_listener import SlackListener
from openworker_qt.core.inbox import Inbox
from openworker_qt.core.sessions import SessionManager
from openworker_qt.storage.db import Database

log = logging.getLogger(__name__)

SLACK = "slack"


class SlackService:
    """See module docstring."""

    name = "slack"

    def __init__(
        self,
        manager: SessionManager,
        inbox: Inbox,
        db: Database,
        connectors: ConnectorRegistry,
        *,
        workspace: str | Path = "",
        poll: float = 3.0,
        listener_factory: Callable[..., SlackListener] = SlackListener,
        **listener_options: Any,
    ) -> None:
        self.manager = manager
        self.inbox = inbox
        self.db = db
        self.connectors = connectors
        self.workspace = workspace
        self.poll = poll
        self._factory = listener_factory
        self._options = listener_options
        self.listener: SlackListener | None = None
        self._values: Mapping[str, str] | None = None  # those the listener runs on
        self._seen: tuple[Any, ...] | None = None  # the connector's row last looked at
        self._lock = asyncio.Lock()
        self._poller: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._running = False

    @property
    def listening(self) -> bool:
        return self.listener is not None

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        self._running = True
        self.connectors.listeners.append(self._on_change)
        if self.poll > 0:
            self._poller = asyncio.ensure_future(self._watch())
        # A failure here (Slack unreachable, a revoked token) is logged and the
        # service stays: connecting again in Settings starts the listener.
        await self._refresh_logged()

    async def stop(self) -> None:
        self._running = False
        with contextlib.suppress(ValueError):
            self.connectors.listeners.remove(self._on_change)
        for task in [self._poller, *self._tasks]:
            if task is not None:
                task.cancel()
        self._poller = None
        async with self._lock:
            await self._stop_listener()

    # -------------------------------------------------------------- changes

    def _on_change(self, connector: str) -> None:
        if connector != SLACK or not self._running:
            return
        task = asyncio.ensure_future(self._refresh_logged())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh_logged(self) -> None:
        try:
            await self.refresh()
        except Exception:
            log.exception("starting or stopping the Slack listener failed")

    async def _watch(self) -> None:
        while self._running:
            await asyncio.sleep(self.poll)
            try:  # a look at one row, in a worker: the loop never waits on the disk
                row = await asyncio.to_thread(self._row)
            except Exception:
                log.exception("reading Slack's connector state failed")
                continue
            if row != self._seen:
                await self._refresh_logged()

    def _row(self) -> tuple[Any, ...]:
        state = self.connectors.state(SLACK)
        return (state.status, state.checked_at, tuple(sorted((state.settings or {}).items())))

    async def refresh(self) -> None:
        """Start, restart or stop the listener as the connector's state asks."""
        async with self._lock:
            if not self._running:
                return
            self._seen = await asyncio.to_thread(self._row)
            if self._seen[0] != "connected":
                await self._stop_listener()
                return
            values = await asyncio.to_thread(self.connectors.values, SLACK)
            if self.listener is not None and values == self._values:
                return  # tested again, same tokens: keep listening
            await self._stop_listener()
            listener = self._factory(
                self.manager, self.inbox, self.db, workspace=self.workspace,
                values=lambda: values, policy=self.connectors.policy, **self._options)
            self.listener, self._values = listener, values
            try:
                await listener.start()
            except BaseException:
                self.listener, self._values = None, None
                with contextlib.suppress(Exception):
                    await listener.stop()
                raise

    async def _stop_listener(self) -> None:
        listener, self.listener, self._values = self.listener, None, None
        if listener is not None:
            await listener.stop()
