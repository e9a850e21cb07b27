"""Where the bundled resources are: ``resources/`` next to the package, or inside
a PyInstaller bundle (no Qt here, so every layer may ask)."""

from __future__ import annotations

import sys
from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Path:
    """A file under ``resources/`` (also inside a PyInstaller bundle)."""
    base = Path(getattr(sys, "_MEIPASS", RESOURCES.parent)) / "resources"
    return base.joinpath(*parts) if base.exists() else RESOURCES.joinpath(*parts)
