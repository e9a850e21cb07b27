"""The deliverables' look, in one place: the fonts and colours every format uses.

Charts (PNG, SVG and native PPTX charts) and slides take their colours from here;
documents.py still spells its table header colours itself and can adopt these
(``HEADER_FILL``, ``HEADER_FILL_LIGHT``) without changing how anything looks.
Colours are ``#RRGGBB`` strings; :func:`rgb` gives the (r, g, b) tuple.
"""

from __future__ import annotations

#: Series colours: distinct in hue and lightness, readable on white and in grey print.
PALETTE = ("#3B6FB6", "#E8853D", "#4C9F70", "#D1495B", "#8A6BBE", "#9C7A56",
           "#D77FB3", "#6B7B8C", "#B5B33E", "#3AA6B9")

INK = "#222222"  # body text
MUTED = "#606060"  # secondary text: subtitles, attributions, axis numbers
GRID = "#E0E2E6"  # chart grid lines, table rules
AXIS = "#969696"  # chart axes
ACCENT = "#305496"  # headings' rule, a table's header row, a section slide's band
HEADER_FILL = "#305496"  # a table's header row (XLSX, PPTX); its text is white
HEADER_FILL_LIGHT = "#E8EEF7"  # a lighter header (HTML, PDF) and a table's zebra rows
PAPER = "#FFFFFF"

#: The typeface named in files the reader's program lays out (PPTX, later DOCX):
#: on every system or substituted by a metric-compatible one (Liberation Sans).
OFFICE_FONT = "Arial"
#: The typeface drawn into pictures and PDFs (shipped with the package: fonts/).
EMBEDDED_FONT = "DejaVu Sans"

#: Type scale for slides, in points.
SLIDE_TITLE_PT = 32
SLIDE_DECK_TITLE_PT = 40
SLIDE_SUBTITLE_PT = 20
SLIDE_BODY_PT = 20
SLIDE_TABLE_PT = 14
SLIDE_QUOTE_PT = 30


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#3B6FB6"`` → ``(59, 111, 182)``."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
