#!/usr/bin/env python3
"""Render the guided set-up's cloud platform entries: ``onboarding-azure.png``
(Azure OpenAI: endpoint, deployment, model, API version, key or Entra ID token
command) and ``onboarding-vertex.png`` (Vertex AI: project, location,
service-account file) into ``docs/screenshots/``. The real app on a virtual
screen, a temp state dir; nothing is sent anywhere.

    .venv/bin/python scripts/screenshot_cloud.py [--out docs/screenshots]
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

from screenshots import settle, virtual_display  # noqa: E402

AZURE = {"endpoint": "https://contoso-ai.openai.azure.com", "deployment": "team-gpt-4o",
         "model": "gpt-4o", "api_version": "2024-10-21"}
VERTEX = {"project": "contoso-research", "location": "global",
          "credentials_file": "/home/me/keys/openworker-sa.json"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ow-shots-"))
    os.environ["OPENWORKER_HOME"] = str(home)
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    os.environ["QT_API"] = "pyside6"
    with virtual_display():
        import qasync
        from PySide6.QtWidgets import QApplication

        from openworker_qt.app import DesktopApp
        from openworker_qt.runtime import open_runtime
        from openworker_qt.ui.theme import apply_theme

        app = QApplication.instance() or QApplication(["openworker-qt"])
        apply_theme(app, "light")  # type: ignore[arg-type]
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        (home / "work").mkdir()
        rt = open_runtime()
        desktop = DesktopApp(rt, workspace=home / "work", enable_tray=False)

        import keyring
        from keyring.backend import KeyringBackend

        class DemoKeyring(KeyringBackend):
            """In memory, for the shots only (the real app uses the OS keyring)."""

            priority = 1  # type: ignore[assignment]
            values: dict[tuple[str, str], str] = {}

            def get_password(self, service: str, username: str) -> str | None:
                return self.values.get((service, username))

            def set_password(self, service: str, username: str, password: str) -> None:
                self.values[(service, username)] = password

            def delete_password(self, service: str, username: str) -> None:
                self.values.pop((service, username), None)

        keyring.set_keyring(DemoKeyring())

        async def shoot() -> None:
            dialog = desktop.show_onboarding()
            dialog.keyring_warning.hide()
            for provider, values, key in (("azure", AZURE, "not-a-real-key"), ("vertex", VERTEX, "")):
                dialog.select_provider(provider)
                for field, value in values.items():
                    dialog.cloud_fields.edits[(provider, field)].setText(value)
                dialog.key_edit.setText(key)  # shown masked
                dialog.resize(620, dialog.sizeHint().height())
                await settle(0.6)
                path = out / f"onboarding-{provider}.png"
                dialog.grab().save(str(path))
                print(path)
            dialog.close()
            await desktop.shutdown()

        try:
            loop.run_until_complete(shoot())
        finally:
            rt.close()
            loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
