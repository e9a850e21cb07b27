"""Native notifications behind one small interface.

:class:`Notifier` is what the app uses: ``notify(key, title, body, actions)``
where ``actions`` are ``(action_key, label)`` pairs (e.g. ``("approve",
"Approve")``). When the user clicks the notification or one of its buttons the
notifier calls ``on_activated(key, action_key)`` on the loop thread
(``action_key`` is ``"default"`` for a plain click).

Implementations:
  * :class:`NativeNotifier` — the platform's own notifications through the
    maintained ``desktop-notifier`` library, with Approve / Deny buttons: Linux
    (``org.freedesktop.Notifications`` over D-Bus with dbus-fast, on the qasync
    loop), macOS (UNUserNotificationCenter) and Windows (WinRT toasts). When the
    platform has no notification service (no session bus, no notification
    daemon, a macOS build that is not an app bundle) ``start()`` says so and the
    app falls back; a failed notification is logged, never shown as an error.
  * :class:`TrayNotifier` — a ``QSystemTrayIcon`` balloon (anywhere else): no
    buttons, a click opens the item.
  * :class:`NullNotifier` — nowhere to show anything.
Tests use a recording double with the same interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

Activated = Callable[[str, str], None]


class Notifier(Protocol):
    on_activated: Activated | None

    def notify(self, key: str, title: str, body: str,
               actions: Sequence[tuple[str, str]] = ()) -> None: ...

    def withdraw(self, key: str) -> None: ...

    async def close(self) -> None: ...


class NullNotifier:
    def __init__(self) -> None:
        self.on_activated: Activated | None = None

    def notify(self, key: str, title: str, body: str,
               actions: Sequence[tuple[str, str]] = ()) -> None:
        return None

    def withdraw(self, key: str) -> None:
        return None

    async def close(self) -> None:
        return None


class TrayNotifier:
    """Balloon messages from the tray icon; a click activates the last one."""

    def __init__(self, tray: Any) -> None:
        self.tray = tray
        self.on_activated: Activated | None = None
        self._last = ""
        tray.messageClicked.connect(self._on_tray_message_clicked)

    def notify(self, key: str, title: str, body: str,
               actions: Sequence[tuple[str, str]] = ()) -> None:
        self._last = key
        self.tray.showMessage(title, body)

    def withdraw(self, key: str) -> None:
        return None

    def _on_tray_message_clicked(self) -> None:
        if self.on_activated is not None and self._last:
            self.on_activated(self._last, "default")

    async def close(self) -> None:
        return None


class NativeNotifier:
    """Notifications with action buttons through ``desktop-notifier`` (see module doc).

    ``notify``/``withdraw`` are synchronous in the interface, so the library's
    coroutines are scheduled on the running (qasync) loop; callbacks arrive on it.
    """

    def __init__(self, app_name: str = "OpenWorker Qt", icon: str = "") -> None:
        self.app_name = app_name
        self.icon = icon
        self.on_activated: Activated | None = None
        self._notifier: Any = None
        self._sent: dict[str, str] = {}  # our key -> the library's notification id
        # Keys withdrawn while their notification was still being sent: cleared as
        # soon as the library has its id (else it would stay on screen for good).
        self._sending: dict[str, int] = {}  # key -> sends in flight
        self._withdrawn: set[str] = set()
        self._pending: set[asyncio.Future[Any]] = set()

    async def start(self) -> bool:
        """False when the library or the platform's notification service is not there.

        The library and its platform backend (dbus-fast or the OS bindings) are
        imported on a worker thread: ~70 ms that the loop thread does not wait for.
        """
        try:
            lib = await asyncio.to_thread(_load_library)
        except ImportError as exc:
            log.info("desktop-notifier unavailable: %s", exc)
            return False
        try:
            kwargs: dict[str, Any] = {"app_name": self.app_name}
            if self.icon:
                kwargs["app_icon"] = lib.Icon(path=Path(self.icon))
            self._notifier = lib.DesktopNotifier(**kwargs)
            # Asking for the capabilities connects to the platform service, so a
            # missing one shows here rather than at the first notification. The
            # library's stand-in for unsupported platforms has none at all.
            capabilities = await asyncio.wait_for(self._notifier.get_capabilities(), 5.0)
            if not capabilities:
                log.info("native notifications unavailable: no notification service")
                await self.close()
                return False
            if not await asyncio.wait_for(self._notifier.request_authorisation(), 5.0):
                log.info("notifications are not authorised by the user")
                await self.close()
                return False
        except Exception as exc:  # no session bus, no notification daemon
            log.info("native notifications unavailable: %s", exc)
            await self.close()
            return False
        return True

    @property
    def available(self) -> bool:
        return self._notifier is not None

    def _fire(self, key: str, action: str) -> None:
        self._sent.pop(key, None)
        if self.on_activated is None:
            return
        try:
            self.on_activated(key, action)
        except Exception:  # called from the library's D-Bus signal handler
            log.exception("notification action failed")

    def _schedule(self, coro: Any) -> None:
        fut = asyncio.ensure_future(coro)
        self._pending.add(fut)
        fut.add_done_callback(self._done)

    def _done(self, fut: asyncio.Future[Any]) -> None:
        self._pending.discard(fut)
        if not fut.cancelled() and fut.exception() is not None:
            log.warning("notification failed: %s", fut.exception())

    def notify(self, key: str, title: str, body: str,
               actions: Sequence[tuple[str, str]] = ()) -> None:
        if self._notifier is None:
            return
        from desktop_notifier import Button

        def pressed(action: str) -> Callable[[], None]:
            return lambda: self._fire(key, action)

        buttons = [Button(title=label, on_pressed=pressed(action)) for action, label in actions]

        self._withdrawn.discard(key)
        earlier = self._sent.pop(key, None)  # a notification for the same key is replaced
        if earlier is not None:
            self._schedule(self._clear(earlier))
        self._sending[key] = self._sending.get(key, 0) + 1

        async def send() -> None:
            notifier = self._notifier
            try:
                ident = await notifier.send(
                    title=title, message=body, buttons=buttons,
                    on_clicked=lambda: self._fire(key, "default"),
                    on_dismissed=lambda: self._sent.pop(key, None),
                )
            finally:
                left = self._sending.get(key, 1) - 1
                if left:
                    self._sending[key] = left
                else:
                    self._sending.pop(key, None)
            if key in self._withdrawn:  # answered elsewhere while it was being sent
                if not left:
                    self._withdrawn.discard(key)
                await self._clear(ident)
            else:
                self._sent[key] = ident

        self._schedule(send())

    def withdraw(self, key: str) -> None:
        """Take the notification for ``key`` off the screen (its item was answered
        anywhere); one still being sent goes once it is up."""
        if key in self._sending:
            self._withdrawn.add(key)
        ident = self._sent.pop(key, None)
        if ident is not None and self._notifier is not None:
            self._schedule(self._clear(ident))

    async def _clear(self, ident: str) -> None:
        """Close one notification, if the platform still shows it: one the server
        closed itself (it expired) is already gone from the library's list, and
        closing it again would only fail."""
        notifier = self._notifier
        if notifier is None:
            return
        if ident not in await notifier.get_current_notifications():
            return
        await notifier.clear(ident)

    async def close(self) -> None:
        for fut in list(self._pending):
            fut.cancel()
        self._pending.clear()
        notifier, self._notifier = self._notifier, None
        # The library has no close(); its D-Bus backend (Linux) holds a connection.
        bus = getattr(getattr(notifier, "_backend", None), "bus", None)
        if bus is not None:
            with contextlib.suppress(Exception):
                bus.disconnect()
                await asyncio.wait_for(bus.wait_for_disconnect(), 2.0)


def _load_library() -> Any:
    """Import desktop-notifier and the backend it picks for this platform (worker thread)."""
    lib = importlib.import_module("desktop_notifier")
    importlib.import_module("desktop_notifier.main").get_backend_class()
    return lib
