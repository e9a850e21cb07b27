"""The smoke switch (``OPENWORKER_SMOKE_TEST=1``) from source; the frozen build's is
in test_linux_build.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from openworker_qt import smoke

SMOKE_LINE = re.compile(r"^smoke: window shown in (\d+\.\d\d) s$", re.M)


def smoke_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(QT_QPA_PLATFORM="offscreen", OPENWORKER_SMOKE_TEST="1",
               OPENWORKER_HOME=str(home))
    return env


def test_smoke_start_from_source_quits_after_first_paint(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "openworker_qt"], env=smoke_env(tmp_path),
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    match = SMOKE_LINE.search(done.stdout)
    assert match, done.stdout
    assert 0 < float(match.group(1)) < 30
    assert "missing resource" not in done.stderr


def test_resources_found_and_loadable(qapp: object) -> None:
    assert smoke.missing_resources() == []
    assert smoke.voice_stack_problems() == []
    assert smoke.icu_problems() == []


def test_a_broken_voice_stack_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pywhispercpp.model", None)  # as if left out
    problems = smoke.voice_stack_problems()
    assert len(problems) == 1 and "pywhispercpp.model does not load" in problems[0]


@pytest.mark.qt_log_ignore(r"Cannot read file .*broken\.svg")  # (the broken icon is the point)
def test_missing_resources_are_reported(qapp: object, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "broken.svg").write_text("not svg", encoding="utf-8")
    monkeypatch.setattr("openworker_qt.ui.resources.resource", lambda *parts: tmp_path.joinpath(*parts))
    problems = smoke.missing_resources()
    assert any("openworker.svg" in p for p in problems)
    assert any("broken.svg" in p and "does not render" in p for p in problems)
    assert any(p.startswith("translations: no .qm") for p in problems)


def test_switch_values(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, on in (("1", True), ("yes", True), ("0", False), ("", False)):
        monkeypatch.setenv(smoke.ENV, value)
        assert smoke.enabled() is on


def test_seconds_since_start_is_plausible() -> None:
    import time

    assert 0 <= smoke.seconds_since_start(time.perf_counter()) < 600
