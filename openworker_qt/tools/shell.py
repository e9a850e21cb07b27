"""Shell tools: a persistent bash per session, and background tasks.

``run_shell`` runs a command in the session's own long-lived bash (Linux and
macOS), so ``cd`` and ``export`` carry over from one call to the next. The shell
is spawned in its own session (so its own process group), its stdin is the pipe
this module writes commands into, and every command runs with stdin from
``/dev/null``. The command text travels verbatim: it is sent as lines ended by a
random terminator line, collected by a small read loop in the shell and run with
``eval "$cmd"`` — the same single parse ``bash -c`` would give it, so what runs is
exactly the string the permission engine checked. After each command the loop
saves ``export -p`` to a private state file and prints a sentinel line carrying a
random tag, the exit code and the working folder; the reader finds the command's
end there.

A timeout or a cancellation (the Stop button cancels the tool's task) kills the
shell's whole process group at once — the command and everything it started —
and the next call respawns the shell in the same folder with the exported
variables of the last finished command restored.

Output is kept as a capped tail while it arrives (memory stays flat however much
a command prints) and the result is cut to ``max_output`` characters keeping the
end, where errors and summaries usually are.

Background tasks (``run_in_background``) each run in their own process group;
``shell_task_output`` returns what arrived since the last read, ``shell_task_kill``
kills the group, ``shell_tasks`` lists them. :func:`close_shell_state` (the
session's tools closing), :func:`close_all` (the runtime stopping) and an
``atexit`` hook (the app quitting) kill every shell and task still alive.

On Windows the session shell is PowerShell (:mod:`openworker_qt.tools.powershell`:
the same protocol, its own loop script, process trees killed with ``taskkill``).

Every shell and task starts from :func:`scrubbed_environ`: the app's environment
without its keys, tokens and other credentials (a command such as ``env`` or
``jq -n env`` would otherwise print them into the conversation).

A kill also reaches processes that left the process group (``setsid``, a double
fork): before the group is killed, the shell's descendants and every process whose
environment carries the shell's tag (:data:`TAG_VAR`) are found in ``/proc`` and
killed with it (Linux; elsewhere the group kill alone).
"""

from __future__ import annotations

import asyncio
import atexit
import codecs
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_policy import note_shell_folder
from openworker_qt.core.tool_api import Tool, ToolContext, ToolResult
from openworker_qt.tools import powershell
from openworker_qt.tools.git import shell_git_env
from openworker_qt.tools.installs import path_with_tools

DEFAULT_TIMEOUT = 120.0
MAX_TIMEOUT = 600.0
DEFAULT_MAX_OUTPUT = 30_000
#: Bytes of output kept while a command or task runs (the tail); the rest is counted.
KEEP_BYTES = 256 * 1024
MAX_WAIT = 60.0
STATE_KEY = "shell"

#: Every process group this module started and has not yet seen end, with the tag
#: its processes carry in their environment (:data:`TAG_VAR`).
_LIVE_GROUPS: dict[int, str] = {}
_SESSIONS: set[ShellState] = set()
#: Set in the environment of every shell and task, inherited by all they start: a
#: process that left the process group (``setsid``, a double fork) still carries it.
TAG_VAR = "OPENWORKER_SHELL_TAG"
_PROC = Path("/proc")


def _proc_table() -> dict[int, tuple[int, int]]:
    """Every process's (parent, process group), read from ``/proc`` (Linux); empty
    where there is no ``/proc``."""
    table: dict[int, tuple[int, int]] = {}
    try:
        entries = os.listdir(_PROC)
    except OSError:
        return table
    for name in entries:
        if not name.isdigit():
            continue
        try:
            stat = (_PROC / name / "stat").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 2:
            table[int(name)] = (int(fields[1]), int(fields[2]))
    return table


def _tagged(pids: Iterable[int], tag: str) -> set[int]:
    """The processes among ``pids`` whose environment carries ``tag``."""
    needle = f"{TAG_VAR}={tag}".encode()
    found: set[int] = set()
    for pid in pids:
        try:
            env = (_PROC / str(pid) / "environ").read_bytes()
        except OSError:  # gone, or another user's
            continue
        if needle in env.split(b"\0"):
            found.add(pid)
    return found


