"""A write that would leave a file as it is still shows the file, as a diff with no
changed line, not the call's JSON."""

from __future__ import annotations

from pathlib import Path

from openworker_qt.ui.approval import approval_preview, is_unified_diff


def test_rewriting_a_file_with_the_same_text_shows_it_unchanged(tmp_path: Path) -> None:
    text = "# Hello from OpenWorker\n\nThe offline demo wrote this file.\n"
    (tmp_path / "openworker-demo.md").write_text(text, encoding="utf-8")
    preview = approval_preview("write_file", {"path": "openworker-demo.md", "content": text}, tmp_path)
    assert preview and is_unified_diff(preview)
    body = preview.splitlines()[3:]
    assert body == [" # Hello from OpenWorker", " ", " The offline demo wrote this file."]
    assert not any(line.startswith(("+", "-")) for line in body)


def test_a_new_file_is_all_added_lines(tmp_path: Path) -> None:
    preview = approval_preview("write_file", {"path": "new.md", "content": "a\nb"}, tmp_path)
    assert preview is not None and preview.startswith("--- /dev/null")
    assert preview.splitlines()[-2:] == ["+a", "+b"]
