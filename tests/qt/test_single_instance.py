"""The single-instance socket: a later launch's arguments reach the running app, and a
SingleInstance its owner drops while a handed-over connection is still closing does not
take the process down (it did: the socket's handler held the object, which was then
deleted from inside the socket's own deletion — a segfault in whichever test's
``processEvents`` came next)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import sys, time
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication
from openworker_qt.qt.single_instance import SingleInstance, send_to_running

app = QApplication([])
name = sys.argv[1]

def hand_over():
    running = SingleInstance(name)  # no parent: the caller owns it
    assert running.listen()
    got = []
    running.message_received.connect(got.append)
    assert send_to_running(name, ["report.md"])
    deadline = time.monotonic() + 20
    while not got and time.monotonic() < deadline:
        app.processEvents()
    print("GOT", got, flush=True)
    running.server.close()
    # dropped here, the second launch's connection still closing

hand_over()
for _ in range(50):  # the socket's disconnection and deferred deletion arrive now
    app.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    time.sleep(0.005)
print("ALIVE", flush=True)
"""


def test_a_dropped_single_instance_outlives_its_closing_connection(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONFAULTHANDLER": "1",
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    name = f"openworker-qt-test-{os.getpid()}-{tmp_path.name}"
    done = subprocess.run([sys.executable, "-c", CHILD, name], env=env, cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["GOT [['report.md']]", "ALIVE"]
