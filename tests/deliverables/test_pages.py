"""Deliverables drawn as page pictures for the viewer: PDF pages through PDFium, deck
slides drawn from their shapes (fills, text, tables, native charts) with Pillow."""

from __future__ import annotations

from pathlib import Path

import pytest

from openworker_qt.deliverables import documents, pages, slide_spec, slides, theme

CHART = {"kind": "bar", "title": "Seats", "labels": ["Q1", "Q2", "Q3"],
         "series": [{"name": "2026", "values": [3.0, 5.0, 4.0]}]}


def dark_share(image, box: tuple[int, int, int, int]) -> float:
    crop = image.crop(box).convert("L")
    values = list(crop.tobytes())
    return sum(1 for v in values if v < 160) / len(values)


def test_pdf_pages_are_drawn_at_the_width_asked(tmp_path: Path) -> None:
    blocks = [{"type": "heading", "text": "Report", "level": 1}] + [
        {"type": "paragraph", "text": "Line of text. " * 40} for _ in range(30)]
    path = tmp_path / "r.pdf"
    path.write_bytes(documents.render("pdf", "Report", blocks).data)
    count = pages.page_count(path)
    assert count >= 3
    drawn = pages.pdf_pages(path, width=600, limit=2)
    assert len(drawn) == 2 and drawn[0].width == 600
    assert drawn[0].height > drawn[0].width  # a portrait page
    assert 0.005 < dark_share(drawn[0], (0, 0, 600, drawn[0].height)) < 0.5
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 nothing")
    with pytest.raises(ValueError, match=r"."):
        pages.pdf_pages(broken)
    assert pages.page_count(broken) == 0


def test_slides_are_drawn_from_their_shapes(tmp_path: Path) -> None:
    deck = [{"layout": "section", "title": "Where we stand"},
            {"layout": "table", "title": "Seats", "columns": ["Team", "Seats"],
             "rows": [["Sales", 12], ["Support", 8]]},
            {"layout": "chart", "title": "Growth", "chart": CHART},
            {"layout": "bullets", "title": "要点", "bullets": ["三年续约已签署"]}]
    data, _ = slides.render(slide_spec.validate(deck), title="Deck")
    path = tmp_path / "d.pptx"
    path.write_bytes(data)
    drawn, total = pages.slide_pictures(path, width=1280)
    assert total == 4 and len(drawn) == 4
    assert drawn[0].size == (1280, 720)  # 16:9
    # the section slide's band is the theme's accent, across the slide's middle
    assert drawn[0].getpixel((20, 360)) == theme.rgb(theme.ACCENT)
    assert drawn[0].getpixel((20, 20)) == theme.rgb(theme.PAPER)
    # the table's header row is filled with the header colour
    header = [drawn[1].getpixel((x, y)) for x in range(0, 1280, 8) for y in range(150, 300, 4)]
    assert theme.rgb(theme.HEADER_FILL) in header
    # the chart is drawn (bars in the first series colour), the Chinese text too
    colours = {drawn[2].getpixel((x, y)) for x in range(0, 1280, 2) for y in range(150, 700, 2)}
    assert theme.rgb(theme.PALETTE[0]) in colours
    assert dark_share(drawn[3], (0, 0, 1280, 300)) > 0.003
    assert pages.slide_pictures(path, width=640, limit=1)[0][0].size == (640, 360)


def test_a_native_chart_reads_back_as_the_block_it_came_from(tmp_path: Path) -> None:
    from pptx import Presentation

    data, _ = slides.render(slide_spec.validate([{"layout": "chart", "title": "Growth",
                                                  "chart": CHART}]))
    path = tmp_path / "c.pptx"
    path.write_bytes(data)
    shape = next(s for s in Presentation(str(path)).slides[0].shapes if s.has_chart)
    block = pages.chart_block(shape.chart)
    assert block["kind"] == "bar" and block["labels"] == ["Q1", "Q2", "Q3"]
    assert block["series"] == [{"name": "2026", "values": [3.0, 5.0, 4.0]}]
