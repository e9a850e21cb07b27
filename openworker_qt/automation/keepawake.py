"""Keep the computer awake while a turn or an automation run is active.

:class:`KeepAwake` counts active work by key (a session id, an automation run
id): the first key engages the platform inhibitor, the last one to go releases
it. Acquire and release are idempotent per key and never raise into the
caller — a failure is logged and shown in :attr:`KeepAwake.status`. Every call
into the platform (a D-Bus round trip, spawning a process, importing the
library) runs on one private worker thread, in order, so the event-loop thread
never waits on it; wakepy also wants a mode left on the thread that entered it.

Adapters (each an :class:`Inhibitor`), chained by :func:`platform_inhibitor`:

* :class:`LogindInhibitor` (Linux, first): ``org.freedesktop.login1.Manager.Inhibit``
  on the system bus, ``idle:sleep`` in ``block`` mode; the returned file
  descriptor *is* the inhibitor, released by closing it. It works under any
  systemd (or elogind) session, window managers and Xfce included, and names us
  in ``systemd-inhibit --list`` and the desktop's log-out dialog. wakepy has no
  logind method, which is why this one stays ours.
* :class:`WakepyInhibitor`: the maintained ``wakepy`` library's ``keep.running``
  mode — on Linux the desktop's own service (``org.gnome.SessionManager``, the
  freedesktop ``PowerManagement`` service of KDE and others), on macOS
  ``caffeinate`` (ending with us even after a crash), on Windows
  ``SetThreadExecutionState`` on a thread of its own. ``keep.running`` lets the
  screen lock; only sleep is held off.

No Qt here.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from openworker_qt.core import events as ev

log = logging.getLogger(__name__)

APP_NAME = "OpenWorker Qt"
DEFAULT_WHY = "OpenWorker is working on a task"
DBUS_TIMEOUT = 5.0


class InhibitError(RuntimeError):
    """An inhibitor could not be taken (the message says why, for the status line)."""


class Inhibitor(Protocol):
    """One way to keep the machine awake. Both calls may block (a worker runs them)."""

    name: str

    def acquire(self, why: str) -> None:
        """Take the inhibitor; raise :class:`InhibitError` when it cannot be had."""

    def release(self) -> None:
        """Let the machine sleep again (never raises)."""


# ----------------------------------------------------------------- logind


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
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise InhibitError("logind inhibitor unavailable: no system bus") from exc
        except Exception as exc:  # no logind, denied by polkit, timeout
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


# ----------------------------------------------------------------- wakepy


class WakepyInhibitor:
    """wakepy's ``keep.running`` mode (see the module docstring).

    ``name`` becomes the method wakepy used (``org.gnome.SessionManager``,
    ``caffeinate``, ``SetThreadExecutionState``…) while it is held. wakepy's
    own wording of the hold ("wakepy", "wakelock active") is fixed by the library.
    """

    def __init__(self) -> None:
        self.name = "wakepy"
        self._mode: Any = None

    def acquire(self, why: str) -> None:
        try:
            from wakepy import keep
        except ImportError as exc:
            raise InhibitError(f"wakepy is not installed: {exc}") from exc
        logging.getLogger("wakepy").setLevel(logging.WARNING)  # a line per method per turn
        mode = keep.running(on_fail="pass")
        try:
            mode.__enter__()
        except Exception as exc:  # a library bug must not take the worker down
            _close_bus_connections(mode)
            raise InhibitError(f"wakepy failed: {exc}") from exc
        if not mode.active:
            result = mode.result
            with contextlib.suppress(Exception):
                mode.__exit__(None, None, None)
            _close_bus_connections(mode)
            log.debug("%s", result.get_failure_text(style="inline"))
            raise InhibitError(wakepy_failure(result))
        self._mode = mode
        method = mode.active_method
        self.name = str(method.name) if method is not None else "wakepy"

    def release(self) -> None:
        mode, self._mode = self._mode, None
        if mode is None:
            return
        try:
            mode.__exit__(None, None, None)
        except Exception:
            log.warning("wakepy could not release its hold", exc_info=True)


def _close_bus_connections(mode: Any) -> None:
    """Close the D-Bus connections a mode that never became active opened.

    wakepy closes its adapter's connections only when an active method is
    deactivated; after a refused or failed activation they stayed open until the
    garbage collector found them, one socket to the session bus per failed turn.
    """
    adapter = getattr(mode, "_dbus_adapter_instance", None)  # wakepy 1.x: created on first use
    if adapter is None:
        return
    try:
        adapter.close_connections()
    except Exception:
        log.debug("closing wakepy's D-Bus connections failed", exc_info=True)


def wakepy_failure(result: Any) -> str:
    """One line from wakepy's activation result: each method tried, and why it failed."""
    tried = result.list_methods(ignore_platform_fails=True, ignore_unused=True)
    if not tried:
        return "no keep-awake method for this platform"
    return "; ".join(f"{r.method_name}: {_short_reason(r.failure_reason)}" for r in tried)


def _short_reason(reason: str) -> str:
    if "DBUS_SESSION_BUS_ADDRESS" in reason:
        return "no session bus"
    if "ServiceUnknown" in reason or "was not provided by any" in reason:
        return "not running"
    _, found, message = reason.partition("failed with message: ")  # a D-Bus error reply
    text = " ".join((message if found else reason).split())
    text = text.removesuffix('")') if found else text  # the end of wakepy's DBusCallError("…")
    return text[:160] or "failed"


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


def platform_inhibitor(platform: str = sys.platform) -> FirstAvailable:
    """The inhibitor chain for ``platform`` (see the module docstring)."""
    chain: list[Inhibitor] = []
    if platform.startswith("linux") or "bsd" in platform:
        chain.append(LogindInhibitor())
    chain.append(WakepyInhibitor())
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
        #: Why no inhibitor could be had: found once per run of the app (the first
        #: turn), reported once; later turns do not try (nor warn) again.
        self.unavailable: str | None = None
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
        if self._held or not self.enabled or self.unavailable is not None:
            return
        try:
            self.inhibitor.acquire(self.why)
        except Exception as exc:
            self.unavailable = str(exc)
            log.warning("keep-awake unavailable for this run of the app: %s", exc)
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
