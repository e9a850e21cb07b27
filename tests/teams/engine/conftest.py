"""A real Runtime on a real database, with the scripted team of ``provider.py``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.runtime import Runtime, open_runtime
from openworker_qt.storage.paths import app_paths
from tests.teams.engine.provider import register

CONFIG = """
[general]
default_model = "teamtest:lead"

[permissions]
mode = "interactive"

[prices."teamtest:*"]
input = 1.0
output = 2.0
"""


def plan(n_items: int = 4, workers: tuple[str, ...] = ("researcher", "analyst", "writer"),
         max_parallel: int = 2, budgets: dict[str, float] | None = None,
         modes: dict[str, str] | None = None) -> dict[str, Any]:
    budgets = budgets or {}
    modes = modes or {}
    return {
        "outcome": "The weekly report",
        "items": [{"key": f"k{n}", "title": f"Part {n}", "criteria": f"Part {n} is complete",
                   "worker": workers[n % len(workers)], "budget_usd": budgets.get(f"k{n}")}
                  for n in range(1, n_items + 1)],
        "workers": [{"name": w, "persona": "cowork", "mode": modes.get(w, "interactive"),
                     "model": "teamtest:worker"} for w in workers],
        "max_parallel": max_parallel,
    }


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest.fixture
def runtime(workspace: Path) -> Iterator[Runtime]:
    paths = app_paths().ensure()
    paths.config_file.write_text(CONFIG, encoding="utf-8")
    rt = open_runtime(workspace)
    yield rt
    rt.close()


def script(runtime: Runtime, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"plan": plan(), "send_back": [], "delay": 0.01,
                            "usage": {"input_tokens": 100, "output_tokens": 10}}
    data.update(changes)
    register(runtime.router, data)
    return data


async def until(check: Any, limit: float = 20.0) -> Any:
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        value = check()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)
