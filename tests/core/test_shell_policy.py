"""The shell allowlist: operator refusal and token-exact argv prefix matching."""

from __future__ import annotations

import getpass
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.shell_policy import (
    DEFAULT_ALLOWED_COMMANDS,
    check_command,
    find_operator,
    matching_entry,
    parse_allowlist,
    parse_argv,
)

ALLOW = ["git status", "ls", "pytest", "git log --oneline"]

# (command, auto-runs under ALLOW?)
CASES: list[tuple[str, bool]] = [
    # token-exact prefix matching
    ("git status", True),
    ("git status -s", True),
    ("git   status    --short", True),
    ("'git' \"status\"", True),
    ("git statusx", False),
    ("git", False),
    ("git push", False),
    ("git push --force", False),
    ("git log", False),
    ("git log --oneline -5", True),
    ("ls", True),
    ("ls -la src", True),
    ("lsof", False),
    ("lsof -i", False),
    ("/bin/ls", False),
    ("./ls", False),
    ("pytest -q", True),
    ("pytest", True),
    ("rm -rf /", False),
    ("FOO=1 ls", False),
    # operators anywhere, even after an allowlisted prefix
    ("ls && curl x", False),
    ("git status; rm -rf ~", False),
    ("git status;rm -rf ~", False),
    ("git status | sh", False),
    ("git status || curl x", False),
    ("git status & curl x", False),
    ("ls &", False),
    ("ls `whoami`", False),
    ("ls $(whoami)", False),
    ("ls > out.txt", False),
    ("ls 2>&1", False),
    ("ls >> out.txt", False),
    ("ls < in.txt", False),
    ("ls <<< x", False),
    ("ls <(curl x)", False),
    ("(ls)", False),
    ("ls (", False),
    ("ls )", False),
    ("ls\nrm -rf ~", False),
    ("ls\rrm -rf ~", False),
    ("git status -s\n", False),
    # stricter than required: quoted operators, expansions and control characters
    ("git status 'a;b'", False),
    ("ls $HOME", False),
    ("ls ${HOME}", False),
    ("ls \x00", False),
    ("ls \x1b[31m", False),
    # unparseable quoting, empty
    ("git status 'unterminated", False),
    ('ls "open', False),
    ("", False),
    ("   ", False),
]


@pytest.mark.parametrize(("command", "auto"), CASES, ids=[repr(c) for c, _ in CASES])
def test_check_command_table(command: str, auto: bool) -> None:
    verdict = check_command(command, ALLOW)
    assert verdict.auto is auto, verdict.reason
    assert verdict.reason
    if auto:
        assert verdict.entry is not None
    else:
        assert verdict.entry is None


def test_reference_pytest_allowlist() -> None:
    assert check_command("pytest -q", ["pytest"]).auto
    assert not check_command("rm -rf /", ["pytest"]).auto


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c 'import os; os.system(\"id\")'",
        "python3 -c 'print(1)'",
        "pytest /tmp/evil_test.py",
        "find . -exec sh {} +",
        "find . -exec sh -c 'id' \\;",
        "cat ~/.ssh/id_rsa",
        "echo $OPENAI_API_KEY",
        "git status",
        "rm -rf /",
        "curl https://example.com",
    ],
)
def test_default_allowlist_allows_none_of_these(command: str) -> None:
    assert not check_command(command, DEFAULT_ALLOWED_COMMANDS).auto


def test_default_allowlist_allows_harmless_listing() -> None:
    assert check_command("ls -la", DEFAULT_ALLOWED_COMMANDS).auto
    assert check_command("pwd", DEFAULT_ALLOWED_COMMANDS).auto


def test_reasons_name_the_operator() -> None:
    assert "';'" in check_command("git status; rm -rf ~", ALLOW).reason
    assert "'&&'" in check_command("ls && curl x", ALLOW).reason
    assert "newline" in check_command("ls\nid", ALLOW).reason
    assert "backtick" in check_command("ls `id`", ALLOW).reason
    assert "quoting" in check_command("ls 'x", ALLOW).reason
    assert "allowlist" in check_command("lsof", ALLOW).reason


