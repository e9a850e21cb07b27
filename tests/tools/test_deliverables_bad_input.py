"""The issue's "bad input", through the tool: a picture that is not one (text named .png,
a PNG or JPEG cut off after its header, a picture of too many pixels) in every format
that takes pictures, and a chart in a script no installed font covers — each refused
with a reason, nothing written to outputs/ (no file, no kept version, no temporary file).
The 10,000-row table, the circular formula and uncovered text in a PDF:
tests/deliverables/test_workbook_values.py; the deck of too many slides:
tests/tools/test_deliverables_slides.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from openworker_qt.deliverables import base
from tests.tools.test_deliverables import make
from tests.tools.test_deliverables_slides import make as make_deck
from tests.tools.test_deliverables_slides import outputs

PNG_HEAD = b"\x89PNG\r\n\x1a\n"


def write_bad_pictures(ws: Path) -> None:
    from PIL import Image

    (ws / "notes.png").write_text("meeting notes, not a picture", encoding="utf-8")
    (ws / "cut.png").write_bytes(PNG_HEAD + b"\x00\x00\x00\rIHDR" + b"\x00" * 40)
    (ws / "cut.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 60)
    Image.new("1", (8_000, 7_000)).save(ws / "huge.png")  # 56 M pixels in a small file


@pytest.mark.parametrize(("name", "says"), [
    ("notes.png", "is not a PNG or JPEG file"),
    ("cut.png", "is damaged and cannot be shown"),
    ("cut.jpg", "is damaged and cannot be shown"),
    ("huge.png", "8,000 × 7,000 pixels, more than a document can hold"),
])
async def test_a_picture_that_is_not_one_is_refused_in_every_format(
        tmp_path: Path, name: str, says: str) -> None:
    write_bad_pictures(tmp_path)
    for fmt in ("md", "html", "docx", "pdf"):
        result = await make(tmp_path, fmt, [{"type": "heading", "text": "Brief", "level": 1},
                                            {"type": "image", "path": name}])
        assert result.is_error and says in result.content, (fmt, result.content)
        assert name in result.content
    deck = await make_deck(tmp_path, "pptx", [{"layout": "image", "title": "x", "path": name}])
    assert deck.is_error and ("damaged" in deck.content or "not a picture" in deck.content
                              or "pixels" in deck.content), deck.content
    assert outputs(tmp_path) == []


async def test_a_picture_within_the_pixel_limit_is_embedded(tmp_path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (1200, 800), "white").save(tmp_path / "ok.png")
    result = await make(tmp_path, "docx", [{"type": "image", "path": "ok.png"}])
    assert not result.is_error, result.content
    assert 1200 * 800 < base.MAX_IMAGE_PIXELS


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf", "docx", "md"])
async def test_a_chart_in_a_script_no_font_covers_is_refused(tmp_path: Path,
                                                            fmt: str) -> None:
    chart: dict[str, Any] = {"type": "chart", "kind": "bar", "title": "Tablets",
                             "labels": ["Linear B \U00010000", "Q2"],
                             "series": [{"name": "n", "values": [1, 2]}]}
    result = await make(tmp_path, fmt, [chart], path=f"outputs/chart.{fmt}")
    assert result.is_error and "U+10000" in result.content and "empty boxes" in result.content
    assert outputs(tmp_path) == []
