#!/usr/bin/env python3
"""Render the persona picker, the Personas settings page and the consent dialog.

Uses the helpers of ``scripts/screenshots.py`` (a virtual X screen, the real app
on the scripted provider, a temp state dir). Writes into ``docs/screenshots/``:
``persona-picker.png`` (the composer's picker open), ``settings-personas.png``,
``persona-consent.png`` (a persona installed from a local git repository) and
``persona-main-window.png`` (a session running as the Code persona).

    .venv/bin/python scripts/screenshot_personas.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import settle, single_shot, until  # noqa: E402

PERSONA = """---
name: release-helper
title: Release helper
description: Prepares release notes and changelogs from the git history
family: code
tools: [files, git, shell, web]
mode: interactive
connectors: [github]
---
You prepare release notes from the project's git history.
"""

CONVERSATION = [
    {"chunks": ["Looking at the repository first."],
     "tool_calls": [{"name": "list_files", "arguments": {"path": "."}}]},
    {"text": "The workspace holds two notes and no code yet; tell me which repository to open."},
]


def _out() -> Path:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    return parser.parse_args().out


def _repo() -> str:
    repo = Path(tempfile.mkdtemp(prefix="ow-persona-")) / "release-helper"
    repo.mkdir()
    (repo / "PERSONA.md").write_text(PERSONA, encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=Demo", "-c", "user.email=demo@example.org",
           "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "persona"], check=True)
    return repo.as_uri()


def _grab_picker(window: Any, path: Path) -> None:
    """The composer with the picker's list open: the window's lower part, and the
    list (a popup window of its own) drawn where it is on the screen."""
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtGui import QPainter, QPixmap

    composer = window.composer
    popup = composer.persona.view().window()
    top = composer.mapTo(window, QPoint(0, 0)).y() - 8
    origin = window.mapToGlobal(QPoint(0, 0))
    popup_at = popup.mapToGlobal(QPoint(0, 0)) - origin
    height = max(window.height(), popup_at.y() + popup.height() + 6) - top
    image = QPixmap(window.width(), height)
    image.fill(window.palette().window().color())
    painter = QPainter(image)
    painter.drawPixmap(0, 0, window.grab(QRect(0, top, window.width(), window.height() - top)))
    painter.drawPixmap(popup_at.x(), popup_at.y() - top, popup.grab())
    painter.end()
    image.save(str(path))


async def scene(desktop: Any, window: Any) -> None:
    out = _out()
    composer = window.composer
    await until(lambda: composer.persona.count() >= 5)
    composer.persona.showPopup()
    await settle(0.6)
    _grab_picker(window, out / "persona-picker.png")
    composer.persona.hidePopup()

    settings = desktop.show_settings()
    settings.resize(900, 560)
    settings.show_page(settings.stack.indexOf(settings.personas))
    page = settings.personas
    await until(lambda: not page.busy())
    page.install_from(_repo())
    await until(lambda: page.dialog is not None and page.dialog.isVisible())
    await settle(0.6)
    page.dialog.grab().save(str(out / "persona-consent.png"))
    page.dialog.enable_button.click()
    await until(lambda: not page.busy() and "enabled" in page.status.text())
    await settle(0.4)
    settings.grab().save(str(out / "settings-personas.png"))
    settings.close()

    composer.persona.setCurrentIndex(composer.persona.findData("code"))
    composer.persona.activated.emit(composer.persona.currentIndex())
    composer.edit.setPlainText("Prepare the release notes for 2.4")
    composer.submit()
    await until(lambda: not desktop.manager.is_running(window.session_id or ""))
    for name in ("persona-picker.png", "persona-consent.png", "settings-personas.png"):
        print(out / name)


if __name__ == "__main__":
    sys.exit(single_shot("persona-main-window.png", CONVERSATION, scene, notes=True))
