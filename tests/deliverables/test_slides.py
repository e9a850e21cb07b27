"""Slide decks (PPTX): each deck read back with python-pptx, opened by LibreOffice when
it is installed, and bad slides refused before anything is built."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from openworker_qt.deliverables import charts, documents, slide_spec, slides, theme

CHART = {"kind": "bar", "title": "", "labels": ["Q1", "Q2", "Q3", "Q4"],
         "series": [{"name": "2025", "values": [10, 12, 11, 14]},
                    {"name": "2026", "values": [12, 15, 16, 18]}]}


def picture(tmp: Path) -> Path:
    path = tmp / "seats.png"
    path.write_bytes(documents.chart_png({"type": "chart", "kind": "line", "labels": ["a", "b"],
                                          "series": [{"name": "x", "values": [1, 2]}]}))
    return path


def deck_spec(image: Path) -> list[dict[str, Any]]:
    return [
        {"layout": "title", "title": "ACME renewal review", "subtitle": "Q3 2026",
         "notes": "Welcome everyone."},
        {"layout": "section", "title": "Where we stand", "subtitle": "Two quarters"},
        {"layout": "bullets", "title": "Highlights",
         "bullets": ["Renewal signed", {"text": "Seats grew 18%",
                                        "bullets": ["Sales +30", {"text": "EU",
                                                                  "bullets": ["Berlin"]}]}],
         "notes": "Stress the growth."},
        {"layout": "two_column", "title": "Risks and mitigations", "left_heading": "Risks",
         "left": ["Budget freeze"], "right_heading": "Mitigations",
         "right": ["Quarterly billing", "Meet the VP"]},
        {"layout": "table", "title": "Seats by team", "columns": ["Team", "Seats", "Price"],
         "rows": [["Sales", 1200, 30.5], ["Support", 80, 19.99], ["Total", 1280]]},
        {"layout": "chart", "title": "Revenue by quarter", "chart": CHART},
        {"layout": "chart", "title": "Seat mix",
         "chart": {"kind": "pie", "labels": ["Sales", "Support"],
                   "series": [{"name": "Seats", "values": [120, 80]}]}},
        {"layout": "chart", "title": "Users",
         "chart": {"kind": "line", "labels": ["Jan", "Feb", "Mar"],
                   "series": [{"name": "MAU", "values": [200, 220, 260]}]}},
        {"layout": "image", "title": "Seats over time", "path": str(image),
         "caption": "Source: billing"},
        {"layout": "quote", "quote": "The smoothest rollout we have had.",
         "attribution": "Jane Doe, CIO"},
    ]


def build(spec: list[dict[str, Any]], **kw: Any) -> bytes:
    return slides.render(slide_spec.validate(spec), **kw)[0]


def texts(slide: Any) -> list[str]:
    return [p.text for s in slide.shapes if s.has_text_frame for p in s.text_frame.paragraphs
            if p.text]


def test_a_deck_reads_back_slide_by_slide(tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.oxml.ns import qn
    from pptx.util import Inches

    before = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    data = build(deck_spec(picture(tmp_path)), title="ACME review", author="Ada Lovelace")
    prs = Presentation(io.BytesIO(data))
    assert len(prs.slides) == 10
    assert round(prs.slide_width / Inches(1), 2) == 13.33  # 16:9
    assert [s.slide_layout.name for s in prs.slides] == [
        "Title Slide", "Section Header", "Title and Content", "Two Content", "Title Only",
        "Title Only", "Title Only", "Title Only", "Title Only", "Blank"]
    s = list(prs.slides)
    assert s[0].shapes.title.text == "ACME renewal review" and "Q3 2026" in texts(s[0])
    assert s[0].notes_slide.notes_text_frame.text == "Welcome everyone."
    assert s[2].notes_slide.notes_text_frame.text == "Stress the growth."
    assert not s[1].has_notes_slide
    # nested bullets: one paragraph per point, at its level
    body = s[2].placeholders[1].text_frame
    assert [(p.level, p.text) for p in body.paragraphs] == [
        (0, "Renewal signed"), (0, "Seats grew 18%"), (1, "Sales +30"), (1, "EU"),
        (2, "Berlin")]
    run = body.paragraphs[0].runs[0]
    assert run.font.name == theme.OFFICE_FONT and str(run.font.color.rgb) == theme.INK[1:]
    # two columns with headings
    left, right = s[3].placeholders[1].text_frame, s[3].placeholders[2].text_frame
    assert [p.text for p in left.paragraphs] == ["Risks", "Budget freeze"]
    assert [p.text for p in right.paragraphs] == ["Mitigations", "Quarterly billing",
                                                  "Meet the VP"]
    # the table: header, cells, numbers formatted and right-aligned, missing cells empty
    table = next(sh for sh in s[4].shapes if sh.has_table).table
    grid = [[table.cell(r, c).text for c in range(3)] for r in range(4)]
    assert grid == [["Team", "Seats", "Price"], ["Sales", "1,200", "30.50"],  # the column's
                    ["Support", "80", "19.99"], ["Total", "1,280", ""]]  # decimals
    assert table.cell(1, 1).text_frame.paragraphs[0].alignment == 3  # PP_ALIGN.RIGHT
    assert str(table.cell(0, 0).fill.fore_color.rgb) == theme.HEADER_FILL[1:]
    # native charts: type, categories, series and their values
    bar, pie, line = (next(sh for sh in sl.shapes if sh.has_chart).chart for sl in s[5:8])
    assert bar.chart_type == XL_CHART_TYPE.COLUMN_CLUSTERED
    assert list(bar.plots[0].categories) == ["Q1", "Q2", "Q3", "Q4"]
    assert [(x.name, list(x.values)) for x in bar.series] == [
        ("2025", [10, 12, 11, 14]), ("2026", [12, 15, 16, 18])]
    assert str(bar.series[0].format.fill.fore_color.rgb) == theme.PALETTE[0][1:]
    assert pie.chart_type == XL_CHART_TYPE.PIE and list(pie.series[0].values) == [120, 80]
    assert line.chart_type == XL_CHART_TYPE.LINE_MARKERS
    # the picture, and its caption
    pictures = [sh for sh in s[8].shapes if sh.shape_type == 13]  # MSO_SHAPE_TYPE.PICTURE
    assert len(pictures) == 1 and pictures[0].image.content_type == "image/png"
    assert "Source: billing" in texts(s[8])
    assert any("The smoothest rollout" in t for t in texts(s[9]))
    assert "— Jane Doe, CIO" in texts(s[9])
    # the theme's shapes are flat (the template's would cast a shadow)
    bars = [sh for sl in s for sh in sl.shapes if sh.name in ("Accent", "Band")]
    assert len(bars) == 8 + 1 and not any(sh.shadow.inherit for sh in bars)
    assert all(sh._element.find(qn("p:style")) is None for sh in bars)  # no theme effect
    # slide numbers on every slide but the title slide
    assert [any(sh.name == "Slide Number" for sh in sl.shapes) for sl in s] == [False] + [True] * 9
    # metadata: ours, of now, not the template's
    props = prs.core_properties
    assert props.title == "ACME review" and props.author == "Ada Lovelace"
    assert props.last_modified_by == "Ada Lovelace" and props.language == "en-US"
    assert props.revision == 1 and props.created == props.modified
    assert before <= props.created <= before + timedelta(minutes=5)
    assert "python-pptx" not in (props.comments + props.last_modified_by + props.title)


def test_the_file_is_a_well_formed_package(tmp_path: Path) -> None:
    data = build(deck_spec(picture(tmp_path)))
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.testzip() is None
        names = z.namelist()
        assert "[Content_Types].xml" in names and "ppt/presentation.xml" in names
        types = etree.fromstring(z.read("[Content_Types].xml"))
        declared = {e.get("PartName") for e in types if e.get("PartName")}
        for name in names:  # every XML part parses; every slide part is declared
            if name.endswith((".xml", ".rels")):
                etree.fromstring(z.read(name))
            if name.startswith("ppt/slides/slide"):
                assert "/" + name in declared
        assert sum(n.startswith("ppt/charts/chart") for n in names) == 3
        assert sum(n.startswith("ppt/embeddings/") for n in names) == 3  # the charts' data
        # not the template's leftovers: a blank 4:3 thumbnail, "0 slides, 4:3, Macintosh"
        assert not any("thumbnail" in n for n in names)
        app = etree.fromstring(z.read("docProps/app.xml"))
        ns = "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}"
        assert app.findtext(f"{ns}Slides") == "10" and app.findtext(f"{ns}Notes") == "2"
        assert app.findtext(f"{ns}PresentationFormat") == "Widescreen"
        assert app.findtext(f"{ns}Application") == "OpenWorker Qt"


def test_no_author_and_a_chinese_deck_say_so(tmp_path: Path) -> None:
    from pptx import Presentation

    data = build([{"layout": "title", "title": "ACME 续约回顾", "subtitle": "第三季度"},
                  {"layout": "bullets", "title": "要点", "bullets": ["三年续约"]}])
    prs = Presentation(io.BytesIO(data))
    assert prs.core_properties.author == "" and prs.core_properties.language == "zh-CN"
    assert prs.core_properties.title == "ACME 续约回顾"  # the first slide's, when none given
    run = prs.slides[1].placeholders[1].text_frame.paragraphs[0].runs[0]
    assert run._r.rPr.get("lang") == "zh-CN"
    chosen = build([{"layout": "bullets", "title": "x", "bullets": ["y"]}], language="de-DE")
    assert Presentation(io.BytesIO(chosen)).core_properties.language == "de-DE"


@pytest.mark.parametrize(("spec", "says"), [
    ([{"layout": "bullets", "title": "x", "bullets": ["y"]}] * 201, "201 slides; the limit is 100"),
    ([{"layout": "bullets", "title": "x", "bullets": ["y"]}] * 101, "limit is 100"),
    ([{"layout": "title", "title": "ok"}, {"layout": "timeline", "title": "x"}],
     "Slide 2 has layout 'timeline'; use one of: title, section, bullets"),
    ([{"title": "no layout"}], "Slide 1 has layout None"),
    ([{"layout": "chart", "title": "x", "chart": {"kind": "bar", "labels": ["a", "b", "c"],
                                                  "series": [{"name": "s", "values": [1, 2]}]}}],
     "Series 1 has 2 values but there are 3 labels"),
    ([{"layout": "chart", "title": "x", "chart": {"kind": "donut", "labels": ["a"],
                                                  "series": [{"values": [1]}]}}],
     "'kind' must be one of"),
    ([{"layout": "table", "title": "x", "columns": ["a"], "rows": [[i] for i in range(10_000)]}],
     "10000 rows; a slide's table holds at most 15"),
    ([{"layout": "table", "title": "x", "columns": list("abcdefghi"), "rows": []}],
     "at most 8"),
    ([{"layout": "bullets", "title": "x", "bullets": [f"p{i}" for i in range(30)]}],
     "30 points on one slide"),
    ([{"layout": "bullets", "title": "x",
       "bullets": [{"text": "1", "bullets": [{"text": "2", "bullets": [
           {"text": "3", "bullets": [{"text": "4", "bullets": ["5"]}]}]}]}]}],
     "at most 4 levels"),
    ([{"layout": "bullets", "title": "x", "bullets": []}], "non-empty list"),
    ([{"layout": "title"}], "'title' must be a non-empty string"),
    ([{"layout": "quote", "quote": "x" * 401}], "at most 400"),
    ([], "non-empty list of slides"),
])
def test_bad_slides_are_refused_with_a_reason(spec: list[Any], says: str) -> None:
    with pytest.raises(slide_spec.SlideError) as caught:
        slide_spec.validate(spec)
    assert says in str(caught.value)


def test_a_file_that_is_not_a_picture_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "chart.png"
    fake.write_text("this is text, not a picture")
    spec = slide_spec.validate([{"layout": "image", "title": "x", "path": str(fake)}])
    with pytest.raises(slide_spec.SlideError, match="is not a picture"):
        slides.render(spec)
    cut = tmp_path / "cut.png"
    cut.write_bytes(picture(tmp_path).read_bytes()[:200])  # a PNG cut short
    with pytest.raises(slide_spec.SlideError, match="damaged"):
        slide_spec.image_data(str(cut))


def test_a_long_title_and_many_points_get_smaller_type_not_lost() -> None:
    from pptx import Presentation

    few = [{"layout": "bullets", "title": "Short", "bullets": ["One point"]}]
    many = [{"layout": "bullets", "title": "Short", "bullets": ["A longer point " * 6] * 14}]
    size = [Presentation(io.BytesIO(build(spec))).slides[0].placeholders[1].text_frame
            .paragraphs[0].runs[0].font.size.pt for spec in (few, many)]
    assert size[0] > size[1] >= 14


def test_the_native_chart_and_the_picture_share_the_palette() -> None:
    assert charts.PALETTE is theme.PALETTE


@pytest.mark.skipif(shutil.which("soffice") is None,
                    reason="LibreOffice (soffice) is not installed: the deck cannot be "
                           "opened by an office suite here")
def test_libreoffice_opens_the_deck(tmp_path: Path) -> None:
    from pypdf import PdfReader

    deck = tmp_path / "deck.pptx"
    deck.write_bytes(build(deck_spec(picture(tmp_path))))
    profile = tmp_path / "profile"
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(deck)],
                   check=True, capture_output=True, timeout=300)
    reader = PdfReader(tmp_path / "deck.pdf")
    assert len(reader.pages) == 10
    text = [page.extract_text() for page in reader.pages]
    assert "ACME renewal review" in text[0] and "Highlights" in text[2]
    assert "Berlin" in text[2] and "1,200" in text[4] and "Jane Doe" in text[9]


def test_invisible_control_characters_are_dropped_not_fatal() -> None:
    from pptx import Presentation

    spec = [{"layout": "bullets", "title": "Bell\x07 title", "bullets": ["a\x00b"],
             "notes": "n\x1bo"},
            {"layout": "table", "title": "t", "columns": ["c\x01"], "rows": [["x\x02"]]},
            {"layout": "chart", "title": "c", "chart": {"kind": "bar", "labels": ["l\x03"],
                                                        "series": [{"name": "s\x04",
                                                                    "values": [1]}]}}]
    prs = Presentation(io.BytesIO(build(spec)))
    first, table, chart = prs.slides
    assert first.shapes.title.text == "Bell title" and "ab" in texts(first)
    assert first.notes_slide.notes_text_frame.text == "no"
    cells = next(sh for sh in table.shapes if sh.has_table).table
    assert (cells.cell(0, 0).text, cells.cell(1, 0).text) == ("c", "x")
    plotted = next(sh for sh in chart.shapes if sh.has_chart).chart
    assert list(plotted.plots[0].categories) == ["l"] and plotted.series[0].name == "s"
