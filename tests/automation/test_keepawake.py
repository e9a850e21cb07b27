"""Keep-awake: reference counting, the real adapters (our logind one, and wakepy's
desktop methods) against fake services on a private D-Bus, and the wiring to the
turn events."""

from __future__ import annotations

import asyncio
import logging
import os
import select
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.automation.keepawake import (
    FirstAvailable,
    InhibitError,
    KeepAwake,
    LogindInhibitor,
    WakepyInhibitor,
    platform_inhibitor,
)
from openworker_qt.core import events as ev
from openworker_qt.core.sessions import SessionManager
from openworker_qt.core.tool_api import ToolRegistry
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from tests.core.helpers import StaticResolver
from tests.ui.conftest import make_desktop, run, until  # noqa: F401  (make_desktop: a fixture)


class RecordingInhibitor:
    name = "recording"

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[str] = []
        self.fail = fail

    def acquire(self, why: str) -> None:
        self.calls.append("acquire")
        if self.fail:
            raise InhibitError("nothing to inhibit with")

    def release(self) -> None:
        self.calls.append("release")


# ------------------------------------------------------------ reference count


def test_refcount_engages_once_and_releases_when_idle() -> None:
    inhibitor = RecordingInhibitor()
    awake = KeepAwake(inhibitor)
    try:
        awake.acquire("session:a")
        awake.acquire("session:a")  # idempotent per key
        awake.acquire("session:b")
        assert awake.wait_idle()
        assert inhibitor.calls == ["acquire"] and awake.active
        assert awake.status == "Keeping the computer awake (recording)"
        awake.release("session:a")
        awake.release("session:unknown")
        assert awake.wait_idle() and inhibitor.calls == ["acquire"]
        awake.release("session:b")
        awake.release("session:b")
        assert awake.wait_idle()
        assert inhibitor.calls == ["acquire", "release"] and not awake.active
        assert awake.status == "Keep-awake idle"
    finally:
        awake.close()


def test_failure_is_a_status_not_an_exception() -> None:
    awake = KeepAwake(RecordingInhibitor(fail=True))
    try:
        awake.acquire("run:1")
        assert awake.wait_idle()
        assert awake.status == "Keep-awake unavailable: nothing to inhibit with"
        awake.release("run:1")
        assert awake.wait_idle()
    finally:
        awake.close()


def test_an_unavailable_inhibitor_is_tried_and_reported_once(caplog: pytest.LogCaptureFixture) -> None:
    """No inhibitor on this machine: found on the first turn, said once, not retried
    (300 turns used to log 300 warnings, burying the real ones)."""
    inhibitor = RecordingInhibitor(fail=True)
    awake = KeepAwake(inhibitor)
    caplog.set_level(logging.DEBUG, logger="openworker_qt.automation.keepawake")
    try:
        for turn in range(50):
            awake.on_event(ev.TurnStarted(session_id=f"s{turn % 7}", model="m"))
            awake.on_event(ev.TurnEnded(session_id=f"s{turn % 7}", status="completed",
                                        iterations=1))
        assert awake.wait_idle()
    finally:
        awake.close()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "nothing to inhibit with" in warnings[0].getMessage()
    assert inhibitor.calls == ["acquire"]
    assert awake.status == "Keep-awake unavailable: nothing to inhibit with"
    assert awake.unavailable == "nothing to inhibit with"


def test_first_available_falls_through_to_a_working_adapter() -> None:
    broken, working = RecordingInhibitor(fail=True), RecordingInhibitor()
    chain = FirstAvailable([broken, working])
    chain.acquire("why")
    assert chain.held is working
    chain.release()
    assert broken.calls == ["acquire"] and working.calls == ["acquire", "release"]
    with pytest.raises(InhibitError, match="no inhibitor"):
        FirstAvailable([]).acquire("why")


def test_close_releases_everything() -> None:
    inhibitor = RecordingInhibitor()
    awake = KeepAwake(inhibitor)
    awake.acquire("a")
    awake.close()
    assert inhibitor.calls == ["acquire", "release"]
    awake.acquire("b")  # after close: ignored, never raises
    assert inhibitor.calls == ["acquire", "release"]


# ---------------------------------------------------------------- private bus


@pytest.fixture
def session_bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if shutil.which("dbus-daemon") is None:
        pytest.fail("dbus-daemon is needed (scripts/dev installs it)")
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, text=True)
    try:
        assert bus.stdout is not None
        address = bus.stdout.readline().strip()
        assert address, "dbus-daemon printed no address"
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        monkeypatch.delenv("XDG_SESSION_DESKTOP", raising=False)  # no KDE/Xfce special cases
        yield address
    finally:
        bus.terminate()
        bus.wait(5)
        if bus.stdout is not None:
            bus.stdout.close()


