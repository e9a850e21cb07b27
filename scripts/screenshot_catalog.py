#!/usr/bin/env python3
"""Render the connector catalogue (Settings → Connectors → Browse the catalogue…).

The real dialog on the real registry in a temp state dir on a virtual screen
(helpers of ``scripts/screenshots.py``), light theme; the browser connector
connected for real (it finds the computer's Chromium), Slack and GitHub shown as
connected, Jira as needing attention (their states written as the registry
records them). Writes ``docs/screenshots/connector-catalogue.png``.

    .venv/bin/python scripts/screenshot_catalog.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "support"))  # an in-memory keyring

from screenshots import virtual_display  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    os.environ["OPENWORKER_HOME"] = tempfile.mkdtemp(prefix="ow-shots-")
    os.environ["PYTHON_KEYRING_BACKEND"] = "memkeyring.MemoryKeyring"
    os.environ["QT_API"] = "pyside6"
    with virtual_display():
        return shoot(out)


def shoot(out: Path) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from openworker_qt.runtime import open_runtime
    from openworker_qt.ui.connector_catalog import ConnectorCatalog
    from openworker_qt.ui.theme import apply_theme

    app = QApplication.instance() or QApplication(["openworker-qt"])
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    rt = open_runtime()
    registry = rt.connectors

    async def scene() -> None:
        await registry.connect("browser", {})
        async with registry.db.writing():
            registry._record("slack", "connected", settings={},
                             identity="Connected as @openworker in Acme")
            registry._record("github", "connected", settings={},
                             identity="Connected as @ana in GitHub")
            registry._record("jira", "failed", settings={},
                             error="Jira refused the credentials (expired or revoked).")
        dialog = ConnectorCatalog(registry)
        dialog.resize(780, 760)
        dialog.show()
        await asyncio.sleep(0.4)
        dialog.grab().save(str(out / "connector-catalogue.png"))
        dialog.search.setText("issue")
        await asyncio.sleep(0.3)
        dialog.grab().save(str(out / "connector-catalogue-search.png"))
        dialog.close()

    with loop:
        loop.run_until_complete(scene())
    rt.close()
    print(out / "connector-catalogue.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
