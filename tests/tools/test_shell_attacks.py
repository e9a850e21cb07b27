"""Auto-run attacks on the shell, against the real persistent shell and the real programs.

* builtins that change the session shell's state (``printf -v 'BASH_CMDS[ls]'``,
  ``read``, ``export``, ``hash``…) ask, and no command the permission engine
  auto-allows changes the shell's variables, options, traps or command table;
* allowlisted programs that run other programs (``tar --checkpoint-action``, ``env
  sh``, ``make -f``, ``zip -TT``, ``vim -c``, ``rg --pre``, ``jq -n env``…) ask;
  each attack is first shown to act with the real program where it is installed;
* the shell starts without the app's keys and tokens.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_policy import STATE_BUILTINS
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.storage import secrets
from openworker_qt.tools.shell import close_shell_state, scrubbed_environ, shell_tools

TOOLS = {t.name: t for t in shell_tools(max_output=100_000)}


@pytest.fixture
async def ctx(tmp_path: Path) -> AsyncIterator[ToolContext]:
    context = ToolContext("s1", tmp_path)
    yield context
    await close_shell_state(context.state)


async def sh(ctx: ToolContext, command: str, **extra: Any) -> dict[str, Any]:
    result = await TOOLS["run_shell"].handler({"command": command, **extra}, ctx)
    payload: dict[str, Any] = json.loads(result.content)
    return payload


def shell_call(command: str) -> ToolCallInfo:
    return ToolCallInfo("s1", "c1", "run_shell", {"command": command}, RiskClass.EXEC,
                        target=command)


# ------------------------------------------------------------------ builtins

BUILTIN_ATTACKS = [
    "printf -v 'BASH_CMDS[ls]' %s /bin/sh", "printf -vBASH_CMDS[ls] %s /bin/sh",
    "printf -v x 1", "printf -v 'PATH' %s /tmp", "read x", "read -r PATH", "mapfile x",
    "readarray -t x", "declare x=1", "declare -x PATH=/tmp", "typeset x=1", "local x=1",
    "export X=1", "export -n PATH", "readonly X", "hash -p /bin/sh ls", "hash -r",
    "alias ls=sh", "unalias -a", "enable -n echo", "enable -f ./x.so x", "set -e",
    "set -o posix", "set +o", "shopt -s expand_aliases", "trap 'touch x' EXIT", "unset PATH",
    "source evil.sh", ". evil.sh", "eval ls", "exec sh", "builtin cd /", "command ls",
    "cd /", "cd ..", "pushd /", "popd", "ulimit -n 1", "umask 000", "complete -C sh ls",
    "bind x", "let x=1", "getopts a x", "shift", "exit", "return", "kill -9 1",
    "'export' X=1", "ex''port X=1", '"read" x', "X=1", "X+=1", "PATH=/tmp", "BASH_ENV=evil.sh",
    "PROMPT_COMMAND=x", "BASH_CMDS[ls]=/bin/sh", "fc -e sh", "history -w x", "disown",
    "coproc ls", "time ls", "! ls", "if true", "function f", "((x=1))", "[[ -v x ]]",
    "declare -A BASH_ALIASES", "caller", "compgen -c", "times", "jobs", "dirs", "wait",
    # the Windows session shell (PowerShell ignores case)
    "Set-Alias ls sh", "SET-ALIAS ls sh", "sal ls sh", "Set-Variable x 1", "Set-Location C:",
    "Invoke-Expression x", "iex x", "Import-Module evil", "Start-Process sh",
]
HARMLESS = ["ls", "ls -la", "pwd", "echo hi", "printf %s x", "printf -- %s x", "date",
            "true", "wc -l in.txt", "cat in.txt", "whoami", "uname -a", "ls evil.sh"]
VOLATILE = {"_", "BASH_COMMAND", "BASH_LINENO", "BASH_SOURCE", "FUNCNAME", "LINENO",
            "RANDOM", "SECONDS", "EPOCHREALTIME", "EPOCHSECONDS", "SRANDOM", "BASH_ARGC",
            "BASH_ARGV", "PIPESTATUS", "BASHPID", "HISTCMD", "BASH_CMDS"}
SNAPSHOT = ("{ declare -p; declare -f; alias; shopt -p; set -o; trap -p; ulimit -a; umask; "
            "pwd; } 2>&1")


def _state(text: str) -> list[str]:
    keep = []
    for line in text.splitlines():
        m = re.match(r"declare -\S+ ([A-Za-z_][A-Za-z0-9_]*)", line)
        if m and (m.group(1) in VOLATILE or m.group(1).startswith("__ow_")):
            continue
        keep.append(line)
    return keep


def _engine(ws: Path, allow: list[str]) -> PermissionEngine:
    return PermissionEngine(workspace=ws, mode="auto", shell_allowlist=allow)


async def test_the_printf_attack_is_real_and_asks(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "evil.sh").write_text("touch pwned\n")
    engine = _engine(tmp_path, ["printf", "ls"])
    attack = "printf -v 'BASH_CMDS[ls]' %s /bin/sh"
    decision = engine.evaluate(shell_call(attack))
    assert not decision.allowed and decision.needs_user, decision.reason
    assert "printf -v" in decision.reason
    # What it would have done in the persistent shell, had it run unasked:
    await sh(ctx, attack)
    assert engine.evaluate(shell_call("ls evil.sh")).allowed
    await sh(ctx, "ls evil.sh")
    assert (tmp_path / "pwned").exists()


async def test_no_builtin_variant_auto_runs_and_auto_runs_keep_the_shell_state(
    ctx: ToolContext, tmp_path: Path
) -> None:
    (tmp_path / "in.txt").write_text("a\n")
    (tmp_path / "evil.sh").write_text("touch pwned\n")
    firsts = {c.split()[0].strip("'\"") for c in BUILTIN_ATTACKS + HARMLESS}
    engine = _engine(tmp_path, sorted(firsts | STATE_BUILTINS))
    for command in BUILTIN_ATTACKS:
        decision = engine.evaluate(shell_call(command))
        assert not decision.allowed and decision.needs_user, (command, decision.reason)
    before = _state((await sh(ctx, SNAPSHOT))["output"])
    for command in HARMLESS:
        assert engine.evaluate(shell_call(command)).allowed, command
        await sh(ctx, command)
        assert _state((await sh(ctx, SNAPSHOT))["output"]) == before, command
    # the command table only ever holds what PATH finds
    hashed = (await sh(ctx, "hash -l"))["output"]
    for path, name in re.findall(r"builtin hash -p (\S+) (\S+)", hashed):
        assert path == shutil.which(name), (name, path)
    assert not (tmp_path / "pwned").exists()


# ------------------------------------------- programs that run other programs


def _setup(ws: Path) -> None:
    (ws / "f.txt").write_text("hello\n")
    (ws / "list.txt").write_text("pwned\n")
    (ws / "evil.mk").write_text("all:\n\ttouch pwned\n")
    (ws / "Makefile").write_text("x := $(shell touch pwned)\nall:\n\t@true\n")
    pre = ws / "pre.sh"
    pre.write_text("#!/bin/sh\ntouch pwned\ncat \"$1\"\n")
    pre.chmod(0o755)
    subprocess.run(["tar", "-cf", "a.tar", "f.txt"], cwd=ws, check=True)


# (command, the program that must be installed to show the attack acts, or None)
PROGRAM_ATTACKS: list[tuple[str, str | None]] = [
    ("tar --checkpoint=1 --checkpoint-action=exec='touch pwned' -cf b.tar f.txt", "tar"),
    ("tar -tf a.tar --checkpoint=1 --checkpoint-action=exec='touch pwned'", "tar"),
    ("tar -t -f a.tar -I ./pre.sh", "tar"),
    ("tar --use-compress-program=./pre.sh -tf a.tar", "tar"),
    ("tar -xf a.tar --to-command='touch pwned'", "tar"),
    ("tar xf a.tar", None),
    ("env touch pwned", "env"),
    ("env sh -c 'touch pwned'", "env"),
    ("/usr/bin/env touch pwned", "env"),
    ("make -f evil.mk", "make"),
    ("make", "make"),
    ("make -n", "make"),
    ("zip -T -TT 'touch pwned' b.zip f.txt", "zip"),
    ("zip b.zip f.txt", None),
    ("vim -N -u NONE -es -c '!touch pwned' -c 'qa!'", "vim"),
    ("rg --pre ./pre.sh hello .", "rg"),
    ("rg --pre=./pre.sh hello", "rg"),
    ("jq -n env", "jq"),
    ("jq -n 'env.HOME'", "jq"),
    ("jq -n -r '[env[]]'", "jq"),
    ("python3 -c 'open(\"pwned\", \"w\")'", "python3"),
    ("node -e 'require(\"fs\").writeFileSync(\"pwned\", \"\")'", "node"),
    ("bash -c 'touch pwned'", "bash"),
    ("timeout 5 touch pwned", "timeout"),
    ("nice touch pwned", "nice"),
    ("nohup touch pwned", "nohup"),
    ("xargs -a list.txt touch", "xargs"),
    ("awk -f prog.awk f.txt", None),
    ("less +'!touch pwned' f.txt", None),
    ("man -P 'touch pwned' ls", None),
    ("fd -x touch pwned", None),
    ("npm run build", None),
    ("npx cowsay", None),
    ("curl http://127.0.0.1:1/", None),
    ("wget http://169.254.169.254/", None),
    ("ssh host touch pwned", None),
    ("scp f.txt host:", None),
    ("rsync -e 'touch pwned' f.txt host:", None),
    ("docker run alpine", None),
    ("kubectl exec pod -- sh", None),
    ("kubectl get secrets -o yaml", None),
    ("unzip b.zip", None),
    ("cargo build", None),
    # positional arguments that are code, or that change files, with no option at all
    ("sqlite3 x.db '.shell touch pwned'", "sqlite3"),
    ("python3.11 evil.py", None),
    ("gzip f.txt", None),
    ("touch pwned", "touch"),
    ("rm f.txt", None),
    ("convert f.txt out.png", None),
    ("gh api user", None),
    ("xdg-open f.txt", None),
    ("kill 1", None),
]


@pytest.mark.parametrize(("command", "program"), PROGRAM_ATTACKS)
def test_programs_that_run_other_programs_ask(tmp_path: Path, command: str,
                                             program: str | None) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _setup(ws)
    first = command.split()[0]
    engine = _engine(ws, [first, first.rsplit("/", 1)[-1]])
    decision = engine.evaluate(shell_call(command))
    assert not decision.allowed and decision.needs_user, decision.reason
    if program is None or shutil.which(program) is None:
        return
    # The attack really acts with the real program (so asking is what stops it).
    env = {**os.environ, "OW_CANARY": "canary-value-1234"}
    proc = subprocess.run(["bash", "-c", command], cwd=ws, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, env=env)
    acted = (ws / "pwned").exists() or "canary-value-1234" in proc.stdout or (
        "HOME" in command and str(Path.home()) in proc.stdout)
    assert acted, (command, proc.stdout, proc.stderr)


@pytest.mark.parametrize(
    "command",
    ["tar -tf a.tar", "tar tvf a.tar", "rg hello", "rg -n hello f.txt", "jq -n 1",
     "jq -r .a f.txt", "python3 --version", "node --version", "make --version",
     "unzip -l b.zip", "man ls", "docker ps -a", "npm ls", "mytool f.txt", "rg -A3 -t py x",
     "fd -e py", "kubectl get pods -n web", "tar --list --file=a.tar"],
)
def test_the_same_programs_used_to_read_auto_run(tmp_path: Path, command: str) -> None:
    first = command.split()[0]
    decision = _engine(tmp_path, [first]).evaluate(shell_call(command))
    assert decision.allowed, decision.reason


def test_a_program_without_a_table_runs_only_without_options(tmp_path: Path) -> None:
    engine = _engine(tmp_path, ["mytool"])
    assert engine.evaluate(shell_call("mytool notes.txt")).allowed
    for command in ("mytool --exec=sh", "mytool -x sh", "mytool +!sh", "mytool -- -x"):
        decision = engine.evaluate(shell_call(command))
        assert not decision.allowed and "only without options" in decision.reason, command


# ------------------------------------------------------------- environment

SECRET_VARS = {
    "OPENAI_API_KEY": "sk-test-openai-000000", "ANTHROPIC_API_KEY": "sk-ant-test-000000",
    "MY_SERVICE_TOKEN": "tok-000000000", "DB_PASSWORD": "hunter2hunter2",
    "AWS_ACCESS_KEY_ID": "AKIATESTTESTTEST", "AWS_SECRET_ACCESS_KEY": "awssecret00000",
    "SOME_SECRET_THING": "shh-0000000", "FOO_API_BAR": "apibar-000000",
    "GITHUB_TOKEN": "ghp_test000000000", "HF_TOKEN": "hf_test0000000",
    "DATABASE_URL": "postgres://user:pw0000000@db/app", "SLACK_BOT_TOKEN": "xoxb-000000000",
    "GOOGLE_APPLICATION_CREDENTIALS": "/home/x/creds.json",
    "REDIS_URI": "redis://:pass0000000@cache:6379",
}


async def test_the_shell_starts_without_the_apps_secrets(
    ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SECRET_VARS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("TERM", "dumb")
    secrets.set_secret("CUSTOM_THING", "keyring-value-7777")  # a key the app loaded
    monkeypatch.setenv("INNOCENT_LOOKING", "keyring-value-7777")
    secrets.forget_known()
    out = (await sh(ctx, "env"))["output"]
    for name, value in SECRET_VARS.items():
        assert name not in out and value not in out, name
    assert "keyring-value-7777" not in out
    for kept in ("PATH=", "HOME=", "LANG=C.UTF-8", "TERM=dumb"):
        assert kept in out
    # a background task, and a shell started again after `exit`, too
    await sh(ctx, "exit")
    again = (await sh(ctx, "env"))["output"]
    assert "OPENAI_API_KEY" not in again and "PATH=" in again
    task = json.loads((await TOOLS["run_shell"].handler(
        {"command": "env", "run_in_background": True}, ctx)).content)
    got = json.loads((await TOOLS["shell_task_output"].handler(
        {"task_id": task["task_id"], "wait_seconds": 30}, ctx)).content)
    assert "GITHUB_TOKEN" not in got["output"] and "PATH=" in got["output"]
    if shutil.which("jq"):
        printed = (await sh(ctx, "jq -n env"))["output"]
        assert "sk-test-openai" not in printed and "PATH" in printed


def test_scrubbing_keeps_ordinary_variables() -> None:
    env = {"PATH": "/bin", "HOME": "/h", "LANG": "C", "TERM": "xterm", "SSH_AUTH_SOCK": "/s",
           "EDITOR": "vi", "XDG_SESSION_TYPE": "x11", "MY_TOKEN": "x", "API_KEY": "y"}
    assert scrubbed_environ(env) == {k: env[k] for k in list(env)[:7]}


# ------------------------------------------------ where the shell really is


async def test_paths_are_judged_where_the_persistent_shell_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an approved ``cd ~``, ``cat .ssh/id_rsa`` reads the home folder's key in
    the real shell: it must not be judged as the workspace's ``.ssh/id_rsa``."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / "sub").mkdir(parents=True)
    (ws / "README.md").write_text("readme\n")
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY\n")
    (home / "notes.txt").write_text("notes\n")
    monkeypatch.setenv("HOME", str(home))
    engine = _engine(ws, ["cat", "ls", "grep"])
    ctx = ToolContext("s1", ws)  # the session the calls below belong to
    try:
        assert engine.evaluate(shell_call("cat README.md")).allowed
        assert not engine.evaluate(shell_call("cd ~")).allowed  # it asks; the user says yes:
        await sh(ctx, "cd ~")
        assert "PRIVATE KEY" in (await sh(ctx, "cat .ssh/id_rsa"))["output"]  # what bash does
        for command in ("cat .ssh/id_rsa", "cat notes.txt", "ls", "grep -r KEY", "cat README.md"):
            decision = engine.evaluate(shell_call(command))
            assert not decision.allowed and decision.needs_user, (command, decision.reason)
        await sh(ctx, f"cd {ws / 'sub'}")
        assert engine.evaluate(shell_call("cat ../README.md")).allowed
        assert engine.evaluate(shell_call("ls")).allowed
        assert not engine.evaluate(shell_call("cat ../../home/notes.txt")).allowed
    finally:
        await close_shell_state(ctx.state)
    # a new shell starts in the workspace again
    assert engine.evaluate(shell_call("cat README.md")).allowed


def _spellings(name: str) -> list[str]:
    out = [name, f"'{name}'", f'"{name}"']
    if len(name) > 1 and name.isalpha():
        out += [f"{name[0]}''{name[1:]}", f'{name[:-1]}""{name[-1]}']
    return out


def test_every_state_builtin_in_every_spelling_asks(tmp_path: Path) -> None:
    """A generated corpus: each builtin, spelled as the shell still reads it, with the
    arguments that make it assign or run (allowlisted, so only the builtin rule stops it)."""
    from openworker_qt.core.shell_policy import POWERSHELL_STATE

    names = sorted(STATE_BUILTINS | POWERSHELL_STATE | {n.upper() for n in POWERSHELL_STATE})
    engine = _engine(tmp_path, names)
    for name in names:
        for spelled in _spellings(name):
            for args in ("", " x", " -p /bin/sh ls", " BASH_CMDS=x", " -v x 1"):
                command = spelled + args
                decision = engine.evaluate(shell_call(command))
                assert not decision.allowed, (command, decision.reason)


def test_programs_that_run_others_ask_whatever_their_arguments(tmp_path: Path) -> None:
    from openworker_qt.core.shell_policy import POWERSHELL_STATE
    from openworker_qt.core.shell_programs import ALWAYS_ASK, check_arguments

    for name in sorted(ALWAYS_ASK):
        for args in ([], ["x"], ["f.txt"], ["-c", "x"], ["--", "x"], ["+x"], ["sh"]):
            assert check_arguments([name, *args]) is not None, (name, args)
            assert check_arguments([f"/usr/bin/{name}", *args]) is not None, (name, args)
        if name not in STATE_BUILTINS | POWERSHELL_STATE:  # (``exec``, ``kill``: builtins)
            assert check_arguments([name, "--version"]) is None, name
    engine = _engine(tmp_path, ["env", "python3.12", "make"])
    for command in ("env", "python3.12 x.py", "make all"):
        assert engine.evaluate(shell_call(command)).needs_user, command
