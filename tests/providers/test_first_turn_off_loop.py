"""A fresh process's first turn through a real SDK imports nothing on the loop
thread: the SDK, its lazily loaded resources and pydantic models and the HTTP
transport's backend are prepared in a worker first — whether the window's
warm-up ran or not. A fresh interpreter (``first_turn_child.py``) so nothing is
imported already; the real OpenAI SDK against the stub server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("warm", ["warm", "cold"])
def test_the_first_turn_imports_nothing_on_the_loop_thread(
    tmp_path: Path, isolated_state: Path, warm: str
) -> None:
    env = dict(os.environ, OPENWORKER_HOME=str(isolated_state),
               OPENAI_API_KEY="sk-test-first-turn-0123456789")
    done = subprocess.run(
        [sys.executable, "-m", "tests.providers.first_turn_child", str(tmp_path), warm],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["reply"] == "Hello there."
    assert out["events"][-1] == "turn_end"
    assert out["imported"] == []
