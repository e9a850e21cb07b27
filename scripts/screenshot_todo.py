#!/usr/bin/env python3
"""Render the main window with the agent's to-do list above the composer.

Uses the helpers of ``scripts/screenshots.py`` (a virtual X screen, the real app
on the scripted provider, a temp state dir); writes ``docs/screenshots/todo-panel.png``.

    .venv/bin/python scripts/screenshot_todo.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import settle, until, virtual_display  # noqa: E402

STEPS = ["Read the account notes", "Summarise usage and open tickets",
         "Draft the renewal brief", "Check the figures with the CSV", "Send the brief for review"]


def todos(done: int) -> list[dict[str, str]]:
    return [{"id": str(n), "text": text,
             "status": "done" if n <= done else "in_progress" if n == done + 1 else "pending"}
            for n, text in enumerate(STEPS, 1)]


CONVERSATION = [
    {"chunks": ["This takes a few steps; here is my list."],
     "tool_calls": [{"name": "todo_write", "arguments": {"todos": todos(0)}}]},
    {"chunks": ["Reading the notes."], "tool_calls": [{"name": "list_files", "arguments": {"path": "."}}]},
    {"chunks": ["Two notes found; usage and tickets summarised."],
     "tool_calls": [{"name": "todo_write", "arguments": {"todos": todos(2)}}]},
    {"chunks": ["Drafting the brief now…"], "delay": 30.0},
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-shots-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    with virtual_display():
        return shoot(args.out, home)


def shoot(out: Path, home: Path) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.app import DesktopApp
    from openworker_qt.runtime import open_runtime
    from openworker_qt.ui.theme import apply_theme

    app = QApplication.instance() or QApplication(["openworker-qt"])
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    workspace = home / "acme"
    workspace.mkdir()
    (workspace / "notes-q1.md").write_text("ACME: 120 seats, happy with support.\n")
    (workspace / "notes-q2.md").write_text("ACME: two P2 tickets open.\n")
    script = home / "todo.json"
    script.write_text(json.dumps(CONVERSATION))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=workspace, enable_tray=False)
    window = desktop.window
    window.resize(1180, 780)
    window.show()
    path = out / "todo-panel.png"

    async def scene() -> None:
        window.composer.edit.setPlainText("Prepare the renewal brief for ACME from my notes")
        window.composer.submit()
        await until(lambda: window.todo.isVisible() and window.todo.summary().startswith("2 of"))
        await settle(0.8)
        window.grab().save(str(path))
        window.stop()
        await until(lambda: not desktop.manager.is_running(window.session_id or ""))
        await desktop.shutdown()

    try:
        loop.run_until_complete(scene())
    finally:
        rt.close()
        loop.close()
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