class FakeService(threading.Thread):
    """A D-Bus service on the private bus answering method calls with ``handler``."""

    def __init__(self, address: str, name: str, handler: Callable[[Any], Any]) -> None:
        super().__init__(daemon=True)
        self.address, self.bus_name, self.handler = address, name, handler
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.senders: list[str] = []
        self.ready = threading.Event()
        self.stopping = threading.Event()

    def run(self) -> None:
        from jeepney import MessageType
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection

        with open_dbus_connection(bus=self.address, enable_fds=True) as conn:
            conn.send_and_get_reply(message_bus.RequestName(self.bus_name), timeout=5)
            self.ready.set()
            while not self.stopping.is_set():
                try:
                    msg = conn.receive(timeout=0.05)
                except TimeoutError:
                    continue
                if msg.header.message_type != MessageType.method_call:
                    continue
                member = msg.header.fields[3]  # HeaderFields.member
                self.senders.append(msg.header.fields[7])  # HeaderFields.sender
                self.calls.append((member, tuple(msg.body)))
                self.handler(conn, msg, member)

    def members(self) -> list[str]:
        return [m for m, _ in self.calls]

    def __enter__(self) -> FakeService:
        self.start()
        assert self.ready.wait(5), "fake service did not start"
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping.set()
        self.join(5)


def _cookie_service(conn: Any, msg: Any, member: str) -> None:
    """org.freedesktop.PowerManagement / org.gnome.SessionManager: Inhibit returns a cookie."""
    from jeepney import new_method_return

    if member == "Inhibit":
        conn.send(new_method_return(msg, "u", (4242,)))
    else:
        conn.send(new_method_return(msg))


def _has_owner(address: str, name: str) -> bool:
    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection

    bus = DBusAddress("/org/freedesktop/DBus", bus_name="org.freedesktop.DBus",
                      interface="org.freedesktop.DBus")
    with open_dbus_connection(bus=address) as conn:
        reply = conn.send_and_get_reply(new_method_call(bus, "NameHasOwner", "s", (name,)), timeout=5)
    return bool(reply.body[0])


PM = "org.freedesktop.PowerManagement"
GNOME = "org.gnome.SessionManager"


