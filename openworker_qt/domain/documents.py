"""What a deliverable may be made of: its formats, block types and chart kinds.

The ``create_deliverable`` tool offers these in its schema; ``deliverables.documents``
renders them (imported when a document is made, not when the tool is offered).
"""

from __future__ import annotations

FORMATS = ("md", "html", "csv", "xlsx", "docx", "pdf")
BLOCK_TYPES = ("heading", "paragraph", "list", "table", "image", "chart")
CHART_KINDS = ("bar", "line", "pie")
