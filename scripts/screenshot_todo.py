#!/usr/bin/env python3
"""Render the main window with the agent's to-do list above the composer.

Uses the helpers of ``scripts/screenshots.py`` (a virtual X screen, the real app
on the scripted provider, a temp state dir); writes ``docs/screenshots/todo-panel.png``.

    .venv/bin/python scripts/screenshot_todo.py [--out docs/screenshots]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import single_shot, until  # noqa: E402

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


async def scene(desktop: Any, window: Any) -> None:
    window.composer.edit.setPlainText("Prepare the renewal brief for ACME from my notes")
    window.composer.submit()
    await until(lambda: window.todo.isVisible() and window.todo.summary().startswith("2 of"))


if __name__ == "__main__":
    sys.exit(single_shot("todo-panel.png", CONVERSATION, scene, size=(1180, 780), notes=True))