def escapees(pgid: int, tag: str | None) -> set[int]:
    """The processes a group kill would miss: the descendants of the group's processes
    and every process carrying the group's tag (a ``setsid`` child, or a daemon whose
    parent exited), outside the group itself. Linux only (``/proc``)."""
    table = _proc_table()
    if not table:
        return set()
    members = {pid for pid, (_ppid, group) in table.items() if group == pgid}
    found = set(members) | (_tagged(table, tag) if tag else set())
    children: dict[int, list[int]] = {}
    for pid, (ppid, _group) in table.items():
        children.setdefault(ppid, []).append(pid)
    stack = list(found)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found - members - {os.getpid()}


def _kill_group(pgid: int, tag: str | None = None) -> None:
    """Kill the process group ``pgid`` and every process that escaped it (see
    :func:`escapees`): found first (a killed parent's children lose their place in
    the tree), killed together, then looked for once more (one may have forked)."""
    if sys.platform == "win32":  # no process groups to signal: kill the process tree
        powershell.kill_tree(pgid)
        return
    if tag is None:
        tag = _LIVE_GROUPS.get(pgid)
    stray = escapees(pgid, tag)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    for _round in range(2):
        for pid in stray:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if not tag:
            break
        stray = _tagged(_proc_table(), tag) - {os.getpid()}


#: Variable names never passed on to a shell (upper-cased before matching): the app's
#: keys and tokens, and any other credential the environment holds.
_SECRET_NAME = re.compile(
    r".*(_KEY|_KEYS|_TOKEN|_TOKENS|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|_API_|_AUTH"
    r"|COOKIE|SESSION).*|(AWS|AZURE|OPENAI|ANTHROPIC|GEMINI|MISTRAL|GROQ|DEEPSEEK"
    r"|OPENROUTER|COHERE|PYPI|TWINE)_.*|.*_(PAT|DSN)|.*DATABASE_URL.*"
)
#: A value that carries a password in a URL (``postgres://user:pass@host``).
_URL_PASSWORD = re.compile(r"://[^/\s:@]*:[^/\s@]+@")
#: Kept even if a name pattern above matches.
_KEEP = frozenset({"SSH_AUTH_SOCK", "XDG_SESSION_TYPE", "XDG_SESSION_ID", "XDG_SESSION_CLASS",
                   "XDG_SESSION_DESKTOP", "DBUS_SESSION_BUS_ADDRESS", "DESKTOP_SESSION"})


