"""create_deliverable for decks (pptx) and charts on their own (png, svg): the files
read back with their own readers; bad input refused with nothing left in outputs/."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from openworker_qt.core.tool_api import ToolContext, ToolResult
from openworker_qt.deliverables import charts, documents
from openworker_qt.tools.deliverables import AUTHOR_STATE, CREATE_DELIVERABLE, create_deliverable

CHART = {"type": "chart", "kind": "bar", "title": "Revenue by quarter",
         "labels": ["Q1", "Q2", "Q3"],
         "series": [{"name": "2025", "values": [10, 14, 9]},
                    {"name": "2026", "values": [12, 15, 11]}]}
SLIDES: list[dict[str, Any]] = [
    {"layout": "title", "title": "Renewal review", "subtitle": "Q3", "notes": "Hello."},
    {"layout": "bullets", "title": "Highlights", "bullets": ["Signed", {"text": "Grew",
                                                                       "bullets": ["+18%"]}]},
    {"layout": "chart", "title": "Revenue", "chart": {k: v for k, v in CHART.items()
                                                      if k != "type"}},
    {"layout": "image", "title": "Logo", "path": "logo.png"},
]


def ctx(ws: Path, **state: Any) -> ToolContext:
    return ToolContext(session_id="s1", workspace=ws, state=dict(state))


async def make(ws: Path, fmt: str, content: Any, path: str | None = None,
               context: ToolContext | None = None, **extra: Any) -> ToolResult:
    args = {"format": fmt, "path": path or f"outputs/deck.{fmt}", "title": "Renewal review",
            "content": content, **extra}
    return await create_deliverable(args, context or ctx(ws))


def outputs(ws: Path) -> list[str]:
    """Every file in outputs/, hidden temporary files and kept versions included."""
    folder = ws / "outputs"
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file()) if folder.is_dir() else []


def logo(ws: Path) -> None:
    (ws / "logo.png").write_bytes(documents.chart_png(CHART))


def test_the_schema_offers_decks_and_charts() -> None:
    params: Any = CREATE_DELIVERABLE.parameters
    assert {"pptx", "png", "svg"} <= set(params["properties"]["format"]["enum"])
    layouts = params["properties"]["content"]["items"]["properties"]["layout"]["enum"]
    assert layouts == ["title", "section", "bullets", "two_column", "table", "chart", "image",
                       "quote"]
    assert "'pptx'" in CREATE_DELIVERABLE.description
    assert "layout:'two_column'" in CREATE_DELIVERABLE.description


async def test_a_deck_is_written_and_reads_back(tmp_path: Path) -> None:
    from pptx import Presentation

    logo(tmp_path)
    result = await make(tmp_path, "pptx", SLIDES,
                        context=ctx(tmp_path, **{AUTHOR_STATE: "Grace Hopper"}))
    assert not result.is_error, result.content
    out = tmp_path / "outputs" / "deck.pptx"
    assert str(out) in result.content and "PPTX" in result.content
    assert "4 slides" in result.content
    assert result.display == {"path": str(out), "bytes": out.stat().st_size, "format": "pptx",
                              "summary": "4 slides", "version": 1,
                              "version_path": str(out.parent / ".versions" / out.name
                                                  / "v1.pptx")}
    prs = Presentation(str(out))
    assert [s.shapes.title.text for s in prs.slides] == ["Renewal review", "Highlights",
                                                        "Revenue", "Logo"]
    assert prs.slides[0].notes_slide.notes_text_frame.text == "Hello."
    assert any(sh.shape_type == 13 for sh in prs.slides[3].shapes)  # the picture
    assert prs.core_properties.author == "Grace Hopper"
    assert prs.core_properties.title == "Renewal review"
    assert outputs(tmp_path) == [".versions/deck.pptx/v1.pptx", "deck.pptx"]  # no temporary file


async def test_no_author_is_known_so_none_is_written(tmp_path: Path) -> None:
    from pptx import Presentation

    result = await make(tmp_path, "pptx", SLIDES[:2])
    assert not result.is_error, result.content
    prs = Presentation(str(tmp_path / "outputs" / "deck.pptx"))
    assert prs.core_properties.author == "" and prs.core_properties.last_modified_by == ""


@pytest.mark.parametrize(("content", "says"), [
    ([{"layout": "bullets", "title": "x", "bullets": ["y"]}] * 201, "201 slides"),
    ([{"layout": "gallery", "title": "x"}], "Slide 1 has layout 'gallery'"),
    ([{"layout": "chart", "title": "x", "chart": {"kind": "bar", "labels": ["a", "b"],
                                                  "series": [{"values": [1, 2, 3]}]}}],
     "Slide 1 (chart): Series 1 has 3 values but there are 2 labels"),
    ([{"layout": "table", "title": "x", "columns": ["n"], "rows": [[i] for i in range(10_000)]}],
     "xlsx"),
    ([SLIDES[0], {"layout": "image", "title": "x", "path": "notes.png"}],
     "Slide 2: The file"),
    ([SLIDES[0], {"layout": "image", "title": "x", "path": "missing.png"}],
     "does not exist"),
    ([{"layout": "image", "title": "x", "path": "/etc/hostname"}], "outside the workspace"),
    ("not a list", "non-empty list of slides"),
])
async def test_bad_decks_are_refused_and_nothing_is_left(tmp_path: Path, content: Any,
                                                         says: str) -> None:
    (tmp_path / "notes.png").write_text("meeting notes, not a picture")
    (tmp_path / "outputs").mkdir()
    (tmp_path / "outputs" / "deck.pptx").write_bytes(b"the earlier deck")
    result = await make(tmp_path, "pptx", content)
    assert result.is_error and says in result.content, result.content
    assert outputs(tmp_path) == ["deck.pptx"]  # the earlier file, untouched
    assert (tmp_path / "outputs" / "deck.pptx").read_bytes() == b"the earlier deck"


async def test_a_deck_keeps_to_outputs_and_its_extension(tmp_path: Path) -> None:
    outside = await make(tmp_path, "pptx", SLIDES[:1], path="deck.pptx")
    assert outside.is_error and "inside the output folder" in outside.content
    wrong = await make(tmp_path, "pptx", SLIDES[:1], path="outputs/deck.ppt")
    assert wrong.is_error and "ends in .pptx" in wrong.content
    language = await make(tmp_path, "pptx", SLIDES[:1], language=["en"])
    assert language.is_error and "language tag" in language.content
    assert outputs(tmp_path) == []


async def test_a_chart_on_its_own_as_png_and_svg(tmp_path: Path) -> None:
    from lxml import etree
    from PIL import Image

    png = await make(tmp_path, "png", [CHART], path="outputs/revenue.png")
    assert not png.is_error, png.content
    assert "bar chart, 3 labels" in png.content
    with Image.open(tmp_path / "outputs" / "revenue.png") as image:
        assert image.format == "PNG" and image.mode == "RGB"
        assert image.size == (charts.WIDTH, charts.HEIGHT)
    # the same picture documents embed
    assert (tmp_path / "outputs" / "revenue.png").read_bytes() == documents.chart_png(CHART)
    svg = await make(tmp_path, "svg", [CHART], path="outputs/revenue.svg")
    assert not svg.is_error, svg.content
    root = etree.parse(str(tmp_path / "outputs" / "revenue.svg")).getroot()
    words = {p.get("aria-label") for p in root.iter("{http://www.w3.org/2000/svg}path")
             if p.get("class") == "text"}  # the words, drawn as the glyphs' outlines
    assert {"Revenue by quarter", "2025", "2026", "Q1", "Q3"} <= words
    untitled = await make(tmp_path, "svg", {k: v for k, v in CHART.items() if k != "title"},
                          path="outputs/untitled.svg")  # one block, not in a list; the title
    assert not untitled.is_error, untitled.content  # argument titles it
    text = (tmp_path / "outputs" / "untitled.svg").read_text(encoding="utf-8")
    assert "<title>Renewal review</title>" in text


@pytest.mark.parametrize(("content", "says"), [
    ([CHART, CHART], "exactly one block, of type 'chart'"),
    ([{"type": "table", "columns": ["a"]}], "exactly one block, of type 'chart'"),
    ([{**CHART, "labels": ["Q1"]}], "Series 1 has 3 values but there are 1 labels"),
    ([{**CHART, "kind": "pie", "series": [{"values": [0, 0, 0]}]}], "total above zero"),
])
async def test_bad_charts_are_refused_and_nothing_is_written(tmp_path: Path, content: Any,
                                                             says: str) -> None:
    result = await make(tmp_path, "png", content, path="outputs/chart.png")
    assert result.is_error and says in result.content, result.content
    assert outputs(tmp_path) == []


async def test_a_deck_opens_in_the_independent_reader_after_overwrite(tmp_path: Path) -> None:
    from pptx import Presentation

    first = await make(tmp_path, "pptx", SLIDES[:1])
    second = await make(tmp_path, "pptx", SLIDES[:2])
    assert not first.is_error and not second.is_error
    assert second.content.startswith("Overwrote")
    data = (tmp_path / "outputs" / "deck.pptx").read_bytes()
    assert len(Presentation(io.BytesIO(data)).slides) == 2
