"""Quitting always ends: a watchdog armed when the desktop app starts to quit.

The orderly shutdown (:meth:`DesktopApp.shutdown`, the loop's close, the
runtime's close, the interpreter's own exit) is bounded step by step, but it
waits on threads and locks it does not own: an SDK import, a keyring read, a
SQLite reader, an MCP server, a platform call. A thread stuck there used to
keep the process alive for good (a quit, a SIGTERM, a log-out that never
ended). :class:`QuitWatchdog` is armed by :func:`openworker_qt.launch.main` the
moment quitting begins; if the process is still alive ``timeout`` seconds later
(:data:`ENV`, default :data:`DEFAULT_TIMEOUT`), it writes which threads were
still alive, with their stacks, to stderr and the log, and ends the process
with ``os._exit(code)`` — the code the app would have returned.

Why this loses no approval and no stored message: nothing of the user's waits
in memory for the end. Every message and every inbox item (a pending approval
or question is a row, written before its turn waits) is committed to SQLite
before anything announces it (docs/durability.md: "commit before announce");
the databases run in WAL mode, where a committed transaction
survives the process ending at any instant (``synchronous = NORMAL`` only
risks the last commits on an *OS* crash or power loss, not a process exit). A
write cut in the middle is a transaction that never committed: SQLite rolls it
back whole on the next open. The watchdog fires only after the orderly part had
its time (turns stopped, their partial text stored, within the runtime's grace),
and a turn the exit still cut off is resumed or closed by the next start's
recovery (:meth:`SessionManager.recover`), as after a crash: an ``os._exit`` is
one more "point of death" of docs/durability.md's table, which
tests/cli/test_crash.py checks with SIGKILL at each point.

Python's own finalization (after ``atexit``) runs no Python thread: a daemon
thread that tries to run then is stopped, so this watchdog cannot act there.
:func:`arm_backstop` covers that last stretch with :mod:`faulthandler`'s C
thread, which needs no interpreter: it dumps every thread's stack to stderr and
exits with status 1 if finalization itself hangs.

Tests only: :data:`TEST_STUCK_THREAD_ENV` set to ``1`` makes :func:`main` start
a non-daemon thread that never ends (and holds a lock forever), the kind of
thread that kept the interpreter from exiting; the tests check that the
watchdog still ends the process. Nothing but the tests sets it.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
import traceback
from collections.abc import Callable

log = logging.getLogger("openworker_qt.quit")

#: Seconds from the start of quitting to the forced exit (a float; tests shorten it).
ENV = "OPENWORKER_QUIT_TIMEOUT"
DEFAULT_TIMEOUT = 10.0
#: Tests only (see module docstring): start a thread that never ends.
TEST_STUCK_THREAD_ENV = "OPENWORKER_TEST_STUCK_THREAD"


def timeout_from_env(default: float = DEFAULT_TIMEOUT) -> float:
    """:data:`ENV` as a positive number of seconds, else ``default``."""
    raw = os.environ.get(ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if value > 0 else default


def alive_threads_report() -> str:
    """Every thread still alive but this one, with its stack (for the log)."""
    frames = sys._current_frames()
    me = threading.get_ident()
    lines = []
    for thread in threading.enumerate():
        if thread.ident == me:
            continue
        kind = "daemon" if thread.daemon else "non-daemon"
        lines.append(f"thread {thread.name!r} ({kind}):\n")
        frame = frames.get(thread.ident or -1)
        if frame is not None:
            lines.extend("  " + line for line in traceback.format_stack(frame))
    return "".join(lines) or "no other thread alive\n"


class QuitWatchdog:
    """Ends the process if quitting has not ended it within ``timeout`` seconds.

    :meth:`arm` starts a daemon thread (idempotent); there is no disarming: once
    quitting begins, the process ends, one way or the other.
    """

    def __init__(self, timeout: float | None = None, *,
                 exit_code: Callable[[], int] = lambda: 0,
                 exit: Callable[[int], object] = os._exit) -> None:
        self.timeout = timeout_from_env() if timeout is None else timeout
        self._exit_code = exit_code
        self._exit = exit
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def armed(self) -> bool:
        return self._thread is not None

    def arm(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="quit-watchdog", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        threading.Event().wait(self.timeout)
        self.fire()

    def fire(self) -> None:
        """Report the threads still alive, then end the process (see module docstring)."""
        try:
            code = int(self._exit_code())
        except Exception:
            code = 0
        report = (f"quitting took more than {self.timeout:g} s; ending the process "
                  f"(exit status {code}). Threads still alive:\n{alive_threads_report()}")
        try:  # stderr first: it needs no lock another thread may hold
            os.write(2, report.encode("utf-8", "replace"))
        except OSError:
            pass
        # The log may be stuck behind the very thread that hangs: a helper logs it,
        # and the exit waits for it two seconds at most.
        writer = threading.Thread(target=_last_words, args=(report,), name="quit-report",
                                  daemon=True)
        writer.start()
        writer.join(2.0)
        self._exit(code)


def _last_words(report: str) -> None:
    """What ``os._exit`` would skip of the ``atexit`` hooks and must not: the shells
    and background tasks the agent started are killed (their process groups: no
    lock, no wait), then the report is logged and the log flushed."""
    shell = sys.modules.get("openworker_qt.tools.shell")  # (no import: it may be stuck)
    kill = getattr(shell, "_kill_leftovers", None)
    if kill is not None:
        try:
            kill()
        except Exception:
            pass
    log.error("%s", report)
    for handler in logging.getLogger().handlers:
        flush = getattr(handler, "flush", None)
        if flush is not None:
            try:
                flush()
            except Exception:
                pass


def arm_backstop(timeout: float) -> None:
    """If the interpreter's finalization (no Python thread runs then) takes longer
    than ``timeout``, dump every thread's stack to stderr and exit with status 1."""
    try:
        faulthandler.dump_traceback_later(timeout, exit=True)
    except (RuntimeError, ValueError, OSError):  # no usable stderr (a windowed build)
        pass


def start_stuck_thread() -> threading.Thread:
    """Tests only (:data:`TEST_STUCK_THREAD_ENV`): a non-daemon thread that holds a
    lock and never ends, so the interpreter's exit would wait for it forever."""
    held = threading.Lock()
    started = threading.Event()

    def stuck() -> None:
        with held:
            started.set()
            threading.Event().wait()

    thread = threading.Thread(target=stuck, name="test-stuck-thread", daemon=False)
    thread.start()
    started.wait(5)
    return thread
