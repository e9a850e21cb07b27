"""The desktop-notifier adapter (the app's notifier on Linux, macOS and Windows).

Here the library's Linux backend talks to a real private session bus and a small
fake org.freedesktop.Notifications server, so the adapter's whole path — send
with buttons, the user pressing one, the callback naming our action, withdrawing —
runs for real; on macOS and Windows the same adapter drives the native centres.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator

import pytest

from openworker_qt.qt.notifications import NativeNotifier


@pytest.fixture
def session_bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, text=True)
    try:
        assert bus.stdout is not None
        address = bus.stdout.readline().strip()
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield address
    finally:
        bus.terminate()
        bus.communicate(timeout=5)  # reads and closes its stdout


INTROSPECTION = """<node>
 <interface name="org.freedesktop.Notifications">
  <method name="GetCapabilities"><arg direction="out" type="as"/></method>
  <method name="Notify">
   <arg direction="in" type="s" name="app_name"/><arg direction="in" type="u" name="replaces_id"/>
   <arg direction="in" type="s" name="app_icon"/><arg direction="in" type="s" name="summary"/>
   <arg direction="in" type="s" name="body"/><arg direction="in" type="as" name="actions"/>
   <arg direction="in" type="a{sv}" name="hints"/><arg direction="in" type="i" name="expire_timeout"/>
   <arg direction="out" type="u"/>
  </method>
  <method name="CloseNotification"><arg direction="in" type="u" name="id"/></method>
  <method name="GetServerInformation">
   <arg direction="out" type="s"/><arg direction="out" type="s"/>
   <arg direction="out" type="s"/><arg direction="out" type="s"/>
  </method>
  <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
  <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
 </interface>
