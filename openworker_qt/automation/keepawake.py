"""Keep the computer awake while a turn or an automation run is active.

:class:`KeepAwake` counts active work by key (a session id, an automation run
id): the first key engages the platform inhibitor, the last one to go releases
it. Acquire and release are idempotent per key and never raise into the
caller — a failure is logged and shown in :attr:`KeepAwake.status`. Every call
into the platform (a D-Bus round trip, spawning a process) runs on one private
worker thread, in order, so the event-loop thread never waits on it; that
single thread also matters on Windows, where ``SetThreadExecutionState`` is
per thread.

Adapters (each an :class:`Inhibitor`):

* Linux: :class:`LogindInhibitor` (``org.freedesktop.login1.Manager.Inhibit``
  on the system bus, ``idle:sleep``; the returned file descriptor *is* the
  inhibitor, released by closing it), then :class:`ProcessInhibitor` spawning
  ``systemd-inhibit`` around a command that lives as long as we do (its
  process group is killed on release), then
  :class:`ScreenSaverInhibitor` (``org.freedesktop.ScreenSaver`` on the session
  bus, for desktops without logind; idle only).
* macOS: ``caffeinate -i -w <our pid>`` (:func:`caffeinate_command`; ``-w`` makes
  it exit with us even if we crash).
* Windows: :class:`WindowsInhibitor`, ``SetThreadExecutionState(ES_CONTINUOUS |
  ES_SYSTEM_REQUIRED)`` and ``ES_CONTINUOUS`` alone to release.

:func:`platform_inhibitor` picks the chain for the running OS. No Qt here.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from openworker_qt.core import events as ev

log = logging.getLogger(__name__)

APP_NAME = "OpenWorker Qt"
DEFAULT_WHY = "OpenWorker is working on a task"
DBUS_TIMEOUT = 5.0

ES_CONTINUOUS = 0x80000000
ES_SYSTEM_REQUIRED = 0x00000001


class InhibitError(RuntimeError):
    """An inhibitor could not be taken (the message says why, for the status line)."""


class Inhibitor(Protocol):
    """One way to keep the machine awake. Both calls may block (a worker runs them)."""

    name: str

    def acquire(self, why: str) -> None:
        """Take the inhibitor; raise :class:`InhibitError` when it cannot be had."""

    def release(self) -> None:
        """Let the machine sleep again (never raises)."""


# --------------------------------------------------------------------- D-Bus


def _is_error(reply: Any) -> bool:
    from jeepney import MessageType

    return bool(reply.header.message_type == MessageType.error)


class LogindInhibitor:
    """systemd-logind's ``Inhibit``: a delay-free ``block`` lock held as an fd.

    ``bus`` is ``"SYSTEM"`` in the app; tests point it at a private bus address.
    """

    name = "logind"

    def __init__(self, bus: str = "SYSTEM", what: str = "idle:sleep") -> None:
        self.bus = bus
        self.what = what
        self._fd: Any = None

    def acquire(self, why: str) -> None:
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection

        login1 = DBusAddress("/org/freedesktop/login1", bus_name="org.freedesktop.login1",
                             interface="org.freedesktop.login1.Manager")
        msg = new_method_call(login1, "Inhibit", "ssss", (self.what, APP_NAME, why, "block"))
        try:
            with open_dbus_connection(bus=self.bus, enable_fds=True) as conn:
                reply = conn.send_and_get_reply(msg, timeout=DBUS_TIMEOUT)
        except Exception as exc:  # no bus, no logind, denied by polkit, timeout
            raise InhibitError(f"logind inhibitor unavailable: {exc}") from exc
        if _is_error(reply):
            raise InhibitError(f"logind refused: {reply.body[0] if reply.body else reply.header}")
        self._fd = reply.body[0]

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                fd.close()  # the last copy of the fd closing ends the inhibition
            except OSError:
                log.debug("closing the logind inhibitor fd failed", exc_info=True)


class ScreenSaverInhibitor:
    """``org.freedesktop.ScreenSaver.Inhibit``/``UnInhibit`` on the session bus.

    Desktops tie the cookie to the caller's connection, so the connection stays
    open while the inhibitor is held.
    """

    name = "screensaver"

    def __init__(self, bus: str = "SESSION") -> None:
        self.bus = bus
        self._conn: Any = None
        self._cookie: int | None = None

    def _address(self) -> Any:
        from jeepney import DBusAddress

        return DBusAddress("/org/freedesktop/ScreenSaver", bus_name="org.freedesktop.ScreenSaver",
                           interface="org.freedesktop.ScreenSaver")

    def acquire(self, why: str) -> None:
        from jeepney import new_method_call
        from jeepney.io.blocking import open_dbus_connection

        try:
            conn = open_dbus_connection(bus=self.bus)
        except Exception as exc:
            raise InhibitError(f"no session bus: {exc}") from exc
        try:
            reply = conn.send_and_get_reply(
                new_method_call(self._address(), "Inhibit", "ss", (APP_NAME, why)),
                timeout=DBUS_TIMEOUT)
        except Exception as exc:
            conn.close()
            raise InhibitError(f"screensaver inhibitor unavailable: {exc}") from exc
        if _is_error(reply):
            conn.close()
            raise InhibitError(f"screensaver refused: {reply.body[0] if reply.body else ''}")
        self._conn, self._cookie = conn, int(reply.body[0])

    def release(self) -> None:
        from jeepney import new_method_call

        conn, cookie = self._conn, self._cookie
        self._conn, self._cookie = None, None
        if conn is None:
            return
        try:
            conn.send_and_get_reply(
                new_method_call(self._address(), "UnInhibit", "u", (cookie,)), timeout=DBUS_TIMEOUT)
        except Exception:
            log.debug("UnInhibit failed (closing the connection releases it too)", exc_info=True)
        finally:
            conn.close()


# ------------------------------------------------------------------ processes


class ProcessInhibitor:
    """An inhibitor that is a child process: held while it runs, killed on release.

    ``command`` is the argv to spawn; a process that exits within ``settle``
    seconds failed (e.g. ``systemd-inhibit`` without logind) and raises. It gets
    its own process group so release ends its children too (``systemd-inhibit``
    does not pass SIGTERM on to the command it runs).
    """

    def __init__(self, name: str, command: Callable[[str], Sequence[str]], *,
                 settle: float = 0.2, popen: Callable[..., Any] = subprocess.Popen) -> None:
        self.name = name
        self.command = command
        self.settle = settle
        self._popen = popen
        self._proc: Any = None

    def acquire(self, why: str) -> None:
        argv = list(self.command(why))
        try:
            proc = self._popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            raise InhibitError(f"{argv[0]} cannot start: {exc}") from exc
        deadline = time.monotonic() + self.settle
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
                raise InhibitError(f"{argv[0]} exited ({proc.returncode}): {err[:200]}")
            time.sleep(0.02)
        self._proc = proc

    def release(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        self._signal(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._signal(proc, getattr(signal, "SIGKILL", signal.SIGTERM))
            proc.wait(timeout=2)
        if proc.stderr is not None:
            proc.stderr.close()


    @staticmethod
    def _signal(proc: Any, sig: int) -> None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, sig)
            else:
                proc.terminate()
        except (ProcessLookupError, PermissionError):
            pass


def systemd_inhibit_command(why: str, executable: str = "systemd-inhibit",
                            pid: int | None = None) -> list[str]:
    """The lock lasts as long as the command: one that ends when we do (even by a crash)."""
    watch = f"while kill -0 {pid if pid is not None else os.getpid()} 2>/dev/null; do sleep 5; done"
    return [executable, "--what=idle:sleep", f"--who={APP_NAME}", f"--why={why}", "--mode=block",
            "sh", "-c", watch]


def caffeinate_command(why: str, pid: int | None = None, executable: str = "caffeinate") -> list[str]:
    """``-i``: no idle sleep; ``-w``: exit when our process does (no orphan after a crash)."""
    return [executable, "-i", "-w", str(pid if pid is not None else os.getpid())]


# -------------------------------------------------------------------- Windows


class WindowsInhibitor:
    """``SetThreadExecutionState``; ``call`` is the seam (the kernel32 function by default)."""

    name = "windows"

    def __init__(self, call: Callable[[int], int] | None = None) -> None:
        self._call = call

    def _set(self, flags: int) -> int:
        call = self._call
        if call is None:
            import ctypes

            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            kernel32.SetThreadExecutionState.restype = ctypes.c_uint32
            kernel32.SetThreadExecutionState.argtypes = [ctypes.c_uint32]
            call = self._call = kernel32.SetThreadExecutionState
        return int(call(flags))

    def acquire(self, why: str) -> None:
        if self._set(ES_CONTINUOUS | ES_SYSTEM_REQUIRED) == 0:
            raise InhibitError("SetThreadExecutionState failed")

    def release(self) -> None:
        self._set(ES_CONTINUOUS)


# ---------------------------------------------------------------------- chain


class FirstAvailable:
    """Try each inhibitor in turn; hold the first that works."""

    def __init__(self, inhibitors: Sequence[Inhibitor]) -> None:
        self.inhibitors = list(inhibitors)
        self.held: Inhibitor | None = None
        self.name = "+".join(i.name for i in self.inhibitors) or "none"

    def acquire(self, why: str) -> None:
        problems = []
        for inhibitor in self.inhibitors:
            try:
                inhibitor.acquire(why)
            except Exception as exc:  # an adapter bug must not stop the next one
                problems.append(str(exc))
                continue
            self.held = inhibitor
            self.name = inhibitor.name
            return
        raise InhibitError("; ".join(problems) or "no inhibitor for this platform")

    def release(self) -> None:
        held, self.held = self.held, None
        if held is not None:
            held.release()


def platform_inhibitor(platform: str = sys.platform,
                       which: Callable[[str], str | None] = shutil.which) -> FirstAvailable:
    """The inhibitor chain for ``platform`` (see the module docstring)."""
    chain: list[Inhibitor] = []
    if platform.startswith("linux") or "bsd" in platform:
        chain.append(LogindInhibitor())
        if exe := which("systemd-inhibit"):
            chain.append(ProcessInhibitor("systemd-inhibit",
                                          lambda why: systemd_inhibit_command(why, exe)))
        chain.append(ScreenSaverInhibitor())
    elif platform == "darwin":
        chain.append(ProcessInhibitor("caffeinate", lambda why: caffeinate_command(why)))
    elif platform == "win32":
        chain.append(WindowsInhibitor())
    return FirstAvailable(chain)


# ------------------------------------------------------------------ KeepAwake


class KeepAwake:
    """Reference-counted keep-awake (see the module docstring).

    ``status`` is a one-line, user-facing description of the current state.
    """

    def __init__(self, inhibitor: Inhibitor | None = None, *, why: str = DEFAULT_WHY,
                 enabled: bool = True) -> None:
        self.inhibitor: Inhibitor = inhibitor if inhibitor is not None else platform_inhibitor()
        self.why = why
        self.enabled = enabled
        self.status = "Keep-awake idle" if enabled else "Keep-awake off"
        self._keys: set[str] = set()
        self._held = False  # touched on the worker thread only
        self._lock = threading.Lock()
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="keepawake")
        self._last: concurrent.futures.Future[None] | None = None
        self._closed = False

    @property
    def active(self) -> bool:
        """True while some key holds the machine awake (whether the OS agreed or not)."""
        return bool(self._keys)

    def acquire(self, key: str) -> None:
        with self._lock:
            if key in self._keys or self._closed:
                return
            self._keys.add(key)
            if len(self._keys) == 1:
                self._submit(self._engage)

    def release(self, key: str) -> None:
        with self._lock:
            if key not in self._keys:
                return
            self._keys.discard(key)
            if not self._keys:
                self._submit(self._disengage)

    def release_all(self) -> None:
        with self._lock:
            had = bool(self._keys)
            self._keys.clear()
            if had:
                self._submit(self._disengage)

    def on_event(self, event: ev.Event) -> None:
        """A :class:`SessionManager` listener: a turn holds the machine awake while it
        works. Waiting for a person is idle time, so an ask releases the hold and the
        next tool start (after the answer) takes it again."""
        key = f"session:{event.session_id}"
        if isinstance(event, ev.TurnStarted | ev.ToolStarted):
            self.acquire(key)
        elif isinstance(
            event,
            ev.TurnEnded
            | ev.PermissionRequired
            | ev.QuestionRequested
            | ev.PlanRequested
            | ev.DirectoryRequested,
        ):
            self.release(key)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Block until queued platform calls are done (tests, shutdown). Not on the loop."""
        last = self._last
        if last is None:
            return True
        try:
            last.result(timeout)
        except concurrent.futures.TimeoutError:
            return False
        return True

    def close(self, timeout: float = 3.0) -> None:
        """Release everything and stop the worker (waits at most ``timeout``)."""
        self.release_all()
        with self._lock:
            self._closed = True
        self.wait_idle(timeout)
        self._worker.shutdown(wait=False)

    # worker side -----------------------------------------------------------

    def _submit(self, fn: Callable[[], None]) -> None:
        try:
            self._last = self._worker.submit(fn)
        except RuntimeError:  # shut down
            log.debug("keep-awake worker already stopped")

    def _engage(self) -> None:
        if self._held or not self.enabled:
            return
        try:
            self.inhibitor.acquire(self.why)
        except Exception as exc:
            log.warning("keep-awake unavailable: %s", exc)
            self.status = f"Keep-awake unavailable: {exc}"
            return
        self._held = True
        self.status = f"Keeping the computer awake ({self.inhibitor.name})"
        log.info("keep-awake engaged (%s)", self.inhibitor.name)

    def _disengage(self) -> None:
        if not self._held:
            if self.enabled and not self.status.startswith("Keep-awake unavailable"):
                self.status = "Keep-awake idle"
            return
        try:
            self.inhibitor.release()
        except Exception as exc:
            log.warning("keep-awake release failed: %s", exc)
        self._held = False
        self.status = "Keep-awake idle"
        log.info("keep-awake released")
