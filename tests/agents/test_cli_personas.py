"""``openworker-qt personas``: install from a git URL, consent, enable, disable, remove."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openworker_qt.agents.personas import BUILTIN_NAMES
from openworker_qt.cli import main
from tests.agents.test_personas import HELPER, git_repo


def listed(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, object]]:
    capsys.readouterr()
    assert main(["personas", "list", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return {str(r["name"]): r for r in rows}


def test_install_waits_for_consent_then_enable_disable_remove(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    url = git_repo(tmp_path).resolve().as_uri()
    assert main(["personas", "install", url]) == 0
    out = capsys.readouterr().out
    assert "Installed release-helper (disabled until you agree to what it may do)" in out
    assert "• Run commands on this computer" in out
    assert "stays disabled" in out
    assert listed(capsys)["release-helper"]["status"] == "needs your consent"

    assert main(["personas", "enable", "release-helper", "--yes"]) == 0
    assert "release-helper is enabled." in capsys.readouterr().out
    assert listed(capsys)["release-helper"]["enabled"] is True
    assert main(["personas", "disable", "release-helper"]) == 0
    assert listed(capsys)["release-helper"]["status"] == "disabled"
    assert main(["personas", "remove", "release-helper"]) == 0
    assert "release-helper" not in listed(capsys)

    assert main(["personas", "list"]) == 0
    table = capsys.readouterr().out
    assert "cowork" in table and "built in" in table


def test_errors_are_clear_and_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = git_repo(tmp_path, HELPER.replace("connectors:", "writable_roots: [/]\nconnectors:"))
    assert main(["personas", "install", str(bad), "--yes"]) == 2
    err = capsys.readouterr().err
    assert "a persona cannot change permissions ('writable_roots')" in err
    assert main(["personas", "remove", "code"]) == 2
    assert "built in" in capsys.readouterr().err
    assert main(["personas", "enable", "nobody"]) == 2
    assert "no persona named 'nobody'" in capsys.readouterr().err
    assert set(listed(capsys)) == set(BUILTIN_NAMES)
