"""Servers imported from VS Code and Cursor: their variables are expanded (or the
entry is refused with the reason), and a bare ${X} that is not in the keyring is
read from the environment when the server starts (a real stdio server reports
what it got)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from openworker_qt.cli import main
from openworker_qt.mcp import config as mc
from openworker_qt.mcp.manager import McpManager
from openworker_qt.storage import secrets
from openworker_qt.storage.paths import app_paths
from tests.mcp.helpers import call, script


def entry(**raw: object) -> mc.ServerConfig:
    return mc.parse_server("s", {"command": "node", **raw})


def expand(server: mc.ServerConfig, **kw: object) -> mc.ServerConfig:
    kw.setdefault("home", Path("/home/me"))
    kw.setdefault("environ", {"API_KEY": "k-123", "REGION": "eu"})
    return mc.expand_editor_vars(server, **kw)


def test_user_home_and_separators() -> None:
    out = expand(entry(args=["${userHome}${/}notes", "${userHome}${pathSeparator}x"],
                       cwd="${userHome}"))
    assert out.args == (f"/home/me{os.sep}notes", f"/home/me{os.sep}x")
    assert out.cwd == "/home/me"


def test_env_colon_becomes_a_placeholder_in_env_and_headers_and_a_value_elsewhere() -> None:
    out = expand(entry(args=["--region", "${env:REGION}"], env={"KEY": "${env:API_KEY}"}))
    assert out.args == ("--region", "eu")
    assert out.env == {"KEY": "${API_KEY}"}  # (the secret stays out of the file)
    remote = expand(mc.parse_server("r", {"url": "https://x.example/${env:REGION}/mcp",
                                          "headers": {"Authorization": "Bearer ${env:API_KEY}"}}))
    assert remote.url == "https://x.example/eu/mcp"
    assert remote.headers == {"Authorization": "Bearer ${API_KEY}"}
    with pytest.raises(mc.McpConfigError, match=r"\$\{env:NOPE\}, and NOPE is not set"):
        expand(entry(args=["${env:NOPE}"]))


def test_workspace_folder_is_the_folder_the_file_belongs_to() -> None:
    out = expand(entry(args=["${workspaceFolder}/src", "${workspaceFolderBasename}"]),
                 workspace=Path("/work/proj"))
    assert out.args == ("/work/proj/src", "proj")
    with pytest.raises(mc.McpConfigError, match="belongs to no folder"):
        expand(entry(args=["${workspaceFolder}"]))


@pytest.mark.parametrize(("var", "words"), [
    ("${input:token}", "VS Code asks you for each time"),
    ("${config:python.path}", "only VS Code can fill in"),
    ("${command:pickFile}", "only VS Code can fill in"),
    ("${file}", "names something open in the editor"),
])
def test_what_cannot_be_expanded_is_refused_with_the_reason(var: str, words: str) -> None:
    with pytest.raises(mc.McpConfigError, match=words):
        expand(entry(env={"T": var}))


def test_a_bare_placeholder_is_kept() -> None:
    assert expand(entry(env={"T": "${MY_TOKEN}"})).env == {"T": "${MY_TOKEN}"}


def test_import_a_vscode_workspace_file_and_a_cursor_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("REGION", "eu")
    proj = tmp_path / "proj"
    vscode = proj / ".vscode" / "mcp.json"
    vscode.parent.mkdir(parents=True)
    vscode.write_text(json.dumps({"inputs": [{"id": "tok", "type": "promptString"}], "servers": {
        "files": {"command": "npx", "args": ["-y", "server-filesystem", "${workspaceFolder}"]},
        "asks": {"command": "npx", "args": ["x"], "env": {"TOKEN": "${input:tok}"}},
    }}))
    assert main(["mcp", "import", str(vscode)]) == 0
    out = capsys.readouterr().out
    assert "added files" in out
    assert "'asks' uses ${input:tok}, which VS Code asks you for" in out and "(not imported)" in out
    cursor = tmp_path / "home" / ".cursor" / "mcp.json"
    cursor.parent.mkdir(parents=True)
    cursor.write_text(json.dumps({"mcpServers": {
        "everything": {"command": "npx", "args": ["${userHome}/srv", "--region=${env:REGION}"],
                       "env": {"KEY": "${env:API_KEY}"}},
        "here": {"command": "npx", "args": ["${workspaceFolder}"]},
    }}))
    assert main(["mcp", "import", str(cursor)]) == 0
    out = capsys.readouterr().out
    assert "added everything" in out and "'here' uses ${workspaceFolder}" in out
    saved = json.loads((app_paths().config / "mcp.json").read_text())["mcpServers"]
    assert saved["files"]["args"][-1] == str(proj.resolve())
    assert saved["everything"]["args"] == [f"{tmp_path / 'home'}/srv", "--region=eu"]
    assert saved["everything"]["env"] == {"KEY": "${API_KEY}"}
    assert "asks" not in saved and "here" not in saved


async def test_a_placeholder_not_in_the_keyring_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FROM_ENV", "env-value")
    monkeypatch.setenv("IN_BOTH", "env-loses")
    secrets.set_secret("IN_BOTH", "keyring-wins")
    config = script("behave", env={"A": "${FROM_ENV}", "B": "${IN_BOTH}"})
    manager = McpManager([config], get_secret=secrets.get_secret, connect_timeout=20)
    await manager.start_all()
    await manager.wait_ready(30)
    try:
        registry = manager.tools()
        assert (await call(registry, "behave", "env", {"name": "A"})).content == "env-value"
        assert (await call(registry, "behave", "env", {"name": "B"})).content == "keyring-wins"
    finally:
        await manager.stop_all()