</node>"""


async def serve_notifications(ready: asyncio.Future[None], calls: list[tuple], closed: list[int],
                  press: str, *, reply_after: float = 0.0, expire: bool = False) -> None:
    """Answers Notify (``reply_after`` seconds late: a busy daemon), then 'presses' the
    button labelled ``press``; with ``expire`` the bubble times out at once (the
    server says it closed, reason 1)."""
    from jeepney import DBusAddress, MatchRule, new_method_return, new_signal
    from jeepney.bus_messages import message_bus
    from jeepney.io.asyncio import Proxy, open_dbus_router

    emitter = DBusAddress("/org/freedesktop/Notifications", interface="org.freedesktop.Notifications")
    async with open_dbus_router(bus="SESSION") as router:
        await Proxy(message_bus, router).RequestName("org.freedesktop.Notifications", 0)
        rule = MatchRule(type="method_call", path="/org/freedesktop/Notifications")
        with router.filter(rule, bufsize=20) as queue:
            ready.set_result(None)
            serial = 0
            while True:
                msg = await queue.get()
                member = msg.header.fields[3]
                if member == "Introspect":
                    await router.send(new_method_return(msg, "s", (INTROSPECTION,)))
                elif member == "GetCapabilities":
                    await router.send(new_method_return(msg, "as", (["actions", "body"],)))
                elif member == "GetServerInformation":
                    await router.send(new_method_return(msg, "ssss", ("fake", "test", "1", "1.2")))
                elif member == "Notify":
                    calls.append(msg.body)
                    serial += 1
                    if reply_after:
                        await asyncio.sleep(reply_after)
                    await router.send(new_method_return(msg, "u", (serial,)))
                    if expire:
                        await asyncio.sleep(0.2)  # (a real daemon's timeout is seconds)
                        await router.send(new_signal(emitter, "NotificationClosed", "uu", (serial, 1)))
                    actions = list(msg.body[5])
                    pairs = dict(zip(actions[1::2], actions[0::2], strict=False))
                    if press in pairs:
                        # a person clicks after the bubble is up, not in the same instant
                        await asyncio.sleep(0.2)
                        await router.send(new_signal(emitter, "ActionInvoked", "us", (serial, pairs[press])))
                elif member == "CloseNotification":
                    closed.append(int(msg.body[0]))
                    await router.send(new_method_return(msg))
                else:
                    await router.send(new_method_return(msg))


async def test_native_notifier_buttons_reach_our_actions(session_bus: str) -> None:
    calls: list[tuple] = []
    closed: list[int] = []
    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    server = asyncio.ensure_future(serve_notifications(ready, calls, closed, press="Deny"))
    await asyncio.wait_for(ready, 5)
    notifier = NativeNotifier()
    got: asyncio.Future[tuple[str, str]] = asyncio.get_running_loop().create_future()
    notifier.on_activated = lambda key, action: got.done() or got.set_result((key, action))
    try:
        assert await notifier.start()
        notifier.notify("inbox:7", "Approval needed: send_message", "#ops · hello",
                        [("approve", "Approve"), ("deny", "Deny")])
        assert await asyncio.wait_for(got, 10) == ("inbox:7", "deny")
        app, _replaces, _icon, summary, body, actions, _hints, _timeout = calls[0]
        assert (app, summary, body) == ("OpenWorker Qt", "Approval needed: send_message", "#ops · hello")
        assert [label for label in actions[1::2] if label in ("Approve", "Deny")] == ["Approve", "Deny"]
    finally:
        await notifier.close()
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


async def test_withdraw_closes_the_bubble(session_bus: str) -> None:
    calls: list[tuple] = []
    closed: list[int] = []
    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    server = asyncio.ensure_future(serve_notifications(ready, calls, closed, press="(nothing)"))
    await asyncio.wait_for(ready, 5)
    notifier = NativeNotifier()
    try:
        assert await notifier.start()
        notifier.notify("inbox:8", "Run finished", "weekly report", [])
        for _ in range(100):
            if notifier._sent:
                break
            await asyncio.sleep(0.02)
        notifier.withdraw("inbox:8")
        for _ in range(100):
            if closed:
                break
            await asyncio.sleep(0.02)
        assert closed == [1]
    finally:
        await notifier.close()
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


async def test_no_notification_daemon_on_the_bus_means_unavailable(session_bus: str) -> None:
    notifier = NativeNotifier()
    assert await notifier.start() is False  # the bus answers, nobody owns the name
    assert not notifier.available
    notifier.notify("k", "t", "b")  # harmless when unavailable
    await notifier.close()


async def test_no_session_bus_means_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
    notifier = NativeNotifier()
    assert await notifier.start() is False
    notifier.notify("k", "t", "b")  # harmless when unavailable
    await notifier.close()


async def _wait(predicate, what: str) -> None:
    for _ in range(250):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def test_withdrawn_while_being_sent_is_closed_once_up(session_bus: str) -> None:
    """Answered elsewhere before the daemon had even answered Notify: the bubble
    is closed as soon as it has an id, instead of staying on screen for good."""
    calls: list[tuple] = []
    closed: list[int] = []
    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    server = asyncio.ensure_future(
        serve_notifications(ready, calls, closed, press="(nothing)", reply_after=0.3))
    await asyncio.wait_for(ready, 5)
    notifier = NativeNotifier()
    try:
        assert await notifier.start()
        notifier.notify("inbox:9", "Approval needed", "write", [("approve", "Approve")])
        await _wait(lambda: calls, "the Notify call")
        assert not notifier._sent
        notifier.withdraw("inbox:9")
        await _wait(lambda: closed, "the bubble closed")
        assert closed == [1]
        assert not notifier._sent
    finally:
        await notifier.close()
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


async def test_withdrawing_an_expired_bubble_logs_no_failure(
        session_bus: str, caplog) -> None:
    calls: list[tuple] = []
    closed: list[int] = []
    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    server = asyncio.ensure_future(
        serve_notifications(ready, calls, closed, press="(nothing)", expire=True))
    await asyncio.wait_for(ready, 5)
    notifier = NativeNotifier()
    try:
        assert await notifier.start()
        notifier.notify("inbox:10", "Approval needed", "write", [])
        await _wait(lambda: notifier._sent, "the id")
        lib = notifier._notifier
        await _wait(lambda: not lib._backend._notification_cache, "the expiry")
        with caplog.at_level("WARNING", logger="openworker_qt.qt.notifications"):
            notifier.withdraw("inbox:10")
            await asyncio.gather(*notifier._pending)
        assert "notification failed" not in caplog.text
        assert closed == []  # nothing left to close
    finally:
        await notifier.close()
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)
