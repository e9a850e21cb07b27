"""A real HTTP/1.1 file server on loopback for download tests.

Serves ``files`` (path → bytes), honours ``Range: bytes=N-`` with 206, logs every
request's Range header, and can drop the connection after ``drop_after`` bytes of
a body (once, then serves normally) to simulate a lost connection.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FileServer:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.ranges: list[str | None] = []
        self.drop_after: int | None = None
        self.honour_range = True
        self.url = ""


def _handler(state: FileServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            body = state.files.get(self.path)
            header = self.headers.get("Range")
            state.ranges.append(header)
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            start = 0
            match = re.match(r"bytes=(\d+)-$", header or "")
            if match and state.honour_range:
                start = int(match.group(1))
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            part = body[start:]
            self.send_header("Content-Length", str(len(part)))
            self.end_headers()
            if state.drop_after is not None:
                cut, state.drop_after = state.drop_after, None
                self.wfile.write(part[:cut])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            self.wfile.write(part)

    return Handler


@contextmanager
def serve() -> Iterator[FileServer]:
    state = FileServer()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