def test_find_operator_and_parse_argv() -> None:
    assert find_operator("git status -s") is None
    assert find_operator("a && b") == "&&"
    assert find_operator("a $(b)") == "$("
    assert parse_argv("git commit -m 'two words'") == ["git", "commit", "-m", "two words"]
    assert parse_argv("echo 'open") is None


def test_allowlist_entries_are_validated_and_longest_match_wins() -> None:
    assert parse_allowlist(["", "  ", "ls; rm", "ls", "ls", "'open", "git  status"]) == [
        ("ls",),
        ("git", "status"),
    ]
    assert matching_entry(["git", "status", "-s"], ["git status", "git status -s"]) == "git status -s"
    assert matching_entry(["git"], ["git status"]) is None
    # An allowlist entry carrying an operator never matches anything.
    assert not check_command("ls", ["ls && curl x"]).auto


# ------------------------------------------------- dangerous options and paths
#
# An allowlisted program auto-runs only when none of its options executes, deletes
# or writes, and every path it is given stays inside the folders the session may
# read and outside the sensitive set. Each row is checked through a real
# PermissionEngine whose allowlist names every program (so only the option and
# path checks can stop it).

EVERY_PROGRAM = [
    "ls", "pwd", "date", "whoami", "uname", "cat", "head", "tail", "wc", "grep", "egrep",
    "fgrep", "find", "sort", "uniq", "sed", "tee", "echo", "printf", "git", "pytest", "make",
    "mytool",
]

