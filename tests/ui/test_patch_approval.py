"""apply_patch and replace_in_file through the window: the approval shows the
diff, approving writes it (the tools come from runtime_tools.default_tools)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from openworker_qt.ui.approval import ApprovalDialog
from tests.ui.conftest import look_away, run, until
from tests.ui.test_main_window import type_and_enter

PATCH = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n"


def _dialog(window) -> ApprovalDialog | None:
    return next(iter(window.cards.dialogs.values()), None)


def _approve_first(qtbot, qloop, desktop, seen: list[str]) -> None:
    window = desktop.window

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "edit the notes")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        assert dialog is not None
        seen.append(dialog.panel.details.toPlainText())
        qtbot.mouseClick(dialog.panel.once, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)


def test_patch_approval_shows_the_diff(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "notes.txt").write_text("alpha\nbeta\n")
    desktop = make_desktop([
        {"tool_calls": [{"name": "apply_patch", "arguments": {"patch": PATCH}}]},
        {"text": "Done."},
    ])
    seen: list[str] = []
    _approve_first(qtbot, qloop, desktop, seen)
    assert "-beta" in seen[0] and "+gamma" in seen[0] and '"patch"' not in seen[0]
    assert (tmp_path / "ws" / "notes.txt").read_text() == "alpha\ngamma\n"


def test_replace_approval_shows_the_diff(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "notes.txt").write_text("alpha\nbeta\n")
    args = {"path": "notes.txt", "old_string": "beta", "new_string": "delta"}
    desktop = make_desktop([
        {"tool_calls": [{"name": "replace_in_file", "arguments": args}]},
        {"text": "Done."},
    ])
    seen: list[str] = []
    _approve_first(qtbot, qloop, desktop, seen)
    assert "-beta" in seen[0] and "+delta" in seen[0] and "old_string" not in seen[0]
    assert (tmp_path / "ws" / "notes.txt").read_text() == "alpha\ndelta\n"