def scrubbed_environ(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a shell starts from: the app's, without any variable that
    names a key, token, password or other credential (``*_KEY``, ``*_TOKEN``,
    ``*SECRET*``, ``*PASSWORD*``, ``*_API_*``, ``AWS_*``, ``GITHUB_*``…) and without
    any variable whose value holds a secret the app knows (a key read from the
    keyring or the environment). ``PATH``, ``HOME``, ``LANG``, ``TERM`` and the
    like stay."""
    from openworker_qt.storage.secrets import known_values

    source = dict(os.environ if environ is None else environ)
    values = [v for v in known_values() if len(v) >= 8]
    out: dict[str, str] = {}
    for name, value in source.items():
        if name not in _KEEP and _SECRET_NAME.fullmatch(name.upper()):
            continue
        if any(v in value for v in values) or _URL_PASSWORD.search(value):
            continue
        out[name] = value
    return out


def _tag_env(tag: str) -> dict[str, str]:
    env = {**scrubbed_environ(), **shell_git_env(), TAG_VAR: tag}
    env["PATH"] = path_with_tools(env.get("PATH", os.defpath))  # tools installed on request
    return env


@atexit.register
def _kill_leftovers() -> None:
    for pgid, tag in list(_LIVE_GROUPS.items()):
        _kill_group(pgid, tag)
    _LIVE_GROUPS.clear()


class TailBuffer:
    """Keeps the last ``keep`` bytes written and counts the bytes dropped before them."""

    __slots__ = ("data", "dropped", "keep")

    def __init__(self, keep: int = KEEP_BYTES) -> None:
        self.keep = keep
        self.data = bytearray()
        self.dropped = 0

    def write(self, chunk: bytes) -> None:
        self.data += chunk
        extra = len(self.data) - self.keep
        if extra > 0:
            del self.data[:extra]
            self.dropped += extra

    def take(self) -> tuple[bytes, int]:
        data, dropped = bytes(self.data), self.dropped
        self.data.clear()
        self.dropped = 0
        return data, dropped


TRUNCATED_NOTE = "[… earlier output cut …]\n"


def tail_text(data: bytes | bytearray, dropped: int, limit: int) -> tuple[str, bool]:
    """``data`` decoded and cut to at most ``limit`` characters, keeping the end
    (a note says so when anything was cut, ``dropped`` bytes included)."""
    text = data.decode("utf-8", errors="replace")
    if len(text) <= limit and not dropped:
        return text, False
    keep = max(limit - len(TRUNCATED_NOTE), 0)
    out = TRUNCATED_NOTE + (text[len(text) - keep :] if keep else "")
    return out[len(out) - limit :] if len(out) > limit else out, True


@dataclass(slots=True)
class CommandResult:
    output: str
    exit_code: int | None
    timed_out: bool
    truncated: bool
    cwd: str


_LOOP = r"""
__ow_tag=$1 __ow_end=$2 __ow_state=$3
shift $#
while :; do
  IFS= read -r __ow_go || exit 0
  __ow_cmd=
  while IFS= read -r __ow_line; do
    [ "$__ow_line" = "$__ow_end" ] && break
    __ow_cmd+="$__ow_line"$'\n'
  done
  eval "$__ow_cmd" </dev/null
  __ow_rc=$?
  export -p >"$__ow_state" 2>/dev/null
  printf '\n%s %s %s\n' "$__ow_tag" "$__ow_rc" "$PWD"
done
"""


class PersistentShell:
    """One long-lived bash (see the module docstring)."""

    def __init__(self, cwd: Path, *, max_output: int = DEFAULT_MAX_OUTPUT) -> None:
        self.cwd = str(cwd)
        self.max_output = max_output
        self._dir = ""  # made when the shell first starts (off the loop)
        self._state = ""
        self._proc: asyncio.subprocess.Process | None = None
        self._tag = ""
        self._end = ""
        self._lock = asyncio.Lock()
        self._closed = False

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc and self._proc.returncode is None else None

    async def _spawn(self) -> asyncio.subprocess.Process:
        program = await _shell()
        if not self._dir:
            self._dir = await asyncio.to_thread(tempfile.mkdtemp, prefix="ow-shell-")
            self._state = os.path.join(self._dir, "env")
        self._tag = "__OW_DONE_" + secrets.token_hex(12)
        self._end = "__OW_END_" + secrets.token_hex(12)
        # Back to the last folder (home if it is gone) with the last exports restored
        # (but this shell's own tag, not the one the last shell saved).
        tag = secrets.token_hex(12)
        if program.kind == "powershell":
            script = os.path.join(self._dir, "loop.ps1")
            await asyncio.to_thread(Path(script).write_text, powershell.LOOP, "utf-8")
            argv = powershell.shell_argv(program, script, self._tag, self._end, self._state,
                                         self.cwd, tag)
        else:
            restore = (f'[ -r "$3" ] && . "$3" 2>/dev/null\nexport {TAG_VAR}={tag}\n'
                       f'cd -- {_quote(self.cwd)} 2>/dev/null || cd\n')
            argv = [program.path, "--noprofile", "--norc", "-c", restore + _LOOP, "bash",
                    self._tag, self._end, self._state]
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env=await asyncio.to_thread(_tag_env, tag),
            **powershell.group_options(),  # type: ignore[arg-type]
        )
        _LIVE_GROUPS[proc.pid] = tag
        self._proc = proc
        return proc

    def kill(self) -> None:
        """Kill the shell's whole process group now (the next command respawns it)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            _kill_group(proc.pid)
            _LIVE_GROUPS.pop(proc.pid, None)
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()

    async def close(self) -> None:
        self._closed = True
        proc = self._proc
        self.kill()
        if proc is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 2)
        if self._dir:
            await asyncio.to_thread(shutil.rmtree, self._dir, ignore_errors=True)

    async def run(
        self, command: str, seconds: float = DEFAULT_TIMEOUT,
        on_output: Callable[[str], None] | None = None,
    ) -> CommandResult:
        """Run ``command``; ``on_output`` gets its output as it arrives."""
        if self._closed:
            raise RuntimeError("this shell was closed")
        async with self._lock:
            proc = self._proc
            if proc is None or proc.returncode is not None:
                proc = await self._spawn()
            assert proc.stdin is not None and proc.stdout is not None
            body = command if command.endswith("\n") else command + "\n"
            try:
                proc.stdin.write(("go\n" + body + self._end + "\n").encode("utf-8", "replace"))
                await proc.stdin.drain()
                return await asyncio.wait_for(self._collect(proc, on_output), seconds)
            except TimeoutError:
                out = self._partial
                self.kill()
                text, cut = tail_text(out.data, out.dropped, self.max_output)
                return CommandResult(text, None, True, cut, self.cwd)
            except BaseException:
                self.kill()  # Stop (cancellation) or a broken pipe: take the command down now
                raise

    async def _collect(
        self, proc: asyncio.subprocess.Process, on_output: Callable[[str], None] | None,
    ) -> CommandResult:
        assert proc.stdout is not None
        marker = ("\n" + self._tag + " ").encode()
        out = self._partial = TailBuffer()
        if on_output is not None:
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            report = on_output

            def write(chunk: bytes) -> None:
                out.write(chunk)
                if text := decoder.decode(chunk):
                    report(text)
        else:
            write = out.write
        pending = b""
        while True:
            chunk = await proc.stdout.read(65536)
            if not chunk:  # the shell ended (the command ran `exit`, say)
                write(pending)
                code = await proc.wait()
                _kill_group(proc.pid)
                _LIVE_GROUPS.pop(proc.pid, None)
                self._proc = None
                text, cut = tail_text(out.data, out.dropped, self.max_output)
                return CommandResult(text, code, False, cut, self.cwd)
            pending += chunk
            at = pending.find(marker)
            if at < 0:  # pass everything on but a tail that may begin the marker
                upto = _marker_start(pending, marker)
                if upto:
                    write(pending[:upto])
                    pending = pending[upto:]
                continue
            write(pending[:at])
            rest = pending[at + len(marker) :]
            while b"\n" not in rest:
                more = await proc.stdout.read(4096)
                if not more:
                    break
                rest += more
            line = rest.split(b"\n", 1)[0].decode("utf-8", "replace")
            code_text, _, cwd = line.partition(" ")
            self.cwd = cwd or self.cwd
            text, cut = tail_text(out.data, out.dropped, self.max_output)
            return CommandResult(text, int(code_text) if code_text.isdigit() else None,
                                 False, cut, self.cwd)

    _partial: TailBuffer = TailBuffer(0)


