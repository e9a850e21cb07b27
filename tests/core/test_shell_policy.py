"""The shell allowlist: operator refusal and token-exact argv prefix matching."""

from __future__ import annotations

import pytest

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
