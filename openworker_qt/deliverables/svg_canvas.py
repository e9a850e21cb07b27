"""An SVG canvas that takes the drawing calls of Pillow's ImageDraw (the ones charts use).

:mod:`openworker_qt.deliverables.charts` lays a chart out once and draws it either
on a Pillow image (PNG) or on this canvas (SVG): the same positions, the same
fonts' measurements, so the two files show the same chart. Text is drawn as the
outlines of the font's glyphs (fontTools reads them from the same font file), so the
SVG looks the same on a machine that has not got that font: no viewer substitutes a
font of other widths that overflows the labels. Each text keeps its words in an
``aria-label`` (read aloud, searchable with the file's text); only a font without a
file (Pillow's built-in one) stays text, naming generic families. The baseline is
placed from the font's own metrics, not left to the viewer's idea of "middle"; bars are
rectangles, slices are paths.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

#: A font with no file to read outlines from: the families named, generic last.
GENERIC_FAMILIES = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

_Colour = tuple[int, int, int] | str | None
#: Characters XML cannot hold (tab and line feed aside): invisible, so dropped.
_CONTROLS = dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE,
                           0xFFFF])


def _colour(value: _Colour) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    return "#{:02X}{:02X}{:02X}".format(*value[:3])


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _points(xy: Sequence[Any]) -> list[tuple[float, float]]:
    if xy and isinstance(xy[0], tuple | list):
        return [(float(p[0]), float(p[1])) for p in xy]
    flat = [float(v) for v in xy]
    return list(zip(flat[0::2], flat[1::2], strict=True))


class SvgCanvas:
    """Records ImageDraw-style calls as SVG elements, in a ``width`` × ``height``
    document whose coordinates are ``scale`` times larger (as the charts draw)."""

    def __init__(self, width: int, height: int, scale: int) -> None:
        self.width, self.height, self.scale = width, height, scale
        self._parts: list[str] = []
        self._outlines = _Outlines()

    # ImageDraw's measuring call
    def textlength(self, text: str, font: Any) -> float:
        return float(font.getlength(text))

    # ImageDraw's drawing calls
    def text(self, xy: tuple[float, float], text: str, fill: _Colour = None,
             font: Any = None, anchor: str = "la") -> None:
        x, y = xy
        horizontal, vertical = (anchor or "la")[0], (anchor or "la")[1]
        size = float(getattr(font, "size", 11))
        try:
            ascent, descent = font.getmetrics()
        except Exception:  # a font without metrics: typical proportions
            ascent, descent = size * 0.8, size * 0.2
        top, bottom = -ascent, descent
        if vertical in "tb":  # Pillow's top and bottom: of the drawn glyphs, not the font's
            try:
                top, bottom = font.getbbox(text, anchor="ls")[1::2]
            except Exception:  # a font that cannot measure: its ascent and descent
                pass
        baseline = {"a": y + ascent, "t": y - top, "m": y + (ascent - descent) / 2,
                    "s": y, "b": y - bottom, "d": y - descent}.get(vertical, y + ascent)
        shown = text.translate(_CONTROLS)
        drawn = self._outlines.path(shown, font, x, baseline, horizontal)
        if drawn is not None:
            if drawn:  # (spaces only: nothing to draw)
                self._parts.append(f'<path class="text" aria-label={quoteattr(shown)} '
                                   f'fill="{_colour(fill)}" d="{drawn}"/>')
            return
        style = ""
        try:
            style = font.getname()[1]
        except Exception:  # Pillow's bitmap font has no name
            pass
        weight = ' font-weight="bold"' if "bold" in str(style).lower() else ""
        text_anchor = {"l": "start", "m": "middle", "r": "end"}.get(horizontal, "start")
        self._parts.append(
            f'<text x="{_n(x)}" y="{_n(baseline)}" font-family={quoteattr(GENERIC_FAMILIES)} '
            f'font-size="{_n(size)}"{weight} text-anchor="{text_anchor}" '
            f'fill="{_colour(fill)}">{escape(shown)}</text>')

    def line(self, xy: Sequence[Any], fill: _Colour = None, width: int = 1,
             joint: str | None = None) -> None:
        points = _points(xy)
        joined = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        join = ' stroke-linejoin="round"' if joint == "curve" else ""
        self._parts.append(f'<polyline points="{joined}" fill="none" stroke="{_colour(fill)}" '
                           f'stroke-width="{width}"{join}/>')

    def rectangle(self, xy: Sequence[float], fill: _Colour = None, outline: _Colour = None,
                  width: int = 1) -> None:
        self.rounded_rectangle(xy, 0, fill, outline, width)

    def rounded_rectangle(self, xy: Sequence[float], radius: float = 0, fill: _Colour = None,
                          outline: _Colour = None, width: int = 1) -> None:
        x0, y0, x1, y1 = (float(v) for v in xy)
        rounded = f' rx="{_n(radius)}"' if radius else ""
        stroke = f' stroke="{_colour(outline)}" stroke-width="{width}"' if outline else ""
        self._parts.append(f'<rect class="mark" x="{_n(x0)}" y="{_n(y0)}" '
                           f'width="{_n(x1 - x0)}" height="{_n(y1 - y0)}"{rounded} '
                           f'fill="{_colour(fill)}"{stroke}/>')

    def ellipse(self, xy: Sequence[float], fill: _Colour = None, outline: _Colour = None,
                width: int = 1) -> None:
        x0, y0, x1, y1 = (float(v) for v in xy)
        stroke = f' stroke="{_colour(outline)}" stroke-width="{width}"' if outline else ""
        self._parts.append(f'<ellipse cx="{_n((x0 + x1) / 2)}" cy="{_n((y0 + y1) / 2)}" '
                           f'rx="{_n((x1 - x0) / 2)}" ry="{_n((y1 - y0) / 2)}" '
                           f'fill="{_colour(fill)}"{stroke}/>')

    def pieslice(self, xy: Sequence[float], start: float, end: float, fill: _Colour = None,
                 outline: _Colour = None, width: int = 1) -> None:
        x0, y0, x1, y1 = (float(v) for v in xy)
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
        stroke = f' stroke="{_colour(outline)}" stroke-width="{width}"' if outline and width \
            else ""
        sweep = end - start
        if sweep >= 359.99:
            self._parts.append(f'<circle class="slice" cx="{_n(cx)}" cy="{_n(cy)}" '
                               f'r="{_n(r)}" fill="{_colour(fill)}"{stroke}/>')
            return
        a, b = math.radians(start), math.radians(end)
        large = 1 if sweep > 180 else 0
        path = (f"M{_n(cx)},{_n(cy)} L{_n(cx + r * math.cos(a))},{_n(cy + r * math.sin(a))} "
                f"A{_n(r)},{_n(r)} 0 {large} 1 {_n(cx + r * math.cos(b))},"
                f"{_n(cy + r * math.sin(b))} Z")
        self._parts.append(f'<path class="slice" d="{path}" fill="{_colour(fill)}"{stroke}/>')

    def close(self) -> None:
        """Close the font files read for outlines (drawing after this opens them again)."""
        self._outlines.close()

    def document(self, title: str = "") -> bytes:
        """The SVG file (UTF-8), on a white background, titled ``title``."""
        self.close()
        w, h = self.width, self.height
        head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w * self.scale} {h * self.scale}">\n')
        if title:
            head += f"<title>{escape(title.translate(_CONTROLS))}</title>\n"
        head += f'<rect width="{w * self.scale}" height="{h * self.scale}" fill="#FFFFFF"/>\n'
        return (head + "\n".join(self._parts) + "\n</svg>\n").encode("utf-8")


class _Outlines:
    """Text as glyph outlines, read with fontTools from the font file Pillow measures
    with (each file opened once a canvas)."""

    def __init__(self) -> None:
        self._faces: dict[tuple[str, int], Any] = {}
        self._open: list[Any] = []

    def close(self) -> None:
        for face in self._open:
            face.close()
        self._open.clear()
        self._faces.clear()

    def _face(self, font: Any) -> Any:
        path, index = getattr(font, "path", None), int(getattr(font, "index", 0) or 0)
        if not isinstance(path, str):
            return None  # Pillow's built-in font: no file
        key = (path, index)
        if key not in self._faces:
            try:
                from fontTools.ttLib import TTFont

                face = TTFont(path, fontNumber=index, lazy=True)
                self._open.append(face)
                self._faces[key] = (face.getGlyphSet(), face.getBestCmap() or {},
                                    face["hmtx"], face["head"].unitsPerEm)
            except Exception:  # an unreadable font: its text stays text
                self._faces[key] = None
        return self._faces[key]

    def path(self, text: str, font: Any, x: float, baseline: float,
             horizontal: str) -> str | None:
        """The outlines of ``text`` at ``font``'s size, anchored at ``x`` (``horizontal``:
        l, m or r) on ``baseline``, as SVG path data; None when the font has no file."""
        face = self._face(font)
        if face is None:
            return None
        from fontTools.pens.svgPathPen import SVGPathPen
        from fontTools.pens.transformPen import TransformPen

        glyphs, cmap, metrics, units = face
        k = float(getattr(font, "size", 11)) / units
        names = [cmap.get(ord(ch), ".notdef") for ch in text]
        advances = [metrics[name][0] if name in metrics.metrics else 0 for name in names]
        width = sum(advances) * k
        start = {"m": x - width / 2, "r": x - width}.get(horizontal, x)
        pen = SVGPathPen(glyphs, ntos=_n)
        pen_x = start
        for name, advance in zip(names, advances, strict=True):
            if name in glyphs:
                glyphs[name].draw(TransformPen(pen, (k, 0, 0, -k, pen_x, baseline)))
            pen_x += advance * k
        return str(pen.getCommands())