def _marker_start(pending: bytes, marker: bytes) -> int:
    """Where the tail of ``pending`` that could be the start of ``marker`` begins."""
    start = max(len(pending) - len(marker) + 1, 0)
    while (at := pending.find(marker[:1], start)) >= 0:
        if marker.startswith(pending[at:]):
            return at
        start = at + 1
    return len(pending)


_SHELL: list[powershell.ShellProgram] = []


async def _shell() -> powershell.ShellProgram:
    """The session shell: bash, or PowerShell on Windows (looked up once, off the loop)."""
    if not _SHELL:
        _SHELL.append(await asyncio.to_thread(powershell.find_shell))
    return _SHELL[0]


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


@dataclass(slots=True)
class BackgroundTask:
    id: str
    command: str
    proc: asyncio.subprocess.Process
    unread: TailBuffer = field(default_factory=TailBuffer)
    killed: bool = False
    reader: asyncio.Task[None] | None = None

    @property
    def status(self) -> str:
        return "running" if self.proc.returncode is None or not self._drained() else "exited"

    def _drained(self) -> bool:
        return self.reader is None or self.reader.done()

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while chunk := await self.proc.stdout.read(65536):
            self.unread.write(chunk)
        await self.proc.wait()
        _kill_group(self.proc.pid)  # whatever it left running, in its group or not
        _LIVE_GROUPS.pop(self.proc.pid, None)


