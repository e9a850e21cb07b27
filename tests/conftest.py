"""Test harness shared by the whole suite.

* every test gets its own state dir (``OPENWORKER_HOME``) and an empty
  in-memory keyring;
* no test reaches the network: connections to anything but loopback fail loudly;
* Qt runs offscreen; ``qloop`` gives a qasync event loop for tests that need Qt
  timers and asyncio together (drive it with ``qloop.run_until_complete``; never
  ``qtbot.wait_signal`` inside a coroutine on it — that hangs: await an asyncio
  future the signal resolves instead).
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import pytestqt.plugin as pytestqt_plugin

SUPPORT = Path(__file__).parent / "support"
REPO = Path(__file__).resolve().parents[1]

os.environ["QT_QPA_PLATFORM"] = os.environ.get("OPENWORKER_TEST_QPA", "offscreen")
os.environ["QT_API"] = "pyside6"
os.environ["PYTHON_KEYRING_BACKEND"] = "memkeyring.MemoryKeyring"
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(SUPPORT), os.environ.get("PYTHONPATH", "")) if p
)
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))


# --------------------------------------------------------------------------- network


import netguard  # noqa: E402  (needs SUPPORT on sys.path)

netguard.install()


# ---------------------------------------------------------------------------- state


@pytest.fixture(autouse=True)
def isolated_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "owhome"
    monkeypatch.setenv("OPENWORKER_HOME", str(home))
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    import keyring
    import memkeyring

    from openworker_qt.storage import secrets

    memkeyring.clear()
    secrets.forget_known()
    keyring.set_keyring(memkeyring.MemoryKeyring())
    yield home
    memkeyring.clear()
    secrets.forget_known()


@pytest.fixture
def qloop(qapp):
    """A qasync event loop on the test's QApplication (see module docstring)."""
    from openworker_qt.qt.event_loop import new_event_loop

    hooks = sys.get_asyncgen_hooks()
    loop = new_event_loop(qapp)
    asyncio.set_event_loop(loop)
    _QLOOP[:] = [loop]
    try:
        yield loop
    finally:
        try:
            _cancel_left_tasks(loop)
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()
            _QLOOP.clear()
            asyncio.set_event_loop(None)
            sys.set_asyncgen_hooks(*hooks)
            # The closed loop's Qt objects (timers, notifiers) freed now: left to a later
            # collection they were freed inside another test's processEvents and Qt crashed.
            gc.collect()


def _cancel_left_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what the test left running and let it unwind, as ``asyncio.run`` does: a
    task spawned at the last moment (a service's start after the first paint) that never
    ran would otherwise be collected later as a coroutine "never awaited", reported in
    whichever test the garbage collector happens to run."""
    left = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in left:
        task.cancel()
    if left:
        loop.run_until_complete(asyncio.wait(left, timeout=10))


# pytest-qt processes Qt events after each test and around its teardown. With a qasync
# loop on the app, that runs the loop's pending callbacks too, but outside a running loop:
# a callback that then makes a task (a service starting after the first paint) failed with
# "no running event loop" and left its coroutine never awaited. They run as the loop runs
# them: with it set as the running loop.
_QLOOP: list[asyncio.AbstractEventLoop] = []


def _process_events_on_the_loop() -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        return
    loop = _QLOOP[0] if _QLOOP else None
    if loop is None or loop.is_closed() or loop.is_running():
        app.processEvents()
        return
    asyncio.events._set_running_loop(loop)
    try:
        app.processEvents()
    finally:
        asyncio.events._set_running_loop(None)


pytestqt_plugin._process_events = _process_events_on_the_loop



def pytest_sessionfinish(session: object, exitstatus: object) -> None:
    """What a test put on the clipboard (a viewer's or a file chip's copy: a QMimeData
    made in Python, which the clipboard then owns) is dropped while Python is alive;
    left there, Qt's clean-up at process exit frees it after the interpreter and the
    process dies with a segfault after every test has passed."""
    import sys

    if "PySide6.QtGui" not in sys.modules:
        return
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is not None:
        QGuiApplication.clipboard().clear()
