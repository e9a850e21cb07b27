"""Native notifications behind one small interface.

:class:`Notifier` is what the app uses: ``notify(key, title, body, actions)``
where ``actions`` are ``(action_key, label)`` pairs (e.g. ``("approve",
"Approve")``). When the user clicks the notification or one of its buttons the
notifier calls ``on_activated(key, action_key)`` on the loop thread
(``action_key`` is ``"default"`` for a plain click).

Implementations:
  * :class:`FreedesktopNotifier` — Linux, the ``org.freedesktop.Notifications``
    D-Bus interface through jeepney's asyncio router (it runs on the qasync
    loop, nothing blocks); actions become buttons where the server supports them.
  * :class:`NativeNotifier` — macOS (UNUserNotificationCenter) and Windows
    (WinRT toasts) through the maintained ``desktop-notifier`` library, with
    Approve / Deny buttons. The same library speaks the freedesktop interface on
    Linux, which is how this adapter is tested here.
  * :class:`TrayNotifier` — a ``QSystemTrayIcon`` balloon (anywhere else): no
    buttons, a click opens the item.
  * :class:`NullNotifier` — nowhere to show anything.
Tests use a recording double with the same interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

Activated = Callable[[str, str], None]
NOTIFY_PATH = "/org/freedesktop/Notifications"
NOTIFY_NAME = "org.freedesktop.Notifications"


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
        self._pending: set[asyncio.Future[Any]] = set()

    async def start(self) -> bool:
        """False when the library or the platform service is not available."""
        try:
            from desktop_notifier import DesktopNotifier, Icon
        except ImportError as exc:
            log.info("desktop-notifier unavailable: %s", exc)
            return False
        try:
            kwargs: dict[str, Any] = {"app_name": self.app_name}
            if self.icon:
                kwargs["app_icon"] = Icon(path=Path(self.icon))
            self._notifier = DesktopNotifier(**kwargs)
            # Asking for the capabilities connects to the platform service, so a
            # missing one shows here rather than at the first notification.
            await asyncio.wait_for(self._notifier.get_capabilities(), 5.0)
            if not await asyncio.wait_for(self._notifier.request_authorisation(), 5.0):
                log.info("notifications are not authorised by the user")
                await self.close()
                return False
        except Exception as exc:  # no service behind the library
            log.info("native notifications unavailable: %s", exc)
            await self.close()
            return False
        return True

    @property
    def available(self) -> bool:
        return self._notifier is not None

    def _fire(self, key: str, action: str) -> None:
        self._sent.pop(key, None)
        if self.on_activated is not None:
            self.on_activated(key, action)

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

        async def send() -> None:
            ident = await self._notifier.send(
                title=title, message=body, buttons=buttons,
                on_clicked=lambda: self._fire(key, "default"),
                on_dismissed=lambda: self._sent.pop(key, None),
            )
            self._sent[key] = ident

        self._schedule(send())

    def withdraw(self, key: str) -> None:
        ident = self._sent.pop(key, None)
        if ident is not None and self._notifier is not None:
            self._schedule(self._notifier.clear(ident))

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


class FreedesktopNotifier:
    """org.freedesktop.Notifications over the session bus (see module docstring)."""

    def __init__(self, app_name: str = "OpenWorker Qt", icon: str = "") -> None:
        self.app_name = app_name
        self.icon = icon
        self.on_activated: Activated | None = None
        self._router: Any = None
        self._ctx: Any = None
        self._ids: dict[int, str] = {}  # server id -> our key
        self._by_key: dict[str, int] = {}
        self._early: dict[int, str] = {}
        self._listener: asyncio.Task[None] | None = None
        self._ready: asyncio.Future[bool] | None = None
        self.capabilities: list[str] = []

    async def start(self) -> bool:
        """Connect to the session bus; False when there is none or no server."""
        from jeepney import DBusAddress, MatchRule, new_method_call
        from jeepney.bus_messages import message_bus
        from jeepney.io.asyncio import Proxy, open_dbus_router

        try:
            self._ctx = open_dbus_router(bus="SESSION")
            self._router = await self._ctx.__aenter__()
            addr = DBusAddress(NOTIFY_PATH, bus_name=NOTIFY_NAME, interface=NOTIFY_NAME)
            reply = await asyncio.wait_for(
                self._router.send_and_get_reply(new_method_call(addr, "GetCapabilities")), 2.0)
            self.capabilities = list(reply.body[0]) if reply.body else []
            bus = Proxy(message_bus, self._router)
            for member in ("ActionInvoked", "NotificationClosed"):
                rule = MatchRule(type="signal", interface=NOTIFY_NAME, member=member, path=NOTIFY_PATH)
                await bus.AddMatch(rule)
        except Exception as exc:  # no bus, no server, or a server that does not answer
            log.info("freedesktop notifications unavailable: %s", exc)
            await self.close()
            return False
        self._listener = asyncio.ensure_future(self._listen())
        return True

    @property
    def available(self) -> bool:
        return self._router is not None

    async def _listen(self) -> None:
        from jeepney import MatchRule

        rule = MatchRule(type="signal", interface=NOTIFY_NAME, path=NOTIFY_PATH)
        with self._router.filter(rule, bufsize=100) as queue:
            while True:
                msg = await queue.get()
                member = msg.header.fields.get(_member_field())
                if member == "ActionInvoked":
                    nid, action = int(msg.body[0]), str(msg.body[1])
                    if nid in self._ids:
                        self._dispatch(self._ids[nid], action)
                    else:  # the click overtook Notify's reply: apply it once we know the id
                        self._early[nid] = action
                elif member == "NotificationClosed":
                    key = self._ids.pop(int(msg.body[0]), None)
                    if key is not None:
                        self._by_key.pop(key, None)

    def _dispatch(self, key: str, action: str) -> None:
        if self.on_activated is None:
            return
        try:
            self.on_activated(key, action)
        except Exception:
            log.exception("notification action failed")

    def notify(self, key: str, title: str, body: str,
               actions: Sequence[tuple[str, str]] = ()) -> None:
        if self._router is None:
            return
        asyncio.ensure_future(self._notify(key, title, body, actions))

    async def _notify(self, key: str, title: str, body: str,
                      actions: Sequence[tuple[str, str]]) -> None:
        from jeepney import DBusAddress, new_method_call

        flat = ["default", ""]
        if "actions" in self.capabilities or not self.capabilities:
            for action_key, label in actions:
                flat += [action_key, label]
        addr = DBusAddress(NOTIFY_PATH, bus_name=NOTIFY_NAME, interface=NOTIFY_NAME)
        replaces = self._by_key.get(key, 0)
        msg = new_method_call(addr, "Notify", "susssasa{sv}i",
                              (self.app_name, replaces, self.icon, title, body, flat, {}, -1))
        try:
            reply = await asyncio.wait_for(self._router.send_and_get_reply(msg), 2.0)
        except Exception as exc:
            log.warning("notification failed: %s", exc)
            return
        nid = int(reply.body[0])
        self._ids[nid] = key
        self._by_key[key] = nid
        if nid in self._early:
            self._dispatch(key, self._early.pop(nid))

    def withdraw(self, key: str) -> None:
        nid = self._by_key.pop(key, None)
        if nid is None or self._router is None:
            return
        self._ids.pop(nid, None)
        from jeepney import DBusAddress, new_method_call

        addr = DBusAddress(NOTIFY_PATH, bus_name=NOTIFY_NAME, interface=NOTIFY_NAME)
        asyncio.ensure_future(self._send_quietly(new_method_call(addr, "CloseNotification", "u", (nid,))))

    async def _send_quietly(self, msg: Any) -> None:
        with contextlib.suppress(Exception):
            await self._router.send(msg)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
            self._listener = None
        if self._ctx is not None:
            with contextlib.suppress(Exception):
                await self._ctx.__aexit__(None, None, None)
        self._ctx = None
        self._router = None


def _member_field() -> Any:
    from jeepney.low_level import HeaderFields

    return HeaderFields.member
