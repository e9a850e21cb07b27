"""Deliverables drawn as page pictures for the viewer (no Qt; called in a worker).

A PDF's pages come from PDFium (pypdfium2). A deck's slides are drawn with Pillow from
the shapes python-pptx reads: fills, text (size, weight, colour and alignment of each
run), tables, pictures and native charts (their data drawn by :mod:`charts`, the same
picture documents embed). Without LibreOffice this is what "the deck as pages" can be:
faithful in place, size and colour, approximate in line breaks.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from openworker_qt.deliverables import base, charts, pdf_fonts, theme

MAX_PAGES = 60  # pages (or slides) drawn; the viewer says when a file has more
_PDFIUM = threading.Lock()  # PDFium is not thread-safe
_EMU_PER_PT = 12700


def page_count(path: Path) -> int:
    """How many pages a PDF has (0 for a file PDFium cannot open)."""
    import pypdfium2 as pdfium

    with _PDFIUM:
        try:
            doc = pdfium.PdfDocument(str(path))
        except Exception:
            return 0
        try:
            return len(doc)
        finally:
            doc.close()


def pdf_pages(path: Path, width: int = 1100, limit: int = MAX_PAGES) -> list[Any]:
    """The first ``limit`` pages of the PDF as RGB Pillow images ``width`` pixels wide,
    on white. Raises ValueError for a file that is not a readable PDF."""
    import pypdfium2 as pdfium

    with _PDFIUM:
        try:
            doc = pdfium.PdfDocument(str(path))
        except Exception as exc:
            raise ValueError(str(exc)) from None
        try:
            images = []
            for index in range(min(len(doc), limit)):
                page = doc[index]
                try:
                    scale = width / max(page.get_width(), 1.0)
                    bitmap = page.render(scale=scale, fill_color=(255, 255, 255, 255))
                    images.append(bitmap.to_pil().convert("RGB"))
                    bitmap.close()
                finally:
                    page.close()
            return images
        finally:
            doc.close()


# ------------------------------------------------------------------ slides


class _Type:
    """Fonts for slide text: the shipped DejaVu Sans, a CJK face where it lacks glyphs."""

    def __init__(self, scale: float) -> None:
        self.scale = scale  # pixels per point
        self.latin = base.unicode_font()
        self._cache: dict[tuple[bool, int, bool], Any] = {}

    def font(self, pt: float, bold: bool, text: str) -> Any:
        from PIL import ImageFont

        px = max(6, round(pt * self.scale))
        cjk = any(ord(c) > 0x2E7F for c in text)
        key = (bold, px, cjk)
        if key not in self._cache:
            face = pdf_fonts.cjk_pair(text, "zh-CN") if cjk else None
            if face is not None:
                chosen = face[1] if bold else face[0]
                self._cache[key] = ImageFont.truetype(str(chosen.path), px, index=chosen.index)
            elif self.latin is not None:
                self._cache[key] = ImageFont.truetype(str(self.latin[1 if bold else 0]), px)
            else:
                self._cache[key] = ImageFont.load_default(px)
        return self._cache[key]


def _colour(font_or_fill: Any, default: str) -> tuple[int, int, int]:
    try:
        rgb = font_or_fill.color.rgb if hasattr(font_or_fill, "color") else \
            font_or_fill.fore_color.rgb
    except (AttributeError, TypeError, ValueError):
        return theme.rgb(default)
    return theme.rgb(f"#{rgb}") if rgb is not None else theme.rgb(default)


def _fill(shape: Any) -> tuple[int, int, int] | None:
    from pptx.enum.dml import MSO_FILL

    try:
        if shape.fill.type == MSO_FILL.SOLID:
            return _colour(shape.fill, theme.PAPER)
    except (AttributeError, TypeError, ValueError, NotImplementedError):
        return None
    return None


def _box(shape: Any, scale: float) -> tuple[float, float, float, float] | None:
    if shape.left is None or shape.top is None or shape.width is None or shape.height is None:
        return None
    k = scale / _EMU_PER_PT
    return shape.left * k, shape.top * k, shape.width * k, shape.height * k


def _wrap(draw: Any, text: str, font: Any, width: float) -> list[str]:
    """``text`` broken into lines that fit ``width`` pixels (words, or characters for
    text without spaces such as Chinese)."""
    lines: list[str] = []
    for part in text.split("\n"):
        words = part.split(" ") if " " in part else list(part)
        joiner = " " if " " in part else ""
        line = ""
        for word in words:
            trial = f"{line}{joiner}{word}" if line else word
            if line and draw.textlength(trial, font=font) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def _paragraph_style(para: Any, default_pt: float) -> tuple[float, bool, tuple[int, int, int]]:
    runs = list(para.runs)
    font = runs[0].font if runs else para.font
    pt = font.size.pt if font.size is not None else default_pt
    return pt, bool(font.bold), _colour(font, theme.INK)


def _text(draw: Any, kinds: _Type, frame: Any, box: tuple[float, float, float, float],
          default_pt: float = theme.SLIDE_BODY_PT, bullets: bool = False) -> None:
    """A text frame's paragraphs drawn in ``box``: wrapped, aligned, indented by level
    (with a bullet in a body placeholder), anchored at the top, middle or bottom as the
    frame says."""
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN

    left, top, width, height = box
    k = kinds.scale / _EMU_PER_PT
    pad, pad_top = frame.margin_left * k, frame.margin_top * k  # the frame's insets
    laid: list[tuple[str, Any, tuple[int, int, int], float, float, Any]] = []
    for para in frame.paragraphs:
        text = "".join(r.text for r in para.runs) or para.text
        if bullets and text and not _no_bullet(para):
            text = ("•", "–", "·")[min(para.level, 2)] + " " + text
        pt, bold, ink = _paragraph_style(para, default_pt)
        font = kinds.font(pt, bold, text)
        indent = para.level * 0.4 * 72 * kinds.scale
        for line in _wrap(draw, text, font, width - 2 * pad - indent) if text else [""]:
            laid.append((line, font, ink, indent, pt * 1.2 * kinds.scale, para.alignment))
        if laid:
            laid[-1] = (*laid[-1][:4], laid[-1][4] + pt * 0.3 * kinds.scale, laid[-1][5])
    used = sum(item[4] for item in laid)
    y = top + pad_top
    if frame.vertical_anchor == MSO_ANCHOR.MIDDLE:
        y = top + max((height - used) / 2, 0)
    elif frame.vertical_anchor == MSO_ANCHOR.BOTTOM:
        y = top + max(height - used - pad_top, 0)
    for line, font, ink, indent, step, align in laid:
        x = left + pad + indent
        if align in (PP_ALIGN.CENTER, PP_ALIGN.RIGHT):
            room = width - 2 * pad - indent - draw.textlength(line, font=font)
            x += room / 2 if align == PP_ALIGN.CENTER else room
        draw.text((x, y), line, font=font, fill=ink)
        y += step


def _table(draw: Any, kinds: _Type, table: Any, box: tuple[float, float, float, float]) -> None:
    k = kinds.scale / _EMU_PER_PT
    y = box[1]
    for row in table.rows:
        x = box[0]
        height = row.height * k
        for col, cell in zip(table.columns, row.cells, strict=False):
            width = col.width * k
            fill = _fill(cell) or theme.rgb(theme.PAPER)
            draw.rectangle([x, y, x + width, y + height], fill=fill, outline=theme.rgb(theme.GRID))
            _text(draw, kinds, cell.text_frame, (x, y, width, height), theme.SLIDE_TABLE_PT)
            x += width
        y += height


def chart_block(chart: Any) -> dict[str, Any]:
    """A native chart's kind, categories and series as a chart block of :mod:`charts`."""
    from pptx.enum.chart import XL_CHART_TYPE as T

    kind = {T.PIE: "pie", T.DOUGHNUT: "pie", T.LINE: "line",
            T.LINE_MARKERS: "line"}.get(chart.chart_type, "bar")
    plot = chart.plots[0]
    labels = [str(c) for c in plot.categories]
    series = [{"name": str(s.name), "values": [float(v or 0) for v in s.values]}
              for s in plot.series]
    title = ""
    if chart.has_title and chart.chart_title.has_text_frame:
        title = chart.chart_title.text_frame.text
    return {"type": "chart", "kind": kind, "title": title, "labels": labels, "series": series}