def _wait(predicate: Callable[[], object], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


async def _until(predicate: Callable[[], object], timeout: float = 20.0) -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def _manager(tmp_path: Path, turns: list[dict[str, Any]]) -> SessionManager:
    store = ConversationStore(Database(tmp_path / "ka.sqlite3"))
    return SessionManager(store, StaticResolver(ScriptedProvider(turns)),
                          tools_for=lambda _info: ToolRegistry([]), default_model="scripted")


async def test_turn_holds_the_desktop_power_service_until_it_ends(session_bus: str, tmp_path: Path) -> None:
    manager = _manager(tmp_path, [{"chunks": ["a"] * 20, "delay": 0.02}])
    # no logind here: the chain falls through to wakepy, which finds the desktop's service
    chain = FirstAvailable([LogindInhibitor(bus="unix:path=" + str(tmp_path / "no-system-bus")),
                            WakepyInhibitor()])
    awake = KeepAwake(chain)
    manager.listeners.append(awake.on_event)
    with FakeService(session_bus, PM, _cookie_service) as service:
        info = manager.create_session()
        task = manager.send(info.id, "go")
        assert task is not None
        await _until(lambda: service.members() == ["Inhibit"])
        assert not task.done()  # held while the turn is still running
        assert service.calls[0][1] == ("wakepy", "wakelock active")  # wakepy's own words
        await _until(lambda: awake.status == f"Keeping the computer awake ({PM})")
        holder = service.senders[0]
        assert _has_owner(session_bus, holder)  # the hold lives on an open connection
        await task
        await _until(lambda: service.members() == ["Inhibit", "UnInhibit"])
        assert service.calls[1][1] == (4242,)
        assert await asyncio.to_thread(awake.wait_idle)
        assert awake.status == "Keep-awake idle"
        assert not _has_owner(session_bus, holder)  # and the connection is closed after
    awake.close()
    manager.store.db.close()


def test_gnome_session_manager_when_there_is_no_power_management(session_bus: str) -> None:
    with FakeService(session_bus, GNOME, _cookie_service) as service:
        inhibitor = WakepyInhibitor()
        inhibitor.acquire("why")
        assert inhibitor.name == GNOME
        assert service.calls == [("Inhibit", ("wakepy", 42, "wakelock active", 4))]  # 4: suspend
        inhibitor.release()
        _wait(lambda: service.members() == ["Inhibit", "Uninhibit"])
        assert service.calls[1][1] == (4242,)


def test_a_refusing_desktop_service_is_an_inhibit_error(session_bus: str) -> None:
    def refuse(conn: Any, msg: Any, member: str) -> None:
        from jeepney import new_error

        conn.send(new_error(msg, "org.freedesktop.DBus.Error.AccessDenied", "s", ("not you",)))

    with FakeService(session_bus, PM, refuse) as service:
        with pytest.raises(InhibitError) as caught:
            WakepyInhibitor().acquire("why")
        # the refused attempt's bus connection is closed, not left to the garbage collector
        asker = service.senders[0]
        _wait(lambda: not _has_owner(session_bus, asker))
    message = str(caught.value)
    assert message.startswith(f"{PM}: ") and "AccessDenied" in message
    assert message.endswith(f"; {GNOME}: not running")


def test_logind_inhibit_holds_an_fd_until_release(session_bus: str) -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    server_closed = threading.Event()

    def login1(conn: Any, msg: Any, member: str) -> None:
        from jeepney import new_method_return

        conn.send(new_method_return(msg, "h", (write_end,)))
        os.close(write_end)  # the client's copy is now the only one
        server_closed.set()

    try:
        with FakeService(session_bus, "org.freedesktop.login1", login1) as service:
            inhibitor = LogindInhibitor(bus=session_bus)
            inhibitor.acquire("a long task")
            assert service.calls == [("Inhibit", ("idle:sleep", "OpenWorker Qt", "a long task", "block"))]
            with pytest.raises(BlockingIOError):
                os.read(read_end, 1)  # the inhibitor fd is still open
            assert server_closed.wait(5)
            inhibitor.release()
            # closed: logind would drop the lock (the bus daemon may close its own
            # passing copy a moment after the reply reached us, so wait for EOF)
            assert select.select([read_end], [], [], 5)[0] == [read_end]
            assert os.read(read_end, 1) == b""
    finally:
        os.close(read_end)


def test_no_bus_at_all_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=" + str(tmp_path / "none"))
    awake = KeepAwake(platform_inhibitor("linux"))
    awake.acquire("x")
    assert awake.wait_idle()
    assert awake.status == ("Keep-awake unavailable: logind inhibitor unavailable: no system bus; "
                            f"{PM}: no session bus; {GNOME}: no session bus")
    assert not awake._held
    awake.release("x")
    assert awake.wait_idle()
    assert awake.status.startswith("Keep-awake unavailable")  # still says why
    awake.close()


def test_a_session_bus_without_any_desktop_service(session_bus: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=" + str(tmp_path / "none"))
    awake = KeepAwake(platform_inhibitor("linux"))
    awake.acquire("x")
    assert awake.wait_idle()
    assert awake.status.endswith(f"{PM}: not running; {GNOME}: not running")
    awake.close()


def test_platform_chains() -> None:
    assert [i.name for i in platform_inhibitor("linux").inhibitors] == ["logind", "wakepy"]
    assert [i.name for i in platform_inhibitor("freebsd14").inhibitors] == ["logind", "wakepy"]
    assert [i.name for i in platform_inhibitor("darwin").inhibitors] == ["wakepy"]
    assert [i.name for i in platform_inhibitor("win32").inhibitors] == ["wakepy"]


def test_desktop_app_holds_keep_awake_while_a_turn_runs(qtbot, qloop, make_desktop) -> None:  # noqa: F811
    inhibitor = RecordingInhibitor()
    desktop = make_desktop([{"chunks": ["x"] * 10, "delay": 0.02}], keep_awake=KeepAwake(inhibitor))
    seen: dict[str, object] = {}

    async def scenario() -> None:
        info = desktop.manager.create_session()
        desktop.manager.send(info.id, "go")
        await until(lambda: inhibitor.calls == ["acquire"], what="acquire")
        seen["running"] = desktop.manager.is_running(info.id)
        await until(lambda: not desktop.manager.is_running(info.id), what="turn end")
        await until(lambda: inhibitor.calls == ["acquire", "release"], what="release")

    run(qloop, scenario)
    assert seen["running"] is True
    assert desktop.keep_awake.status == "Keep-awake idle"


def test_waiting_for_a_person_is_idle_time() -> None:
    from openworker_qt.core import events as ev

    inhibitor = RecordingInhibitor()
    awake = KeepAwake(inhibitor)
    try:
        for event in (
            ev.TurnStarted(session_id="s", model="m"),
            ev.PermissionRequired(session_id="s", call_id="c", name="write_file", arguments={},
                                  risk="write_local", reason="writes"),
        ):
            awake.on_event(event)
        assert awake.wait_idle()
        assert inhibitor.calls == ["acquire", "release"]  # parked on the approval: let it sleep
        awake.on_event(ev.ToolStarted(session_id="s", call_id="c", name="write_file"))
        awake.on_event(ev.TurnEnded(session_id="s", status="completed", iterations=1))
        assert awake.wait_idle()
        assert inhibitor.calls == ["acquire", "release", "acquire", "release"]
    finally:
        awake.close()