class ShellState:
    """A session's shell and background tasks (kept in ``ToolContext.state``)."""

    def __init__(self, workspace: Path, *, max_output: int = DEFAULT_MAX_OUTPUT,
                 session_id: str = "") -> None:
        self.workspace = workspace
        self.max_output = max_output
        self.session_id = session_id
        note_shell_folder(session_id, None)  # a new shell starts in the workspace
        self.shell = PersistentShell(workspace, max_output=max_output)
        self.tasks: dict[str, BackgroundTask] = {}
        self._next = 1
        _SESSIONS.add(self)

    async def start_task(self, command: str) -> BackgroundTask:
        program = await _shell()
        # The shell's exports and folder (the workspace if the shell has not run yet).
        tag = secrets.token_hex(12)
        if program.kind == "powershell":
            argv = powershell.task_argv(program, command, state=self.shell._state,
                                        cwd=self.shell.cwd, home=str(self.workspace),
                                        shell_tag=tag)
        else:
            script = ('[ -n "$1" ] && [ -r "$1" ] && . "$1" 2>/dev/null; '
                      f'export {TAG_VAR}={tag}; cd -- "$2" 2>/dev/null || '
                      'cd -- "$3" 2>/dev/null; __ow_cmd=$4; shift $#; eval "$__ow_cmd"')
            argv = [program.path, "--noprofile", "--norc", "-c", script, "bash",
                    self.shell._state, self.shell.cwd, str(self.workspace), command]
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env=await asyncio.to_thread(_tag_env, tag),
            **powershell.group_options(),  # type: ignore[arg-type]
        )
        _LIVE_GROUPS[proc.pid] = tag
        task = BackgroundTask(f"task-{self._next}", command, proc)
        self._next += 1
        task.reader = asyncio.ensure_future(task._read())
        self.tasks[task.id] = task
        return task

    def kill_task(self, task: BackgroundTask) -> None:
        if task.proc.returncode is None:
            task.killed = True
        _kill_group(task.proc.pid)
        _LIVE_GROUPS.pop(task.proc.pid, None)

    async def close(self) -> None:
        _SESSIONS.discard(self)
        note_shell_folder(self.session_id, None)
        for task in self.tasks.values():
            self.kill_task(task)
        for task in self.tasks.values():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task.proc.wait(), 2)
            if task.reader is not None:
                task.reader.cancel()
                with contextlib.suppress(BaseException):
                    await task.reader
        await self.shell.close()


def shell_state(ctx: ToolContext, *, max_output: int = DEFAULT_MAX_OUTPUT) -> ShellState:
    state = ctx.state.get(STATE_KEY)
    if not isinstance(state, ShellState):
        state = ShellState(ctx.workspace, max_output=max_output, session_id=ctx.session_id)
        ctx.state[STATE_KEY] = state
    return state


async def close_shell_state(state: dict[str, Any]) -> None:
    """Close the session's shell and kill its background tasks (if it has any)."""
    shell = state.pop(STATE_KEY, None)
    if isinstance(shell, ShellState):
        await shell.close()


async def close_all() -> None:
    """Close every session's shell and task (the runtime stopping)."""
    for state in list(_SESSIONS):
        await state.close()


def _clamp_timeout(raw: Any, default: float = DEFAULT_TIMEOUT) -> float:
    try:
        value = float(raw) if raw not in (None, "") else default
    except (TypeError, ValueError):
        value = default
    if value != value or value <= 0:  # NaN or not positive
        value = default
    return min(value, MAX_TIMEOUT)


def _json(payload: dict[str, Any], *, is_error: bool = False) -> ToolResult:
    return ToolResult(json.dumps(payload, ensure_ascii=False), is_error=is_error, display=payload)


def _command(args: dict[str, Any]) -> str | ToolResult:
    command = args.get("command")
    if not isinstance(command, str) or not command.strip():
        return ToolResult("Error: command must be a non-empty string.", is_error=True)
    if "\x00" in command:
        return ToolResult("Error: the command contains a NUL character.", is_error=True)
    return command


