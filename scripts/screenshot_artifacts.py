#!/usr/bin/env python3
"""Render the main window with the deliverables panel open on a PDF report.

Uses the helpers of ``scripts/screenshots.py`` (a virtual X screen, the real app
on the scripted provider, a temp state dir); writes ``docs/screenshots/artifacts-panel.png``.

    .venv/bin/python scripts/screenshot_artifacts.py [--out docs/screenshots]
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
    script = home / "artifacts.json"
    script.write_text(json.dumps(CONVERSATION))
    rt = open_runtime()
    rt.config.data["general"]["default_model"] = f"scripted:{script}"
    desktop = DesktopApp(rt, workspace=workspace, enable_tray=False)
    window = desktop.window
    window.resize(1320, 820)
    window.show()
    path = out / "artifacts-panel.png"

    async def scene() -> None:
        window.composer.mode.setCurrentText("auto")
        window.artifacts_dock.show()
        window.composer.edit.setPlainText("Write the ACME renewal brief, a seat sheet and a PDF report")
        window.composer.submit()
        await until(lambda: len(window.artifacts.paths()) == 3
                    and not desktop.manager.is_running(window.session_id or ""))
        window.artifacts.list.setCurrentRow(2)
        await until(lambda: window.artifacts.preview_kind == "image")
        await settle(0.8)
        window.grab().save(str(path))
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
