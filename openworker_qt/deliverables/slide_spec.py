"""What a slide deck may hold: the slides the model writes, checked before anything is built.

Each slide is a dict with a ``layout`` and the fields that layout uses; every
slide may carry ``notes`` (speaker notes):

- ``title``: ``title``, ``subtitle``;
- ``section``: ``title``, ``subtitle`` (a divider between parts of the talk);
- ``bullets``: ``title``, ``bullets``: strings, or ``{"text", "bullets": [...]}``
  for a point with sub-points (up to four levels);
- ``two_column``: ``title``, ``left`` and ``right`` (bullets, as above), optional
  ``left_heading`` and ``right_heading``;
- ``table``: ``title``, ``columns``, ``rows`` (cells: strings, numbers or null);
- ``chart``: ``title``, ``chart``: ``{kind, labels, series, title?}``, the chart of
  :mod:`openworker_qt.deliverables.charts`, drawn as a native chart (the reader can
  edit its data);
- ``image``: ``title`` (optional), ``path`` (a PNG, JPEG or GIF file, already
  resolved by the caller), ``caption``;
- ``quote``: ``quote``, ``attribution``.

Sizes are bounded (slides, bullets, table rows, text): beyond them
:class:`SlideError` says what to change. :func:`image_data` checks that an image
file is a whole picture. :mod:`openworker_qt.deliverables.slides` builds the deck.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from openworker_qt.deliverables import charts
from openworker_qt.deliverables.base import MAX_IMAGE_PIXELS
from openworker_qt.domain.documents import SLIDE_LAYOUTS

MAX_SLIDES = 100
MAX_BULLETS = 14  # points on a slide (sub-points included), per column
MAX_DEPTH = 4
MAX_TABLE_ROWS = 15  # body rows of a slide's table (the header aside)
MAX_TABLE_COLUMNS = 8
MAX_LINE_CHARS = 400  # a title, a bullet, a cell, a quote
MAX_NOTES_CHARS = 6_000
MAX_IMAGE_BYTES = 20 * 1024 * 1024


class SlideError(ValueError):
    """The slides cannot make a deck (the message says why, for the model)."""


# --------------------------------------------------------------- validation

#: Control characters XML cannot hold (tab and line feed aside): invisible, so dropped.
_CONTROLS = dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE,
                           0xFFFF])


def _clean(text: str) -> str:
    return text.translate(_CONTROLS)



def _line(slide: Mapping[str, Any], key: str, where: str, required: bool = False) -> str:
    value = slide.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str | int | float) or isinstance(value, bool) or (
            required and not str(value).strip()):
        raise SlideError(f"{where}: '{key}' must be a non-empty string." if required
                         else f"{where}: '{key}' must be a string.")
    text = _clean(str(value))
    if len(text) > MAX_LINE_CHARS:
        raise SlideError(f"{where}: '{key}' is {len(text)} characters long; a slide holds "
                         f"at most {MAX_LINE_CHARS}. Shorten it, or move the detail to the "
                         "speaker notes.")
    return text


def _points(items: Any, where: str, depth: int = 0) -> list[tuple[int, str]]:
    """Bullets as (level, text), checked."""
    if not isinstance(items, list) or (depth == 0 and not items):
        raise SlideError(f"{where}: bullets must be a non-empty list of strings or "
                         "{text, bullets} objects.")
    out: list[tuple[int, str]] = []
    for item in items:
        if isinstance(item, Mapping):
            out.append((depth, _line(item, "text", where, required=True)))
            subs = item.get("bullets", item.get("items"))
            if subs:
                if depth + 1 >= MAX_DEPTH:
                    raise SlideError(f"{where}: bullets nest at most {MAX_DEPTH} levels deep.")
                out += _points(subs, where, depth + 1)
        else:
            out.append((depth, _line({"text": item}, "text", where, required=True)))
    if depth == 0 and len(out) > MAX_BULLETS:
        raise SlideError(f"{where}: {len(out)} points on one slide; the limit is "
                         f"{MAX_BULLETS}. Split them over two slides.")
    return out


def validate(slides: Any) -> list[dict[str, Any]]:
    """The slides, checked: layouts, fields and size caps (:class:`SlideError` if not).
    Each returned slide has its bullets flattened to ``points`` (level, text) pairs."""
    if not isinstance(slides, list) or not slides:
        raise SlideError("'content' must be a non-empty list of slides, each with a 'layout'.")
    if len(slides) > MAX_SLIDES:
        raise SlideError(f"The deck has {len(slides)} slides; the limit is {MAX_SLIDES}. "
                         "Make a shorter deck (a summary with an appendix deck) or split it.")
    out: list[dict[str, Any]] = []
    for n, slide in enumerate(slides, 1):
        where = f"Slide {n}"
        if not isinstance(slide, dict):
            raise SlideError(f"{where} must be an object with a 'layout'.")
        layout = slide.get("layout")
        if layout not in SLIDE_LAYOUTS:
            raise SlideError(f"{where} has layout {layout!r}; use one of: "
                             f"{', '.join(SLIDE_LAYOUTS)}.")
        where = f"Slide {n} ({layout})"
        checked: dict[str, Any] = {"layout": layout}
        notes = slide.get("notes")
        if notes is not None:
            if not isinstance(notes, str):
                raise SlideError(f"{where}: 'notes' must be a string.")
            if len(notes) > MAX_NOTES_CHARS:
                raise SlideError(f"{where}: the notes hold more than {MAX_NOTES_CHARS:,} "
                                 "characters.")
            checked["notes"] = _clean(notes)
        if layout == "quote":
            checked["quote"] = _line(slide, "quote", where, required=True)
            checked["attribution"] = _line(slide, "attribution", where)
        else:
            checked["title"] = _line(slide, "title", where,
                                     required=layout in ("title", "section"))
        if layout in ("title", "section"):
            checked["subtitle"] = _line(slide, "subtitle", where)
        elif layout == "bullets":
            checked["points"] = _points(slide.get("bullets"), where)
        elif layout == "two_column":
            checked["left"] = _points(slide.get("left"), f"{where}, left")
            checked["right"] = _points(slide.get("right"), f"{where}, right")
            checked["left_heading"] = _line(slide, "left_heading", where)
            checked["right_heading"] = _line(slide, "right_heading", where)
        elif layout == "table":
            checked.update(_table(slide, where))
        elif layout == "chart":
            chart = slide.get("chart")
            if not isinstance(chart, Mapping):
                raise SlideError(f"{where}: 'chart' must be an object {{kind, labels, series}}.")
            try:
                charts.check_chart(chart)
            except charts.ChartError as exc:
                raise SlideError(f"{where}: {exc}") from None
            checked["chart"] = {
                **chart, "title": _clean(str(chart.get("title") or "")),
                "labels": [_clean(str(x)) for x in chart["labels"]],
                "series": [{**x, "name": _clean(str(x.get("name") or ""))}
                           for x in chart["series"]]}
        elif layout == "image":
            checked["path"] = _line(slide, "path", where, required=True)
            checked["caption"] = _line(slide, "caption", where)
        out.append(checked)
    return out


def _table(slide: Mapping[str, Any], where: str) -> dict[str, Any]:
    columns, rows = slide.get("columns"), slide.get("rows", [])
    if not isinstance(columns, list) or not columns:
        raise SlideError(f"{where}: 'columns' must be a non-empty list of headers.")
    if len(columns) > MAX_TABLE_COLUMNS:
        raise SlideError(f"{where}: {len(columns)} columns; a slide's table holds at most "
                         f"{MAX_TABLE_COLUMNS}. Keep the columns that make the point.")
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise SlideError(f"{where}: 'rows' must be a list of lists of cells.")
    if len(rows) > MAX_TABLE_ROWS:
        raise SlideError(
            f"{where}: {len(rows)} rows; a slide's table holds at most {MAX_TABLE_ROWS}. "
            "Show the top rows or a summary, and put the full table in an xlsx deliverable.")
    cells: list[list[Any]] = []
    for n, row in enumerate(rows, 1):
        if len(row) > len(columns):
            raise SlideError(f"{where}: row {n} has {len(row)} cells but there are only "
                             f"{len(columns)} columns.")
        for cell in row:
            if cell is not None and (not isinstance(cell, str | int | float)
                                     or isinstance(cell, bool)):
                raise SlideError(f"{where}: row {n} holds {cell!r}; cells are strings, "
                                 "numbers or null.")
            if isinstance(cell, str) and len(cell) > MAX_LINE_CHARS:
                raise SlideError(f"{where}: row {n} has a cell over {MAX_LINE_CHARS} "
                                 "characters.")
        cells.append([_clean(c) if isinstance(c, str) else c for c in row]
                     + [None] * (len(columns) - len(row)))
    heads = [_line({"h": c}, "h", where) for c in columns]
    return {"columns": heads, "rows": cells}


def image_data(path_text: str) -> tuple[bytes, tuple[int, int]]:
    """The image file's bytes and pixel size; :class:`SlideError` unless it is a
    whole PNG, JPEG or GIF picture."""
    path = Path(path_text)
    try:
        if path.stat().st_size > MAX_IMAGE_BYTES:
            raise SlideError(f"The image {path} is larger than 20 MB.")
        data = path.read_bytes()
    except OSError as exc:
        raise SlideError(f"The image {path} cannot be read: {exc.strerror or exc}.") from None
    if not data.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")):
        raise SlideError(f"The file {path} is not a picture (PNG, JPEG or GIF); a slide's "
                         "image must be one.")
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as probe:
            size = probe.size
            if size[0] * size[1] > MAX_IMAGE_PIXELS:
                raise SlideError(f"The image {path} is {size[0]:,} × {size[1]:,} pixels, "
                                 f"more than a slide can hold ({MAX_IMAGE_PIXELS:,} "
                                 "pixels). Make it smaller.")
            probe.load()  # a cut-off or damaged file fails here, not in the reader
    except SlideError:
        raise
    except Exception as exc:  # Pillow raises many kinds for a broken picture
        raise SlideError(f"The image {path} is damaged and cannot be shown ({exc}).") from None
    return data, size