ASKS: list[str] = [
    # the corpus
    "find . -delete",
    "find . -exec rm {} +",
    "git diff --output=~/.bashrc",
    "git log --output=/tmp/x",
    "grep -f /etc/shadow x",
    "pytest -p evil --rootdir=/",
    "cat ~/.ssh/id_rsa",
    # find: every action that runs, deletes or writes; paths outside
    "find . -execdir rm {} +",
    "find . -ok rm {} +",
    "find . -okdir rm {} +",
    "find . -fprint /tmp/list",
    "find . -fprint0 out.txt",
    "find . -fprintf out.txt %p",
    "find . -fls out.txt",
    "find . -name x -delete",
    "find / -name id_rsa",
    "find ~/.ssh",
    "find . -newer /etc/shadow",
    "find . -files0-from /etc/passwd",
    "find . -frobnicate",
    # git: writing or running options, abbreviations, non-read subcommands, paths
    "git diff --output ~/.bashrc",
    "git log --outp=x",
    "git show --out=x",
    "git diff -o x",
    "git log -p --output=x",
    "git diff --ext-diff",
    "git grep -O foo",
    "git grep --open-files-in-pager=vim foo",
    "git -c core.pager=sh log",
    "git -c alias.x=!sh x",
    "git --config-env=core.pager=X log",
    "git --exec-path=/tmp log",
    "git -p log",
    "git --paginate log",
    "git log --help",
    "git --git-dir=/etc/x log",
    "git -C / status",
    "git -C ~/.ssh log",
    "git diff --no-index /etc/shadow x",
    "git grep -f /etc/shadow",
    "git grep -f/etc/shadow",
    "git blame --contents /etc/shadow x",
    "git commit -m x",
    "git push",
    "git checkout .",
    "git reset --hard",
    "git clean -fdx",
    "git config core.fsmonitor x",
    "git branch evil",
    "git branch -D main",
    "git branch -m a b",
    "git tag v1",
    "git tag -d v1",
    "git stash",
    "git stash drop",
    "git remote add x y",
    "git fetch",
    # grep
    "grep --file=/etc/shadow x",
    "grep -f/etc/shadow x",
    "grep foo /etc/passwd",
    "grep -r key ~",
    "grep -R key .",
    "grep --exclude-from=/etc/shadow foo .",
    "grep --frobnicate x .",
    # sort / uniq
    "sort -o out.txt in.txt",
    "sort --output=out.txt in.txt",
    "sort --out=out.txt in.txt",
    "sort -oout.txt in.txt",
    "sort --compress-program=sh in.txt",
    "sort -T /tmp in.txt",
    "sort /etc/shadow",
    "sort --random-source=/etc/shadow x",
    "uniq in.txt out.txt",
    # pytest
    "pytest -p evil",
    "pytest -pevil",
    "pytest --rootdir=/",
    "pytest -c /tmp/evil.ini",
    "pytest --config-file=x.ini",
    "pytest --confcutdir=/",
    "pytest -o addopts=-pevil",
    "pytest --override-ini=python_files=*",
    "pytest --pyargs evil",
    "pytest -W error::evil.Warning",
    "pytest --basetemp=/",
    "pytest --junitxml=/tmp/x.xml",
    "pytest --log-file=~/.bashrc",
    "pytest --pastebin=all",
    "pytest --pdb",
    "pytest /tmp/evil_test.py",
    "pytest ../outside/test_x.py",
    "pytest --root=/",  # an abbreviation: unknown, so it asks
    # sed / tee / tail / date
    "sed -i s/a/b/ file.txt",
    "sed --in-place s/a/b/ file.txt",
    "sed 's/a/b/w /tmp/x' file.txt",
    "sed -e 's/a/b/e' file.txt",
    "sed 'w /tmp/x' file.txt",
    "sed 'e id' file.txt",
    "sed 'r /etc/shadow' file.txt",
    "sed -f script.sed file.txt",
    "sed -n 1p /etc/shadow",
    "tee out.txt",
    "tee",
    "tail -f log.txt",
    "tail --follow=name log.txt",
    "date -s 2020-01-01",
    "date --set=2020-01-01",
    "date 010112002024",
    "date -f /etc/shadow",
    # ls / cat / head / wc: paths outside or sensitive
    "ls /",
    "ls ~",
    "ls ~/.ssh",
    "ls ../outside",
    "ls --frobnicate",
    "cat /etc/shadow",
    "cat ~/.aws/credentials",
    "cat ../outside/secret.txt",
    "cat escape/passwd",  # a workspace symlink pointing outside
    "head -n 5 ~/.netrc",
    "wc -l /etc/passwd",
    "wc --files0-from=/etc/passwd",
    "whoami --frobnicate",
    "pwd /etc",
    "uname --frobnicate",
    # shell expansions the check cannot see through: patterns, braces, odd tildes
    # (in the workspace: ``k`` is a symlink to ~/.ssh/id_rsa, ``ss`` one to ~/.ssh,
    # ``~`` one to the home folder, ``hl`` a hard link to the key, ``list`` a file
    # naming the key)
    "date -f {~/.ssh/id_rsa,+%s}",
    "date -f {/proc/self/environ,+%s}",
    "ls -la {~/.ssh,.}",
    "ls {/etc/ssh,.}",
    "ls ~-/.ssh",
    "ls ~+/../home",
    "ls ~1",
    "date -f k",
    "date -f k*",
    "date -f [k] +%s",
    "date -f ? +%s",
    "cat ss*/id_rsa",
    "cat s?/id_rsa",
    "sed -n 1p {~/.ssh/id_rsa,}",
    "sed -n 1p ss/id{_rsa,}",
    "cat \\k",
    "cat k\\*",
    "cat '~'/.ssh/id_rsa",
    "cat ~'root'/x",
    "ls a=~/.ssh",
    "ls --hide=x:~/.ssh",
    "date --file=~/.ssh/id_rsa",
    "date -f~/.ssh/id_rsa",  # the shell passes it as written: ./~/.ssh/id_rsa (a link home)
    "ls . # ~/.ssh",
    "HOME=/ ls ~/.ssh",
    # hard links, symlinks followed while walking, file lists
    "cat hl",
    "date -f hl",
    "sed -n 1p hl",
    "find -L . -name id_rsa",
    "find -H ss",
    "find . -follow -name id_rsa",
    "ls -RL .",
    "ls --dereference -R .",
    "sort --files0-from=list",
    "wc --files0-from list",
    # make runs a Makefile's commands; a program without a table runs only
    # without options, and its paths are still checked
    "make", "make test", "make -C /etc", "make --directory=/etc", "make -f/etc/evil.mk",
    "mytool -C /etc", "mytool --directory=/etc", "mytool -f/etc/evil.mk", "mytool ../outside",
    "mytool --exec=sh", "mytool -x", "mytool +cmd", "mytool -- x", "mytool /etc/passwd",
]

