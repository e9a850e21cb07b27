"""`openworker-qt show` reports tokens and an estimated cost per turn and per session,
with prices the user set in the settings file."""

from __future__ import annotations

import json
from pathlib import Path

from openworker_qt.storage.paths import app_paths
from tests.cli.test_cli import owq, script


def test_show_adds_up_tokens_and_cost(tmp_path: Path) -> None:
    config = app_paths().config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[prices."scripted:*"]\ninput = 2.0\noutput = 10.0\ncache_read = 0.5\n')
    s = script(tmp_path, [
        {"text": "First.", "usage": {"input_tokens": 1000, "output_tokens": 100,
                                     "cache_read_tokens": 600}},
        {"text": "Second.", "usage": {"input_tokens": 2000, "output_tokens": 100,
                                      "reasoning_tokens": 40}},
    ])
    model = f"scripted:{s}"
    first = owq("run", "--model", model, "one", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    sid = owq("sessions", cwd=tmp_path).stdout.split()[0]
    s2 = script(tmp_path, [{"text": "Second.", "usage": {
        "input_tokens": 2000, "output_tokens": 100, "reasoning_tokens": 40}}])
    assert owq("run", "--session", sid, "--model", f"scripted:{s2}", "two",
               cwd=tmp_path).returncode == 0
    out = owq("show", sid, cwd=tmp_path).stdout
    lines = [line.strip() for line in out.splitlines() if "Tokens this turn" in line
             or "Session total" in line]
    # 400 uncached × $2 + 600 cached × $0.50 + 100 out × $10 = $0.0021 per million …
    assert lines == [
        "· Tokens this turn: 1k in (600 cached) · 100 out · ≈ $0.002",
        "· Tokens this turn: 2k in · 100 out (40 thinking) · ≈ $0.005",
        "· Session total: 3k in (600 cached) · 200 out (40 thinking) · ≈ $0.007"
        " (estimated from list prices)",
    ]
    assert out.index("First.") < out.index("Tokens this turn: 1k") < out.index("two")
    stored = [json.loads(x) for x in owq("show", sid, "--json", cwd=tmp_path).stdout.splitlines()]
    assert [m.get("usage") for m in stored if m["role"] == "assistant"] == [
        {"input_tokens": 1000, "output_tokens": 100, "cache_read_tokens": 600},
        {"input_tokens": 2000, "output_tokens": 100, "reasoning_tokens": 40},
    ]
