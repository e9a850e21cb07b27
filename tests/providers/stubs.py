"""Stub HTTP servers on 127.0.0.1 that speak the providers' real wire protocols.

A :class:`StubServer` answers ``method + path`` (query ignored) with queued
:class:`Reply` objects: status, content type, the body written byte for byte,
optionally re-chunked at arbitrary byte offsets (chunked transfer encoding), cut
off mid-body, or stalled. Every request is recorded with its parsed JSON body so
tests can assert what the adapter sent.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

REPO_ROOT = Path(__file__).resolve().parents[2]
# Vendored with the tests (provenance and licences: recordings/PROVENANCE.md), so a
# clone runs the suite with nothing beside it.
RECORDINGS_DIR = Path(__file__).resolve().parent / "recordings"
#: Exchanges recorded here from a real local server by ``scripts/local-model record``
#: (their provenance is in each file and in the folder's README.md), replayed by
#: tests/providers/test_llamacpp_replay.py; the other folders hold public recordings.
LOCAL_RECORDINGS = "llamacpp"


def recording_files() -> list[Path]:
    """Every public recording; a missing directory is an error, never a skip."""
    if not RECORDINGS_DIR.is_dir():
        raise RuntimeError(f"provider recordings not found at {RECORDINGS_DIR}")
    files = sorted(p for p in RECORDINGS_DIR.glob("*/*.json") if p.parent.name != LOCAL_RECORDINGS)
    if not files:
        raise RuntimeError(f"no recordings in {RECORDINGS_DIR}")
    return files


def load_recording(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDINGS_DIR / name).read_text(encoding="utf-8"))
    return data


@dataclass
class Reply:
    status: int = 200
    body: str | bytes = ""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    chunking: str | int | None = None  # None: one write; int: fixed size; "random": 1..23 bytes
    seed: int = 0
    cut_after: int | None = None  # close the connection after this many body bytes
    stall_after: int | None = None  # stop sending (forever) after this many body bytes
    delay: float = 0.0  # before the headers
    pace: float = 0.0  # between two chunks (with ``chunking``): a slow but live answer


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    raw_path: str = ""  # as sent, percent-encoded (``path`` is decoded)


def sse(*events: dict[str, Any] | str, event_names: bool = False, sep: str = "\n\n") -> str:
    """Frame JSON events as SSE (``data: {...}``; optionally ``event: <type>`` lines)."""
    out = []
    for ev in events:
        if isinstance(ev, str):
            out.append(f"data: {ev}{sep}")
        elif event_names:
            out.append(f"event: {ev['type']}\ndata: {json.dumps(ev)}{sep}")
        else:
            out.append(f"data: {json.dumps(ev)}{sep}")
    return "".join(out)


def split_points(size: int, chunking: str | int | None, seed: int) -> list[int]:
    if chunking is None or size == 0:
        return [0, size]
    if isinstance(chunking, int):
        return [*range(0, size, chunking), size]
    rng = random.Random(seed)
    points = [0]
    while points[-1] < size:
        points.append(min(size, points[-1] + rng.randint(1, 23)))
    return points


class StubServer:
    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], list[Reply]] = {}
        self.seen: list[Seen] = []
        #: The answer to a request no route names (None: a 599 saying so).
        self.fallback: Reply | None = None
        self.url = ""
        self._runner: web.AppRunner | None = None

    def add(self, method: str, path: str, *replies: Reply) -> None:
        self.routes.setdefault((method.upper(), path), []).extend(replies)

    def replay(self, recording: dict[str, Any], *, chunking: str | int | None = None, seed: int = 0) -> None:
        req, resp = recording["request"], recording["response"]
        self.add(
            req["method"],
            req["path"],
            Reply(
                status=resp["status"],
                body=resp["body"],
                content_type=resp["headers"]["content-type"],
                chunking=chunking,
                seed=seed,
            ),
        )

    def requests_to(self, path_part: str) -> list[Seen]:
        return [s for s in self.seen if path_part in s.path]

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        self.seen.append(
            Seen(request.method, request.path, dict(request.query), {k.lower(): v for k, v in request.headers.items()}, body,
                 request.rel_url.raw_path)
        )
        queue = self.routes.get((request.method, request.path))
        if not queue and self.fallback is not None:
            queue = [self.fallback]
        if not queue:
            return web.json_response(
                {"error": {"message": f"no stub for {request.method} {request.path}"}}, status=599
            )
        reply = queue.pop(0) if len(queue) > 1 else queue[0]
        if reply.delay:
            await asyncio.sleep(reply.delay)
        data = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
        resp = web.StreamResponse(status=reply.status, headers=reply.headers)
        resp.content_type = reply.content_type.split(";")[0].strip()
        if "charset=" in reply.content_type.lower():
            resp.charset = reply.content_type.lower().split("charset=")[1].strip()
        resp.enable_chunked_encoding()
        await resp.prepare(request)
        points = split_points(len(data), reply.chunking, reply.seed)
        sent = 0
        for start, end in zip(points, points[1:], strict=False):
            piece = data[start:end]
            for limit, action in ((reply.cut_after, "cut"), (reply.stall_after, "stall")):
                if limit is not None and sent + len(piece) > limit:
                    await resp.write(piece[: limit - sent])
                    if action == "cut":
                        assert request.transport is not None
                        request.transport.close()
                        return resp
                    await asyncio.sleep(3600)
            await resp.write(piece)
            sent += len(piece)
            if reply.chunking is not None:
                await asyncio.sleep(reply.pace)
        await resp.write_eof()
        return resp

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()



async def no_sleep(_: float) -> None:
    await asyncio.sleep(0)


class ThreadStub:
    """A plain ``http.server`` on 127.0.0.1 in a thread, answering JSON by
    ``method + path`` (for callers that block: a CLI command, a worker thread, a
    Qt test without an asyncio server). ``routes[("GET", "/props")] = (200, {...})``;
    anything else is a 404. ``seen`` lists ``(method, path, body)``."""

    def __init__(self) -> None:
        import http.server
        import threading

        self.routes: dict[tuple[str, str], tuple[int, Any]] = {}
        self.seen: list[tuple[str, str, Any]] = []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(size) if size else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw
                path = self.path.split("?", 1)[0]
                stub.seen.append((self.command, path, body))
                status, payload = stub.routes.get((self.command, path), (404, {"error": "not found"}))
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer  # noqa: N815

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True,
                                        name="thread-stub")

    def paths(self) -> list[str]:
        return [p for _m, p, _b in self.seen]

    def __enter__(self) -> ThreadStub:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
