#!/usr/bin/env python3
"""Render the main window after the "renewal brief" run, the deliverables panel open on the PDF.

The scripted model sends the explorer through a folder of notes and a CSV, then writes
a DOCX brief, an XLSX seat sheet with formulas and a PDF report (the scenario of
``tests/tools/renewal.py``). Uses ``single_shot()`` of ``scripts/screenshots.py``;
writes ``docs/screenshots/renewal-brief.png``.

    .venv/bin/python scripts/screenshot_renewal.py [--out docs/screenshots]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import single_shot, until  # noqa: E402

from tests.tools import renewal  # noqa: E402


async def scene(desktop: Any, window: Any) -> None:
    renewal.write_workspace(Path(desktop.workspace))
    window.composer.mode.setCurrentText("auto")
    window.artifacts_dock.show()
    window.composer.edit.setPlainText("Prepare the ACME renewal brief from the notes and accounts.csv")
    window.composer.submit()
    await until(lambda: len(window.artifacts.paths()) == 3
                and not desktop.manager.is_running(window.session_id or ""), timeout=60)
    await until(lambda: window.artifacts.preview_kind == "image")


if __name__ == "__main__":
    sys.exit(single_shot("renewal-brief.png", renewal.script(), scene, size=(1320, 820)))
