"""The shell allowlist: operator refusal and token-exact argv prefix matching."""

from __future__ import annotations

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
    # a program without a table: its paths are still checked
    "make -C /etc",
    "make --directory=/etc",
    "make -f/etc/evil.mk",
    "make ../outside",
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
    "pytest -k 'not slow' --tb=short", "make", "make test", "make --jobs=4 test",
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
        ("find . -exec rm {} +", "-exec runs another program"),
        ("git diff --output=~/.bashrc", "--output writes to a file"),
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

    check_command("grep -e x --file=a.txt --include=*.py b c", ["grep"], path_check=record)
    assert seen == ["a.txt", "b", "c"]  # not the pattern, not the glob
    seen.clear()
    check_command("grep pattern b", ["grep"], path_check=record)
    assert seen == ["b"]


def test_every_default_program_has_a_table() -> None:
    from openworker_qt.core.shell_programs import PROGRAMS

    for entry in DEFAULT_ALLOWED_COMMANDS:
        assert entry.split()[0] in PROGRAMS
