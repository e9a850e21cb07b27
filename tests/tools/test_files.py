"""The file tools: URL-shaped paths refused, permission bits kept on overwrite."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.tools.files import (
    LIST_FILES,
    READ_FILE,
    WRITE_FILE,
    list_files,
    read_file,
    write_file,
)


def ctx(ws: Path) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws)


URLS = ["file:///etc/passwd", "FILE:///etc/passwd", "file:/etc/passwd", "http://example.com/x",
        "https://example.com/a.txt", "smb://server/share/x", "ftp://h/x", "s3://bucket/key",
        "git+ssh://host/repo"]


@pytest.mark.parametrize("url", URLS)
async def test_url_shaped_paths_are_not_paths(tmp_path: Path, url: str) -> None:
    results: list[ToolResult] = [
        await read_file({"path": url}, ctx(tmp_path)),
        await list_files({"path": url}, ctx(tmp_path)),
        await write_file({"path": url, "content": "x"}, ctx(tmp_path)),
    ]
    for result in results:
        assert result.is_error and "not a path" in result.content
    assert list(tmp_path.iterdir()) == []  # no folder named "file:" or "http:"


async def test_windows_drive_and_colons_are_still_paths(tmp_path: Path) -> None:
    result = await write_file({"path": "notes:v2.txt", "content": "x"}, ctx(tmp_path))
    assert not result.is_error, result.content
    assert (tmp_path / "notes:v2.txt").read_text() == "x"


@pytest.mark.parametrize("mode", [0o600, 0o755, 0o640, 0o444 | 0o200])
async def test_overwrite_keeps_the_permission_bits(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "file.sh"
    target.write_text("old")
    os.chmod(target, mode)
    result = await write_file({"path": "file.sh", "content": "new"}, ctx(tmp_path))
    assert not result.is_error and result.content.startswith("Overwrote")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == mode
    assert [p.name for p in tmp_path.iterdir()] == ["file.sh"]  # no temp file left


async def test_new_file_gets_the_umask_bits(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        await write_file({"path": "new/deep/a.txt", "content": "x"}, ctx(tmp_path))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new" / "deep" / "a.txt").stat().st_mode) == 0o644


async def test_write_through_a_symlink_keeps_the_target_bits(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    os.chmod(real, 0o600)
    (tmp_path / "alias.txt").symlink_to(real)
    await write_file({"path": "alias.txt", "content": "new"}, ctx(tmp_path))
    assert real.read_text() == "new" and stat.S_IMODE(real.stat().st_mode) == 0o600


def test_every_file_tool_names_its_path_as_target() -> None:
    args: dict[str, Any] = {"path": "~/.ssh/id_rsa"}
    for tool in (READ_FILE, LIST_FILES, WRITE_FILE):
        assert tool.target(args) == "~/.ssh/id_rsa"
