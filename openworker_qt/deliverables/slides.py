"""A slide deck (PPTX, python-pptx) from checked slides (no Qt).

The slides are those :func:`openworker_qt.deliverables.slide_spec.validate` returns
(its docstring lists the layouts and their fields). Slides are 16:9; colours and
fonts are the theme's (:mod:`theme`); charts are native (the reader can edit their
data). Everything happens in memory; the caller writes the returned bytes
(atomically), so a refused deck leaves no file behind.
"""

from __future__ import annotations

import io
import math
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from openworker_qt.deliverables import theme
from openworker_qt.deliverables.slide_spec import image_data

# Geometry (inches): a 16:9 slide, its margins, the title's and the body's boxes.
_W, _H = 13.333, 7.5
_MARGIN = 0.7
_TITLE_TOP, _TITLE_H = 0.45, 1.0
_BODY_TOP = 1.75
_BODY_BOTTOM = 6.75


# --------------------------------------------------------------- helpers


def _is_cjk(text: str) -> bool:
    return any("\u2e80" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" or
               "\uf900" <= c <= "\ufaff" or "\uff00" <= c <= "\uffef" for c in text)


def deck_language(slides: list[dict[str, Any]]) -> str:
    """A language tag for a deck that names none: Chinese when its text has CJK
    characters, else English."""
    text = "".join(str(v) for s in slides for v in s.values() if isinstance(v, str))
    return "zh-CN" if _is_cjk(text) else "en-US"


def _fit_pt(lines: list[tuple[int, str]], width_in: float, height_in: float,
            largest: int, smallest: int) -> int:
    """The largest font size (points) at which ``lines`` (level, text) are likely to
    fit the box: an estimate from average character widths (CJK counts double)."""
    for pt in range(largest, smallest - 1, -2):
        used = 0.0
        for level, text in lines:
            width = max(width_in - 0.4 * level - 0.35, 1.0) * 72
            per_line = max(width / (pt * 0.52), 4)
            units = sum(2 if _is_cjk(c) else 1 for c in text) or 1
            used += math.ceil(units / per_line) * pt * 1.2 + pt * 0.5
        if used / 72 <= height_in:
            return pt
    return smallest


def _rgb(colour: str) -> Any:
    """A theme colour as python-pptx's RGBColor."""
    from pptx.dml.color import RGBColor

    return RGBColor(*theme.rgb(colour))  # type: ignore[no-untyped-call]


def _number(cell: Any) -> bool:
    return isinstance(cell, int | float) and not isinstance(cell, bool)


def _cell_text(cell: Any, decimals: int | None = None) -> str:
    """A cell as shown: numbers with thousands separators, and ``decimals`` places (a
    column's numbers share them), else as few as the value needs (at most 2)."""
    if cell is None:
        return ""
    if _number(cell):
        places = _decimals(cell) if decimals is None else decimals
        return f"{cell:,.{places}f}"
    return str(cell)


def _decimals(value: float) -> int:
    if isinstance(value, int) or float(value).is_integer():
        return 0
    return 1 if round(value, 1) == round(value, 2) else 2


# --------------------------------------------------------------- building


def _flat(shape: Any) -> None:
    """No shadow or theme effects on a drawn shape: the template gives its shapes a
    style whose effect (a soft shadow) LibreOffice draws even with the effects
    switched off, so the style goes (the shape's own fill and line stay)."""
    from pptx.oxml.ns import qn

    shape.shadow.inherit = False
    style = shape._element.find(qn("p:style"))
    if style is not None:
        shape._element.remove(style)


