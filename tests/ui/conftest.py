"""Fixtures for the desktop app tests: a real DesktopApp on the qasync loop.

Scripts for the scripted provider are written to the test's tmp dir; tests
drive the loop with :func:`wait_for` (sync, outside any coroutine: ``qtbot.wait_until``
called inside a coroutine spins a nested event loop that the running qasync loop
never returns from, and the test hangs — CONTRIBUTING.md says the same).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def wait_for(loop: asyncio.AbstractEventLoop, predicate: Callable[[], object],
             timeout: float = 30.0, what: str = "condition") -> None:
    async def poll() -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    loop.run_until_complete(poll())


async def until(predicate: Callable[[], object], timeout: float = 30.0,  # noqa: ASYNC109
                what: str = "condition") -> None:
    """Inside a scenario coroutine: poll until ``predicate()`` is true."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def posted_marker() -> Callable[[], bool]:
    """Post a marker event to Qt's queue and start a zero timer now; the returned
    check is true once both have arrived. Qt delivers posted events in order, and
    timers by when they are due, so by then every event posted and every zero timer
    started before (a queued signal from a worker thread, a deferred layout, a
    ``singleShot(0)``) has been handled: wait on it before asserting that one of
    them did nothing."""
    from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

    class Marker(QObject):
        delivered = False

        def event(self, event: QEvent) -> bool:
            if event.type() == QEvent.Type.User:
                self.delivered = True
                return True
            return super().event(event)

    marker = Marker()
    QCoreApplication.postEvent(marker, QEvent(QEvent.Type.User))
    timer = QTimer(marker)
    timer.setSingleShot(True)
    fired: list[bool] = []
    timer.timeout.connect(lambda: fired.append(True))
    timer.start(0)
    return lambda: marker.delivered and bool(fired)


def run(loop: asyncio.AbstractEventLoop, scenario: Callable[[], Any]) -> Any:
    """Run a whole UI scenario as one coroutine on the qasync loop.

    The loop keeps running for the whole scenario, as it does in the app (stopping
    and restarting qasync between a click and the wait can lose a wake-up).
    """
    return loop.run_until_complete(scenario())


def act(loop: asyncio.AbstractEventLoop, action: Callable[[], Any]) -> Any:
    """Run a UI action (a click, a key press) while the loop is running, as in the app."""

    async def run() -> Any:
        return action()

    return loop.run_until_complete(run())


def write_script(folder: Path, turns: list[dict[str, Any]], name: str = "script.json") -> str:
    path = folder / name
    path.write_text(json.dumps(turns), encoding="utf-8")
    return f"scripted:{path}"


@pytest.fixture
def make_desktop(qloop, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime

    made: list[Any] = []

    def make(turns: list[dict[str, Any]] | None = None, **kwargs: Any) -> Any:
        rt = open_runtime()
        workspace = tmp_path / "ws"
        workspace.mkdir(exist_ok=True)
        if turns is not None:
            rt.config.data["general"]["default_model"] = write_script(tmp_path, turns)
        desktop = DesktopApp(rt, workspace=workspace, enable_tray=False, **kwargs)
        desktop.window.show()
        made.append(desktop)
        return desktop

    yield make
    for desktop in made:
        qloop.run_until_complete(desktop.shutdown())
        desktop.window.deleteLater()
        desktop.runtime.close()


def look_away(qtbot) -> Any:
    """The user is in another window: the app's main window is not the active one, so
    an ask gets its dialog and its notification as well as its inline card (asks of
    the session on screen in the active window get the card alone)."""
    from PySide6.QtWidgets import QApplication, QWidget

    other = QWidget()
    other.setWindowTitle("Another application")
    qtbot.addWidget(other)
    other.show()
    other.activateWindow()
    for _ in range(50):
        if other.isActiveWindow():
            break
        QApplication.processEvents()
    assert other.isActiveWindow()
    return other
