"""The desktop app as a process: :func:`main` opens the runtime and a
:class:`~openworker_qt.app.DesktopApp` once per user (a second launch hands its
arguments to the first), sets up the shared redacting log, an exception hook that
shows a non-fatal banner, and quits gracefully (signals, leftover tasks, the quit
watchdog)."""

from __future__ import annotations

import time

_T0 = time.perf_counter()  # (before the app's imports: bench/startup.py's "window-exposed")

import asyncio  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402
from collections.abc import Callable  # noqa: E402
from types import TracebackType  # noqa: E402
from typing import Any  # noqa: E402

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from openworker_qt import quit_watchdog  # noqa: E402
from openworker_qt.app import DesktopApp  # noqa: E402
from openworker_qt.logs import setup_logging  # noqa: E402
from openworker_qt.ui.first_paint import after_first_paint  # noqa: E402
from openworker_qt.ui.resources import app_icon  # noqa: E402

log = logging.getLogger(__name__)

__all__ = ["install_excepthook", "main", "setup_logging"]


def install_excepthook(report: Callable[[str], None]) -> None:
    """Unhandled exceptions go to the log and to a banner; the app keeps running."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        log.error("unhandled exception:\n%s", "".join(traceback.format_exception(kind, exc, tb)))
        try:
            report(f"Something went wrong: {exc} (details in the log file)")
        except Exception:  # the banner itself must never take the app down
            pass

    sys.excepthook = hook


def main(argv: list[str]) -> int:
    from openworker_qt.qt.event_loop import new_event_loop  # qasync, async generators closed
    from openworker_qt.qt.single_instance import SingleInstance, send_to_running, server_name
    from openworker_qt.runtime import open_runtime
    from openworker_qt.storage.paths import app_paths

    QApplication.setApplicationName("OpenWorker Qt")
    QApplication.setOrganizationName("OpenWorker")
    QApplication.setDesktopFileName("openworker-qt")
    qapp = QApplication.instance() or QApplication([sys.argv[0], *argv])
    assert isinstance(qapp, QApplication)
    qapp.setWindowIcon(app_icon())
    qapp.setQuitOnLastWindowClosed(False)
    paths = app_paths().ensure()
    name = server_name(str(paths.data))
    if "--new-instance" not in argv and send_to_running(name, argv):
        return 0
    from openworker_qt.ui.theme import apply_theme, follow_system_scheme, install_translator

    install_translator(qapp)
    setup_logging(paths)  # the same redacting set-up as the CLI and headless modes
    try:
        # After an update: the schema steps run in a worker, a small window on screen.
        from openworker_qt.ui.upgrade_window import prepare_database

        prepare_database(paths.database)
        runtime = open_runtime()
    except Exception as exc:
        QMessageBox.critical(None, "OpenWorker Qt", f"OpenWorker Qt cannot start:\n\n{exc}")
        return 2
    apply_theme(qapp, str(runtime.config.get("ui.theme", "system")))
    follow_system_scheme(qapp, lambda: str(runtime.config.get("ui.theme", "system")))
    if language := str(runtime.config.get("general.language") or ""):
        install_translator(qapp, language)
    loop = new_event_loop(qapp)
    asyncio.set_event_loop(loop)
    from openworker_qt.ui.workspace import startup_workspace

    # Never the launch folder (under `scripts/dev app` that was the source checkout).
    # (MCP servers: their settings are read after the first paint, then they connect)
    desktop = DesktopApp(runtime, workspace=startup_workspace(runtime.config), load_mcp=True)
    install_excepthook(desktop.error_reported.emit)

    def on_loop_error(_loop: asyncio.AbstractEventLoop, ctx: dict[str, Any]) -> None:
        log.error("asyncio: %s", ctx.get("message"), exc_info=ctx.get("exception"))
        if not desktop._closing:  # (the window is going away: no banner)
            desktop.error_reported.emit(str(ctx.get("exception") or ctx.get("message")))

    loop.set_exception_handler(on_loop_error)
    single = SingleInstance(name, desktop)
    single.listen()
    single.message_received.connect(desktop.handle_args)
    desktop.start()

    # After the window is on screen: the workspace question, then onboarding (building
    # it probes the keyring: 25-120 ms here) would hold back the first paint.
    after_first_paint(desktop.window, desktop.start_first_run)
    if os.environ.get("OPENWORKER_BENCH_STARTUP"):
        after_first_paint(desktop.window, lambda: print(
            f"window-exposed {time.perf_counter() - _T0:.4f} cpu {time.process_time():.4f}",
            flush=True))
    if os.environ.get("OPENWORKER_SMOKE_TEST"):  # packaging: quit after the first paint
        from openworker_qt import smoke

        if smoke.enabled():
            smoke.arm(desktop, _T0)
    if argv:
        desktop.handle_args(argv)
    # Once quitting begins, the process ends within the watchdog's time, whatever
    # hangs (see quit_watchdog.py: nothing the user stored can be lost by it).
    watchdog = quit_watchdog.QuitWatchdog(exit_code=lambda: int(getattr(desktop, "smoke_status", 0)))
    desktop.quitting.connect(watchdog.arm)
    if os.environ.get(quit_watchdog.TEST_STUCK_THREAD_ENV):  # tests only (see quit_watchdog.py)
        quit_watchdog.start_stuck_thread()
    _quit_on_signals(desktop, watchdog)
    with loop:
        loop.run_forever()
        watchdog.arm()  # (the loop may also end without desktop.quit(): a log-out)
        _finish_leftover_tasks(loop)
        # What is left now (nothing, normally) would be destroyed at interpreter
        # exit, where the handler's logging could block: see _finish_leftover_tasks.
        loop.set_exception_handler(lambda _loop, _ctx: None)
    runtime.close()
    quit_watchdog.arm_backstop(watchdog.timeout)
    return int(getattr(desktop, "smoke_status", 0))


def _finish_leftover_tasks(loop: asyncio.AbstractEventLoop, timeout: float = 5.0) -> None:
    """Cancel the tasks still pending when the loop stops and let them end (bounded).

    Left pending, a task is destroyed during the interpreter's finalization: its
    "Task was destroyed but it is pending!" went to the loop's exception handler,
    which logs (the log handler's lock, the import lock for the record's copy)
    and emitted a Qt signal, at a moment when the daemon threads (SDK imports,
    keyring reads, the log writer) have been stopped wherever they were, any lock
    they held then held for ever. A SIGTERM at the first paint (the personas'
    read, the notifier's set-up still pending) was seen to hang there for good.
    """
    deadline = time.monotonic() + timeout
    while pending := [task for task in asyncio.all_tasks(loop) if not task.done()]:
        left = deadline - time.monotonic()
        if left <= 0:  # (a task that will not end: the quit watchdog is armed)
            log.warning("tasks still pending at quit: %s", pending)
            return
        for task in pending:  # (an ending task may start another: cancelled next round)
            task.cancel()
        try:
            loop.run_until_complete(asyncio.wait(pending, timeout=left))
        except Exception:
            log.exception("ending the tasks left at quit failed")
            return


def _quit_on_signals(desktop: DesktopApp,
                     watchdog: quit_watchdog.QuitWatchdog | None = None) -> None:
    """SIGINT/SIGTERM quit gracefully (a timer lets Python see the signal); the
    watchdog is armed at once, should the loop itself be stuck."""
    import signal

    def on_signal(*_: object) -> None:
        if watchdog is not None:
            watchdog.arm()
        desktop.quit()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    wake = QTimer(desktop)
    wake.timeout.connect(lambda: None)
    wake.start(300)