def shell_tools(*, max_output: int = DEFAULT_MAX_OUTPUT) -> list[Tool]:
    """``run_shell`` (EXEC), ``shell_task_output``, ``shell_task_kill``, ``shell_tasks`` (READ)."""

    async def run_shell(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        command = _command(args)
        if isinstance(command, ToolResult):
            return command
        state = shell_state(ctx, max_output=max_output)
        try:
            if args.get("run_in_background"):
                task = await state.start_task(command)
                return _json({"status": "running", "task_id": task.id})
            try:
                result = await state.shell.run(
                    command, _clamp_timeout(args.get("timeout_seconds")),
                    ctx.report if ctx.progress is not None else None)
            finally:  # where the next command runs (the permission engine checks there)
                note_shell_folder(ctx.session_id, state.shell.cwd)
        except RuntimeError as exc:
            return ToolResult(f"Error: {exc}.", is_error=True)
        payload = {
            "exit_code": result.exit_code, "timed_out": result.timed_out,
            "output": result.output, "truncated": result.truncated, "cwd": result.cwd,
        }
        return _json(payload, is_error=result.timed_out)

    def _task(args: dict[str, Any], ctx: ToolContext) -> BackgroundTask | ToolResult:
        state = shell_state(ctx, max_output=max_output)
        task_id = str(args.get("task_id", ""))
        task = state.tasks.get(task_id)
        if task is None:
            known = ", ".join(state.tasks) or "none"
            return ToolResult(f"Error: unknown task {task_id!r} (tasks: {known}).", is_error=True)
        return task

    async def task_output(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        task = _task(args, ctx)
        if isinstance(task, ToolResult):
            return task
        wait = _clamp_timeout(args.get("wait_seconds"), 0.0) if args.get("wait_seconds") else 0.0
        if wait and task.reader is not None and not task.reader.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task.reader), min(wait, MAX_WAIT))
        data, dropped = task.unread.take()
        text, cut = tail_text(data, dropped, max_output)
        payload: dict[str, Any] = {"task_id": task.id, "status": task.status, "output": text,
                                   "truncated": cut}
        if task.status == "exited":
            payload["exit_code"] = task.proc.returncode
            payload["killed"] = task.killed
        return _json(payload)

    async def task_kill(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        task = _task(args, ctx)
        if isinstance(task, ToolResult):
            return task
        was_running = task.proc.returncode is None
        shell_state(ctx).kill_task(task)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(task.proc.wait(), 5)
        return _json({"task_id": task.id, "status": "killed" if was_running else "exited",
                      "exit_code": task.proc.returncode})

    async def list_tasks(_args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        state = shell_state(ctx, max_output=max_output)
        rows = [{"task_id": t.id, "status": t.status, "command": t.command,
                 "exit_code": t.proc.returncode} for t in state.tasks.values()]
        return _json({"tasks": rows})

    task_id = {"task_id": {"type": "string", "description": "The id run_shell returned."}}
    return [
        Tool(
            name="run_shell",
            description=(
                "Run a bash command in this session's persistent shell (cd and export carry "
                "over between calls; stdin is closed). Returns the exit code and the output "
                "(stdout and stderr together; long output keeps its end). Set "
                "run_in_background for servers and long jobs, then read them with "
                "shell_task_output."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "command": {"type": "string", "description": "The command, as bash reads it."},
                    "description": {"type": "string",
                                    "description": "What the command does, in a few words."},
                    "timeout_seconds": {"type": "number",
                                        "description": f"At most {MAX_TIMEOUT:g}; default "
                                                       f"{DEFAULT_TIMEOUT:g}."},
                    "run_in_background": {"type": "boolean"},
                },
                "required": ["command"],
            },
            handler=run_shell, risk=RiskClass.EXEC, needs_approval=True, target_arg="command",
        ),
        Tool(
            name="shell_task_output",
            description=("The output a background task printed since the last read, and "
                         "its status (running, or exited with its exit code)."),
            parameters={"type": "object", "properties": {
                **task_id,
                "wait_seconds": {"type": "number",
                                 "description": f"Wait up to this long (at most {MAX_WAIT:g} s) "
                                                "for the task to finish first."},
            }, "required": ["task_id"]},
            handler=task_output, risk=RiskClass.READ,
        ),
        Tool(
            name="shell_task_kill",
            description="Stop a background task and everything it started.",
            parameters={"type": "object", "properties": task_id, "required": ["task_id"]},
            handler=task_kill, risk=RiskClass.READ,
        ),
        Tool(
            name="shell_tasks",
            description="List this session's background tasks and their status.",
            parameters={"type": "object", "properties": {}},
            handler=list_tasks, risk=RiskClass.READ,
        ),
    ]
