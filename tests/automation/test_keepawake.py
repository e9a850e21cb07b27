"""Keep-awake: reference counting, the real D-Bus adapters against fake services on a
private bus, the ``systemd-inhibit``/``caffeinate`` process adapters with stand-in
executables, the Windows call behind its seam, and the wiring to the turn events."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.automation.keepawake import (
    ES_CONTINUOUS,
    ES_SYSTEM_REQUIRED,
    FirstAvailable,
    InhibitError,
    KeepAwake,
    LogindInhibitor,
    ProcessInhibitor,
    ScreenSaverInhibitor,
    WindowsInhibitor,
    platform_inhibitor,
)
from openworker_qt.core.sessions import SessionManager
from openworker_qt.providers.scripted import ScriptedProvider
from openworker_qt.storage.conversations import ConversationStore
from openworker_qt.storage.db import Database
from openworker_qt.tools.base import ToolRegistry
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


def _screensaver(conn: Any, msg: Any, member: str) -> None:
    from jeepney import new_method_return

    if member == "Inhibit":
        conn.send(new_method_return(msg, "u", (4242,)))
    else:
        conn.send(new_method_return(msg))


def _wait(predicate: Callable[[], object], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


async def _until(predicate: Callable[[], object], timeout: float = 5.0) -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def _manager(tmp_path: Path, turns: list[dict[str, Any]]) -> SessionManager:
    store = ConversationStore(Database(tmp_path / "ka.sqlite3"))
    return SessionManager(store, StaticResolver(ScriptedProvider(turns)),
                          tools_for=lambda _info: ToolRegistry([]), default_model="scripted")


async def test_turn_inhibits_the_screensaver_until_it_ends(session_bus: str, tmp_path: Path) -> None:
    manager = _manager(tmp_path, [{"chunks": ["a"] * 20, "delay": 0.02}])
    # no logind and no systemd-inhibit here: the chain falls through to the screensaver
    chain = FirstAvailable([LogindInhibitor(bus="unix:path=" + str(tmp_path / "no-system-bus")),
                            ScreenSaverInhibitor()])
    awake = KeepAwake(chain)
    manager.listeners.append(awake.on_event)
    with FakeService(session_bus, "org.freedesktop.ScreenSaver", _screensaver) as service:
        info = manager.create_session()
        task = manager.send(info.id, "go")
        assert task is not None
        await _until(lambda: service.members() == ["Inhibit"])
        assert not task.done()  # inhibited while the turn is still running
        assert service.calls[0][1] == ("OpenWorker Qt", "OpenWorker is working on a task")
        await task
        await _until(lambda: service.members() == ["Inhibit", "UnInhibit"])
        assert service.calls[1][1] == (4242,)
        assert awake.status == "Keep-awake idle"
        assert await asyncio.to_thread(awake.wait_idle)
    awake.close()
    manager.store.db.close()


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
            assert os.read(read_end, 1) == b""  # closed: logind would drop the lock
    finally:
        os.close(read_end)


def test_screensaver_error_reply_is_an_inhibit_error(session_bus: str) -> None:
    def refuse(conn: Any, msg: Any, member: str) -> None:
        from jeepney import new_error

        conn.send(new_error(msg, "org.freedesktop.DBus.Error.AccessDenied", "s", ("no",)))

    with FakeService(session_bus, "org.freedesktop.ScreenSaver", refuse):
        with pytest.raises(InhibitError, match="screensaver refused: no"):
            ScreenSaverInhibitor().acquire("why")


def test_no_bus_at_all_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + str(tmp_path / "none"))
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=" + str(tmp_path / "none"))
    monkeypatch.setenv("PATH", str(tmp_path))  # no systemd-inhibit either
    awake = KeepAwake(platform_inhibitor("linux"))
    awake.acquire("x")
    assert awake.wait_idle()
    assert awake.status.startswith("Keep-awake unavailable: logind inhibitor unavailable")
    assert "no session bus" in awake.status
    awake.close()


# ------------------------------------------------------------------ processes


def _stand_in(folder: Path, name: str, *, exit_code: int | None = None) -> Path:
    """An executable ``name`` on PATH recording its argv and pid, then sleeping (or failing)."""
    folder.mkdir(exist_ok=True)
    log = folder / f"{name}.args"
    tail = f"echo refused >&2; exit {exit_code}" if exit_code is not None else "exec sleep 60"
    script = folder / name
    script.write_text(f'#!/bin/sh\necho "$$ $*" > "{log}"\n{tail}\n', encoding="utf-8")
    script.chmod(0o755)
    return log


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); it is gone for our purposes once reaped
    return True


def test_systemd_inhibit_fallback_runs_until_release(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    log = _stand_in(bin_dir, "systemd-inhibit")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=" + str(tmp_path / "no-logind"))
    awake = KeepAwake(platform_inhibitor("linux"))
    awake.acquire("session:s1")
    assert awake.wait_idle()
    assert awake.status == "Keeping the computer awake (systemd-inhibit)"
    pid, _, args = log.read_text(encoding="utf-8").strip().partition(" ")
    assert args == ("--what=idle:sleep --who=OpenWorker Qt --why=OpenWorker is working on a task "
                    f"--mode=block sh -c while kill -0 {os.getpid()} 2>/dev/null; do sleep 5; done")
    assert _alive(int(pid))
    awake.release("session:s1")
    assert awake.wait_idle()
    assert not _alive(int(pid))
    awake.close()


def test_a_process_that_exits_at_once_falls_through(tmp_path: Path) -> None:
    _stand_in(tmp_path, "systemd-inhibit", exit_code=1)
    inhibitor = ProcessInhibitor("systemd-inhibit", lambda _why: [str(tmp_path / "systemd-inhibit")])
    with pytest.raises(InhibitError, match="exited \\(1\\): refused"):
        inhibitor.acquire("why")


def test_macos_caffeinate_waits_on_our_pid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    log = _stand_in(bin_dir, "caffeinate")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    chain = platform_inhibitor("darwin")
    assert [i.name for i in chain.inhibitors] == ["caffeinate"]
    chain.acquire("why")
    pid, _, args = log.read_text(encoding="utf-8").strip().partition(" ")
    assert args == f"-i -w {os.getpid()}"
    chain.release()
    assert not _alive(int(pid))


def test_windows_sets_and_clears_the_execution_state() -> None:
    calls: list[int] = []
    inhibitor = WindowsInhibitor(call=lambda flags: calls.append(flags) or 1)
    inhibitor.acquire("why")
    inhibitor.release()
    assert calls == [ES_CONTINUOUS | ES_SYSTEM_REQUIRED, ES_CONTINUOUS]
    assert calls[0] == 0x80000001
    with pytest.raises(InhibitError):
        WindowsInhibitor(call=lambda _flags: 0).acquire("why")
    assert [i.name for i in platform_inhibitor("win32").inhibitors] == ["windows"]


def test_linux_chain_order(tmp_path: Path) -> None:
    chain = platform_inhibitor("linux", which=lambda name: f"/usr/bin/{name}")
    assert [i.name for i in chain.inhibitors] == ["logind", "systemd-inhibit", "screensaver"]
    chain = platform_inhibitor("linux", which=lambda _name: None)
    assert [i.name for i in chain.inhibitors] == ["logind", "screensaver"]


def test_release_ends_the_children_too(tmp_path: Path) -> None:
    child_pid = tmp_path / "child.pid"
    script = tmp_path / "wrapper"
    # like systemd-inhibit: runs the command as a child and does not forward SIGTERM
    script.write_text(f'#!/bin/sh\nsleep 60 &\necho $! > "{child_pid}"\nwait\n', encoding="utf-8")
    script.chmod(0o755)
    inhibitor = ProcessInhibitor("wrapper", lambda _why: [str(script)])
    inhibitor.acquire("why")
    _wait(child_pid.exists)
    _wait(lambda: child_pid.read_text(encoding="utf-8").strip())
    pid = int(child_pid.read_text(encoding="utf-8"))
    assert _alive(pid)
    inhibitor.release()
    _wait(lambda: not _alive(pid))


def test_desktop_app_holds_keep_awake_while_a_turn_runs(qtbot, qloop, make_desktop) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
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
