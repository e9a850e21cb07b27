"""The approval of every file-changing tool shows the diff it would make."""

from __future__ import annotations

from pathlib import Path

from openworker_qt.ui.approval import PREVIEWED_TOOLS, approval_preview


def test_every_write_tool_gets_a_diff(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    assert set(PREVIEWED_TOOLS) == {"write_file", "replace_in_file", "apply_patch", "git_commit"}
    write = approval_preview("write_file", {"path": "a.txt", "content": "one\n2\n"}, tmp_path)
    replace = approval_preview(
        "replace_in_file", {"path": "a.txt", "old_string": "two", "new_string": "2"}, tmp_path)
    patch = approval_preview(
        "apply_patch", {"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-two\n+2\n"}, tmp_path)
    for diff in (write, replace, patch):
        assert diff is not None and "-two\n" in diff and "+2\n" in diff, diff
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\n"  # a preview writes nothing
    assert approval_preview("read_file", {"path": "a.txt"}, tmp_path) is None