class _Deck:
    """One presentation being built (python-pptx objects, imported in the worker)."""

    def __init__(self, language: str) -> None:
        from pptx import Presentation
        from pptx.util import Inches

        self.prs = Presentation()
        self.prs.slide_width, self.prs.slide_height = Inches(_W), Inches(_H)
        self.language = language
        self.layouts = {layout.name: layout for layout in self.prs.slide_layouts}

    # text
    def style(self, run: Any, pt: float, colour: str = theme.INK, bold: bool = False,
              italic: bool = False) -> None:
        from pptx.util import Pt

        font = run.font
        font.name, font.size, font.bold, font.italic = theme.OFFICE_FONT, Pt(pt), bold, italic
        font.color.rgb = _rgb(colour)
        props = run._r.get_or_add_rPr()
        props.set("lang", self.language)
        props.set("cap", "none")  # the template's section titles are all capitals

    def write(self, frame: Any, text: str, pt: float, colour: str = theme.INK,
              bold: bool = False, italic: bool = False, align: Any = None) -> None:
        frame.clear()
        frame.word_wrap = True
        para = frame.paragraphs[0]
        if align is not None:
            para.alignment = align
        run = para.add_run()
        run.text = text
        self.style(run, pt, colour, bold, italic)

    def place(self, shape: Any, left: float, top: float, width: float, height: float) -> None:
        from pptx.util import Inches

        shape.left, shape.top = Inches(left), Inches(top)
        shape.width, shape.height = Inches(width), Inches(height)

    def slide(self, layout_name: str) -> Any:
        return self.prs.slides.add_slide(self.layouts[layout_name])

    def title(self, slide: Any, text: str) -> None:
        from pptx.enum.text import MSO_ANCHOR, PP_ALIGN

        shape = slide.shapes.title
        self.place(shape, _MARGIN, _TITLE_TOP, _W - 2 * _MARGIN, _TITLE_H)
        pt = _fit_pt([(0, text)], _W - 2 * _MARGIN, _TITLE_H, theme.SLIDE_TITLE_PT, 22)
        self.write(shape.text_frame, text, pt, bold=True, align=PP_ALIGN.LEFT)
        shape.text_frame.vertical_anchor = MSO_ANCHOR.BOTTOM
        shape.text_frame.margin_left = 0  # the title, its bar and the body share one edge
        self.rule(slide, _TITLE_TOP + _TITLE_H + 0.08)

    def rule(self, slide: Any, top: float, left: float = _MARGIN, width: float = 1.1,
             colour: str = theme.ACCENT) -> None:
        """The theme's short accent bar under a title."""
        from pptx.enum.shapes import MSO_SHAPE
        from pptx.util import Inches

        bar = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(left), Inches(top),
                                     Inches(width), Inches(0.06))
        bar.fill.solid()
        bar.fill.fore_color.rgb = _rgb(colour)
        bar.line.fill.background()
        _flat(bar)
        bar.name = "Accent"

    def points(self, frame: Any, points: list[tuple[int, str]], pt: int,
               heading: str = "") -> None:
        from pptx.util import Pt

        frame.clear()
        frame.word_wrap = True
        frame.margin_left = 0
        first = True
        for level, text in ([(-1, heading)] if heading else []) + points:
            para = frame.paragraphs[0] if first else frame.add_paragraph()
            first = False
            para.level = max(level, 0)
            para.space_after = Pt(pt * 0.4)
            if level < 0:  # a column's heading: no bullet, no indent
                from pptx.oxml.ns import qn

                ppr = para._p.get_or_add_pPr()
                ppr.set("marL", "0")
                ppr.set("indent", "0")
                ppr.append(ppr.makeelement(qn("a:buNone"), {}))  # after spcAft
            run = para.add_run()
            run.text = text
            size = pt if level <= 0 else max(pt - 2 * level, 12)
            self.style(run, size, theme.ACCENT if level < 0 else theme.INK, bold=level < 0)

    def number(self, slide: Any, n: int) -> None:
        """The slide's number, bottom right (a field: it follows a slide that is moved)."""
        from lxml import etree
        from pptx.enum.text import PP_ALIGN
        from pptx.oxml.ns import qn
        from pptx.util import Inches

        box = slide.shapes.add_textbox(Inches(_W - _MARGIN - 1.0), Inches(_H - 0.55),
                                       Inches(1.0), Inches(0.35))
        box.name = "Slide Number"
        para = box.text_frame.paragraphs[0]
        para.alignment = PP_ALIGN.RIGHT
        fld = etree.SubElement(para._p, qn("a:fld"))
        fld.set("id", "{" + str(uuid.UUID(int=n)).upper() + "}")
        fld.set("type", "slidenum")
        rpr = etree.SubElement(fld, qn("a:rPr"))
        rpr.set("lang", self.language)
        rpr.set("sz", "1100")
        fill = etree.SubElement(rpr, qn("a:solidFill"))
        etree.SubElement(fill, qn("a:srgbClr")).set("val", theme.MUTED[1:])
        etree.SubElement(rpr, qn("a:latin")).set("typeface", theme.OFFICE_FONT)
        etree.SubElement(fld, qn("a:t")).text = str(n)

    def notes(self, slide: Any, text: str) -> None:
        frame = slide.notes_slide.notes_text_frame
        if frame is not None:
            frame.text = text


