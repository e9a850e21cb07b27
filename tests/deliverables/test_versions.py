"""Versions of a deliverable: a revision keeps the one before, on disk beside it, through
the real tool; restoring one; the folder is the record (read back by a fresh listing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.core.tool_api import ToolContext
from openworker_qt.deliverables import versions
from openworker_qt.deliverables.plain_text import text_of
from openworker_qt.tools.deliverables import create_deliverable


def md(text: str) -> list[dict[str, str]]:
    return [{"type": "paragraph", "text": text}]


async def write(ctx: ToolContext, path: str, fmt: str, content: list[dict]) -> dict:
    done = await create_deliverable({"path": path, "format": fmt, "content": content}, ctx)
    assert not done.is_error, done.content
    return {"content": done.content, **(done.display or {})}


async def test_a_revision_keeps_the_version_before(tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", workspace=tmp_path)
    first = await write(ctx, "outputs/brief.md", "md", md("First draft."))
    second = await write(ctx, "outputs/brief.md", "md", md("Second draft."))
    target = tmp_path / "outputs" / "brief.md"
    kept = versions.versions(target)
    assert [v.number for v in kept] == [1, 2]
    assert "First draft." in kept[0].path.read_text() and "Second" in target.read_text()
    assert kept[0].path == tmp_path / "outputs" / ".versions" / "brief.md" / "v1.md"
    assert first["version"] == 1 and second["version"] == 2
    assert Path(second["version_path"]).read_bytes() == target.read_bytes()
    assert Path(first["version_path"]).read_text().strip().endswith("First draft.")
    assert "version 2, the earlier ones kept in" in second["content"]
    assert "version" not in first["content"]  # nothing was replaced
    # the same bytes again: no new version
    await write(ctx, "outputs/brief.md", "md", md("Second draft."))
    assert len(versions.versions(target)) == 2
    assert versions.version_of(target).number == 2


async def test_a_file_nobody_kept_is_kept_before_it_is_replaced(tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", workspace=tmp_path)
    target = tmp_path / "outputs" / "notes.md"
    target.parent.mkdir()
    target.write_text("typed by hand", encoding="utf-8")
    done = await write(ctx, "outputs/notes.md", "md", md("Written by the model."))
    kept = versions.versions(target)
    assert [v.path.read_text() for v in kept][0] == "typed by hand"
    assert done["version"] == 2
    # edited by hand after the model wrote it: the edit is kept too
    target.write_text("edited", encoding="utf-8")
    await write(ctx, "outputs/notes.md", "md", md("Third."))
    assert [v.path.read_text() for v in versions.versions(target)][2] == "edited"
    assert versions.versions(target)[-1].number == 4


async def test_restore_makes_an_old_version_current_and_loses_nothing(tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", workspace=tmp_path)
    await write(ctx, "outputs/seats.csv", "csv",
                [{"type": "table", "columns": ["a"], "rows": [[1]]}])
    await write(ctx, "outputs/seats.csv", "csv",
                [{"type": "table", "columns": ["a"], "rows": [[2]]}])
    target = tmp_path / "outputs" / "seats.csv"
    v1 = versions.versions(target)[0].path.read_bytes()
    restored = versions.restore(target, 1)
    assert target.read_bytes() == v1 and restored.number == 3
    assert [v.number for v in versions.versions(target)] == [1, 2, 3]
    assert b"2" in versions.versions(target)[1].path.read_bytes()
    with pytest.raises(LookupError):
        versions.restore(target, 9)


async def test_the_versions_folder_is_not_written_by_the_model(tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", workspace=tmp_path)
    done = await create_deliverable({"path": "outputs/.versions/brief.md/v1.md", "format": "md",
                                     "content": md("x")}, ctx)
    assert done.is_error and ".versions/" in done.content
    assert not (tmp_path / "outputs" / ".versions").exists()


def test_only_the_newest_versions_are_kept(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(versions, "MAX_VERSIONS", 3)
    target = tmp_path / "r.md"
    for n in range(5):
        target.write_text(str(n))
        versions.record(target, str(n).encode())
    assert [v.number for v in versions.versions(target)] == [3, 4, 5]
    assert versions.versions(target)[0].path.read_text() == "2"


def test_a_kept_version_names_its_file_and_diffs_read_as_changes(tmp_path: Path) -> None:
    kept = tmp_path / ".versions" / "report.docx" / "v2.docx"
    assert versions.main_file(kept) == tmp_path / "report.docx"
    assert versions.main_file(tmp_path / "report.docx") == tmp_path / "report.docx"
    assert versions.versions(tmp_path / "none.md") == []
    lines = versions.diff("a\nb\n", "a\nc\n", "v1", "v2")
    assert "-b" in lines and "+c" in lines and lines[0] == "--- v1"
    assert versions.diff("same", "same", "v1", "v2") == []


async def test_the_text_of_every_kind_for_comparing(tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", workspace=tmp_path)
    table = {"type": "table", "columns": ["Team", "Seats"], "rows": [["Sales", 12]]}
    doc = [{"type": "heading", "text": "Brief", "level": 1}, {"type": "paragraph",
                                                              "text": "Acme **renews**."}, table]
    for fmt in ("docx", "pdf"):
        await write(ctx, f"outputs/b.{fmt}", fmt, doc)
    await write(ctx, "outputs/b.xlsx", "xlsx", [table])
    done = await create_deliverable({"path": "outputs/b.pptx", "format": "pptx", "content": [
        {"layout": "bullets", "title": "Points", "bullets": ["Signed"], "notes": "Say hi"}]}, ctx)
    assert not done.is_error
    out = tmp_path / "outputs"
    assert text_of(out / "b.docx").splitlines()[:3] == ["Brief", "Acme renews.", "Team\tSeats"]
    assert "Acme renews." in text_of(out / "b.pdf")
    assert text_of(out / "b.xlsx").splitlines()[:3] == ["# Sheet1", "Team\tSeats", "Sales\t12"]
    assert text_of(out / "b.pptx").splitlines() == ["# 1", "Points", "Signed", "Say hi"]
    assert text_of(tmp_path / "x.png") is None
    chart = {"type": "chart", "kind": "bar", "title": "Seats", "labels": ["Q1", "Q2"],
             "series": [{"name": "2026", "values": [3, 4]}]}
    await write(ctx, "outputs/c.svg", "svg", [chart])
    words = text_of(out / "c.svg").splitlines()  # the words shown, not the outlines
    assert words[0] == "Seats" and {"Q1", "Q2", "2026"} <= set(words)
    assert not any(w.startswith("<") or "M" in w for w in words)
    (out / "hand.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="2"/></svg>',
                                  encoding="utf-8")
    assert text_of(out / "hand.svg").startswith("<svg")  # no words: its source
