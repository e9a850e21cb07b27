"""A git commit asks first, and its approval shows the message and the staged diff."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from PySide6.QtCore import Qt

from openworker_qt.ui.approval import ApprovalDialog
from tests.ui.conftest import look_away, run, until
from tests.ui.test_main_window import type_and_enter

COMMIT = [
    {"tool_calls": [{"name": "git_commit", "arguments": {"message": "Add the plan",
                                                         "paths": ["plan.md"]}}]},
    {"text": "Committed."},
]


def sh(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return subprocess.run(["git", "-C", str(repo), *args], env=env, capture_output=True,
                          text=True, check=True).stdout


def _dialog(window) -> ApprovalDialog | None:
    return next(iter(window.cards.dialogs.values()), None)


def test_commit_approval_shows_the_staged_diff(qtbot, qloop, make_desktop, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    sh(ws, "init", "-q", "-b", "main")
    sh(ws, "config", "user.name", "Ada")
    sh(ws, "config", "user.email", "ada@example.com")
    (ws / "notes.txt").write_text("old line\n")
    sh(ws, "add", "notes.txt")
    sh(ws, "commit", "-q", "-m", "start")
    (ws / "notes.txt").write_text("new line\n")
    sh(ws, "add", "notes.txt")
    (ws / "plan.md").write_text("# The plan\n")
    desktop = make_desktop(COMMIT)
    window = desktop.window
    seen: dict[str, str] = {}

    look_away(qtbot)  # the user is in another window: the ask gets its dialog

    async def scenario() -> None:
        type_and_enter(qtbot, window, "commit the plan")
        await until(lambda: _dialog(window) is not None, what="dialog")
        dialog = _dialog(window)
        assert dialog is not None
        seen["preview"] = dialog.panel.details.toPlainText()
        qtbot.mouseClick(dialog.panel.once, Qt.MouseButton.LeftButton)
        await until(lambda: not desktop.manager.is_running(window.session_id), what="turn end")

    run(qloop, scenario)
    preview = seen["preview"]
    assert "Add the plan" in preview
    assert "-old line" in preview and "+new line" in preview  # what is staged
    assert "new file: plan.md" in preview  # what the call stages first
    assert sh(ws, "log", "-1", "--format=%s").strip() == "Add the plan"
    assert sorted(sh(ws, "show", "--name-only", "--format=", "HEAD").split()) == [
        "notes.txt", "plan.md"]
    tool = next(r for r in window.transcript.items if r.kind == "tool")
    assert tool.status == "ok" and tool.rule == "user:once"
