"""The registry's catalogue: every service module's connector in it, once."""

from __future__ import annotations

import importlib
from pathlib import Path

from openworker_qt.connectors import services
from openworker_qt.connectors.registry import catalogue

#: The modules of connectors/services/ that hold no connector of their own.
SHARED = {"__init__", "common", "atlassian"}


def test_every_service_module_is_in_the_catalogue_under_its_own_name() -> None:
    folder = Path(services.__file__).parent
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem not in SHARED)
    assert len(modules) > 40
    listed = catalogue()
    ids = [spec.id for spec in listed]
    assert len(ids) == len(set(ids))  # no id taken twice
    for name in modules:
        spec = importlib.import_module(f"openworker_qt.connectors.services.{name}").SPEC
        assert spec.id == name  # the module is named after its connector
        assert spec in listed, f"{name} is not listed in registry.catalogue()"
