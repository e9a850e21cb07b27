"""One configured MCP server: its connection, its status, its calls.

:class:`McpServer` is a runtime lifecycle service. ``start()`` returns at once:
the connection is made by a background task (so servers start in parallel and
the window never waits for one), and again on demand by the next call after a
crash or a hang. Every wait is bounded: connecting by ``connect_timeout``, a call
by the server's ``timeout``; whatever goes wrong becomes a
:class:`~openworker_qt.mcp.status.McpFailure` whose message says in plain words
what happened (``failures.py``), with the tail of the server's stderr
(``server_output.py``).

The SDK's session is entered and left inside one task (anyio's cancel scopes
require it); calls from the engine's tasks only send requests on it.
Cancelling a call (the user stopped the turn) makes the SDK send
``notifications/cancelled`` to the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

from openworker_qt.core.background import spawn
from openworker_qt.mcp.config import ServerConfig, resolve
from openworker_qt.mcp.failures import explain, is_transport_error, needs_sign_in, not_found
from openworker_qt.mcp.server_output import StderrTail
from openworker_qt.mcp.status import McpFailure, PromptInfo, ResourceInfo, State, Status, ToolInfo

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 30.0  # (the default ``startTimeout``: config.DEFAULT_START_TIMEOUT)
#: Seconds a server that failed to start is not tried again (doubling per failure, up to the last).
BACKOFF = (1.0, 2.0, 5.0, 15.0, 30.0, 60.0)


@dataclass(frozen=True, slots=True)
class _Content:
    content: list[Any]


Listener = Callable[["McpServer"], None]
Notice = Callable[["McpServer", str], None]


class McpServer:
    """See the module docstring. ``get_secret`` resolves ``${VAR}`` (blocking: it
    runs in a worker); ``path`` gives the PATH the server is spawned with."""

    def __init__(
        self,
        config: ServerConfig,
        *,
        get_secret: Callable[[str], str | None] | None = None,
        set_secret: Callable[[str, str], None] | None = None,
        path: Callable[[], str] | None = None,
        connect_timeout: float | None = None,
        auth: Any = None,
    ) -> None:
        self.config = config
        self.name = f"MCP server {config.name}"
        self.get_secret = get_secret or (lambda _n: None)
        self.set_secret = set_secret
        self._signing_in: tuple[Any, Any] | None = None  # (LoopbackCallback, browser)
        self.path = path or (lambda: os.environ.get("PATH", os.defpath))
        self._connect_timeout = connect_timeout
        self.auth = auth  # an httpx2.Auth (OAuth) for HTTP servers
        self.stderr = StderrTail()
        #: The process groups of this server's stdio processes not known to be ended.
        self._groups: list[Any] = []
        self.tools: list[ToolInfo] = []
        self.server_info: str = ""
        self.instructions: str = ""
        self.capabilities: Any = None
        self.listeners: list[Listener] = []
        self.on_notice: Notice | None = None
        self.on_tools_changed: Callable[[McpServer], None] | None = None
        self._status = Status(State.DISABLED if not config.enabled else State.STOPPED)
        self._session: Any = None
        self._task: asyncio.Task[None] | None = None
        self._ready: asyncio.Future[None] | None = None
        self._closing: asyncio.Event | None = None
        self._failures = 0
        self._failed_at = 0.0
        self.backoff = BACKOFF
        self._stopped = False
        self._watchdog: asyncio.TimerHandle | None = None
        self._retry_at: asyncio.TimerHandle | None = None
        self._episode_noticed = False
        self.log: list[str] = []  # what happened, for the settings page and `mcp test`
        self.http_status = 0  # the last HTTP status an HTTP server answered with

    @property
    def connect_timeout(self) -> float:
        """Seconds a start may take: the caller's bound, else the server's
        ``startTimeout`` setting."""
        if self._connect_timeout is not None:
            return self._connect_timeout
        return self.config.start_timeout

    @connect_timeout.setter
    def connect_timeout(self, value: float | None) -> None:
        self._connect_timeout = value

    # ------------------------------------------------------------ status

    @property
    def status(self) -> Status:
        return self._status

    def _set(self, state: State, message: str = "") -> None:
        stderr = self.stderr.text() if state is State.FAILED else ""
        self._status = Status(state, message, len(self.tools), stderr)
        self._note(f"{state.value}{': ' + message if message else ''}")
        if state is State.READY:
            self._failures = 0
            self._episode_noticed = False
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:
                log.exception("an MCP status listener failed")

    def _note(self, line: str) -> None:
        self.log.append(time.strftime("%H:%M:%S ") + line)
        del self.log[:-200]

    def _failure(self, message: str, *, in_call: bool = False) -> McpFailure:
        """Record a failure; the first of an episode is announced (:attr:`on_notice`).
        A failure during a call (crash, hang) lets the next call restart the server at
        once; failing to start backs off."""
        self._failures = 0 if in_call else self._failures + 1
        self._failed_at = time.monotonic()
        self._set(State.FAILED, message)
        text = message
        tail = self.stderr.text(8)
        if tail:
            text += f"\nWhat the server printed last:\n{tail}"
        if not self._episode_noticed and self.on_notice is not None:
            self._episode_noticed = True
            try:
                self.on_notice(self, text)
            except Exception:
                log.exception("an MCP notice listener failed")
        return McpFailure(f"The MCP server {self.config.name!r}: {text}")

    # --------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Start connecting in the background (returns at once)."""
        self._stopped = False
        if self.config.enabled and self._task is None:
            self._spawn()

    async def stop(self) -> None:
        self._stopped = True
        self._cancel_timers()
        task, self._task = self._task, None
        was_ready, self._session = self._session is not None, None
        if task is not None:
            if self._closing is not None:
                self._closing.set()
            try:
                if not was_ready:  # still starting: nothing to close politely
                    raise TimeoutError
                await asyncio.wait_for(asyncio.shield(task), 5.0)
            except (TimeoutError, asyncio.CancelledError, Exception):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(task, 5.0)
        await self._end_groups()
        if self._status.state in (State.READY, State.STARTING):
            self._set(State.STOPPED)

    async def _end_groups(self) -> None:
        """End every process group this server spawned that is not known to be gone
        (whatever became of the task that owned it). Bounded."""
        groups = list(self._groups)
        self._groups.clear()
        for group in groups:
            with contextlib.suppress(Exception):
                await group.end()

    def disable(self) -> None:
        self._set(State.DISABLED)

    async def restart(self) -> None:
        await self.stop()
        self._stopped = False
        self._failures = 0
        self._spawn()

    def _spawn(self) -> None:
        loop = asyncio.get_running_loop()
        self._cancel_timers()
        self._ready = loop.create_future()
        self._closing = asyncio.Event()
        self._set(State.STARTING)
        self._task = loop.create_task(self._run(self._ready, self._closing),
                                      name=f"mcp:{self.config.name}")
        if self._signing_in is None:  # (a sign-in waits for the user instead)
            self._watchdog = loop.call_later(self.connect_timeout, self._start_overdue, self._task)

    def _cancel_timers(self) -> None:
        for handle in (self._watchdog, self._retry_at):
            if handle is not None:
                handle.cancel()
        self._watchdog = self._retry_at = None

    def _start_overdue(self, task: asyncio.Task[None]) -> None:
        """Nobody waited for this start and it is taking too long: give up on it."""
        self._watchdog = None
        if task is self._task and self._ready is not None and not self._ready.done():
            spawn(self._give_up_start(self.connect_timeout))

    async def _give_up_start(self, limit: float) -> McpFailure:
        ready = self._ready
        failure = self._failure(f"did not finish starting within {limit:g} s." + self._hint())
        if ready is not None and not ready.done():
            ready.set_exception(failure)
            ready.exception()
        await self._discard()
        self._schedule_retry()
        return failure

    def _schedule_retry(self) -> None:
        """Try a server that failed to start again in the background, backing off
        (:data:`BACKOFF`); a call in between starts it at once after the back-off."""
        if self._stopped or not self.config.enabled or self._failures > len(self.backoff):
            return
        wait = self.backoff[min(self._failures, len(self.backoff)) - 1]
        self._retry_at = asyncio.get_running_loop().call_later(wait, self._retry)

    def _retry(self) -> None:
        self._retry_at = None
        if (not self._stopped and self._status.state is State.FAILED
                and (self._task is None or self._task.done())):
            self._note("trying again")
            self._spawn()

    def backoff_left(self) -> float:
        if self._status.state is not State.FAILED or not self._failures:
            return 0.0
        wait = self.backoff[min(self._failures, len(self.backoff)) - 1]
        return max(0.0, self._failed_at + wait - time.monotonic())

    async def ensure_ready(self, *, wait_backoff: bool = False, within: float | None = None) -> Any:
        """The live session, connecting first if needed (bounded by ``connect_timeout``)."""
        if not self.config.enabled:
            raise McpFailure(f"The MCP server {self.config.name!r} is turned off in the settings.")
        if self._session is not None and self._task is not None and not self._task.done():
            return self._session
        if self._task is None or self._task.done() or self._ready is None:
            left = self.backoff_left()
            if left > 0 and not wait_backoff:
                raise McpFailure(
                    f"The MCP server {self.config.name!r} is not working "
                    f"({self._status.message}); it is tried again in {left:.0f} s.")
            if left > 0:
                await asyncio.sleep(left)
            await self._discard()
            self._spawn()
        assert self._ready is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), within or self.connect_timeout)
        except TimeoutError:
            raise await self._give_up_start(within or self.connect_timeout) from None
        except McpFailure:
            raise
        except Exception as exc:  # _run reports it
            raise McpFailure(str(exc)) from exc
        return self._session

    async def _discard(self) -> None:
        task, self._task = self._task, None
        self._session = None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 10.0)
        await self._end_groups()

    def _hint(self) -> str:
        if self.config.transport != "stdio":
            return ""
        if self.stderr.total == 0:
            return (" It printed nothing. Check that the command starts an MCP server "
                    "(some need an argument such as 'stdio' or 'mcp').")
        return ""

    # ----------------------------------------------------------- the task

    async def _run(self, ready: asyncio.Future[None], closing: asyncio.Event) -> None:
        try:
            async with AsyncExitStack() as stack:
                session = await self._open(stack)
                init = await session.initialize()
                info = init.server_info
                self.server_info = f"{info.name} {info.version}".strip()
                self.instructions = (init.instructions or "")[:2000]
                self.capabilities = init.capabilities
                self.tools = await self._list_tools(session) if init.capabilities.tools else []
                self._session = session
                self._set(State.READY, self.server_info)
                if not ready.done():
                    ready.set_result(None)
                await closing.wait()
        except asyncio.CancelledError:
            if not ready.done():  # a waiting call gets an answer, never our cancellation
                ready.set_exception(McpFailure(
                    f"The MCP server {self.config.name!r} was stopped while it was starting."))
            raise
        except McpFailure as exc:  # (a missing program or keyring entry may come later)
            if not ready.done():
                ready.set_exception(exc)
            self._schedule_retry()
        except BaseException as exc:
            failure = self._failure(explain(exc, self.config, self.http_status, self._hint()))
            if not ready.done():
                ready.set_exception(failure)
            log.info("MCP server %s: %s", self.config.name, failure, exc_info=exc)
            if not needs_sign_in(exc):
                self._schedule_retry()
        finally:
            self._session = None
            if ready.done() and not ready.cancelled():
                ready.exception()  # retrieved: never "exception was never retrieved"

    async def _open(self, stack: AsyncExitStack) -> Any:
        from mcp import ClientSession

        self.stderr.clear()
        config = self.config
        if config.transport == "stdio":
            streams = await self._open_stdio(stack)
        else:
            streams = await self._open_http(stack)
        read, write = streams[0], streams[1]
        session = ClientSession(read, write, message_handler=self._on_message,
                                logging_callback=self._on_log)
        return await stack.enter_async_context(session)

    async def _open_stdio(self, stack: AsyncExitStack) -> Any:
        from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

        from openworker_qt.mcp import process

        config = self.config
        env, missing = await asyncio.to_thread(resolve, config.env, self.get_secret)
        if missing:
            raise self._failure(
                "needs " + ", ".join(missing) + " from the keyring, which has no such entry "
                "(nor is it set in the environment). Add it in Settings (or `openworker-qt "
                "mcp secret NAME`) and try again.")
        path = await asyncio.to_thread(self.path)  # the login shell's, the first time
        env.setdefault("PATH", path)
        program = await asyncio.to_thread(shutil.which, config.command, path=env["PATH"])
        if program is None:
            raise self._failure(not_found(config.command))
        errlog = self.stderr.open()
        try:
            if process.SUPPORTED:  # its own process group, ended however the connection ends
                return await stack.enter_async_context(process.stdio_transport(
                    program, list(config.args), env=get_default_environment() | env,
                    cwd=config.cwd, errlog=errlog, groups=self._groups))
            params = StdioServerParameters(command=program, args=list(config.args), env=env,
                                           cwd=config.cwd, encoding_error_handler="replace")
            return await stack.enter_async_context(stdio_client(params, errlog=errlog))  # type: ignore[arg-type]
        except OSError as exc:
            raise self._failure(f"could not be started: {exc.strerror or exc}.") from exc
        finally:
            errlog.close()  # the child has its copy

    async def _open_http(self, stack: AsyncExitStack) -> Any:
        import httpx2

        config = self.config
        headers, missing = await asyncio.to_thread(resolve, config.headers, self.get_secret)
        if missing:
            raise self._failure(
                "needs " + ", ".join(missing) + " from the keyring, which has no such entry "
                "(nor is it set in the environment).")
        auth = self.auth if self.auth is not None else self._oauth()
        if config.transport == "sse":
            from mcp.client.sse import sse_client

            return await stack.enter_async_context(sse_client(
                config.url, headers=headers, timeout=min(30.0, self.connect_timeout),
                auth=auth))
        from mcp.client.streamable_http import streamable_http_client

        self.http_status = 0

        async def seen(response: Any) -> None:  # (the SDK keeps only "an error response")
            self.http_status = response.status_code

        client = httpx2.AsyncClient(
            headers=headers, auth=auth, event_hooks={"response": [seen]},
            timeout=httpx2.Timeout(min(30.0, self.connect_timeout), read=300.0))
        await stack.enter_async_context(client)
        return await stack.enter_async_context(streamable_http_client(config.url, http_client=client))

    def _oauth(self) -> Any:
        if not self.config.uses_oauth or self.set_secret is None:
            return None
        from openworker_qt.mcp import oauth

        return oauth.provider(
            self.config.name, self.config.url,
            port=int(self.config.oauth_setting("port", oauth.DEFAULT_PORT)),
            scope=self.config.oauth_setting("scope"),
            get_secret=self.get_secret, set_secret=self.set_secret,
            signing_in=lambda: self._signing_in)

    async def sign_in(self, *, browser: Any = None, within: float | None = None) -> None:
        """Sign in in the browser (the user asked): a loopback listener receives the
        redirect; then the server is connected with the new tokens."""
        from openworker_qt.mcp import oauth

        if not self.config.uses_oauth:
            raise McpFailure(f"The MCP server {self.config.name!r} does not use a sign-in.")
        limit = within or oauth.SIGN_IN_TIMEOUT
        callback = oauth.LoopbackCallback(int(self.config.oauth_setting("port", oauth.DEFAULT_PORT)))
        try:
            await callback.start()
        except oauth.SignInRequired as exc:
            raise self._failure(str(exc)) from None
        self._signing_in = (callback, browser)
        try:
            await self.stop()
            self._failures = 0
            self._spawn()
            await self.ensure_ready(within=limit)
        finally:
            self._signing_in = None
            await callback.close()

    async def _list_tools(self, session: Any) -> list[ToolInfo]:
        from mcp import types

        tools: list[ToolInfo] = []
        cursor: str | None = None
        for _page in range(50):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            result = await session.list_tools(params=params)
            for tool in result.tools:
                hints = tool.annotations
                tools.append(ToolInfo(
                    name=tool.name, title=tool.title or (hints.title if hints else None) or "",
                    description=tool.description or "",
                    schema=dict(tool.input_schema or {"type": "object"}),
                    read_only_hint=hints.read_only_hint if hints else None,
                    destructive_hint=hints.destructive_hint if hints else None,
                ))
            cursor = result.next_cursor
            if not cursor:
                break
        return tools

    async def _on_message(self, message: Any) -> None:
        from mcp import types

        if isinstance(message, Exception):
            self._note(f"the server sent something that is not MCP: {str(message)[:200]}")
            return
        if isinstance(message, types.ToolListChangedNotification):
            session = self._session
            if session is None:
                return
            try:
                self.tools = await self._list_tools(session)
            except Exception as exc:
                self._note(f"listing the tools again failed: {exc}")
                return
            self._note(f"the server changed its tools ({len(self.tools)})")
            self._set(State.READY, self.server_info)
            if self.on_tools_changed is not None:
                self.on_tools_changed(self)

    async def _on_log(self, params: Any) -> None:
        self._note(f"[{params.level}] {str(params.data)[:500]}")

    # ----------------------------------------------------------- requests

    async def request(
        self, call: Callable[[Any], Awaitable[Any]], what: str, *, within: float | None = None,
    ) -> Any:
        """Run ``call(session)`` within the server's time-out. A crash, a hang or a
        broken connection becomes :class:`McpFailure` (and the next request starts
        the server again); an error the server answered with is re-raised as is."""
        from mcp.shared.exceptions import MCPError
        from mcp.types import CONNECTION_CLOSED, REQUEST_TIMEOUT

        session = await self.ensure_ready()
        limit = within or self.config.timeout
        try:
            async with asyncio.timeout(limit + 1.0):  # (no extra task per call, as wait_for)
                return await call(session)
        except TimeoutError:
            await self._discard()
            raise self._failure(f"did not answer {what} within {limit:g} s; it is "
                                "restarted for the next call.", in_call=True) from None
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT:
                await self._discard()
                raise self._failure(f"did not answer {what} within {limit:g} s; it is "
                                    "restarted for the next call.", in_call=True) from None
            if self.config.transport != "stdio" and self.http_status in (401, 403):
                raise self._failure(explain(exc, self.config, self.http_status, self._hint()),
                                    in_call=True) from None
            if exc.code == CONNECTION_CLOSED or not self._alive():
                await self._why_closed()
                raise self._failure(f"stopped while answering {what}; it is restarted "
                                    "for the next call.", in_call=True) from None
            raise
        except (OSError, EOFError) as exc:
            await self._discard()
            raise self._failure(f"the connection broke while answering {what} ({exc}); "
                                "it is restarted for the next call.", in_call=True) from None
        except Exception as exc:
            if is_transport_error(exc) or not self._alive():
                await self._why_closed()
                raise self._failure(f"the connection broke while answering {what}; it is "
                                    "restarted for the next call.", in_call=True) from None
            raise

    # ------------------------------------------------ resources, prompts

    async def list_resources(self) -> list[ResourceInfo]:
        """The server's resources (what the user may attach to a message)."""
        await self.ensure_ready()
        if self.capabilities is not None and not self.capabilities.resources:
            return []

        async def listing(session: Any) -> list[ResourceInfo]:
            from mcp import types

            out: list[ResourceInfo] = []
            cursor: str | None = None
            for _page in range(50):
                params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
                result = await session.list_resources(params=params)
                out.extend(ResourceInfo(str(r.uri), r.name, r.title or "", r.description or "",
                                        r.mime_type or "") for r in result.resources)
                cursor = result.next_cursor
                if not cursor:
                    break
            return out

        result: list[ResourceInfo] = await self.request(listing, "the list of its resources")
        return result

    async def read_resource(self, uri: str, *, limit: int = 200_000) -> str:
        """A resource's contents as text (binary parts as a one-line note), capped."""
        from openworker_qt.mcp.content import cap, resource_text

        result = await self.request(lambda s: s.read_resource(uri), f"the resource {uri}")
        return cap("\n".join(resource_text(c) for c in result.contents), limit)

    async def list_prompts(self) -> list[PromptInfo]:
        """The server's prompts (what the composer offers)."""
        await self.ensure_ready()
        if self.capabilities is not None and not self.capabilities.prompts:
            return []
        result = await self.request(lambda s: s.list_prompts(), "the list of its prompts")
        return [PromptInfo(p.name, p.title or "", p.description or "",
                           tuple((a.name, bool(a.required)) for a in p.arguments or ()))
                for p in result.prompts]

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> str:
        """The prompt's messages as the text to put in the composer."""
        from openworker_qt.mcp.content import result_text

        result = await self.request(lambda s: s.get_prompt(name, arguments or {}),
                                    f"the prompt {name}")
        parts = []
        for message in result.messages:
            text, _ = result_text(_Content([message.content]))
            parts.append(text)
        return "\n\n".join(p for p in parts if p)

    async def _why_closed(self) -> None:
        """The connection closed under a call: let its task end (bounded) and, if it
        knows why (a sign-in that is needed again, say), raise that instead."""
        task = self._task
        before = self._status
        if task is not None and not task.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(task), 2.0)
        await self._discard()
        if self._status is not before and self._status.state is State.FAILED:
            raise McpFailure(f"The MCP server {self.config.name!r}: {self._status.message}")

    def _alive(self) -> bool:
        return self._task is not None and not self._task.done()

