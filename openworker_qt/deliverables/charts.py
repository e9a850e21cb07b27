"""Bar, line and pie charts as PNG images, drawn with Pillow (no Qt, no matplotlib).

A chart block (see :mod:`openworker_qt.deliverables.documents`) has ``kind`` (bar, line or
pie), ``title``, ``labels`` and ``series`` (``[{"name": ..., "values": [...]}]``).
The picture is drawn at twice its size and scaled down, so lines, wedges and markers
are smooth; text uses the same TrueType font as the PDFs (DejaVu Sans, shipped with
the package), or a font of the system that covers the labels' characters (Chinese).

Bar and line charts have a value axis with round tick values and light grid lines,
the labels under the plot (every few when they are many), the series' names in a
legend under the title, and, when there are few bars, each bar's value above it.
A pie shows the first series, each slice's share inside it when there is room, and
a legend with the labels and shares beside it.

Pillow is already needed for PDFs (fpdf2 depends on it); the charts used matplotlib
before, which with numpy's helpers made ~16 MiB of the desktop build.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from openworker_qt.deliverables import theme
from openworker_qt.domain.documents import CHART_KINDS

#: Output size in pixels (16:9; about 210 dpi at 6 inches wide in DOCX and PDF).
WIDTH, HEIGHT = 1280, 720
_SCALE = 2  # drawn at twice the size, then scaled down (anti-aliasing)
MAX_POINTS = 10_000  # labels × series

PALETTE = theme.PALETTE  # the series' colours, the theme's
_INK = theme.rgb(theme.INK)
_MUTED = theme.rgb(theme.MUTED)
_GRID = theme.rgb(theme.GRID)
_AXIS = theme.rgb(theme.AXIS)


class ChartError(ValueError):
    """The chart cannot be drawn from these values (the message says why)."""


# ------------------------------------------------------------------ fonts


def missing_glyphs(path: Path, text: str) -> str:
    """The characters of ``text`` (once each, spaces aside) the font file has no
    glyph for; all of them for a font that cannot be read."""
    wanted = "".join(dict.fromkeys(c for c in text if not c.isspace()))
    try:
        from fontTools.ttLib import TTFont  # fpdf2's dependency too

        with TTFont(str(path), fontNumber=0, lazy=True) as font:
            cmap = font.getBestCmap() or {}
    except Exception:  # an unreadable or odd font file: not this one
        return wanted
    return "".join(c for c in wanted if ord(c) not in cmap)


def _refuse_missing(path: Path, text: str) -> None:
    """Raise :class:`ChartError` naming the characters of ``text`` the chosen font has
    no glyph for (the picture would show empty boxes)."""
    missing = "".join(c for c in missing_glyphs(path, text) if c.isprintable())
    if missing:
        shown = " ".join(f"{c} (U+{ord(c):04X})" for c in missing[:12])
        more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        raise ChartError(f"The chart cannot show some of its characters: {shown}{more}. No "
                         "font on this computer has them, and the picture would show empty "
                         "boxes. Leave them out of the title, labels and series names.")


def _covers(path: Path, text: str) -> bool:
    """Whether the font file has a glyph for every character of ``text``."""
    return not missing_glyphs(path, text)


#: Fonts with Chinese glyphs, tried when the labels hold characters DejaVu lacks.
CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/STHeiti Light.ttc",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simhei.ttf",
)


def pick_fonts(text: str, pair: tuple[Path, Path] | None) -> tuple[Path, Path] | None:
    """The (regular, bold) fonts to draw ``text`` with: ``pair`` when it covers every
    character, else the first system CJK font that does, else ``pair`` anyway."""
    if pair is None or _covers(pair[0], text):
        return pair
    for name in CJK_FONTS:
        path = Path(name)
        if path.is_file() and _covers(path, text):
            heavy = path.with_name(path.name.replace("Regular", "Bold"))
            return path, heavy if heavy != path and heavy.is_file() and _covers(
                heavy, text) else path
    return pair


@functools.lru_cache(maxsize=16)
def face_index(path: Path) -> int:
    """The face of a font collection charts draw Chinese with: the Simplified Chinese
    one (``Noto Sans CJK SC``; the collection's first face is the Japanese style), not
    a monospace one; 0 for a single font or a collection without it."""
    if path.suffix.lower() not in (".ttc", ".otc"):
        return 0
    try:
        from fontTools.ttLib import TTCollection

        with TTCollection(str(path), lazy=True) as coll:
            families = [str(f["name"].getDebugName(1) or "") for f in coll.fonts]
    except Exception:  # not a readable collection: its first face
        return 0
    return next((n for n, family in enumerate(families)
                 if family.endswith(" SC") and "Mono" not in family), 0)


class _Fonts:
    def __init__(self, pair: tuple[Path, Path] | None) -> None:
        self._pair = pair
        self._cache: dict[tuple[bool, int], Any] = {}

    def get(self, size: float, bold: bool = False) -> Any:
        from PIL import ImageFont

        px = max(6, round(size * _SCALE))
        key = (bold, px)
        if key not in self._cache:
            if self._pair is None:
                self._cache[key] = ImageFont.load_default(px)
            else:
                chosen = self._pair[1 if bold else 0]
                self._cache[key] = ImageFont.truetype(str(chosen), px, index=face_index(chosen))
        return self._cache[key]


# ------------------------------------------------------------------ numbers


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2, 2.5 or 5 × 10^n) spanning [low, high]."""
    if not math.isfinite(low) or not math.isfinite(high):
        raise ChartError("The values must be finite numbers.")
    if high < low:
        low, high = high, low
    if high == low:
        pad = abs(high) * 0.1 or 1.0
        low, high = low - pad, high + pad
    raw = (high - low) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(low / step + 1e-9) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 12))
        value = start + step * len(ticks)
    return ticks