AUTO_RUNS: list[str] = [
    "ls", "ls -la", "ls -la src", "ls --color=auto -lh src", "ls -R .", "pwd", "pwd -P",
    "date", "date +%s", "date -u", "date -Iseconds", "date -d yesterday +%F", "whoami",
    "uname -a", "cat README.md", "cat -n src/a.py", "head -n 20 README.md", "head -5 README.md",
    "tail -n 3 README.md", "wc -l README.md src/a.py", "grep -rn TODO .", "grep -e foo -- README.md",
    "grep -i todo README.md", "egrep 'a+b' README.md", "find . -name '*.py'",
    "find src -type f -newer README.md", "find . -maxdepth 2 -print0",
    "sort -k2 -n data.txt", "sort -u README.md", "uniq -c data.txt", "sed -n 1,5p README.md",
    "sed 's/a/b/g' README.md", "sed -E -e 's/x+/y/2' README.md", "echo hello", "printf %s x",
    "git status", "git status -s", "git log --oneline -5", "git log -p --stat", "git diff HEAD~1",
    "git diff --output-indicator-new=+", "git show HEAD:README.md", "git blame README.md",
    "git branch", "git branch -a -v", "git branch --list 'feat*'", "git tag -l", "git stash list",
    "git -C src log", "git --no-pager log -1", "git ls-files", "git rev-parse HEAD",
    "pytest", "pytest -q", "pytest -x -q tests/test_a.py::test_one", "pytest -p no:cacheprovider",
    "pytest -k 'not slow' --tb=short", "mytool", "mytool test", "mytool README.md src",
    # quoted patterns and escapes mean what they say
    "cat 'README.md'", 'ls "src"', "grep 'a\\.b' README.md", 'grep "a\\.b" README.md',
    "grep -e 'x*' README.md", "find . -name '[ab]*.py'", "sed 's/{x}/y/' README.md",
    "ls ''", "git log --format='%h %s' -3", "echo 'a # b'",
]


@pytest.fixture
def engine_ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PermissionEngine:
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    (ws / "src").mkdir(parents=True)
    (home / ".ssh").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (ws / "escape").symlink_to("/etc")
    (ws / "README.md").write_text("x")
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    (ws / "k").symlink_to(home / ".ssh" / "id_rsa")
    (ws / "ss").symlink_to(home / ".ssh")
    (ws / "~").symlink_to(home)
    (ws / "hl").hardlink_to(home / ".ssh" / "id_rsa")
    (ws / "list").write_text(f"{home}/.ssh/id_rsa\0")
    monkeypatch.setenv("HOME", str(home))
    return PermissionEngine(workspace=ws, mode="auto", shell_allowlist=EVERY_PROGRAM)


def _shell(command: str) -> ToolCallInfo:
    return ToolCallInfo("s1", "c1", "run_shell", {"command": command}, RiskClass.EXEC,
                        target=command)


@pytest.mark.parametrize("command", ASKS)
def test_allowlisted_program_with_a_dangerous_option_or_path_asks(
    engine_ws: PermissionEngine, command: str
) -> None:
    d = engine_ws.evaluate(_shell(command))
    assert not d.allowed and d.needs_user, d.reason
    assert "allowlist" in d.reason or "is not" in d.reason or "contains" in d.reason


