"""The fault-injection variable kills only an opted-in test run, never a shipped build."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

PROBE = (
    "import sys\n"
    "if sys.argv[1] == 'frozen':\n"
    "    sys.frozen = True  # what PyInstaller sets in the packaged app\n"
    "from openworker_qt.core.faults import crash_point\n"
    "crash_point('elsewhere')\n"
    "crash_point('before_approval_item')\n"
    "print('still alive')\n"
)


def probe(build: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OPENWORKER_FAULT")}
    return subprocess.run(
        [sys.executable, "-c", PROBE, build], env={**clean, **env}, capture_output=True,
        text=True, timeout=60,
    )


@pytest.mark.parametrize(
    ("build", "env"),
    [
        ("source", {"OPENWORKER_FAULT": "before_approval_item"}),  # no opt-in
        ("source", {"OPENWORKER_FAULT": "before_approval_item",
                    "OPENWORKER_FAULT_INJECTION": "1"}),  # not the opt-in value
        ("frozen", {"OPENWORKER_FAULT": "before_approval_item",
                    "OPENWORKER_FAULT_INJECTION": "tests"}),  # a shipped build ignores both
    ],
)
def test_the_variable_is_inert(build: str, env: dict[str, str]) -> None:
    res = probe(build, **env)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "still alive"


def test_an_opted_in_test_run_dies_at_the_point() -> None:
    res = probe("source", OPENWORKER_FAULT="before_approval_item",
                OPENWORKER_FAULT_INJECTION="tests")
    assert res.returncode == -signal.SIGKILL
    assert "still alive" not in res.stdout
