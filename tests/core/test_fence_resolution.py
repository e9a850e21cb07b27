"""Path resolution in the fence: the kernel's answer (Linux, ``O_PATH``) must be the
answer ``Path.resolve`` gives, case by case, and nothing is remembered between
checks — not even between the checks of one model response (a snapshot)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openworker_qt.core import fence
from openworker_qt.core.approvals import ToolCallInfo
from openworker_qt.core.permissions import PermissionEngine
from openworker_qt.core.risk import RiskClass


def portable(raw: str, base: Path) -> Path | None:
    try:
        p = Path(os.path.expanduser(raw))
        return (p if p.is_absolute() else base / p).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "dir" / "sub").mkdir(parents=True)
    (ws / "file.txt").write_text("x")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    (ws / "to_outside").symlink_to(outside)
    (ws / "to_file").symlink_to(ws / "file.txt")
    (ws / "relative_link").symlink_to("dir/sub")
    (ws / "dangling_out").symlink_to(outside / "not-yet")
    (ws / "dangling_in").symlink_to("nowhere")
    (ws / "loop").symlink_to(ws / "loop")
    (ws / "chain").symlink_to(ws / "to_outside")
    os.mkfifo(ws / "fifo")
    return ws


CASES = [
    "file.txt", "dir", "dir/sub/", "dir/../file.txt", "dir/sub/../../file.txt",
    "missing", "missing/deeper", "dir/missing.txt", "missing/..", "to_outside",
    "to_outside/secret.txt", "to_outside/new.txt", "to_outside/../ws/file.txt",
    "to_file", "relative_link", "relative_link/..", "dangling_out", "dangling_in",
    "dangling_out/x", "loop", "loop/x", "chain/secret.txt", "fifo", ".", "..", "",
    "./dir//sub///", "/", "/nonexistent/a/b", "with\0nul",
]


@pytest.mark.parametrize("raw", CASES)
def test_resolution_is_what_path_resolve_gives(tree: Path, raw: str) -> None:
    assert fence.resolved(raw, tree) == portable(raw, tree)


@pytest.mark.parametrize("raw", CASES)
def test_forms_are_the_written_and_the_resolved_path(tree: Path, raw: str) -> None:
    if "\0" in raw:
        return
    forms, real = fence.forms_and_real(raw, tree)
    assert real == portable(raw, tree)
    assert forms[0] == fence.lexical(raw, tree)
    assert forms == ([forms[0]] if real is None or real == forms[0] else [forms[0], real])


def write(path: str) -> ToolCallInfo:
    return ToolCallInfo("s1", "c1", "write_file", {"path": path}, RiskClass.WRITE_LOCAL,
                        target=path)


def read(path: str) -> ToolCallInfo:
    return ToolCallInfo("s1", "c1", "read_file", {"path": path}, RiskClass.READ, target=path)


def test_a_dangling_symlink_that_points_outside_is_outside(tree: Path) -> None:
    engine = PermissionEngine(workspace=tree, mode="auto")
    assert not engine.evaluate(write("dangling_out")).allowed
    assert not engine.evaluate(write("dangling_out/x")).allowed
    assert not engine.evaluate(read("dangling_out")).allowed
    assert engine.evaluate(write("dir/new.txt")).allowed


def test_a_symlink_swapped_between_two_checks_of_one_snapshot_is_seen(tree: Path) -> None:
    (tree / "out").mkdir()
    engine = PermissionEngine(workspace=tree, mode="auto")
    with engine.snapshot():
        assert engine.evaluate(write("out/x")).allowed
        assert engine.evaluate(read("out/x")).allowed
        (tree / "out").rmdir()
        (tree / "out").symlink_to(tree.parent / "outside")
        assert not engine.evaluate(write("out/x")).allowed
        assert not engine.evaluate(read("out/x")).allowed


def test_settings_changed_after_a_snapshot_count_at_the_next_check(tree: Path) -> None:
    mode = ["auto"]
    roots: list[str] = []
    engine = PermissionEngine(workspace=tree, mode=lambda: mode[0], writable_roots=roots)
    other = str(tree.parent / "outside" / "x.txt")
    with engine.snapshot():
        assert engine.evaluate(write("dir/a.txt")).allowed
        assert not engine.evaluate(write(other)).allowed
    mode[0] = "plan"
    roots.append(str(tree.parent / "outside"))
    assert not engine.evaluate(write("dir/a.txt")).allowed  # plan mode now
    mode[0] = "auto"
    assert engine.evaluate(write(other)).allowed  # the new root counts