@pytest.mark.parametrize("command", AUTO_RUNS)
def test_allowlisted_program_used_harmlessly_auto_runs(
    engine_ws: PermissionEngine, command: str
) -> None:
    d = engine_ws.evaluate(_shell(command))
    assert d.allowed, d.reason


@pytest.mark.parametrize(
    ("command", "fragment"),
    [
        ("find . -delete", "-delete deletes files"),
        # (unquoted, ``{}`` and ``=~`` ask first: the shell may expand them)
        ("find . -exec rm '{}' +", "-exec runs another program"),
        ("git diff --output=.bashrc", "--output writes to a file"),
        ("git log --outp=x", "--output writes to a file"),
        ("git push", "'git push' is not a read-only git command"),
        ("sort -o x y", "sort -o writes to a file"),
        ("pytest -p evil", "loads a plugin"),
        ("sed -i s/a/b/ f", "edits files in place"),
        ("ls --frobnicate", "not one this check knows"),
    ],
)
def test_option_reasons_are_specific(command: str, fragment: str) -> None:
    verdict = check_command(command, EVERY_PROGRAM)
    assert not verdict.auto and fragment in verdict.reason


def test_paths_are_only_checked_when_a_checker_is_given() -> None:
    assert check_command("cat /etc/shadow", ["cat"]).auto  # the pure check: options only
    assert not check_command("cat /etc/shadow", ["cat"], path_check=lambda p: "no").auto
    seen: list[str] = []

    def record(path: str) -> None:
        seen.append(path)

    check_command("grep -e x --file=a.txt '--include=*.py' b c", ["grep"], path_check=record)
    assert seen == ["a.txt", "b", "c"]  # not the pattern, not the glob
    seen.clear()
    check_command("grep pattern b", ["grep"], path_check=record)
    assert seen == ["b"]


def test_every_default_program_has_a_table() -> None:
    from openworker_qt.core.shell_programs import PROGRAMS

    for entry in DEFAULT_ALLOWED_COMMANDS:
        assert entry.split()[0] in PROGRAMS


# ------------------------------------------------- the shell's own expansions
#
# The check judges the words the program will receive, so the shell must not
# change a word after the check. Every command that auto-runs is run through a
# real ``bash`` (``set -- WORDS`` applies the same expansions as running them) in
# a workspace and home full of names that patterns and braces would match, and
# the words bash makes must be exactly the words that were checked.

BASH = shutil.which("bash")


def _bash_words(commands: list[str], cwd: Path, home: Path) -> list[tuple[str, ...]]:
    """What bash makes of each command's words (one bash for all of them)."""
    assert BASH is not None, "bash is needed to check what the shell expands"
    script = "".join(
        f"set -- {c}\nprintf '%s\\0' \"$@\"\nprintf '\\1\\0'\n" for c in commands
    )
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "LC_ALL": "C"}
    out = subprocess.run(
        [BASH, "--norc", "--noprofile"], input=script.encode(), cwd=cwd, env=env,
        capture_output=True, check=True, timeout=60,
    ).stdout.decode()
    words = out.split("\0")[:-1]
    result: list[tuple[str, ...]] = []
    current: list[str] = []
    for w in words:
        if w == "\1":
            result.append(tuple(current))
            current = []
        else:
            current.append(w)
    assert len(result) == len(commands)
    return result


@pytest.fixture
def shell_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    (ws / "src").mkdir(parents=True)
    for name in ("a", "b", "ab", "k", "[k]", "a.b", "x=y", "~", "README.md", "-n", "#x"):
        (ws / name).write_text("x")
    monkeypatch.setenv("HOME", str(home))
    return ws, home


EXPANDED: list[str] = [
    # a leading ~ is expanded here exactly as the shell expands it
    "ls ~", "ls ~/", "ls ~/.ssh", "ls -la ~/src ~", f"ls ~{getpass.getuser()}/x",
    "ls ~nosuchuser4242/x", "git diff HEAD~1", "git log HEAD~~", "date -f~/x", "ls -- -n",
    "ls a~b", "echo '~'", 'echo "~/x"', "echo x~", "ls '#x'", "ls a#b",
]


