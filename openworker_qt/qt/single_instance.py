"""Single instance: a second launch hands its arguments to the running app and exits.

The first process listens on a per-user, per-data-dir local socket
(``QLocalServer``). A later launch connects, writes its arguments as one JSON
line and quits; the first one raises its window and handles the arguments.

Signals:
    message_received(list): the arguments of a later launch.
"""

from __future__ import annotations

import hashlib
import json
import os

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket


def server_name(data_dir: str) -> str:
    user = os.environ.get("USER") or os.environ.get("USERNAME") or "user"
    digest = hashlib.sha1(f"{user}:{data_dir}".encode()).hexdigest()[:12]
    return f"openworker-qt-{digest}"


def send_to_running(name: str, args: list[str], timeout_ms: int = 500) -> bool:
    """True if a running instance took the arguments (then this process should exit)."""
    sock = QLocalSocket()
    sock.connectToServer(name)
    if not sock.waitForConnected(timeout_ms):
        return False
    sock.write((json.dumps(args) + "\n").encode())
    sock.flush()
    sock.waitForBytesWritten(timeout_ms)
    sock.disconnectFromServer()
    return True


class SingleInstance(QObject):
    message_received = Signal(list)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.server = QLocalServer(self)
        self.server.newConnection.connect(self._on_server_connection)

    def listen(self) -> bool:
        if self.server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)  # a stale socket after a crash
        return self.server.listen(self.name)

    def _on_server_connection(self) -> None:
        while (sock := self.server.nextPendingConnection()) is not None:
            # A bound method, not a lambda holding ``self``: a lambda on the socket kept
            # this object alive until the socket went, and a SingleInstance dropped by its
            # owner was then deleted from inside the socket's own deletion (a crash).
            sock.readyRead.connect(self._on_socket_ready)
            sock.disconnected.connect(sock.deleteLater)

    def _on_socket_ready(self) -> None:
        sock = self.sender()
        if not isinstance(sock, QLocalSocket):
            return
        while sock.canReadLine():
            line = bytes(sock.readLine().data()).decode(errors="replace").strip()
            try:
                args = json.loads(line) if line else []
            except ValueError:
                continue
            if isinstance(args, list):
                self.message_received.emit([str(a) for a in args])