def render(slides: list[dict[str, Any]], title: str = "", author: str = "",
           language: str = "") -> tuple[bytes, str]:
    """The deck's bytes and a short account ("7 slides"). ``slides`` must have passed
    ``slide_spec.validate``; image paths must be resolved. Raises ``SlideError`` for
    an image that is no picture."""
    deck = _Deck(language or deck_language(slides))
    builders = {"title": _title_slide, "section": _section_slide, "bullets": _bullets_slide,
                "two_column": _two_column_slide, "table": _table_slide,
                "chart": _chart_slide, "image": _image_slide, "quote": _quote_slide}
    for n, spec in enumerate(slides, 1):
        slide = builders[spec["layout"]](deck, spec)
        if spec["layout"] != "title":
            deck.number(slide, n)
        if spec.get("notes"):
            deck.notes(slide, spec["notes"])
    now = datetime.now(UTC).replace(microsecond=0, tzinfo=None)
    props = deck.prs.core_properties
    props.title = title or next((s["title"] for s in slides if s.get("title")), "")
    props.author = author
    props.last_modified_by = author
    props.created = props.modified = now
    props.revision = 1
    props.language = deck.language
    props.comments = ""
    props.subject = ""
    _own_package_parts(deck.prs, len(slides), sum(1 for s in slides if s.get("notes")))
    out = io.BytesIO()
    deck.prs.save(out)
    return out.getvalue(), f"{len(slides)} slide{'s' * (len(slides) != 1)}"


_APP_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
    'extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/'
    'docPropsVTypes"><TotalTime>0</TotalTime><Application>OpenWorker Qt</Application>'
    '<PresentationFormat>Widescreen</PresentationFormat><Slides>{slides}</Slides>'
    '<Notes>{notes}</Notes><HiddenSlides>0</HiddenSlides><MMClips>0</MMClips>'
    '<ScaleCrop>false</ScaleCrop><LinksUpToDate>false</LinksUpToDate>'
    '<SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged></Properties>')


def _own_package_parts(prs: Any, slides: int, notes: int) -> None:
    """The template's leftovers replaced: its application properties (which say a
    Macintosh PowerPoint made a 4:3 show of 0 slides) and its thumbnail (a blank 4:3
    picture a file manager would show for the deck)."""
    package = prs.part.package
    for rid, rel in list(package._rels.items()):
        if rel.is_external:
            continue
        name = str(rel.target_part.partname)
        if name.startswith("/docProps/thumbnail"):
            package.drop_rel(rid)
        elif name == "/docProps/app.xml":
            rel.target_part._blob = _APP_XML.format(slides=slides, notes=notes).encode()


