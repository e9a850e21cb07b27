"""replace_in_file and apply_patch: exact edits, clear errors, nothing half-written,
every touched path fenced by the real PermissionEngine, a diff for the approval."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.patch import PatchError, parse_patch, touched_paths
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass
from openworker_qt.core.tool_api import ToolContext
from openworker_qt.tools.edits import (
    APPLY_PATCH,
    REPLACE_IN_FILE,
    apply_patch,
    edit_preview,
    replace_in_file,
)

CODE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def ctx(ws: Path) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "calc.py").write_text(CODE)
    return root


# ------------------------------------------------------------ replace_in_file

async def test_replace_once_keeps_mode(ws: Path) -> None:
    os.chmod(ws / "calc.py", 0o750)
    result = await replace_in_file(
        {"path": "calc.py", "old_string": "return a - b", "new_string": "return a - b  # sub"},
        ctx(ws))
    assert not result.is_error, result.content
    assert (ws / "calc.py").read_text() == CODE.replace("a - b", "a - b  # sub")
    assert stat.S_IMODE((ws / "calc.py").stat().st_mode) == 0o750
    assert sorted(p.name for p in ws.iterdir()) == ["calc.py"]  # no temp file left


async def test_ambiguous_replace_names_the_lines_and_writes_nothing(ws: Path) -> None:
    result = await replace_in_file(
        {"path": "calc.py", "old_string": "(a, b):", "new_string": "(x, y):"}, ctx(ws))
    assert result.is_error and "occurs 2 times" in result.content
    assert "lines 1, 5" in result.content and "replace_all" in result.content
    assert (ws / "calc.py").read_text() == CODE


async def test_replace_all(ws: Path) -> None:
    result = await replace_in_file({"path": "calc.py", "old_string": "(a, b):",
                                    "new_string": "(x, y):", "replace_all": True}, ctx(ws))
    assert not result.is_error and "2 places" in result.content
    assert (ws / "calc.py").read_text().count("(x, y):") == 2


async def test_missing_match_shows_the_closest_candidates(ws: Path) -> None:
    result = await replace_in_file(
        {"path": "calc.py", "old_string": "    return a * b", "new_string": "x"}, ctx(ws))
    assert result.is_error and "not found" in result.content
    assert "line 2" in result.content and "return a + b" in result.content
    assert (ws / "calc.py").read_text() == CODE


@pytest.mark.parametrize(("args", "words"), [
    ({"path": "nope.py", "old_string": "a", "new_string": "b"}, "does not exist"),
    ({"path": "calc.py", "old_string": "", "new_string": "b"}, "empty"),
    ({"path": "calc.py", "old_string": "add", "new_string": "add"}, "same"),
    ({"path": ".", "old_string": "a", "new_string": "b"}, "is a folder"),
    ({"path": "calc.py", "old_string": 3, "new_string": "b"}, "must be strings"),
])
async def test_replace_bad_input(ws: Path, args: dict[str, Any], words: str) -> None:
    result = await replace_in_file(args, ctx(ws))
    assert result.is_error and words in result.content
    assert (ws / "calc.py").read_text() == CODE


async def test_replace_refuses_a_binary_file(ws: Path) -> None:
    (ws / "x.bin").write_bytes(b"ab\x00cd")
    result = await replace_in_file({"path": "x.bin", "old_string": "ab", "new_string": "z"}, ctx(ws))
    assert result.is_error and "binary" in result.content
    assert (ws / "x.bin").read_bytes() == b"ab\x00cd"


# ---------------------------------------------------------------- apply_patch

GOOD = """--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,3 @@
 def add(a, b):
+    \"\"\"Add.\"\"\"
     return a + b
@@ -5,2 +6,2 @@
 def sub(a, b):
