"""The codebase keeps files a maintainer can read: no module of the package over 700
lines (a hub past its job is cut along its seams: CONTRIBUTING.md, "Layers")."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "openworker_qt"
MAX_LINES = 700


def test_no_module_is_over_700_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"over {MAX_LINES} lines: {long}"
