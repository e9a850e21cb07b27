#!/usr/bin/env python3
"""Render the main window with the deliverables panel open on a PDF report.

Uses the helpers of ``scripts/screenshots.py`` (a virtual X screen, the real app
on the scripted provider, a temp state dir); writes ``docs/screenshots/artifacts-panel.png``.

    .venv/bin/python scripts/screenshot_artifacts.py [--out docs/screenshots]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import single_shot, until  # noqa: E402

TABLE = {"type": "table", "columns": ["Client", "Seats", "Price", "Renews"],
         "rows": [["ACME", 120, 30.5, "2027-01-31"], ["Globex", 40, 25, "2027-03-01"],
                  ["Initech", 18, 19, "2027-04-15"]]}
CHART = {"type": "chart", "kind": "bar", "title": "Seats by client",
         "labels": ["ACME", "Globex", "Initech"], "series": [{"name": "Seats", "values": [120, 40, 18]}]}
DOC = [{"type": "heading", "text": "ACME renewal brief", "level": 1},
       {"type": "paragraph", "text": "ACME renews 120 seats on 31 January; support is rated well "
                                     "and two P2 tickets are open."},
       {"type": "list", "items": ["Offer a two-year term", "Close both P2 tickets first"]},
       TABLE, CHART]


def make(path: str, fmt: str, content: list[dict[str, object]]) -> dict[str, object]:
    return {"chunks": [f"Writing {path}."],
            "tool_calls": [{"name": "create_deliverable",
                            "arguments": {"path": path, "format": fmt, "title": "ACME renewal",
                                          "content": content}}]}


CONVERSATION = [
    make("outputs/acme-brief.docx", "docx", DOC),
    make("outputs/acme-seats.xlsx", "xlsx", [TABLE]),
    make("outputs/acme-report.pdf", "pdf", DOC),
    {"chunks": ["The brief, the seat sheet and the report are in outputs/."]},
]


async def scene(desktop: Any, window: Any) -> None:
    window.composer.mode.setCurrentText("auto")
    window.artifacts_dock.show()
    window.composer.edit.setPlainText("Write the ACME renewal brief, a seat sheet and a PDF report")
    window.composer.submit()
    await until(lambda: len(window.artifacts.paths()) == 3
                and not desktop.manager.is_running(window.session_id or ""))
    window.artifacts.list.setCurrentRow(2)
    await until(lambda: window.artifacts.preview_kind == "image")


if __name__ == "__main__":
    sys.exit(single_shot("artifacts-panel.png", CONVERSATION, scene, size=(1320, 820), notes=False))
