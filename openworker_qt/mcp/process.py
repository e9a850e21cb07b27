"""A stdio MCP server's process: spawned in its own process group, and that whole
group ended (bounded) when the connection closes, however it closes.

The SDK's own stdio transport ends the group too, but only if its shielded
shut-down runs to the end: a native ``Task.cancel()`` (a start given up, the app
quitting) breaks into it, and a child that inherited the server's stdout (``npx``
starting ``node``, a wrapper script) then keeps its shielded drain reading
forever: the command never exits and the server is left running with PPID 1.

Here the group is remembered from the moment it is spawned (:data:`LIVE`) and
ended by :meth:`ProcessGroup.end` — SIGTERM to the group, a short grace, then
SIGKILL — from the transport's own clean-up *and* from
:meth:`~openworker_qt.mcp.client.McpServer.stop`, and, as a last resort, when the
interpreter exits (:func:`end_all_now`). POSIX only; Windows keeps the SDK's
transport (job objects).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import IO, Any

log = logging.getLogger(__name__)
#: The SDK's logger for stdout lines that are not JSON-RPC (quietened in client.py).
_garbage_log = logging.getLogger("mcp.client.stdio")

#: Seconds between SIGTERM to a server's group and SIGKILL.
GRACE = 1.0
#: Seconds a server may take to exit by itself once its stdin is closed.
EXIT_GRACE = 0.5
_POLL = 0.02

SUPPORTED = not sys.platform.startswith("win")


def _alive(pgid: int) -> bool:
    """Any process left in the group (zombies count until reaped; bounded by callers)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


class ProcessGroup:
    """A spawned server's process group (its leader's pid is the group id)."""

    def __init__(self, pgid: int) -> None:
        self.pgid = pgid
        self.ended = False
        LIVE[pgid] = self

    async def end(self, grace: float = GRACE) -> None:
        """SIGTERM the group, wait (bounded) for it to go, SIGKILL what is left."""
        import anyio

        if self.ended:
            return
        self.ended = True
        try:
            _signal(self.pgid, signal.SIGTERM)
            deadline = time.monotonic() + grace
            while _alive(self.pgid) and time.monotonic() < deadline:  # noqa: ASYNC110 (another process: no event)
                await anyio.sleep(_POLL)
            _signal(self.pgid, signal.SIGKILL)
        finally:
            LIVE.pop(self.pgid, None)

    def end_now(self) -> None:
        """The same without an event loop (the interpreter is exiting)."""
        if self.ended:
            return
        self.ended = True
        _signal(self.pgid, signal.SIGTERM)
        deadline = time.monotonic() + GRACE
        while _alive(self.pgid) and time.monotonic() < deadline:
            time.sleep(_POLL)
        _signal(self.pgid, signal.SIGKILL)
        LIVE.pop(self.pgid, None)


#: The groups spawned and not yet ended, by group id.
LIVE: dict[int, ProcessGroup] = {}


def end_all_now() -> None:
    """End every server group still running (at exit, or before ``os._exit``)."""
    for group in list(LIVE.values()):
        with contextlib.suppress(Exception):
            group.end_now()


atexit.register(end_all_now)


@asynccontextmanager
async def stdio_transport(
    command: str, args: list[str], *, env: Mapping[str, str], cwd: str | None,
    errlog: IO[bytes], groups: list[ProcessGroup],
) -> AsyncIterator[tuple[Any, Any]]:
    """(read stream, write stream) for :class:`mcp.ClientSession`, over the stdin and
    stdout of ``command`` run in a new process group (appended to ``groups``)."""
    import anyio
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    process = await anyio.open_process(
        [command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog,
        env=dict(env), cwd=cwd, start_new_session=True)
    group = ProcessGroup(process.pid)
    groups.append(group)
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    async def reader() -> None:
        buffer = b""
        try:
            async with read_send:
                async for chunk in stdout:
                    lines = (buffer + chunk).split(b"\n")
                    buffer = lines.pop()
                    for raw in lines:
                        line = raw.decode("utf-8", "replace").strip()
                        if not line:
                            continue
                        item: SessionMessage | Exception
                        try:
                            item = SessionMessage(
                                types.jsonrpc_message_adapter.validate_json(line, by_name=False))
                        except ValueError as exc:
                            _garbage_log.error("Failed to parse JSONRPC message from server")
                            item = exc
                        await read_send.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream,
                OSError):
            pass  # the connection is closing (or the server went): the session sees the end

    async def writer() -> None:
        try:
            async with write_recv:
                async for message in write_recv:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await stdin.send((data + "\n").encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_send.aclose()  # the server stopped reading: the session sees the end

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(reader)
            tg.start_soon(writer)
            try:
                yield read_recv, write_send
            finally:
                with anyio.CancelScope(shield=True):
                    await _close(process, group)
                tg.cancel_scope.cancel()
    finally:
        if not group.ended:  # (a native cancel broke into the clean-up above)
            group.end_now()


async def _close(process: Any, group: ProcessGroup) -> None:
    """Close stdin (the polite way to stop a stdio server), give it a moment, then end
    its whole group; close stdout so nothing reads a pipe a survivor holds."""
    import anyio

    with contextlib.suppress(Exception):
        await process.stdin.aclose()
    deadline = time.monotonic() + EXIT_GRACE
    while process.returncode is None and time.monotonic() < deadline:  # noqa: ASYNC110 (as above)
        await anyio.sleep(_POLL)
    await group.end()
    with contextlib.suppress(Exception):
        await process.stdout.aclose()
    with contextlib.suppress(Exception), anyio.move_on_after(1.0):
        await process.aclose()