@pytest.mark.parametrize("allowlist", [EVERY_PROGRAM, list(DEFAULT_ALLOWED_COMMANDS)])
def test_every_auto_run_is_what_bash_runs(
    shell_world: tuple[Path, Path], allowlist: list[str]
) -> None:
    ws, home = shell_world
    commands = []
    for command in [*AUTO_RUNS, *EXPANDED, *ASKS]:
        verdict = check_command(command, [*allowlist, "echo"])
        if verdict.auto:
            assert verdict.argv is not None
            commands.append((command, verdict.argv))
    assert len(commands) > 40 if allowlist is EVERY_PROGRAM else len(commands) > 10
    for (command, checked), ran in zip(
        commands, _bash_words([c for c, _ in commands], ws, home), strict=True
    ):
        assert ran == checked, f"{command!r}: checked {checked}, bash ran {ran}"


def test_random_commands_that_auto_run_are_what_bash_runs(
    shell_world: tuple[Path, Path],
) -> None:
    """Commands made of the characters the shell treats specially: whatever the
    pure check lets run must reach the program unchanged."""
    ws, home = shell_world
    rng = random.Random(20240611)
    alphabet = list("ak~/.*?[]{},=:-#!%^+@' \"\\") + ["'a b'", '"~"', "~/", "a"]
    auto: list[tuple[str, tuple[str, ...]]] = []
    for _ in range(4000):
        command = "ls " + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
        verdict = check_command(command, ["ls"])
        if verdict.auto:
            assert verdict.argv is not None
            auto.append((command, verdict.argv))
    assert len(auto) > 200  # the sample exercises the accepting side too
    for (command, checked), ran in zip(auto, _bash_words([c for c, _ in auto], ws, home),
                                       strict=True):
        assert ran == checked, f"{command!r}: checked {checked}, bash ran {ran}"


@pytest.mark.parametrize(
    "command",
    [
        "date -f {~/.ssh/id_rsa,+%s}",
        "date -f {/proc/self/environ,+%s}",
        "ls -la {~/.ssh,.}",
        "ls {/etc/ssh,.}",
        "ls ~-/.ssh",
        "date -f k*",
        "date -f [k] +%s",
    ],
)
def test_the_default_allowlist_does_not_auto_run_expansions(
    engine_ws: PermissionEngine, command: str
) -> None:
    engine = PermissionEngine(
        workspace=engine_ws.workspace(), mode="auto", shell_allowlist=DEFAULT_ALLOWED_COMMANDS
    )
    d = engine.evaluate(_shell(command))
    assert not d.allowed and d.needs_user, d.reason
    assert "expand" in d.reason or "~" in d.reason


def test_expansion_reasons_say_what_the_shell_would_do() -> None:
    assert "pattern ('*'" in check_command("ls k*", ["ls"]).reason
    assert "braces" in check_command("ls {a,b}", ["ls"]).reason
    assert "backslash" in check_command("ls \\k", ["ls"]).reason
    assert "comment" in check_command("ls #x", ["ls"]).reason
    assert "'~-/x'" in check_command("ls ~-/x", ["ls"]).reason
    assert "environment variable" in check_command("A=1 ls", ["ls"]).reason


def test_a_literal_tilde_is_checked_where_the_program_reads_it(
    engine_ws: PermissionEngine,
) -> None:
    """``date -f~/x`` reads ``./~/x`` (the shell leaves a glued ``~`` alone): the
    workspace's own ``~`` folder, here a link to the home folder, is what is checked."""
    seen: list[str] = []

    def record(path: str) -> None:
        seen.append(path)

    check_command("date -f~/x", ["date"], path_check=record)
    assert seen == ["./~/x"]
    d = engine_ws.evaluate(_shell("date -f~/.ssh/id_rsa"))
    assert d.needs_user and "outside the folders" in d.reason, d.reason
