"""The shell on Windows: PowerShell (``pwsh`` 7 when installed, else Windows PowerShell).

:mod:`openworker_qt.tools.shell` speaks the same protocol to it as to bash: a loop
script reads a ``go`` line, then the command's lines up to a random end line, runs
the command with ``Invoke-Expression`` (one parse of exactly the text the permission
engine checked), saves the process environment to a state file and prints a
sentinel line ``<tag> <exit code> <folder>``. The loop is a ``.ps1`` file in the
shell's private folder, run with ``-File`` (profiles off, no prompts, execution
policy bypassed for this one process). A respawned shell restores the folder and
the environment of the last finished command, and sets its own tag.

Background tasks run one command each, passed with ``-EncodedCommand`` (UTF-16LE
base64: no quoting to get wrong) after the same restore. Each shell and task starts
in a new process group; it is killed with its whole process tree (``taskkill /T``).

Not yet the same as on bash: native programs a command starts inherit the shell's
standard input (the command pipe), so one that reads its input could swallow the
next command; this path is unit-tested for its command lines only (no Windows here).
"""

from __future__ import annotations

import base64
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

#: PowerShell, newest first: ``pwsh`` (7+) then Windows PowerShell 5.1.
POWERSHELLS = ("pwsh", "powershell")
FLAGS = ("-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass")


@dataclass(frozen=True, slots=True)
class ShellProgram:
    kind: Literal["bash", "powershell"]
    path: str


def find_shell(platform: str = sys.platform,
               which: Callable[[str], str | None] | None = None) -> ShellProgram:
    """The session shell for ``platform``: PowerShell on Windows, bash elsewhere
    (:class:`RuntimeError` saying what is missing when there is none)."""
    if which is None:
        import shutil

        which = shutil.which
    if platform == "win32":
        for name in POWERSHELLS:
            if found := which(name):
                return ShellProgram("powershell", found)
        raise RuntimeError("no PowerShell is available on this computer")
    found = which("bash")
    if found is None:
        raise RuntimeError("no bash shell is available on this computer")
    return ShellProgram("bash", found)


def _ps_string(text: str) -> str:
    """A PowerShell single-quoted literal (no expansion; quotes doubled)."""
    return "'" + text.replace("'", "''") + "'"


#: Restores the saved environment (a JSON object) and the folder, sets the tag.
#: ``$__ow_state``, ``$__ow_cwd``, ``$__ow_home`` and ``$__ow_shell_tag`` are set first.
_RESTORE = r"""
[Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false)
$OutputEncoding = [System.Text.UTF8Encoding]::new($false)
if ($__ow_state -and (Test-Path -LiteralPath $__ow_state)) {
  try {
    $__ow_saved = Get-Content -Raw -LiteralPath $__ow_state | ConvertFrom-Json
    foreach ($__ow_p in $__ow_saved.PSObject.Properties) {
      [Environment]::SetEnvironmentVariable($__ow_p.Name, [string]$__ow_p.Value, 'Process')
    }
  } catch {}
}
[Environment]::SetEnvironmentVariable('OPENWORKER_SHELL_TAG', $__ow_shell_tag, 'Process')
try { Set-Location -LiteralPath $__ow_cwd -ErrorAction Stop }
catch { try { Set-Location -LiteralPath $__ow_home -ErrorAction Stop } catch { Set-Location ~ } }
"""

#: The session shell's loop (``-File loop.ps1 <tag> <end> <state> <cwd> <shell tag>``).
LOOP = r"""
$__ow_tag, $__ow_end, $__ow_state, $__ow_cwd, $__ow_shell_tag = $args
$__ow_home = $HOME
""" + _RESTORE + r"""
while ($true) {
  $__ow_go = [Console]::In.ReadLine()
  if ($null -eq $__ow_go) { exit 0 }
  $__ow_lines = [System.Collections.Generic.List[string]]::new()
  while ($true) {
    $__ow_line = [Console]::In.ReadLine()
    if ($null -eq $__ow_line -or $__ow_line -eq $__ow_end) { break }
    $__ow_lines.Add($__ow_line)
  }
  $global:LASTEXITCODE = 0
  $__ow_failed = $false
  try {
    Invoke-Expression ($__ow_lines -join "`n") 2>&1 | Out-String -Stream -Width 4096
    $__ow_failed = -not $?
  } catch {
    $_ | Out-String -Stream -Width 4096
    $__ow_failed = $true
  }
  $__ow_rc = if ($LASTEXITCODE) { $LASTEXITCODE } elseif ($__ow_failed) { 1 } else { 0 }
  try {
    [Environment]::GetEnvironmentVariables('Process') | ConvertTo-Json -Compress |
      Set-Content -LiteralPath $__ow_state -Encoding UTF8
  } catch {}
  [Console]::Out.Write("`n$__ow_tag $__ow_rc $((Get-Location).ProviderPath)`n")
  [Console]::Out.Flush()
}
"""


def shell_argv(program: ShellProgram, script: str, tag: str, end: str, state: str, cwd: str,
               shell_tag: str) -> list[str]:
    """The command line of a session shell running the :data:`LOOP` saved at ``script``."""
    return [program.path, *FLAGS, "-File", script, tag, end, state, cwd, shell_tag]


def encode_command(script: str) -> str:
    """``script`` as ``-EncodedCommand`` takes it: UTF-16LE, base64."""
    return base64.b64encode(script.encode("utf-16-le")).decode("ascii")


def task_argv(program: ShellProgram, command: str, *, state: str, cwd: str, home: str,
              shell_tag: str) -> list[str]:
    """The command line of a background task: restore, then ``command`` verbatim."""
    script = (f"$__ow_state = {_ps_string(state)}; $__ow_cwd = {_ps_string(cwd)}; "
              f"$__ow_home = {_ps_string(home)}; $__ow_shell_tag = {_ps_string(shell_tag)}"
              + _RESTORE + "\n" + command + "\n")
    return [program.path, *FLAGS, "-EncodedCommand", encode_command(script)]


def group_options(platform: str = sys.platform) -> dict[str, object]:
    """Start a shell or task as the leader of its own process group."""
    if platform == "win32":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)}
    return {"start_new_session": True}


def kill_tree_argv(pid: int) -> list[str]:
    return ["taskkill", "/T", "/F", "/PID", str(pid)]


def kill_tree(pid: int) -> None:
    """Kill ``pid`` and its descendants (Windows). Started, not waited for: the loop
    thread never waits on it."""
    try:
        subprocess.Popen(kill_tree_argv(pid), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
    except OSError:
        pass