def _picture(page: Any, data: bytes, box: tuple[float, float, float, float]) -> None:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as picture:
        shown = picture.convert("RGB").resize((max(1, round(box[2])), max(1, round(box[3]))))
    page.paste(shown, (round(box[0]), round(box[1])))


def _shape(page: Any, draw: Any, kinds: _Type, shape: Any) -> None:
    box = _box(shape, kinds.scale)
    if box is None:
        return
    left, top, width, height = box
    if (fill := _fill(shape)) is not None:
        draw.rectangle([left, top, left + width, top + height], fill=fill)
    if shape.shape_type == 13:  # a picture
        _picture(page, shape.image.blob, box)
    elif getattr(shape, "has_chart", False):
        block = chart_block(shape.chart)
        _picture(page, charts.chart_png(block, charts.pick_fonts(
            block["title"] + "".join(block["labels"]), base.unicode_font())), box)
    elif getattr(shape, "has_table", False):
        _table(draw, kinds, shape.table, box)
    elif shape.has_text_frame:
        _text(draw, kinds, shape.text_frame, box, bullets=_is_body(shape))


def _no_bullet(para: Any) -> bool:
    from pptx.oxml.ns import qn

    ppr = para._p.pPr
    return ppr is not None and ppr.find(qn("a:buNone")) is not None


def _is_body(shape: Any) -> bool:
    """Whether the shape is a body placeholder (its paragraphs are bullet points)."""
    if not shape.is_placeholder:
        return False
    return int(shape.placeholder_format.type) in (2, 7)  # BODY, OBJECT


def slide_pictures(path: Path, width: int = 1280, limit: int = MAX_PAGES) -> tuple[list[Any], int]:
    """The deck's first ``limit`` slides drawn as RGB images ``width`` pixels wide, and
    how many slides it has."""
    from PIL import Image, ImageDraw
    from pptx import Presentation

    prs = Presentation(str(path))
    slide_w, slide_h = int(prs.slide_width or 12192000), int(prs.slide_height or 6858000)
    scale = width / (slide_w / _EMU_PER_PT)  # pixels per point
    kinds = _Type(scale)
    pictures = []
    slides = list(prs.slides)
    for slide in slides[:limit]:
        page = Image.new("RGB", (width, round(slide_h / _EMU_PER_PT * scale)),
                         _background(slide))
        draw = ImageDraw.Draw(page)
        for shape in _shapes(slide.shapes):
            _shape(page, draw, kinds, shape)
        pictures.append(page)
    return pictures, len(slides)


def _background(slide: Any) -> tuple[int, int, int]:
    try:
        fill = slide.background.fill
        return _colour(fill, theme.PAPER) if fill.type is not None else theme.rgb(theme.PAPER)
    except (AttributeError, TypeError, ValueError, NotImplementedError):
        return theme.rgb(theme.PAPER)


def _shapes(shapes: Iterable[Any]) -> Iterable[Any]:
    """The shapes in drawing order, groups opened."""
    for shape in shapes:
        if shape.shape_type == 6:  # a group
            yield from _shapes(shape.shapes)
        else:
            yield shape