def _title_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN

    slide = deck.slide("Title Slide")
    shape = slide.shapes.title
    deck.place(shape, _MARGIN + 0.3, 2.0, _W - 2 * _MARGIN - 0.6, 2.0)
    pt = _fit_pt([(0, spec["title"])], _W - 2 * _MARGIN - 0.6, 2.0,
                 theme.SLIDE_DECK_TITLE_PT, 28)
    deck.write(shape.text_frame, spec["title"], pt, bold=True)
    shape.text_frame.vertical_anchor = MSO_ANCHOR.BOTTOM
    shape.text_frame.paragraphs[0].alignment = PP_ALIGN.LEFT
    deck.rule(slide, 4.15, left=_MARGIN + 0.4, width=1.4)
    sub = slide.placeholders[1]
    if spec.get("subtitle"):
        deck.place(sub, _MARGIN + 0.3, 4.4, _W - 2 * _MARGIN - 0.6, 1.2)
        deck.write(sub.text_frame, spec["subtitle"], theme.SLIDE_SUBTITLE_PT, theme.MUTED,
                   align=PP_ALIGN.LEFT)
        sub.text_frame.vertical_anchor = MSO_ANCHOR.TOP
    else:
        sub._element.getparent().remove(sub._element)
    return slide


def _section_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
    from pptx.util import Inches

    slide = deck.slide("Section Header")
    band = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, 0, Inches(2.3), Inches(_W),
                                  Inches(2.9))
    band.fill.solid()
    band.fill.fore_color.rgb = _rgb(theme.ACCENT)
    band.line.fill.background()
    _flat(band)
    band.name = "Band"
    # behind the placeholders (the first shapes of the tree are drawn first)
    tree = slide.shapes._spTree
    tree.remove(band._element)
    tree.insert(2, band._element)
    shape = slide.shapes.title
    deck.place(shape, _MARGIN + 0.3, 2.5, _W - 2 * _MARGIN - 0.6, 1.5)
    deck.write(shape.text_frame, spec["title"], 36, theme.PAPER, bold=True,
               align=PP_ALIGN.LEFT)
    shape.text_frame.vertical_anchor = MSO_ANCHOR.BOTTOM
    sub = slide.placeholders[1]
    if spec.get("subtitle"):
        deck.place(sub, _MARGIN + 0.3, 4.05, _W - 2 * _MARGIN - 0.6, 0.9)
        deck.write(sub.text_frame, spec["subtitle"], theme.SLIDE_SUBTITLE_PT,
                   theme.HEADER_FILL_LIGHT, align=PP_ALIGN.LEFT)
        sub.text_frame.vertical_anchor = MSO_ANCHOR.TOP
    else:
        sub._element.getparent().remove(sub._element)
    return slide


def _with_title(deck: _Deck, layout: str, spec: Mapping[str, Any]) -> Any:
    slide = deck.slide(layout)
    if spec.get("title"):
        deck.title(slide, spec["title"])
    else:
        slide.shapes.title._element.getparent().remove(slide.shapes.title._element)
    return slide


def _bullets_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    slide = _with_title(deck, "Title and Content", spec)
    body = slide.placeholders[1]
    width, height = _W - 2 * _MARGIN, _BODY_BOTTOM - _BODY_TOP
    deck.place(body, _MARGIN, _BODY_TOP, width, height)
    pt = _fit_pt(spec["points"], width, height, theme.SLIDE_BODY_PT + 4, 14)
    deck.points(body.text_frame, spec["points"], pt)
    return slide


def _two_column_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    slide = _with_title(deck, "Two Content", spec)
    gap = 0.5
    width, height = (_W - 2 * _MARGIN - gap) / 2, _BODY_BOTTOM - _BODY_TOP
    sides = [(spec["left"], spec["left_heading"]), (spec["right"], spec["right_heading"])]
    pt = min(_fit_pt(points + ([(0, head)] if head else []), width, height,
                     theme.SLIDE_BODY_PT, 12) for points, head in sides)
    for k, (points, head) in enumerate(sides):
        body = slide.placeholders[k + 1]
        deck.place(body, _MARGIN + k * (width + gap), _BODY_TOP, width, height)
        deck.points(body.text_frame, points, pt, heading=head)
    return slide


