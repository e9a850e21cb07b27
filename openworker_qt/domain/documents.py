"""What a deliverable may be made of: its formats, block types and chart kinds.

The ``create_deliverable`` tool offers these in its schema; ``deliverables.documents``,
``deliverables.slides`` and ``deliverables.charts`` render them (imported when a document is made, not when the tool is offered).
"""

from __future__ import annotations

FORMATS = ("md", "html", "csv", "xlsx", "docx", "pdf")
BLOCK_TYPES = ("heading", "paragraph", "list", "table", "image", "chart")
CHART_KINDS = ("bar", "line", "pie")
#: A slide deck (deliverables.slides): its content is a list of slides, each with one of
#: these layouts.
SLIDE_FORMATS = ("pptx",)
SLIDE_LAYOUTS = ("title", "section", "bullets", "two_column", "table", "chart", "image",
                 "quote")
#: A chart on its own (deliverables.charts): its content is one chart block.
CHART_FORMATS = ("png", "svg")
#: Every format ``create_deliverable`` offers.
ALL_FORMATS = FORMATS + SLIDE_FORMATS + CHART_FORMATS
