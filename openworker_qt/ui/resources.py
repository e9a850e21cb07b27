"""The bundled resources (icons, translations) and the app's icon.

``resources/`` sits beside the package in a checkout and under ``sys._MEIPASS``
in a PyInstaller bundle.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QIcon

RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def resource(*parts: str) -> Path:
    """A file under ``resources/`` (also inside a PyInstaller bundle)."""
    base = Path(getattr(sys, "_MEIPASS", RESOURCES.parent)) / "resources"
    return base.joinpath(*parts) if base.exists() else RESOURCES.joinpath(*parts)


def app_icon() -> QIcon:
    return QIcon(str(resource("icons", "openworker.svg")))
