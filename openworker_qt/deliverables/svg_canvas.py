"""An SVG canvas that takes the drawing calls of Pillow's ImageDraw (the ones charts use).

:mod:`openworker_qt.deliverables.charts` lays a chart out once and draws it either
on a Pillow image (PNG) or on this canvas (SVG): the same positions, the same
fonts' measurements, so the two files show the same chart. Text stays text (with
its font family named, and its baseline placed from the font's own metrics, not
left to the viewer's idea of "middle"), bars are rectangles, slices are paths.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

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
        baseline = {"a": y + ascent, "t": y + ascent, "m": y + (ascent - descent) / 2,
                    "s": y, "b": y - descent, "d": y - descent}.get(vertical, y + ascent)
        family, style = "sans-serif", ""
        try:
            name, style = font.getname()
            family = f"{name}, sans-serif"
        except Exception:  # Pillow's bitmap font has no name
            pass
        weight = ' font-weight="bold"' if "bold" in str(style).lower() else ""
        text_anchor = {"l": "start", "m": "middle", "r": "end"}.get(horizontal, "start")
        self._parts.append(
            f'<text x="{_n(x)}" y="{_n(baseline)}" font-family={quoteattr(family)} '
            f'font-size="{_n(size)}"{weight} text-anchor="{text_anchor}" '
            f'fill="{_colour(fill)}">{escape(text.translate(_CONTROLS))}</text>')

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

    def document(self, title: str = "") -> bytes:
        """The SVG file (UTF-8), on a white background, titled ``title``."""
        w, h = self.width, self.height
        head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w * self.scale} {h * self.scale}">\n')
        if title:
            head += f"<title>{escape(title.translate(_CONTROLS))}</title>\n"
        head += f'<rect width="{w * self.scale}" height="{h * self.scale}" fill="#FFFFFF"/>\n'
        return (head + "\n".join(self._parts) + "\n</svg>\n").encode("utf-8")
