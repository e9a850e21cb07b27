"""read_file's window: an offset or limit out of range is a clear error, never a
window that invites the model to call again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.files import read_file


def ctx(ws: Path) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws)


@pytest.mark.parametrize("args", [{"limit": -1}, {"limit": 0}, {"offset": 0}, {"offset": -3},
                                  {"limit": "many"}, {"offset": 1.5}, {"limit": True}])
async def test_read_window_out_of_range_is_a_clear_error(tmp_path: Path, args: dict[str, Any]) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    result = await read_file({"path": "a.txt", **args}, ctx(tmp_path))
    assert result.is_error
    assert "must be whole numbers of 1 or more" in result.content
    assert "for more" not in result.content  # nothing invites the model to call again


async def test_read_window_within_range(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    both = await read_file({"path": "a.txt", "offset": "2", "limit": 1}, ctx(tmp_path))
    assert not both.is_error
    assert both.content.endswith("[lines 2–2 of 3] — call read_file with offset=3 for more.")
    defaults = await read_file({"path": "a.txt", "offset": None, "limit": None}, ctx(tmp_path))
    assert defaults.content.endswith("[lines 1–3 of 3]")
    past = await read_file({"path": "a.txt", "offset": 9}, ctx(tmp_path))
    assert past.is_error and "offset=9 is past the end" in past.content and "(3 lines)" in past.content