def _table_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
    from pptx.util import Inches, Pt

    slide = _with_title(deck, "Title Only", spec)
    columns, rows = spec["columns"], spec["rows"]
    width = _W - 2 * _MARGIN
    room = _BODY_BOTTOM - _BODY_TOP
    row_h = min(0.5, room / (len(rows) + 1))
    pt = max(10, min(theme.SLIDE_TABLE_PT + 2, round(row_h * 72 * 0.42)))
    shape = slide.shapes.add_table(len(rows) + 1, len(columns), Inches(_MARGIN),
                                   Inches(_BODY_TOP), Inches(width),
                                   Inches(row_h * (len(rows) + 1)))
    table = shape.table
    # Columns as wide as their longest text (within reason), filling the width.
    places = [max([_decimals(r[c]) for r in rows if _number(r[c])], default=0)
              for c in range(len(columns))]
    shown = [[_cell_text(r[c], places[c]) for c in range(len(columns))] for r in rows]
    longest = [max([len(columns[c])] + [len(r[c]) for r in shown]) for c in
               range(len(columns))]
    weights = [min(max(n, 4), 40) for n in longest]
    for c, weight in enumerate(weights):
        table.columns[c].width = Inches(width * weight / sum(weights))
    numeric = [bool(rows) and all(_number(r[c]) or r[c] is None for r in rows)
               and any(_number(r[c]) for r in rows) for c in range(len(columns))]
    for r in range(len(rows) + 1):
        table.rows[r].height = Inches(row_h)
        for c in range(len(columns)):
            cell = table.cell(r, c)
            text = columns[c] if r == 0 else shown[r - 1][c]
            fill = theme.HEADER_FILL if r == 0 else (
                theme.HEADER_FILL_LIGHT if r % 2 == 0 else theme.PAPER)
            cell.fill.solid()
            cell.fill.fore_color.rgb = _rgb(fill)
            cell.vertical_anchor = MSO_ANCHOR.MIDDLE
            cell.margin_left = cell.margin_right = Inches(0.08)
            cell.margin_top = cell.margin_bottom = Inches(0.03)
            align = PP_ALIGN.RIGHT if numeric[c] else PP_ALIGN.LEFT
            deck.write(cell.text_frame, text, pt, theme.PAPER if r == 0 else theme.INK,
                       bold=r == 0, align=align)
            cell.text_frame.paragraphs[0].space_after = Pt(0)
    return slide


_CHART_TYPES = {"bar": "COLUMN_CLUSTERED", "line": "LINE_MARKERS", "pie": "PIE"}


def _chart_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION
    from pptx.util import Inches, Pt

    slide = _with_title(deck, "Title Only", spec)
    chart_spec = spec["chart"]
    kind = str(chart_spec.get("kind", "bar"))
    series = list(chart_spec["series"])[:1] if kind == "pie" else list(chart_spec["series"])
    data = CategoryChartData()  # type: ignore[no-untyped-call]
    data.categories = [str(x) for x in chart_spec["labels"]]
    for k, s in enumerate(series, 1):
        data.add_series(str(s.get("name") or f"Series {k}"),  # type: ignore[no-untyped-call]
                        [float(v) for v in s["values"]])
    top = _BODY_TOP if spec.get("title") else _TITLE_TOP
    frame = slide.shapes.add_chart(getattr(XL_CHART_TYPE, _CHART_TYPES[kind]),
                                   Inches(_MARGIN), Inches(top), Inches(_W - 2 * _MARGIN),
                                   Inches(_BODY_BOTTOM - top), data)
    chart = frame.chart
    chart.font.name, chart.font.size = theme.OFFICE_FONT, Pt(14)
    chart.font.color.rgb = _rgb(theme.INK)
    heading = str(chart_spec.get("title") or "")
    chart.has_title = bool(heading)
    if heading:
        chart.chart_title.text_frame.text = heading
    named = any(s.get("name") for s in series)
    chart.has_legend = kind == "pie" or (named and len(series) > 1)
    if chart.has_legend:
        chart.legend.position = XL_LEGEND_POSITION.RIGHT if kind == "pie" \
            else XL_LEGEND_POSITION.TOP
        chart.legend.include_in_layout = False
    plot = chart.plots[0]
    palette = [_rgb(c) for c in theme.PALETTE]
    if kind == "pie":
        plot.has_data_labels = True
        labels = plot.data_labels
        labels.show_percentage, labels.show_value = True, False
        labels.number_format, labels.number_format_is_linked = "0%", False
        labels.font.color.rgb = _rgb(theme.PAPER)
        labels.font.bold = True
        for i, point in enumerate(plot.series[0].points):
            point.format.fill.solid()
            point.format.fill.fore_color.rgb = palette[i % len(palette)]
        return slide
    for k, plotted in enumerate(plot.series):
        colour = palette[k % len(palette)]
        if kind == "bar":
            plotted.format.fill.solid()
            plotted.format.fill.fore_color.rgb = colour
        else:
            plotted.format.line.color.rgb = colour
            plotted.format.line.width = Pt(2.5)
            plotted.smooth = False
            plotted.marker.format.fill.solid()
            plotted.marker.format.fill.fore_color.rgb = colour
    if kind == "bar":
        plot.gap_width = 60
        if len(series) * len(chart_spec["labels"]) <= 24:
            plot.has_data_labels = True
            plot.data_labels.font.size = Pt(12)
            plot.data_labels.font.color.rgb = _rgb(theme.MUTED)
    value_axis = chart.value_axis
    value_axis.has_major_gridlines = True
    value_axis.major_gridlines.format.line.color.rgb = _rgb(theme.GRID)
    value_axis.format.line.fill.background()
    chart.category_axis.format.line.color.rgb = _rgb(theme.AXIS)
    return slide