def format_number(value: float, step: float | None = None) -> str:
    """A short label for an axis or a bar: 1,200 · 1.5M · 0.25 · -3."""
    size = abs(value)
    for limit, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if size >= limit:
            text = f"{value / limit:.2f}".rstrip("0").rstrip(".")
            return text + suffix
    whole = float(step if step is not None else value).is_integer()  # 2.5-steps: decimals
    if whole:
        return f"{value:,.0f}"
    decimals = 3 if step is None else min(6, max(0, -math.floor(math.log10(step)) + 1))
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# ------------------------------------------------------------------ drawing


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _fit(text: str, font: Any, width: float, measure: Callable[[str, Any], float]) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if measure(text, font) <= width:
        return text
    while len(text) > 1 and measure(text + "…", font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def check_chart(block: Mapping[str, Any]) -> None:
    """Raise :class:`ChartError` unless ``block`` is a chart that can be drawn: a known
    kind, labels, and series of finite numbers, one per label."""
    kind = block.get("kind", "bar")
    if kind not in CHART_KINDS:
        raise ChartError(f"'kind' must be one of: {', '.join(CHART_KINDS)} (got {kind!r}).")
    labels, series = block.get("labels"), block.get("series")
    if not isinstance(labels, list) or not labels:
        raise ChartError("'labels' must be a non-empty list (one per bar, point or slice).")
    if not isinstance(series, list) or not series:
        raise ChartError("'series' must be a non-empty list of {name, values}.")
    for n, s in enumerate(series, 1):
        values = s.get("values") if isinstance(s, Mapping) else None
        if not isinstance(values, list) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise ChartError(f"Series {n} needs 'values', a list of numbers.")
        if len(values) != len(labels):
            raise ChartError(f"Series {n} has {len(values)} values but there are "
                             f"{len(labels)} labels; give one value per label.")
        if not all(math.isfinite(v) for v in values):
            raise ChartError("The chart's values must be finite numbers (no NaN or infinity).")
    if len(labels) * len(series) > MAX_POINTS:
        raise ChartError(f"The chart has more than {MAX_POINTS:,} points; summarise the data.")
    if kind == "pie":
        row = series[0]["values"]
        if any(v < 0 for v in row) or sum(row) <= 0:
            raise ChartError("A pie chart needs values of zero or more with a total above zero.")


def chart_png(block: Mapping[str, Any], font_pair: tuple[Path, Path] | None = None) -> bytes:
    """The chart as PNG bytes. ``font_pair``: (regular, bold) TrueType files, or None
    for Pillow's built-in font. Raises :class:`ChartError` for values it cannot draw."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH * _SCALE, HEIGHT * _SCALE), "white")
    _draw_chart(block, ImageDraw.Draw(image), font_pair)
    out = io.BytesIO()
    image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS).save(out, format="PNG",
                                                                 optimize=True)
    return out.getvalue()


def chart_svg(block: Mapping[str, Any], font_pair: tuple[Path, Path] | None = None) -> bytes:
    """The chart as an SVG document (UTF-8): the same layout as :func:`chart_png`
    (measured with the same fonts), its text as the glyphs' outlines (labelled with
    the words), one element per bar, line, dot
    or slice. Raises :class:`ChartError` for values it cannot draw."""
    from openworker_qt.deliverables.svg_canvas import SvgCanvas

    canvas = SvgCanvas(WIDTH, HEIGHT, _SCALE)
    try:
        _draw_chart(block, canvas, font_pair)
    finally:
        canvas.close()
    return canvas.document(str(block.get("title") or ""))


def _draw_chart(block: Mapping[str, Any], draw: Any,
                font_pair: tuple[Path, Path] | None) -> None:
    """Draw the chart on ``draw`` (Pillow's ImageDraw, or the SVG canvas that takes
    the same calls)."""
    labels = [str(x) for x in block["labels"]]
    series = [s for s in block["series"] if isinstance(s, Mapping)]
    names = [str(s.get("name") or "") for s in series]
    values = [[float(v) for v in s["values"]] for s in series]
    if not all(math.isfinite(v) for row in values for v in row):
        raise ChartError("The chart's values must be finite numbers (no NaN or infinity).")
    kind = str(block.get("kind", "bar"))
    title = str(block.get("title") or "")
    words = title + "".join(labels) + "".join(names)
    chosen = pick_fonts(words, font_pair)
    if chosen is not None:
        _refuse_missing(chosen[0], words)
    fonts = _Fonts(chosen)
    s = _SCALE

    def measure(text: str, font: Any) -> float:
        return float(draw.textlength(text, font=font))

    top: float = 28 * s
    if title:
        font = fonts.get(32, bold=True)
        text = _fit(title, font, (WIDTH - 60) * s, measure)
        draw.text((WIDTH * s / 2, top), text, fill=_INK, font=font, anchor="mt")
        top += 58 * s
    if kind == "pie":
        _pie(draw, fonts, labels, values[0], top, measure)
    else:
        named = [(n, PALETTE[i % len(PALETTE)]) for i, n in enumerate(names)]
        if any(n for n, _ in named):
            top = _legend_row(draw, fonts, named, top, measure)
        _axes_chart(draw, fonts, kind, labels, values, top, measure)


def _legend_row(draw: Any, fonts: _Fonts, entries: Sequence[tuple[str, str]], top: float,
                measure: Callable[[str, Any], float]) -> float:
    """Swatches and names centred in rows under the title; returns the next free y."""
    s = _SCALE
    font = fonts.get(21)
    box, gap, pad = 20 * s, 10 * s, 34 * s
    max_row = (WIDTH - 80) * s
    items = [(_fit(name or f"Series {i + 1}", font, 300 * s, measure), colour)
             for i, (name, colour) in enumerate(entries)]
    rows: list[list[tuple[str, str, float]]] = [[]]
    used = 0.0
    for name, colour in items:
        width = box + gap + measure(name, font)
        if rows[-1] and used + pad + width > max_row:
            rows.append([])
            used = 0.0
        used += (pad if rows[-1] else 0) + width
        rows[-1].append((name, colour, width))
    line = 34 * s
    for row in rows:
        total = sum(w for *_, w in row) + pad * (len(row) - 1)
        x = (WIDTH * s - total) / 2
        cy = top + line / 2
        for name, colour, width in row:
            draw.rounded_rectangle((x, cy - box / 2, x + box, cy + box / 2), radius=3 * s,
                                   fill=_rgb(colour))
            draw.text((x + box + gap, cy), name, fill=_INK, font=font, anchor="lm")
            x += width + pad
        top += line
    return top + 8 * s


def _axes_chart(draw: Any, fonts: _Fonts, kind: str, labels: list[str],
                values: list[list[float]], top: float,
                measure: Callable[[str, Any], float]) -> None:
    s = _SCALE
    flat = [v for row in values for v in row]
    low, high = min(flat), max(flat)
    if kind == "bar":  # bars grow from zero
        low, high = min(low, 0.0), max(high, 0.0)
    ticks = nice_ticks(low, high)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    lo, hi = ticks[0], ticks[-1]
    tick_font = fonts.get(19)
    tick_texts = [format_number(t, step) for t in ticks]
    left = 24 * s + max(measure(t, tick_font) for t in tick_texts) + 12 * s
    right = WIDTH * s - 36 * s
    label_font = fonts.get(21)
    n = len(labels)
    slot = (right - left) / n
    # Label every k-th category so that the shown ones have room side by side.
    widest = max(measure(label, label_font) for label in labels)
    every = 1
    while every < n and widest > slot * every * 0.95 and every * slot < 140 * s:
        every += 1
    bottom = HEIGHT * s - 62 * s
    top += 20 * s  # room for the topmost tick's text (and a bar's value above it)

    def y_of(v: float) -> float:
        return bottom - (v - lo) / (hi - lo) * (bottom - top)

    for t, text in zip(ticks, tick_texts, strict=True):
        y = y_of(t)
        draw.line((left, y, right, y), fill=_AXIS if t == 0 else _GRID,
                  width=s * (2 if t == 0 else 1))
        draw.text((left - 10 * s, y), text, fill=_MUTED, font=tick_font, anchor="rm")
    draw.line((left, bottom, right, bottom), fill=_AXIS, width=2 * s)
    for i, label in enumerate(labels):
        if i % every:
            continue
        text = _fit(label, label_font, slot * every * 0.95, measure)
        half = measure(text, label_font) / 2
        cx = min(max(left + slot * (i + 0.5), half + 8 * s), WIDTH * s - half - 8 * s)
        draw.text((cx, bottom + 10 * s), text, fill=_INK, font=label_font, anchor="ma")
    if kind == "line":
        _lines(draw, values, left, slot, y_of)
    else:
        _bars(draw, fonts, values, left, slot, y_of, step, measure)


def _lines(draw: Any, values: list[list[float]], left: float, slot: float,
           y_of: Callable[[float], float]) -> None:
    s = _SCALE
    for k, row in enumerate(values):
        colour = _rgb(PALETTE[k % len(PALETTE)])
        points = [(left + slot * (i + 0.5), y_of(v)) for i, v in enumerate(row)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3 * s, joint="curve")
        radius = (5 if len(points) <= 40 else 0) * s
        for x, y in points if radius else ():
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour,
                         outline="white", width=s)


def _bars(draw: Any, fonts: _Fonts, values: list[list[float]], left: float, slot: float,
          y_of: Callable[[float], float], step: float,
          measure: Callable[[str, Any], float]) -> None:
    s = _SCALE
    groups = len(values)
    width = slot * 0.8 / groups
    zero = y_of(0.0)
    value_font = fonts.get(18)
    show_values = groups * len(values[0]) <= 24
    for k, row in enumerate(values):
        colour = _rgb(PALETTE[k % len(PALETTE)])
        for i, v in enumerate(row):
            x0 = left + slot * i + slot * 0.1 + width * k
            x1 = x0 + max(width - 2 * s, s)
            y = y_of(v)
            draw.rectangle((x0, min(y, zero), x1, max(y, zero)), fill=colour)
            if show_values:
                text = format_number(v)
                if measure(text, value_font) <= width + 12 * s:
                    anchor, dy = ("md", -4 * s) if v >= 0 else ("ma", 4 * s)
                    draw.text(((x0 + x1) / 2, y + dy), text, fill=_MUTED, font=value_font,
                              anchor=anchor)


def _pie(draw: Any, fonts: _Fonts, labels: list[str], row: list[float], top: float,
         measure: Callable[[str, Any], float]) -> None:
    s = _SCALE
    if any(v < 0 for v in row) or sum(row) <= 0:
        raise ChartError("A pie chart needs values of zero or more with a total above zero.")
    total = sum(row)
    bottom = HEIGHT * s - 28 * s
    radius = min((bottom - top) / 2, WIDTH * s * 0.26)
    font = fonts.get(22)
    box, line = 22 * s, 40 * s
    fit = max(1, int((bottom - top) // line))
    columns = 1 if len(labels) <= fit else 2
    # The pie and its legend side by side, centred together.
    widest = max(measure(f"{label}  {v / total:.0%}", font) for label, v in zip(
        labels, row, strict=True))
    legend_w = min(columns * (box + 10 * s + widest + 24 * s), WIDTH * s * 0.5)
    cx = max((WIDTH * s - (2 * radius + 60 * s + legend_w)) / 2, 30 * s) + radius
    cy = (top + bottom) / 2
    angle = -90.0
    share_font = fonts.get(22, bold=True)
    for i, v in enumerate(row):
        sweep = v / total * 360
        if sweep <= 0:
            continue
        colour = _rgb(PALETTE[i % len(PALETTE)])
        bounds = (cx - radius, cy - radius, cx + radius, cy + radius)
        draw.pieslice(bounds, angle, angle + sweep, fill=colour, outline="white",
                      width=2 * s if sweep < 359.9 else 0)
        if sweep >= 20:
            mid = math.radians(angle + sweep / 2)
            tx, ty = cx + math.cos(mid) * radius * 0.64, cy + math.sin(mid) * radius * 0.64
            draw.text((tx, ty), f"{v / total:.0%}", fill="white", font=share_font,
                      anchor="mm")
        angle += sweep
    # The legend: swatch, label and share, in one column (two when there are many).
    x0 = cx + radius + 60 * s
    area_w = WIDTH * s - 30 * s - x0
    per_col = math.ceil(len(labels) / columns)
    shown = min(len(labels), per_col * columns, fit * columns)
    col_w = area_w / columns
    y_start = cy - min(per_col, fit) * line / 2
    for i in range(shown):
        col, r = divmod(i, per_col)
        x, y = x0 + col * col_w, y_start + r * line + line / 2
        draw.rounded_rectangle((x, y - box / 2, x + box, y + box / 2), radius=3 * s,
                               fill=_rgb(PALETTE[i % len(PALETTE)]))
        share = f"  {row[i] / total:.0%}"
        room = col_w - box - 12 * s - measure(share, font)
        draw.text((x + box + 10 * s, y), _fit(labels[i], font, room, measure) + share,
                  fill=_INK, font=font, anchor="lm")
    if shown < len(labels):
        draw.text((x0, y_start + fit * line + line / 2), f"… and {len(labels) - shown} more",
                  fill=_MUTED, font=font, anchor="lm")
