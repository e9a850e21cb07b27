"""The Windows shell's command lines (PowerShell cannot run here: construction only)."""

from __future__ import annotations

import asyncio
import base64
import subprocess
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.tools import powershell, shell
from openworker_qt.tools.powershell import ShellProgram, find_shell

PWSH = ShellProgram("powershell", r"C:\Program Files\PowerShell\7\pwsh.exe")


def which_of(*present: str) -> Any:
    return lambda name: {n: rf"C:\bin\{n}.exe" for n in present}.get(name)


def test_windows_prefers_pwsh_then_windows_powershell() -> None:
    assert find_shell("win32", which_of("pwsh", "powershell", "bash")) == ShellProgram(
        "powershell", r"C:\bin\pwsh.exe")
    assert find_shell("win32", which_of("powershell", "bash")) == ShellProgram(
        "powershell", r"C:\bin\powershell.exe")
    with pytest.raises(RuntimeError, match="no PowerShell"):
        find_shell("win32", which_of("bash"))  # Git's bash is not the Windows shell


def test_linux_and_macos_use_bash() -> None:
    for platform in ("linux", "darwin"):
        assert find_shell(platform, which_of("bash", "pwsh")) == ShellProgram(
            "bash", r"C:\bin\bash.exe")
    with pytest.raises(RuntimeError, match="no bash"):
        find_shell("linux", which_of())


def test_the_session_shell_command_line() -> None:
    argv = powershell.shell_argv(PWSH, r"C:\T\ow-shell-1\loop.ps1", "__OW_DONE_ab", "__OW_END_cd",
                                 r"C:\T\ow-shell-1\env", r"C:\Users\Ann\My Project", "t4g")
    assert argv == [PWSH.path, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy",
                    "Bypass", "-File", r"C:\T\ow-shell-1\loop.ps1", "__OW_DONE_ab", "__OW_END_cd",
                    r"C:\T\ow-shell-1\env", r"C:\Users\Ann\My Project", "t4g"]


def test_the_loop_speaks_the_shells_protocol() -> None:
    loop = powershell.LOOP
    assert "$__ow_tag, $__ow_end, $__ow_state, $__ow_cwd, $__ow_shell_tag = $args" in loop
    assert "$__ow_line -eq $__ow_end" in loop  # the command ends at the end line
    assert "Invoke-Expression ($__ow_lines -join \"`n\")" in loop  # one parse, verbatim
    assert "[Console]::Out.Write(\"`n$__ow_tag $__ow_rc $((Get-Location).ProviderPath)`n\")" in loop
    assert "ConvertTo-Json" in loop and "OPENWORKER_SHELL_TAG" in loop


def test_a_background_task_carries_the_command_verbatim() -> None:
    command = "Write-Output 'it''s'; & \"C:\\tools\\x.exe\" --flag $env:HOME | Out-File a.txt"
    argv = powershell.task_argv(PWSH, command, state=r"C:\T\env", cwd=r"C:\Users\O'Brien\w",
                                home=r"C:\w", shell_tag="t4g")
    assert argv[:-1] == [PWSH.path, "-NoLogo", "-NoProfile", "-NonInteractive",
                         "-ExecutionPolicy", "Bypass", "-EncodedCommand"]
    script = base64.b64decode(argv[-1]).decode("utf-16-le")
    assert script.rstrip("\n").endswith("\n" + command)
    # Paths are single-quoted literals (quotes doubled): nothing in them expands.
    assert r"$__ow_cwd = 'C:\Users\O''Brien\w'" in script
    assert "$__ow_shell_tag = 't4g'" in script


def test_process_groups_and_tree_kill() -> None:
    assert powershell.group_options("win32") == {
        "creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)}
    assert powershell.group_options("linux") == {"start_new_session": True}
    assert powershell.kill_tree_argv(4321) == ["taskkill", "/T", "/F", "/PID", "4321"]


async def test_the_shell_spawns_powershell_with_its_loop_script(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With PowerShell as the session shell, the loop script is written to the shell's
    private folder and the shell is started on it (the spawn itself is refused here)."""
    seen: dict[str, Any] = {}

    async def refuse(*argv: str, **kw: Any) -> Any:
        seen["argv"], seen["kw"] = list(argv), kw
        raise RuntimeError("no PowerShell here")

    monkeypatch.setattr(shell, "_SHELL", [PWSH])
    monkeypatch.setattr(shell.asyncio, "create_subprocess_exec", refuse)
    sh = shell.PersistentShell(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="no PowerShell here"):
            await sh.run("Get-ChildItem")
        argv = seen["argv"]
        assert argv[0] == PWSH.path and argv[6] == "-File"
        script = Path(argv[7])
        assert script.parent == Path(sh._dir) and script.read_text("utf-8") == powershell.LOOP
        assert argv[8].startswith("__OW_DONE_") and argv[9].startswith("__OW_END_")
        assert argv[10] == sh._state and argv[11] == str(tmp_path)
        assert seen["kw"]["env"][shell.TAG_VAR] == argv[12]
    finally:
        await sh.close()
    await asyncio.sleep(0)
