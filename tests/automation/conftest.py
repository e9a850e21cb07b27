"""Shared fixtures: the desktop app of the UI tests, and a loopback HTTP server
standing in for a chat service (the EXTERNAL send of the morning brief)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.ui.conftest import make_desktop  # noqa: F401  (a fixture)


class Hits(BaseHTTPRequestHandler):
    sent: list[str] = []

    def do_GET(self) -> None:
        Hits.sent.append(self.path)
        body = b"sent"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def slack() -> Iterator[str]:
    Hits.sent = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Hits)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