-    return a - b
+    return b - a
--- /dev/null
+++ b/docs/notes.md
@@ -0,0 +1,2 @@
+# Notes
+hello
"""


async def test_patch_applies_across_files(ws: Path) -> None:
    result = await apply_patch({"patch": GOOD}, ctx(ws))
    assert not result.is_error, result.content
    assert (ws / "calc.py").read_text() == (
        'def add(a, b):\n    """Add."""\n    return a + b\n\n\ndef sub(a, b):\n    return b - a\n')
    assert (ws / "docs/notes.md").read_text() == "# Notes\nhello\n"


async def test_patch_finds_a_moved_hunk(ws: Path) -> None:
    (ws / "calc.py").write_text("import os\n\n" + CODE)  # two lines above what the patch saw
    result = await apply_patch({"patch": GOOD.split("--- /dev/null")[0]}, ctx(ws))
    assert not result.is_error, result.content
    assert "return b - a" in (ws / "calc.py").read_text()


async def test_a_hunk_that_does_not_apply_is_named_and_nothing_is_written(ws: Path) -> None:
    bad = GOOD.replace("-    return a - b", "-    return a / b")
    result = await apply_patch({"patch": bad}, ctx(ws))
    assert result.is_error
    assert "hunk 2 of calc.py (@@ -5,2 +6,2 @@) does not apply" in result.content
    assert "Nothing was written" in result.content
    assert (ws / "calc.py").read_text() == CODE
    assert not (ws / "docs").exists()


async def test_a_later_file_failing_leaves_the_earlier_one_alone(ws: Path) -> None:
    later = GOOD + "--- a/missing.py\n+++ b/missing.py\n@@ -1 +1 @@\n-x\n+y\n"
    result = await apply_patch({"patch": later}, ctx(ws))
    assert result.is_error and "missing.py" in result.content and "does not exist" in result.content
    assert (ws / "calc.py").read_text() == CODE and not (ws / "docs").exists()


@pytest.mark.parametrize(("patch", "words"), [
    ("just some words", "no file in the patch"),
    ("--- a/calc.py\n+++ b/calc.py\n@@ -1,3 +1,3 @@\n def add(a, b):\n", "cut short"),
    ("--- a/calc.py\n+++ b/calc.py\n@@ nonsense\n", "not a hunk header"),
    ("--- /dev/null\n+++ b/calc.py\n@@ -0,0 +1 @@\n+x\n", "already exists"),
])
async def test_bad_patches(ws: Path, patch: str, words: str) -> None:
    result = await apply_patch({"patch": patch}, ctx(ws))
    assert result.is_error and words in result.content, result.content
    assert (ws / "calc.py").read_text() == CODE


async def test_patch_deletes_and_keeps_mode(ws: Path) -> None:
    (ws / "old.txt").write_text("bye\n")
    os.chmod(ws / "calc.py", 0o700)
    patch = "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n" + GOOD.split("--- /dev/null")[0]
    result = await apply_patch({"patch": patch}, ctx(ws))
    assert not result.is_error, result.content
    assert not (ws / "old.txt").exists()
    assert stat.S_IMODE((ws / "calc.py").stat().st_mode) == 0o700


def test_no_newline_marker() -> None:
    from openworker_qt.core.patch import apply_file_patch
    fp = parse_patch("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"
                     "\\ No newline at end of file\n")[0]
    assert apply_file_patch("a", fp) == "b"
    with pytest.raises(PatchError, match="hunk 1 of x"):
        apply_file_patch("zzz\n", fp)


# --------------------------------------------------------------- permissions

def _call(args: dict[str, Any]) -> ToolCallInfo:
    return ToolCallInfo(session_id="s1", call_id="c1", name="apply_patch", arguments=args,
                        risk=APPLY_PATCH.risk_class(), target=APPLY_PATCH.target(args))


def _engine(ws: Path, mode: str) -> PermissionEngine:
    return PermissionEngine(workspace=ws, mode=mode, protected=(), sensitive=())


def test_every_touched_path_is_checked(ws: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.txt"
    evil = GOOD + f"--- /dev/null\n+++ {outside}\n@@ -0,0 +1 @@\n+pwned\n"
    assert touched_paths(evil) == ["calc.py", "docs/notes.md", str(outside)]
    auto, interactive = _engine(ws, "auto"), _engine(ws, "interactive")
    assert auto.evaluate(_call({"patch": GOOD})).allowed
    d = auto.evaluate(_call({"patch": evil}))
    assert not d.allowed and not d.needs_user and str(outside) in d.reason
    d = interactive.evaluate(_call({"patch": evil}))
    assert d.needs_user and "outside the writable roots" in d.reason
    relative = GOOD + "--- /dev/null\n+++ b/../escape.txt\n@@ -0,0 +1 @@\n+x\n"
    assert not auto.evaluate(_call({"patch": relative})).allowed


def test_an_unreadable_patch_asks_and_state_is_refused(ws: Path) -> None:
    auto = _engine(ws, "auto")
    d = auto.evaluate(_call({"patch": "garbage"}))
    assert d.needs_user and not d.allowed
    state = "--- /dev/null\n+++ b/.openworker/config.toml\n@@ -0,0 +1 @@\n+x\n"
    d = auto.evaluate(_call({"patch": state}))
    assert not d.allowed and not d.needs_user


def test_replace_in_file_is_fenced_by_its_path(ws: Path, tmp_path: Path) -> None:
    args = {"path": str(tmp_path / "x.py"), "old_string": "a", "new_string": "b"}
    call = ToolCallInfo(session_id="s1", call_id="c1", name="replace_in_file", arguments=args,
                        risk=REPLACE_IN_FILE.risk_class(), target=REPLACE_IN_FILE.target(args))
    assert call.risk is RiskClass.WRITE_LOCAL
    assert not _engine(ws, "auto").evaluate(call).allowed


# ------------------------------------------------------------------- preview

def test_previews_are_diffs(ws: Path) -> None:
    text = edit_preview("replace_in_file", {"path": "calc.py", "old_string": "a - b",
                                            "new_string": "b - a"}, ws)
    assert text is not None and "-    return a - b" in text and "+    return b - a" in text
    text = edit_preview("apply_patch", {"patch": GOOD}, ws)
    assert text is not None and "+++ b/docs/notes.md" in text and "+# Notes" in text
    text = edit_preview("apply_patch", {"patch": GOOD.replace("-    return a - b", "-    x")}, ws)
    assert text is not None and "would fail" in text and "hunk 2" in text
    assert (ws / "calc.py").read_text() == CODE and not (ws / "docs").exists()
