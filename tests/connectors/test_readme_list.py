"""The README lists every connector the registry offers (scripts/connector_list.py
wrote it; a connector added or changed without running it again fails here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from openworker_qt.connectors.registry import catalogue

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_lists_every_connector_as_the_registry_says() -> None:
    spec = importlib.util.spec_from_file_location("connector_list", ROOT / "scripts" /
                                                  "connector_list.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for connector in catalogue():
        assert f"| {connector.name} | {connector.category} |" in readme
    assert script.updated(readme) == readme, (
        "README.md's list of connectors is out of date: run "
        "`.venv/bin/python scripts/connector_list.py`")