def _image_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    from pptx.enum.text import PP_ALIGN
    from pptx.util import Inches

    data, (px_w, px_h) = image_data(spec["path"])
    slide = _with_title(deck, "Title Only", spec)
    top = _BODY_TOP if spec.get("title") else 0.5
    bottom = _BODY_BOTTOM - (0.55 if spec.get("caption") else 0)
    box_w, box_h = _W - 2 * _MARGIN, bottom - top
    scale = min(box_w / px_w, box_h / px_h)
    width, height = px_w * scale, px_h * scale
    left = (_W - width) / 2
    slide.shapes.add_picture(io.BytesIO(data), Inches(left), Inches(top + (box_h - height) / 2),
                             Inches(width), Inches(height))
    if spec.get("caption"):
        box = slide.shapes.add_textbox(Inches(_MARGIN), Inches(bottom + 0.1), Inches(box_w),
                                       Inches(0.45))
        deck.write(box.text_frame, spec["caption"], 14, theme.MUTED, italic=True,
                   align=PP_ALIGN.CENTER)
    return slide


def _quote_slide(deck: _Deck, spec: Mapping[str, Any]) -> Any:
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
    from pptx.util import Inches

    slide = deck.slide("Blank")
    mark = slide.shapes.add_textbox(Inches(_MARGIN + 0.5), Inches(0.9), Inches(1.5),
                                    Inches(1.5))
    deck.write(mark.text_frame, "“", 120, theme.ACCENT, bold=True)
    width = _W - 2 * _MARGIN - 2.0
    box = slide.shapes.add_textbox(Inches(_MARGIN + 1.0), Inches(2.0), Inches(width),
                                   Inches(3.0))
    pt = _fit_pt([(0, spec["quote"])], width, 3.0, theme.SLIDE_QUOTE_PT, 18)
    deck.write(box.text_frame, spec["quote"], pt, italic=True, align=PP_ALIGN.LEFT)
    box.text_frame.vertical_anchor = MSO_ANCHOR.MIDDLE
    if spec.get("attribution"):
        who = slide.shapes.add_textbox(Inches(_MARGIN + 1.0), Inches(5.2), Inches(width),
                                       Inches(0.6))
        deck.write(who.text_frame, "— " + spec["attribution"], theme.SLIDE_SUBTITLE_PT,
                   theme.MUTED, align=PP_ALIGN.LEFT)
    return slide
